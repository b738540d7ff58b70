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
      code = Array(positional[0].utf8)
      chunkName = "eval"
    }
    try options.finish()
    // measureText answers as a frame lays text out, not with the 0.6 em approximation.
    let state = try LuaState(limits: limits, textMeasure: PangoTextMeasure())
    // eval's output is what the code prints; escaped, as any plugin text is.
    state.output = { output.write(terminalSafe($0, multiline: true)) }
    let results = try state.evaluate(code, chunkName: chunkName)
    for value in results { output.write(try state.describe(value)) }
    return .success
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
