/// What every morphhost error tells its user, whichever layer raised it:
/// where (a file and line, when there is one), what, and how a command ends.
/// The command line has one catch for all of them; each type decides its
/// own exit status here, not at the catch.
public protocol Diagnostic: Error, CustomStringConvertible {
  /// The file and line the message is about, if any.
  var location: FilePosition? { get }
  /// The message alone, without the location.
  var message: String { get }
  /// How a command that fails with this error exits.
  var exitStatus: ExitStatus { get }
  /// The script's stack where it failed, if a script failed (an error that wraps another
  /// passes the other's on).
  var traceback: String? { get }
  /// The whole stack, the host's own frames too (`--traceback`); `traceback` may fold them.
  var fullTraceback: String? { get }
  /// The source around the mistake, quoted with a caret (a syntax error's), if any.
  var codeFrame: String? { get }
}

/// A place in a file: what editors and terminals open as `file:line`.
public struct FilePosition: Hashable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int?

  public init(file: String, line: Int? = nil) {
    self.file = file
    self.line = line
  }

  public var description: String { line.map { "\(file):\($0)" } ?? file }
}

/// The exit statuses of `morphhost`, one owner for their meanings.
public struct ExitStatus: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The command did what it was asked.
  public static let success = ExitStatus(rawValue: 0)
  /// The plugin, a scene or a file failed (a Lua error, a bad frame, I/O).
  public static let failure = ExitStatus(rawValue: 1)
  /// The command line was wrong (an option, a value, an input script).
  public static let usage = ExitStatus(rawValue: 2)
  /// Interrupted by Ctrl-C (128 + SIGINT).
  public static let interrupted = ExitStatus(rawValue: 130)

  /// `check`: how many errors it found, at most 125 (above are the shell's and signals').
  public static func errorsFound(_ count: Int) -> ExitStatus {
    ExitStatus(rawValue: Int32(min(max(count, 0), 125)))
  }
}

extension Diagnostic {
  public var location: FilePosition? { nil }
  public var exitStatus: ExitStatus { .failure }
  public var traceback: String? { nil }
  public var fullTraceback: String? { traceback }
  public var codeFrame: String? { nil }

  /// One line: `file:line: message` where there is a location, else the message alone
  /// (a front end says whose it is: the command line prefixes `morphhost: `).
  public var locatedMessage: String {
    if let location { return "\(location): \(message)" }
    return message
  }
}
