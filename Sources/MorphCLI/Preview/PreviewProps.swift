import Foundation
import MorphScript
import MorphSession

/// A prop a component declares, as the preview's props panel shows it.
struct PreviewProp: Codable, Equatable, Sendable {
  enum Kind: String, Codable, Sendable {
    case number, boolean, string, color, numbers, table
  }

  var name: String
  var kind: Kind
  /// The declared default as text: `0.55`, `true`, `#2F6FED`, `{0, 1, 0}`.
  var value: String

  /// The props `def.props` declares, read by running the file once in a
  /// fresh state (the running instance is not touched), under the preview's limits.
  static func declared(path: String, limits: ScriptLimits = .standard) throws(ScriptError)
    -> [PreviewProp]
  {
    // A FIFO in the plugin's place would block this read: no props then.
    guard PluginFileCheck.refusal(of: path) == nil else { return [] }
    let file = try ScriptFile(path: path, limits: limits, output: { _ in })
    let reader = try file.state.load(PreviewRoutes.propsReader, chunkName: "preview-props")
    guard let list = try file.state.call(reader).first?.functionRef,
      case .string(let text)? = try file.state.call(list, [file.result]).first
    else { return [] }
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 3, let kind = Kind(rawValue: fields[1]) else { return nil }
      return PreviewProp(name: fields[0], kind: kind, value: fields[2])
    }
  }

  /// What the page sent for this prop as a `--set` value (`ComponentOptions.props`).
  func setting(_ text: String) throws(UsageError) -> String {
    switch kind {
    case .number:
      guard let number = Double(text), number.isFinite else {
        throw UsageError("\(name) expects a number, got '\(text)'")
      }
      return String(number)
    case .boolean:
      guard text == "true" || text == "false" else {
        throw UsageError("\(name) expects true or false, got '\(text)'")
      }
      return text
    case .string: return Self.luaString(text)
    case .color, .numbers: return text
    case .table: throw UsageError("\(name) is a table; set it in the plugin")
    }
  }

  /// A Lua string literal, so text that looks like a number stays a string.
  static func luaString(_ text: String) -> String {
    var quoted = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "\r": quoted += "\\r"
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "\""
  }
}
