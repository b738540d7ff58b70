import MorphCore

/// Writes `Lua/morph.meta.lua`, all of it: each function's declaration from
/// the doc its binding entry carries (a `HostFunction`, a `NodeSchema.Op`, or
/// a `---@` block above a function in the host's Lua), option classes and
/// aliases from the schema, the rest from `parts`. A test compares the
/// checked-in file with `generate()` and rewrites it on request
/// (`refreshHint`). Nothing at run time calls this.
enum MetaFile {
  static let refreshHint =
    "MORPH_REFRESH_META=1 swift test --disable-xctest --filter MetaFileTests"

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// A piece of the file (`parts`, in `MetaFile+Sections.swift`).
  enum Part {
    /// Prose and classes no binding owns, written as they are.
    case text(String)
    /// A binding table's entries, each declared as `PREFIX` + its name
    /// (`morph.`, `morph.paths.`, or `Path:` for methods).
    case functions(String, [HostFunction])
    /// Functions the host's Lua defines, by name (`morph.path`) or by a
    /// prefix ending in `.` or `:` (`Self:`: every method of `self`).
    case lua(String)
    /// A block written from the code (`blocks`).
    case block(String)
    /// Node functions and modifiers: each op's options class, then its declaration.
    case ops([NodeSchema.Op])
  }

  /// One function as the meta file declares it: its doc lines (prose, then
  /// `@param` and `@return`, without `---`), whose `@param`s make the signature.
  struct Declaration: Equatable {
    /// `morph.lerp`, `morph.paths.rect`, or `Path:move` for a method.
    let name: String
    let doc: [String]

    /// The `@param` names, `?` kept.
    var parameters: [String] {
      doc.compactMap { line in
        guard line.hasPrefix("@param ") else { return nil }
        return line.dropFirst("@param ".count).split(separator: " ").first.map(String.init)
      }
    }

    /// How many arguments a call may pass (self not counted): at least up
    /// to the last parameter neither `?` nor typed `|nil`, at most all of them.
    var arguments: ClosedRange<Int> {
      let required = doc.filter { $0.hasPrefix("@param ") }.map { line in
        let words = line.split(separator: " ")
        return !(words[1].hasSuffix("?") || words.count > 2 && words[2].hasSuffix("|nil"))
      }
      let minimum = (required.lastIndex(of: true) ?? -1) + 1
      return minimum...max(minimum, required.count)
    }

    var lines: [String] {
      let names = parameters.map { $0.hasSuffix("?") ? String($0.dropLast()) : $0 }
      return doc.map { "---" + $0 } + ["function \(name)(\(names.joined(separator: ", "))) end"]
    }
  }

  /// The whole file, and every function it declares in order.
  static func generate() throws -> (text: String, declarations: [Declaration]) {
    let fields = try LiveSurface.definitionFields(in: try LuaState())
    let blocks = try self.blocks(definitionFields: fields)
    var luaDocs = try luaDeclarations()
    var chunks: [[String]] = []
    var declarations: [Declaration] = []
    func declare(_ found: [Declaration]) {
      declarations += found
      chunks += found.map(\.lines)
    }
    for part in parts {
      switch part {
      case .text(let text):
        chunks.append(text.components(separatedBy: "\n"))
      case .functions(let prefix, let table):
        declare(try table.map { try declaration(prefix, $0) })
      case .lua(let pattern):
        let wanted = luaDocs.filter { matches($0.name, pattern) }
        guard !wanted.isEmpty else {
          throw Failure(
            description: "no Lua function documented as '\(pattern)' (---@ lines above it)")
        }
        luaDocs.removeAll { matches($0.name, pattern) }
        declare(wanted)
      case .block(let name):
        guard let block = blocks[name] else {
          throw Failure(description: "no generator for block '\(name)'")
        }
        chunks.append(block)
      case .ops(let ops):
        for op in ops {
          if let options = blocks[optionsClass(op)] { chunks.append(options) }
          declare([try declaration(of: op)])
        }
      }
    }
    guard luaDocs.isEmpty else {
      throw Failure(
        description: "documented in the host's Lua but placed in no part of MetaFile.parts: "
          + luaDocs.map(\.name).joined(separator: ", "))
    }
    let text = chunks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    return (text, declarations)
  }

  private static func matches(_ name: String, _ pattern: String) -> Bool {
    guard pattern.hasSuffix(".") || pattern.hasSuffix(":") else { return name == pattern }
    return name.hasPrefix(pattern) && !name.dropFirst(pattern.count).contains(".")
  }

  private static func docLines(_ doc: String) -> [String] {
    doc.components(separatedBy: "\n")
  }

