import MorphScript

/// The per-call limits every plugin runs under, as command-line options:
/// one parser and one usage text for `eval` and for the commands that play
/// a plugin. Defaults are `ScriptLimits.standard`'s.
extension ScriptLimits {
  /// The options' usage lines, descriptions starting at `column` as the
  /// command's other options do.
  static func optionsUsage(column: Int) -> String {
    let standard = ScriptLimits.standard
    return [
      (
        "--memory MIB",
        "the plugin's heap cap, in (0, 4096] (default \(Int(standard.memoryCapMiB)))"
      ),
      (
        "--budget N",
        "instructions allowed per call, 1…10^12 (default \(standard.instructionBudget))"
      ),
      (
        "--timeout S",
        "wall-clock limit per call, in (0, 3600] (default \(Int(standard.wallClockSeconds)))"
      ),
    ].map { name, text in
      "  " + name + String(repeating: " ", count: max(1, column - 2 - name.count)) + text
    }.joined(separator: "\n")
  }

  /// Reads `--memory`, `--budget` and `--timeout`. Zero would mean "no
  /// limit" to the state, so the command line always sets one.
  init(_ options: inout CommandLineOptions) throws {
    let standard = ScriptLimits.standard
    self.init(
      memoryCapMiB: try options.double("--memory", in: .positive(upTo: 4096))
        ?? standard.memoryCapMiB,
      instructionBudget: try options.int("--budget", in: 1...1_000_000_000_000)
        ?? standard.instructionBudget,
      wallClockSeconds: try options.double("--timeout", in: .positive(upTo: 3600))
        ?? standard.wallClockSeconds)
  }
}
