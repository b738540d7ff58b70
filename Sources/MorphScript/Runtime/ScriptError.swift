import Foundation
import MorphCore

/// Every failure of the scripting layer: a Lua error, a broken chunk, a limit
/// that fired, or a host function refusing its arguments. It carries the
/// chunk and line where Lua knows them, so a user can jump to the spot.
public struct ScriptError: Diagnostic, Sendable, Equatable {
  /// What went wrong, broadly.
  public enum Kind: String, Sendable {
    case syntax, runtime, memory, timeBudget, file, value
    /// The host asked the plugin to stop (the user quit mid-call).
    case cancelled
  }

  public var kind: Kind
  /// The chunk name without Lua's `@`/`=` prefix, usually a file path.
  public var chunk: String?
  public var line: Int?
  /// The message without the `chunk:line:` prefix.
  public var message: String
  public var traceback: String?

  public init(
    kind: Kind, chunk: String? = nil, line: Int? = nil, message: String, traceback: String? = nil
  ) {
    self.kind = kind
    self.chunk = chunk
    self.line = line
    self.message = message
    self.traceback = traceback
  }

  public var location: FilePosition? { chunk.map { FilePosition(file: $0, line: line) } }

  /// One line: `file:line: message`, or just the message.
  public var description: String {
    switch (chunk, line) {
    case (let c?, let l?): return "\(c):\(l): \(message)"
    case (let c?, nil): return "\(c): \(message)"
    default: return message
    }
  }

  /// Parses Lua's `chunk:line: message` (with an optional traceback after a
  /// newline). Lua quotes string chunks as `[string "..."]`; those stay as is.
  /// A message the host rethrew carries the plugin's own traceback first;
  /// the host's frames after it are dropped.
  static func parse(_ raw: String, kind: Kind) -> ScriptError {
    let marker = "\nstack traceback:"
    var head = raw
    var traceback: String?
    if let range = raw.range(of: marker) {
      head = String(raw[..<range.lowerBound])
      let rest = raw[raw.index(after: range.lowerBound)...]
      let end = rest.range(of: marker)?.lowerBound ?? rest.endIndex
      traceback = String(rest[..<end])
    }
    // Find "name:123: " where name may itself contain colons.
    var search = head.startIndex
    while let colon = head[search...].firstIndex(of: ":") {
      let afterColon = head.index(after: colon)
      let digits = head[afterColon...].prefix(while: { $0.isNumber })
      let end = digits.endIndex
      if !digits.isEmpty, end < head.endIndex, head[end] == ":",
        let line = Int(digits)
      {
        let chunk = String(head[..<colon])
        var rest = head[head.index(after: end)...]
        if rest.first == " " { rest = rest.dropFirst() }
        return ScriptError(
          kind: kind, chunk: chunk, line: line, message: String(rest), traceback: traceback)
      }
      search = afterColon
    }
    return ScriptError(kind: kind, message: head, traceback: traceback)
  }
}
