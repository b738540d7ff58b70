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
  /// The whole stack Lua reported, the host's frames too.
  public var fullTraceback: String?

  /// The source around a syntax error, its line quoted with a caret under the token
  /// Lua stopped at (and the line before, when the cause is likely there).
  public var codeFrame: String?

  /// The plugin's frames, each run of the host's own (its Lua files, C functions, tail
  /// calls) folded into one line: what a plugin's author can act on.
  public var traceback: String? { fullTraceback.map(Self.folded) }

  public init(
    kind: Kind, chunk: String? = nil, line: Int? = nil, message: String, traceback: String? = nil
  ) {
    self.kind = kind
    self.chunk = chunk
    self.line = line
    self.message = message
    self.fullTraceback = traceback
  }

  /// A syntax error with its code frame, from the `source` it was found in: Lua names the
  /// token it stopped at (`near 'local'`); when that token starts its line, the mistake
  /// (an unclosed bracket, a missing `end` or comma) is most likely at the end of the
  /// line before, and the message says so.
  func framed(in source: [UInt8]) -> ScriptError {
    guard kind == .syntax, let line, line >= 1 else { return self }
    let lines = source.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    guard line <= lines.count else { return self }
    let text = lines[line - 1]
    var token: Substring?
    if let near = message.range(of: "near '", options: .backwards) {
      token = message[near.upperBound...].prefix { $0 != "'" }
    }
    let column = token.flatMap { t in t.isEmpty ? nil : text.range(of: t, options: .backwards) }
      .map { text.distance(from: text.startIndex, to: $0.lowerBound) }
    let indent = text.prefix { $0 == " " || $0 == "\t" }.count
    let width = String(line).count
    func quoted(_ n: Int) -> String {
      String(repeating: " ", count: width - String(n).count) + "\(n) | " + lines[n - 1]
    }
    var frame: [String] = []
    var copy = self
    let previous = (1..<line).last { !lines[$0 - 1].trimmingCharacters(in: .whitespaces).isEmpty }
    if column == indent, let previous {
      frame.append(quoted(previous))
      copy.message += "; the cause is likely at the end of line \(previous)"
    }
    frame.append(quoted(line))
    let caret =
      String(repeating: " ", count: column ?? indent)
      + String(
        repeating: "^", count: max(1, token?.count ?? 1))
    frame.append(String(repeating: " ", count: width) + " | " + caret)
    copy.codeFrame = frame.joined(separator: "\n")
    return copy
  }

  /// Whether a traceback line is a frame of the host's (not the plugin's).
  static func isHostFrame(_ line: Substring) -> Bool {
    let frame = line.drop { $0 == " " || $0 == "\t" }
    return frame.hasPrefix("[C]") || frame.hasPrefix("morph.") || frame.hasPrefix("(...tail calls")
  }

  static func folded(_ traceback: String) -> String {
    var lines: [String] = []
    var run = 0
    func flush() {
      guard run > 0 else { return }
      lines.append("\t(\(run) host frame\(run == 1 ? "" : "s") folded; --traceback shows all)")
      run = 0
    }
    for line in traceback.split(separator: "\n", omittingEmptySubsequences: false) {
      if isHostFrame(line) {
        run += 1
      } else {
        flush()
        lines.append(String(line))
      }
    }
    flush()
    return lines.joined(separator: "\n")
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