  /// A node function or modifier; one without a doc fails, naming it.
  static func declaration(of op: NodeSchema.Op) throws -> Declaration {
    let name = (op.role == .modifier ? "Node:" : "morph.") + op.name
    guard let doc = op.doc else {
      throw Failure(description: "\(name) has no signature: give its NodeSchema.Op a doc")
    }
    return Declaration(name: name, doc: docLines(doc))
  }

  /// A binding table's entry; one without a doc fails, naming it.
  static func declaration(_ prefix: String, _ entry: HostFunction) throws -> Declaration {
    guard let doc = entry.doc else {
      throw Failure(
        description: "\(prefix)\(entry.name) has no signature: give its HostFunction a doc")
    }
    // Shared methods (AnimationModifierBindings) return a copy of their receiver.
    let receiver = prefix.hasSuffix(":") ? "morph." + prefix.dropLast() : "any"
    return Declaration(
      name: prefix + entry.name,
      doc: docLines(doc.replacingOccurrences(of: "{Self}", with: receiver)))
  }

  /// The host's Lua files whose functions plugins see, and how a definition
  /// line names what it defines: a `---@` block right above such a line is
  /// that function's doc.
  static let luaFiles = [
    ("component.lua", LuaSources.component), ("nodes.lua", LuaSources.nodes),
    ("paths.lua", LuaSources.paths), ("testing.lua", LuaSources.testing),
    ("sandbox.lua", LuaSources.sandbox),
  ]
  static let luaOwners = [
    ("function morph_module.", "morph."), ("function morph.transition.", "morph.transition."),
    ("function morph.", "morph."), ("function Transition:", "Transition:"),
    ("function test.", "morph.test."), ("local function ", "Self:"), ("Node.", "Node:"),
  ]

  /// Every documented function of the host's Lua, in file order. A `---@`
  /// block above a line no owner names fails, with the file and line.
  static func luaDeclarations() throws -> [Declaration] {
    var found: [Declaration] = []
    for (file, source) in luaFiles {
      var doc: [String] = []
      for (number, line) in source.components(separatedBy: "\n").enumerated() {
        if line.hasPrefix("---") {
          doc.append(String(line.dropFirst(3)))
          continue
        }
        defer { doc = [] }
        guard doc.contains(where: { $0.hasPrefix("@") }) else { continue }
        guard let (prefix, owner) = luaOwners.first(where: { line.hasPrefix($0.0) }) else {
          throw Failure(description: "\(file):\(number + 1): a ---@ doc above no function")
        }
        let name = line.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        found.append(Declaration(name: owner + name, doc: doc))
      }
    }
    return found
  }

  /// Every generated block by name. `definitionFields` are the keys
  /// `morph.component` accepts and the Lua type it checks, from a live state.
  static func blocks(definitionFields: [String: String]) throws -> [String: [String]] {
    var docs = DocUse()
    var blocks: [String: [String]] = [:]
    blocks["enums"] = NodeSchema.enumerations.flatMap { enumeration in
      let extra = aliasExtras[enumeration.name].map { "|" + $0 } ?? ""
      let alias = alias(enumeration.name, enumeration.cases) + extra
      return (enumDocs[enumeration.name].map { ["---" + $0] } ?? []) + [alias]
    }
    blocks["ease"] =
      docLines(EasingBindings.doc).map { "---" + $0 } + ["---@class morph.ease"]
      + Easing.allCases.map { "---@field \($0.rawValue) morph.EasingFunction" } + [
        "morph.ease = {}"
      ]
    blocks["BezierPreset"] = [alias("BezierPreset", CurveBindings.presets.map(\.0))]
    blocks["SpringPreset"] = [alias("SpringPreset", SpringBindings.presets.map(\.0))]
    for op in NodeSchema.ops where !op.options.isEmpty {
      let name = optionsClass(op)
      var lines = (classDocs[name].map { ["---" + $0] } ?? []) + ["---@class morph.\(name)"]
      for option in op.options {
        lines.append(
          field(
            option.name + "?", option.kind.luaType, optionDoc(option, docs.doc(name, option.name))))
      }
      if op.fields.contains(where: { $0.kind == .children }) {
        lines.append("---@field [integer] \(stackItem)")
      }
      blocks[name] = lines
    }
    let documented = Set(definitionDocs.map(\.name))
    let undocumented = Set(definitionFields.keys).subtracting(documented).sorted()
    let stale = documented.subtracting(definitionFields.keys).sorted()
    guard undocumented.isEmpty, stale.isEmpty else {
      throw Failure(
        description: "MetaFile.definitionDocs and component.lua's fields differ: "
          + "undocumented \(undocumented), not accepted by morph.component \(stale)")
    }
    let mistyped = definitionDocs.filter { field in
      !admits(field.type, checked: definitionFields[field.name] ?? "any")
    }
    guard mistyped.isEmpty else {
      throw Failure(
        description: "MetaFile.definitionDocs types disagree with component.lua's checks: "
          + mistyped.map { "\($0.name): \($0.type) vs \(definitionFields[$0.name] ?? "")" }
          .joined(separator: ", "))
    }
    blocks["ComponentDefinition"] =
      ["---@class morph.ComponentDefinition"]
      + definitionDocs.map { field($0.name + ($0.required ? "" : "?"), $0.type, $0.doc) }
    let unused = docs.unused()
    guard unused.isEmpty else {
      throw Failure(description: "MetaFile.optionDocs names no option: \(unused)")
    }
    return blocks
  }

