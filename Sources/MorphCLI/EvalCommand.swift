import Foundation
import MorphCore
import MorphRender
import MorphScript

/// `morphhost eval`: the quickest way to try a curve or a spring.
enum EvalCommand {
  static let usage = """
    Usage: morphhost eval 'CODE' | -f FILE [options]

    Runs Lua in the plugin sandbox with `morph` loaded and prints what it
    prints, then what it returns ('-f -' reads standard input).

    Options:
    \(ScriptLimits.optionsUsage(column: 19))
    """

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    let limits = try ScriptLimits(&options)
    let code: [UInt8]
    let chunkName: String
    if let file = try options.value("-f") ?? options.value("--file") {
      chunkName = file == "-" ? "stdin" : file
      code = try readSource(file, limits: limits)
    } else {
      let positional = try options.remaining()
      guard positional.count == 1 else {
        throw UsageError("eval takes one piece of code (or -f FILE); got \(positional.count)")
      }
      code = rawArgument(positional[0])
      chunkName = "eval"
    }
    try options.finish()
    // measureText answers as a frame lays text out, not with the 0.6 em approximation.
    let state = try LuaState(limits: limits, textMeasure: PangoTextMeasure())
    // eval's output is what the code prints; escaped, as any plugin text is.
    state.output = { output.write(terminalSafe($0, multiline: true)) }
    let results = try state.evaluate(code, chunkName: chunkName)
    for value in results { output.write(terminalSafe(try state.describe(value), multiline: true)) }
    return .success
  }

  /// The bytes the shell passed for `argument`: Swift's `CommandLine.arguments` has already
  /// replaced bytes that are not UTF-8 with U+FFFD, which Lua must not see (a Latin-1
  /// string literal typed on the command line is one byte a character, as under `lua -e`).
  static func rawArgument(_ argument: String) -> [UInt8] {
    for i in 1..<Int(CommandLine.argc) {
      guard let pointer = CommandLine.unsafeArgv[i] else { continue }
      let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map {
        UInt8(bitPattern: $0)
      }
      if String(decoding: bytes, as: UTF8.self) == argument { return bytes }
    }
    return Array(argument.utf8)
  }

  /// The source bytes of FILE, or of standard input for `-`, counted against the memory cap
  /// as they are read.
  static func readSource(_ path: String, limits: ScriptLimits) throws -> [UInt8] {
    if path == "-" {
      return try SourceFile.read(FileHandle.standardInput, name: "stdin", limits: limits)
    }
    return try SourceFile.read(path, limits: limits)
  }
}
