import Foundation
import MorphCore
import MorphHost
import MorphScript

/// `morphhost check`: loads plugins, renders them across their progress range
/// and after each kind of input, and reports every problem with file:line.
/// The exit status is the number of problems (so CI can use it).
enum CheckCommand {
  static let usage = """
    Usage: morphhost check PLUGIN... [--settle-limit S] [--input SCRIPT]

    For each plugin: loads it; renders it at 5 points of its progress range;
    taps it and drags it left and right, checking each settles within
    --settle-limit seconds (default \(seconds(PluginCheck.defaultSettleLimit)), \
    at most \(seconds(VirtualTime.maxSeconds))); checks that the geometry is
    finite and that it describes itself for accessibility (a label and a
    value).
    Prints one line per distinct problem, naming the progress points and
    inputs it occurred at; the exit status counts distinct errors.
    The progress points see the plugin with no input played; the tap and drags
    are check's own probes. --input plays a script as one more probe.

    Options:
      --settle-limit S   seconds an input may keep animating (default \(seconds(PluginCheck.defaultSettleLimit)))
    \(InputScript.optionUsage(column: 21))
    """

  private static func seconds(_ s: Double) -> String { String(format: "%g", s) }

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    let limit =
      try options.double("--settle-limit", in: .positive(upTo: VirtualTime.maxSeconds))
      ?? PluginCheck.defaultSettleLimit
    let inputPath = try options.value("--input")
    let input = try InputScript.named(inputPath, read: PlayOptions.readInput)
    let plugins = try options.remaining()
    guard !plugins.isEmpty else { throw UsageError("check needs at least one plugin; see --help") }
    var errors = 0
    for given in plugins {
      // `check Plugins/*.lua` meets the tests beside the plugins: those are `test`'s.
      if given.hasSuffix(TestDiscovery.suffix) {
        output.write("\(given): skipped, a test file (morphhost test runs it)")
        continue
      }
      let findings = PluginCheck.check(
        given, settleLimit: limit, options: quiet, input: input,
        inputName: "scripted input (--input \(inputPath ?? InputScript.noneName))")
      if findings.isEmpty {
        output.write("\(given): ok")
      }
      for finding in findings {
        output.write(terminalSafe(finding.text))
        if finding.error { errors += 1 }
      }
    }
    return .errorsFound(errors)
  }

  /// Plugins under check print to standard error, never into the report.
  static let quiet = ComponentOptions(output: printToStandardError)
}