  /// An option's words, then its default as the schema states it.
  private static func optionDoc(_ option: NodeSchema.Field, _ words: String?) -> String? {
    let parts = [words, option.defaultValue.map { "default " + $0.text }].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// `frame` → `FrameOptions`, the class of an op's option table.
  static func optionsClass(_ op: NodeSchema.Op) -> String {
    op.name.prefix(1).uppercased() + op.name.dropFirst() + "Options"
  }

  /// Whether a documented LuaLS type fits the Lua type `morph.component` checks.
  static func admits(_ luaType: String, checked: String) -> Bool {
    switch checked {
    case "any": return true
    case "function": return luaType.hasPrefix("fun(")
    case "table": return luaType == "table" || luaType.hasSuffix("[]")
    default: return luaType == checked
    }
  }

  private static func alias(_ name: String, _ cases: [String]) -> String {
    "---@alias morph.\(name) " + cases.map { "\"\($0)\"" }.joined(separator: "|")
  }

  private static func field(_ name: String, _ type: String, _ doc: String?) -> String {
    "---@field \(name) \(type)" + (doc.map { " " + $0 } ?? "")
  }

  /// Looks docs up by `Class.key`, then by key alone (the gradients share
  /// `colors` and `stops`), and remembers which were used, so a doc for a
  /// removed option fails instead of lingering.
  private struct DocUse {
    var used: Set<String> = []

    mutating func doc(_ className: String, _ key: String) -> String? {
      for name in [className + "." + key, key] {
        if let doc = MetaFile.optionDocs[name] {
          used.insert(name)
          return doc
        }
      }
      return nil
    }

    func unused() -> [String] { Set(MetaFile.optionDocs.keys).subtracting(used).sorted() }
  }

  // MARK: The hand-written words the generated blocks carry

  /// What a stack's array part may hold (`nodes.lua` splices arrays and skips `false`).
  static let stackItem = "morph.Node|morph.Node[]|morph.Paint|false"

  /// Types an alias admits besides its names.
  static let aliasExtras = ["Anchor": "number[]"]

  static let enumDocs = [
    "TextStyle": "SwiftUI's text styles at iOS's default (Large) size: "
      + TextStyle.allCases.map { style in
        "\(style.rawValue) \(Int(style.pointSize))"
          + (style.weight == .regular ? "" : " \(style.weight.rawValue)")
      }.joined(separator: ", ") + "."
  ]

  static let classDocs = [
    "ZstackOptions": "Children in the array part; plain arrays are spliced in, `false` skipped."
  ]

  /// Per option, by `Class.key` or by key alone.
  static let optionDocs = [
    "FrameOptions.maxWidth": "may be `math.huge`",
    "FrameOptions.maxHeight": "may be `math.huge`",
    "Rotate3dOptions.axis": "{x, y, z}",
    "StrokeOptions.dash": "e.g. {4, 3}",
    "RoundedRectOptions.r": "the corner radius",
    "RoundedRectOptions.radius": "the same as r",
    "ImageOptions.resizable": "take the size offered instead of the image's own (a pixel a point)",
    "ImageOptions.contentMode":
      "keep the aspect ratio inside (`fit`) or around (`fill`) the offer",
    "ImageOptions.interpolation": "how scaled pixels are sampled",
    "TextOptions.size":
      "points, 0 to \(Int(FrameBudget.standard.maxFontSize)) (the frame budget); "
      + "default the style's size, else 17",
    "TextOptions.weight": "default the style's weight, else \"regular\"",
    "TextOptions.style": "a SwiftUI text style: its size and weight unless given",
    "TextOptions.monospacedDigit": "digits of one width (SwiftUI's `monospacedDigit()`)",
    "TextOptions.tracking": "points added between characters",
    "TextOptions.kerning": "the same as tracking; tracking wins when both are given",
    "TextOptions.lineSpacing": "points added between lines",
    "TextOptions.lineLimit": "at most this many lines, the last truncated",
    "TextOptions.truncation": "where the ellipsis goes",
    "TextOptions.alignment": "how lines align (SwiftUI's `multilineTextAlignment`)",
    "colors": "evenly spaced",
    "stops": "`{ {colour, location}, … }`",
    "RadialGradientOptions.startRadius": "points",
    "RadialGradientOptions.endRadius": "points (required)",
    "AngularGradientOptions.startAngle": "degrees clockwise from trailing",
    "AngularGradientOptions.endAngle": "default startAngle + 360",
  ]

  struct DefinitionField {
    let name: String
    let type: String
    let doc: String?
    var required = false
  }

  /// A default as the meta file writes it: whole numbers without a decimal point.
  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }

