import Foundation
import MorphScript

/// `morphhost eval`: the quickest way to try a curve or a spring.
enum EvalCommand {
  static let usage = """
    Usage: morphhost eval 'CODE' | -f FILE [options]

    Runs Lua in the plugin sandbox with `morph` loaded and prints what it
    prints, then what it returns ('-f -' reads standard input).

    Options:
      --memory MIB     heap cap, in (0, 4096] (default 64)
      --budget N       instructions allowed per call, 1…10^12 (default 200000000)
      --timeout S      wall-clock limit per call, in (0, 3600] (default 2)
    """

  static func run(_ arguments: [String], output: some TextOutput) throws -> Int32 {
    var options = CommandLineOptions(arguments)
    // Zero would mean "no limit" to the state: the command line always sets one.
    let limits = try ScriptLimits(
      memoryCapMiB: options.double("--memory", in: .positive(upTo: 4096)) ?? 64,
      instructionBudget: options.int("--budget", in: 1...1_000_000_000_000) ?? 200_000_000,
      wallClockSeconds: options.double("--timeout", in: .positive(upTo: 3600)) ?? 2)
    let code: String
    let chunkName: String
    if let file = try options.value("-f") ?? options.value("--file") {
      code = try readSource(file)
      chunkName = file == "-" ? "stdin" : file
    } else {
      let positional = try options.remaining()
      guard positional.count == 1 else {
        throw UsageError("eval takes one piece of code (or -f FILE); got \(positional.count)")
      }
      code = positional[0]
      chunkName = "eval"
    }
    try options.finish()
    let state = try LuaState(limits: limits)
    // eval's output is what the code prints; escaped, as any plugin text is.
    state.output = { output.write(terminalSafe($0, multiline: true)) }
    let results = try state.evaluate(code, chunkName: chunkName)
    for value in results { output.write(try state.describe(value)) }
    return 0
  }

  static func readSource(_ path: String) throws -> String {
    if path == "-" {
      return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ScriptError(kind: .file, chunk: path, message: "cannot read file")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
