import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// The LuaLS meta file agrees with `NodeSchema` down to parameter names,
/// option keys and their types, and enum aliases.
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

  /// `---@field name? type` lines of `---@class morph.NAME`: (name, optional, type).
  static func classFields(_ name: String) -> [(String, Bool, String)]? {
    guard let start = lines.firstIndex(of: "---@class morph.\(name)") else { return nil }
    var fields: [(String, Bool, String)] = []
    for line in lines[(start + 1)...] {
      guard line.hasPrefix("---@field ") else { break }
      let words = line.dropFirst("---@field ".count).split(separator: " ")
      guard words.count >= 2, !words[0].hasPrefix("[") else { continue }
      let optional = words[0].hasSuffix("?")
      fields.append((String(optional ? words[0].dropLast() : words[0]), optional, String(words[1])))
    }
    return fields
  }

  static func luaFunction(_ op: NodeSchema.Op) -> String {
    op.role == .modifier ? "Node:\(op.name)" : "morph.\(op.name)"
  }

  static func optionsClass(_ op: NodeSchema.Op) -> String {
    op.name.prefix(1).uppercased() + op.name.dropFirst() + "Options"
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

  /// The presets the Swift bindings accept, listed as aliases too.
  @Test func presetAliasesListTheSwiftPresets() throws {
    try #require(!Self.lines.isEmpty)
    #expect(Self.aliasCases("BezierPreset") == CurveBindings.presets.map(\.0))
    #expect(Self.aliasCases("SpringPreset") == SpringBindings.presets.map(\.0))
    #expect(Self.classFields("SpringOptions")?.map(\.0) == SpringBindings.springOptions)
  }

  @Test func everyOpHasItsParametersAndOptions() throws {
    try #require(!Self.lines.isEmpty)
    for op in NodeSchema.ops {
      let function = Self.luaFunction(op)
      #expect(Self.parameters(of: function) == op.parameters, "parameters of \(function)")
      guard !op.options.isEmpty else { continue }
      let name = Self.optionsClass(op)
      let documented = Self.classFields(name)
      #expect(documented?.map(\.0) == op.options.map(\.name), "fields of morph.\(name)")
      for (field, (key, optional, type)) in zip(op.options, documented ?? []) {
        #expect(optional, "morph.\(name).\(key) must be optional")
        #expect(type == field.kind.luaType, "morph.\(name).\(key) must be a \(field.kind.luaType)")
      }
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