  /// How the meta file documents each `morph.component{…}` field, in its
  /// order. Which fields exist is `component.lua`'s `fields` table's to say:
  /// `blocks` refuses a mismatch.
  static let definitionDocs: [DefinitionField] = [
    .init(name: "name", type: "string", doc: "shown in the status line and JSON"),
    .init(name: "description", type: "string", doc: "one line for `morphhost list`"),
    .init(
      name: "size", type: "number[]",
      doc: "the component's frame in points, default "
        + "{\(format(DocumentDefaults.size.width)), \(format(DocumentDefaults.size.height))}"),
    .init(name: "props", type: "table", doc: "defaults, overridable with `--set key=value`"),
    .init(
      name: "state", type: "table",
      doc: "initial state; use false for \"none\" (nil cannot be stored)"),
    .init(name: "progress", type: "string", doc: "the numeric state key that `--progress` drives"),
    .init(
      name: "progressRange", type: "number[]|fun(self: morph.Self): number, number",
      doc: "the range filmstrips and checks sweep, default "
        + "{\(format(DocumentDefaults.progressRange.lowerBound)), "
        + "\(format(DocumentDefaults.progressRange.upperBound))}"),
    .init(name: "body", type: "fun(self: morph.Self): morph.Node", doc: nil, required: true),
    .init(name: "tap", type: handler, doc: "taps no node claimed"),
    .init(name: "drag", type: handler, doc: "drags no node claimed"),
    .init(
      name: "longPress", type: handler,
      doc: "a press held \(format(GestureDefaults.longPressMinimumDuration)) s within "
        + "\(format(GestureDefaults.longPressMaximumDistance)) pt (SwiftUI's LongPressGesture "
        + "defaults), while still down; its release is no tap"),
    .init(
      name: "doubleTap", type: handler,
      doc: "a second tap within \(format(GestureDefaults.doubleTapInterval)) s of the first "
        + "(which was a tap)"),
    .init(
      name: "hover", type: handler,
      doc: "the pointer over the component with no button down: "
        + "phase \"active\" with the location, \"ended\" when it leaves"),
    .init(
      name: "dragMinimumDistance", type: "number",
      doc: "points before a drag begins, default "
        + format(ComponentDefinition.defaultDragMinimumDistance)),
    .init(
      name: "controlled", type: "fun(self: morph.Self, value: number)",
      doc: "after the host sets the progress key (controlled mode: `--progress`, scrubbing), "
        + "as a parent writing a binding"),
    .init(
      name: "appear", type: "fun(self: morph.Self)",
      doc: "SwiftUI's `onAppear`: once per load, after the state exists and before the "
        + "first frame, in every host; what it animates runs from the first frame. A hot "
        + "reload keeps state and does not run it again"),
    .init(
      name: "disappear", type: "fun(self: morph.Self)",
      doc: "SwiftUI's `onDisappear` for the component: once, when the instance is unloaded "
        + "(a reload that resets state, the file closed, the run, view or test case over); "
        + "a hot reload that keeps state does not run it"),
    .init(name: "accessibility", type: "fun(self: morph.Self): morph.Accessibility", doc: nil),
    .init(
      name: "reload", type: "fun(self: morph.Self, old: table)",
      doc: "runs after a hot reload; `old` holds the old model values"),
    .init(
      name: "save", type: "fun(self: morph.Self): any",
      doc: "before a hot reload, the old code hands something on…"),
    .init(
      name: "restore", type: "fun(self: morph.Self, saved: any)",
      doc: "…which the new code receives before `reload`"),
  ]

  private static let handler = "fun(self: morph.Self, event: morph.InputEvent)"
}
