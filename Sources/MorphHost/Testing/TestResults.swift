import Foundation
import MorphCore
import MorphScript

/// One expectation that did not hold, or an error that stopped a case.
public struct TestFailure: Sendable, CustomStringConvertible {
  /// The test file's line that wrote the expectation (or the plugin's line that failed).
  public var location: FilePosition
  /// The moment on the component's clock, when it was one.
  public var time: Double?
  public var message: String

  public init(location: FilePosition, time: Double? = nil, message: String) {
    self.location = location
    self.time = time
    self.message = message
  }

  /// `file:line: at 0.3 s: message`.
  public var description: String {
    "\(location): " + (time.map { "at \(TestNumber.text($0)) s: " } ?? "") + message
  }
}

/// The outcome of one case.
public struct CaseResult: Sendable {
  public var name: String
  public var line: Int
  public var failures: [TestFailure]
  /// Goldens written (recorded or refreshed) while it ran.
  public var recorded: [String]
  /// Snapshots that have no golden yet (recording was off).
  public var missingGoldens: [String]
  /// The files it read (the plugin and its imports, an input script, goldens): what a
  /// report must never be written over.
  public var inputs: [String] = []

  public var passed: Bool { failures.isEmpty }
}

/// The outcome of one test file: its cases, or the one error that kept it from running.
public struct TestFileResult: Sendable {
  public var path: String
  public var cases: [CaseResult]
  /// The file could not be read as a test file (syntax, a wrong argument, a limit).
  public var error: ScriptError?

  public var passed: Int { cases.count { $0.passed } }
  /// Cases that failed.
  public var failures: Int { cases.count { !$0.passed } }
  /// 1 when the file could not be read, else 0.
  public var errors: Int { error == nil ? 0 : 1 }
  /// What a report counts as run: every case, and a file that could not be read.
  public var tests: Int { cases.count + errors }
  /// What a summary counts as failed: failed cases and a file that could not be read.
  public var failed: Int { failures + errors }
}

/// How numbers appear in failures: enough digits to tell them apart, no more.
public enum TestNumber {
  public static func text(_ x: Double) -> String {
    if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
    return String(format: "%.9g", x)
  }

  /// `{a, b, c}`.
  public static func list(_ xs: [Double]) -> String {
    "{" + xs.map(text).joined(separator: ", ") + "}"
  }
}
