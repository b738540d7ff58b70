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

  /// Option classes are generated (`MetaFile`); each op's signature must
  /// take its own.
  @Test func everyOpWithOptionsTakesItsOptionsClass() throws {
    for op in NodeSchema.ops where !op.options.isEmpty {
      let declaration = try MetaFile.declaration(of: op)
      let type = "morph." + MetaFile.optionsClass(op)
      #expect(
        declaration.doc.contains { $0.hasPrefix("@param ") && $0.contains(type) },
        "\(declaration.name) takes no \(type)")
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

/// Each default is stated once, in `NodeSchema`, and the reader uses it.
@Suite struct NodeSchemaDefaultTests {
  /// Whether `value` is what the reader's accessor for `kind` returns.
  static func fits(_ value: Any, _ kind: NodeSchema.Kind) -> Bool {
    switch kind {
    case .number, .length, .extent, .fontSize: return value is Double
    case .anchor: return value is Alignment
    case .paint: return value is Paint
    case .color: return value is Color
    case .flag, .boolean: return value is Bool
    case .vector: return value is Vector3
    case .choice(let e):
      guard let raw = (value as? any RawRepresentable)?.rawValue as? String else { return false }
      return e.cases.contains(raw)
    default: return false
    }
  }

  @Test func everyDefaultHasTheTypeItsKindReads() {
    var count = 0
    for op in NodeSchema.ops {
      for field in op.fields + op.options {
        guard let d = field.defaultValue else { continue }
        count += 1
        #expect(Self.fits(d.value, field.kind), "\(op.name).\(field.name): \(d.value)")
        #expect(field.optional, "\(op.name).\(field.name) has a default but is required")
      }
    }
    #expect(count > 30)
  }

  /// An option and the field of the same name agree on the default (both are
  /// documented from the option, read from the field).
  @Test func optionsAndFieldsShareTheirDefaults() {
    for op in NodeSchema.ops {
      for option in op.options {
        guard let field = op.field(option.name) else { continue }
        #expect(option.defaultValue?.text == field.defaultValue?.text, "\(op.name).\(option.name)")
      }
    }
  }

  private func read(_ code: String) throws -> ViewNode {
    let state = try LuaState()
    let value = try state.evaluate(code, chunkName: "defaults.lua").first ?? .nil
    return try state.readView(value, path: "defaults.lua").root
  }

  @Test func absentOptionsReadAsTheSchemaDefaults() throws {
    let node = try read(
      "return morph.rect():shadow{}:stroke{}:rotate3d(30):frame{}:scale(2)")
    #expect(node.modifiers[0] == .shadow(Shadow(color: Shadow.defaultColor, radius: 0)))
    #expect(node.modifiers[1] == .stroke(Stroke(paint: .color(.black))))
    #expect(
      node.modifiers[2]
        == .rotate3D(degrees: 30, axis: Vector3(0, 1, 0), anchor: .center, perspective: 1))
    #expect(node.modifiers[3] == .frame(FrameSpec(alignment: .center)))
    #expect(node.modifiers[4] == .scale(x: 2, y: 2, anchor: .center))
  }

  @Test func gradientsLeaveTheirDefaultsToTheReader() throws {
    let node = try read(
      """
      return morph.vstack{
        morph.linearGradient{ colors = { "red", "blue" } },
        morph.radialGradient{ colors = { "red", "blue" }, endRadius = 40 },
        morph.angularGradient{ colors = { "red", "blue" }, startAngle = 90 },
      }
      """)
    guard case .stack(_, _, _, let children) = node.content, children.count == 3 else {
      Issue.record("wrong content \(node.content)")
      return
    }
    // A gradient where a view is expected fills its frame.
    let paints = children.map { child -> Paint? in
      for case .fill(let p) in child.modifiers { return p }
      return nil
    }
    guard case .linearGradient(let linear)? = paints[0],
      case .radialGradient(let radial)? = paints[1],
      case .angularGradient(let angular)? = paints[2]
    else {
      Issue.record("wrong paints \(paints)")
      return
    }
    #expect(linear.start == Point(0.5, 0) && linear.end == Point(0.5, 1))
    #expect(radial.center == Point(0.5, 0.5) && radial.startRadius == 0)
    #expect(angular.startAngle == 90 && angular.endAngle == 450)
  }
}
