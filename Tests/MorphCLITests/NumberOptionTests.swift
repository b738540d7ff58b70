import Foundation
import Testing

/// Every number the command line takes, and `--set`'s values, driven with the values that
/// trap a careless `Int(x)`: each run ends without a signal, either done or refused with
/// one line. The options' ranges are in `CommandLineOptions.swift`.
@Suite struct NumberOptionTests {
  static let values = [
    "1e6", "1e300", "-1e300", "-0.0", "nan", "inf", "-inf", "4.9e-324", "9007199254740992",
    "9223372036854775808",
  ]

  static let out = FileManager.default.temporaryDirectory
    .appendingPathComponent("number-options-\(UUID())").path

  static let toggle = Subprocess.repository.appendingPathComponent(
    "Examples/plugins/toggle_switch.lua"
  ).path

  /// Each command, `V` standing for the value. Exports are kept to two small frames.
  static let commands: [[String]] = [
    ["render", "flip", "--format", "json", "--progress", "V"],
    ["render", "flip", "--format", "json", "--time", "V"],
    ["render", "flip", "--format", "json", "--margin", "V"],
    ["render", "flip", "--format", "json", "--set", "V"],
    ["render", toggle, "--format", "json", "--set", "width=V"],
    ["render", "flip", "--format", "png", "--scale", "V", "-o", out + ".png"],
    ["render", "flip", "--format", "ascii", "--cols", "V", "--rows", "V"],
    ["render", "flip", "--format", "json", "--memory", "V"],
    ["render", "flip", "--format", "json", "--budget", "V"],
    ["render", "flip", "--format", "json", "--timeout", "V"],
    ["check", "flip", "--settle-limit", "V"],
    ["run", "flip", "--ascii", "--max-time", "V", "--fps", "1"],
    ["run", "flip", "--ascii", "--max-time", "1", "--fps", "V"],
    ["export", "flip", "--scale", "0.25", "--frames", "V", "-o", out + ".apng"],
    ["export", "flip", "--scale", "0.25", "--frames", "2", "--duration", "V", "-o", out + ".apng"],
    ["export", "flip", "--scale", "0.25", "--frames", "2", "--fps", "V", "-o", out + ".apng"],
    ["export", "flip", "--scale", "0.25", "--frames", "2", "--hold", "V", "-o", out + ".gif"],
    ["export", "flip", "--scale", "0.25", "--frames", "2", "--loop", "V", "-o", out + ".gif"],
    ["export", "flip", "--scale", "0.25", "--frames", "2", "--colors", "V", "-o", out + ".gif"],
    ["export", "flip", "--scale", "0.25", "--frames", "2", "--lossy", "V", "-o", out + ".gif"],
    ["export", "flip", "--scale", "0.25", "--frames", "2", "--quality", "V", "-o", out + ".webp"],
    ["export", "flip", "--scale", "0.25", "--frames", "2", "--threads", "V", "-o", out + ".apng"],
    [
      "export", "flip", "--scale", "0.25", "--frames", "2", "--filmstrip", "V", "--columns", "V",
      "-o", out + ".png",
    ],
    ["eval", "--memory", "V", "return 1"],
    ["eval", "--budget", "V", "return 1"],
    ["eval", "--timeout", "V", "return 1"],
  ]

  @Test(arguments: commands)
  func eachOption(_ command: [String]) throws {
    for v in Self.values {
      let arguments = command.map {
        $0 == "V" ? v : $0.replacingOccurrences(of: "=V", with: "=" + v)
      }
      let result = try Subprocess.run(arguments, deadline: 120)
      let shown = arguments.joined(separator: " ")
      #expect(!result.timedOut, "\(shown): timed out")
      #expect(result.signal == nil, "\(shown): killed by signal \(result.signal ?? 0)")
      // A refused option is one line (exit 2); `check` reports what it found on standard
      // output (exit 1).
      let lines = result.err.split(separator: "\n")
      if result.status == 2 { #expect(lines.count == 1, "\(shown): \(result.err)") }
      if result.status != 0 { #expect(lines.count <= 1, "\(shown): \(result.err)") }
    }
    for suffix in [".png", ".apng", ".gif", ".webp"] {
      try? FileManager.default.removeItem(atPath: Self.out + suffix)
    }
  }
}
