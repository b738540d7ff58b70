import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// The LuaLS meta file agrees with `NodeSchema` down to parameter names and
/// enum aliases (its option classes and aliases are generated from it, and
/// `MetaFileTests` keeps them current; these read the file as an editor would).
@Suite struct NodeSchemaMetaTests {
  static let lines =
    (try? String(contentsOfFile: MetaFileTests.metaPath, encoding: .utf8))?
    .components(separatedBy: "\n") ?? []

  /// The quoted names of `---@alias morph.NAME …`, in order.
  static func aliasCases(_ name: String) -> [String]? {
    let prefix = "---@alias morph.\(name) "
    guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return nil }
    return line.dropFirst(prefix.count).split(separator: "|")
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasPrefix("\"") }.map { String($0.dropFirst().dropLast()) }
  }

  /// The parameter names of `function PREFIX(…) end`.
  static func parameters(of function: String) -> [String]? {
    let prefix = "function \(function)("
    guard let line = lines.first(where: { $0.hasPrefix(prefix) }),
      let close = line.firstIndex(of: ")")
    else { return nil }
    let inside = line[line.index(line.startIndex, offsetBy: prefix.count)..<close]
    return inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
  }

  static func luaFunction(_ op: NodeSchema.Op) -> String {
    op.role == .modifier ? "Node:\(op.name)" : "morph.\(op.name)"
  }

  @Test func enumAliasesListExactlyTheSwiftCases() throws {
    try #require(!Self.lines.isEmpty)
    for enumeration in NodeSchema.enumerations {
      #expect(
        Self.aliasCases(enumeration.name) == enumeration.cases,
        "---@alias morph.\(enumeration.name) must list \(enumeration.cases)")
      // Every other place names the alias instead of repeating the names.
      let literal = enumeration.cases.prefix(2).map { "\"\($0)\"" }.joined(separator: "|")
      #expect(
        Self.lines.filter { $0.contains(literal) }.count == 1,
        "\(literal)… is written out again instead of morph.\(enumeration.name)")
    }
  }

  /// `SpringOptions` keeps its hand-written words, so its keys are checked here.
  @Test func springOptionsListTheSwiftKeys() throws {
    let start = try #require(Self.lines.firstIndex(of: "---@class morph.SpringOptions"))
    let keys = Self.lines[(start + 1)...].prefix { $0.hasPrefix("---@field ") }
      .map { $0.split(separator: " ")[1].replacingOccurrences(of: "?", with: "") }
    #expect(keys == SpringBindings.springOptions)
  }

  /// Option classes are generated (`MetaFile`); the hand-written signatures
  /// must still name the schema's parameters.
  @Test func everyOpHasItsParameters() throws {
    try #require(!Self.lines.isEmpty)
    for op in NodeSchema.ops {
      let function = Self.luaFunction(op)
      #expect(Self.parameters(of: function) == op.parameters, "parameters of \(function)")
    }
  }

  @Test func theSchemaDeclaresEachNameOnce() {
    #expect(Set(NodeSchema.ops.map(\.name)).count == NodeSchema.ops.count)
    for op in NodeSchema.ops {
      #expect(Set(op.fields.map(\.name)).count == op.fields.count, "fields of \(op.name)")
      #expect(Set(op.options.map(\.name)).count == op.options.count, "options of \(op.name)")
      #expect(!op.fields.contains { $0.name == "op" || $0.name == "mods" }, "\(op.name)")
    }
  }
}
