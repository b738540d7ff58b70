import Foundation
import Testing

@testable import MorphScript

/// The LuaLS meta file in step with the code: its generated blocks equal what
/// `MetaFile` writes now, and its hand-written methods and functions are
/// exactly those a live state has, so none is missing and none is stale.
@Suite struct MetaFileTests {
  static let metaPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/MorphScript/Lua/morph.meta.lua").path

  static func metaLines() throws -> [String] {
    try String(contentsOfFile: metaPath, encoding: .utf8).components(separatedBy: "\n")
  }

  /// With `MORPH_REFRESH_META=1` it writes the generated file instead of failing.
  @Test func generatedBlocksAreUpToDate() throws {
    let checkedIn = try String(contentsOfFile: Self.metaPath, encoding: .utf8)
    let generated = try MetaFile.generate(from: checkedIn)
    if generated != checkedIn, ProcessInfo.processInfo.environment["MORPH_REFRESH_META"] == "1" {
      try generated.write(toFile: Self.metaPath, atomically: true, encoding: .utf8)
      return
    }
    let old = checkedIn.components(separatedBy: "\n")
    let new = generated.components(separatedBy: "\n")
    let line =
      zip(old, new).enumerated().first { $1.0 != $1.1 }?.offset ?? min(old.count, new.count)
    // A Bool, so a failure prints the hint, not both whole files.
    let upToDate = generated == checkedIn
    #expect(
      upToDate,
      """
      morph.meta.lua is stale from line \(line + 1):
        checked in: \(line < old.count ? old[line] : "(end of file)")
        generated:  \(line < new.count ? new[line] : "(end of file)")
      refresh it with: \(MetaFile.refreshHint)
      """)
  }

  /// `function Local:name(` declarations, by the class `local Local = {}` stands for.
  static func declaredMethods(_ lines: [String]) -> [String: Set<String>] {
    var locals: [String: String] = [:]
    var lastClass: String?
    var methods: [String: Set<String>] = [:]
    for line in lines {
      if line.hasPrefix("---@class ") {
        lastClass = line.dropFirst("---@class ".count).split(separator: ":").first
          .map { $0.trimmingCharacters(in: .whitespaces) }
      } else if line.hasPrefix("local "), line.hasSuffix(" = {}"), let lastClass {
        locals[String(line.dropFirst("local ".count).dropLast(" = {}".count))] = lastClass
      } else if line.hasPrefix("function "), let colon = line.firstIndex(of: ":"),
        let open = line.firstIndex(of: "("), colon < open
      {
        let local = String(line[line.index(line.startIndex, offsetBy: 9)..<colon])
        methods[locals[local] ?? "(no class for \(local))", default: []]
          .insert(String(line[line.index(after: colon)..<open]))
      }
    }
    return methods
  }

  @Test func everyMethodIsDeclaredAndNoneIsStale() throws {
    let implemented = try LiveSurface.methods()
    // The probe must reach each way a type gets its methods.
    for type in [
      "morph.Path", "morph.Spring", "morph.Timing", "morph.Keyframes", "morph.Bezier",
      "morph.Color",
      "morph.Node", "morph.Self",
    ] {
      #expect(implemented[type]?.isEmpty == false, "no methods found for \(type)")
    }
    let declared = Self.declaredMethods(try Self.metaLines())
    for (type, methods) in implemented.sorted(by: { $0.key < $1.key }) {
      let missing = methods.subtracting(declared[type] ?? []).sorted()
      #expect(missing.isEmpty, "\(type) methods missing from the meta file: \(missing)")
    }
    for (type, methods) in declared.sorted(by: { $0.key < $1.key }) {
      let stale = methods.subtracting(implemented[type] ?? []).sorted()
      #expect(stale.isEmpty, "\(type) methods in the meta file but not in the host: \(stale)")
    }
  }

  /// `function morph.a.b(`, `morph.a.b =` and the `---@field`s of `morph.ease`.
  static func declaredFunctions(_ lines: [String]) -> Set<String> {
    var names: Set<String> = []
    var inEase = false
    for line in lines {
      if line.hasPrefix("---@class ") { inEase = line == "---@class morph.ease" }
      if inEase, line.hasPrefix("---@field ") {
        names.insert("ease." + line.split(separator: " ")[1])
      } else if line.hasPrefix("function morph."), let open = line.firstIndex(of: "(") {
        names.insert(String(line[line.index(line.startIndex, offsetBy: 15)..<open]))
      }
    }
    return names
  }

  @Test func everyMorphFunctionIsDeclaredAndNoneIsStale() throws {
    let state = try LuaState()
    // `morph.test` is a test file's; the meta file declares it too.
    _ = try state.installTestVocabulary()
    let code = """
      local names = {}
      for k, v in pairs(morph) do
        if type(v) == "function" then names[#names + 1] = k end
        if type(v) == "table" then
          for k2, v2 in pairs(v) do
            if type(v2) == "function" then names[#names + 1] = k .. "." .. k2 end
          end
        end
      end
      return table.concat(names, " ")
      """
    guard case .string(let list)? = try state.evaluate(code, chunkName: "meta").first else {
      Issue.record("no names")
      return
    }
    let implemented = Set(list.split(separator: " ").map(String.init))
    #expect(implemented.count > 60)
    let declared = Self.declaredFunctions(try Self.metaLines())
    let missing = implemented.subtracting(declared).sorted()
    let stale = declared.subtracting(implemented).sorted()
    #expect(missing.isEmpty, "morph functions missing from the meta file: \(missing)")
    #expect(stale.isEmpty, "morph functions in the meta file but not in the host: \(stale)")
  }

  @Test func definitionFieldsAreComponentLuasFields() throws {
    let checks = try LiveSurface.definitionFields(in: try LuaState())
    let accepted = Set(checks.keys)
    for field in MetaFile.definitionDocs {
      let checked = checks[field.name] ?? "any"
      #expect(
        MetaFile.admits(field.type, checked: checked),
        "\(field.name): documented \(field.type), component.lua checks for \(checked)")
    }
    let documented = Set(MetaFile.definitionDocs.map(\.name))
    #expect(accepted.count >= 19)
    #expect(
      accepted.subtracting(documented).isEmpty,
      """
      fields morph.component accepts but MetaFile.definitionDocs lacks: \
      \(accepted.subtracting(documented).sorted())
      """)
    #expect(
      documented.subtracting(accepted).isEmpty,
      "fields documented but not accepted: \(documented.subtracting(accepted).sorted())")
  }

  /// A value of each userdata type whose class declares `---@field`s.
  static let samples = [
    "morph.Spring": "morph.spring()", "morph.Timing": "morph.timing('ease')",
    "morph.Bezier": "morph.bezier('ease')", "morph.Color": "morph.color('red')",
    "morph.Keyframe": "morph.keyframe.move(1)",
    "morph.Keyframes": "morph.keyframes({ x = { morph.keyframe.move(1) } })",
  ]

  /// Properties come from a host `__index` that cannot list them, so this
  /// goes one way: every declared field of these types reads as non-nil.
  @Test func declaredPropertiesExist() throws {
    let lines = try Self.metaLines()
    let state = try LuaState()
    for (type, sample) in Self.samples.sorted(by: { $0.key < $1.key }) {
      let start = try #require(lines.firstIndex(of: "---@class \(type)"), "no class \(type)")
      let names = lines[(start + 1)...].prefix { $0.hasPrefix("---@field ") }
        .map { String($0.split(separator: " ")[1]) }
      #expect(!names.isEmpty, "\(type) declares no fields")
      let list = names.map { "'\($0)'" }.joined(separator: ", ")
      let code = """
        local v, stale = \(sample), {}
        for _, k in ipairs({ \(list) }) do
          if v[k] == nil then stale[#stale + 1] = k end
        end
        return table.concat(stale, ", ")
        """
      let stale = try state.evaluate(code, chunkName: "fields").first
      let found = stale?.description ?? "?"
      #expect(found.isEmpty, "\(type) fields in the meta file but not in the host: \(found)")
    }
  }

  static let root = URL(fileURLWithPath: metaPath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let luacheck = (ProcessInfo.processInfo.environment["PATH"] ?? "")
    .split(separator: ":").map { "\($0)/luacheck" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// No LuaLS is packaged for this machine (Debian 12, PyPI), so the bundled
  /// plugins and the examples are checked by name: luacheck, told that
  /// `morph` has exactly the members the meta file declares, reports any
  /// other `morph.x` they read (W143).
  @Test(.enabled(if: luacheck != nil, "luacheck is not installed"))
  func pluginsAndExamplesUseOnlyDeclaredNames() throws {
    let lines = try Self.metaLines()
    var members: [String: Set<String>] = [:]
    for name in Self.declaredFunctions(lines) {
      let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
      members[parts[0], default: []].formUnion(parts.dropFirst())
    }
    for line in lines where line.hasPrefix("morph.") && line.contains(" = ") {
      members[String(line.dropFirst(6).prefix { $0 != " " }), default: []].formUnion([])
    }
    let fields = members.sorted { $0.key < $1.key }.map { name, inner in
      inner.isEmpty
        ? "\(name) = {}"
        : "\(name) = { fields = { " + inner.sorted().map { "\($0) = {}" }.joined(separator: ", ")
          + " } }"
    }
    let config = FileManager.default.temporaryDirectory
      .appendingPathComponent("morph-meta-\(UUID().uuidString).luacheckrc")
    try
      "std = \"lua54\"\nread_globals = { morph = { fields = { \(fields.joined(separator: ", ")) } } }\n"
      .write(to: config, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: config) }
    var files: [String] = []
    for folder in ["Sources/MorphScript/Plugins", "Examples"] {
      let base = Self.root.appendingPathComponent(folder)
      // Hidden folders skipped: an example's own `.build` holds no plugin.
      let found = FileManager.default.enumerator(
        at: base, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
      files += (found?.allObjects ?? []).compactMap { ($0 as? URL)?.path }
        .filter { $0.hasSuffix(".lua") }
    }
    #expect(files.count >= 8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.luacheck))
    // Files before `--only`, which takes every word after it as a pattern.
    process.arguments =
      ["--no-color", "--config", config.path] + files.sorted() + ["--only", "143"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let undeclared = output.split(separator: "\n").filter { $0.contains("undefined field") }
    #expect(
      undeclared.isEmpty,
      "names the meta file does not declare:\n\(undeclared.joined(separator: "\n"))")
    #expect(process.terminationStatus == 0, "luacheck: \(output.suffix(2000))")
  }

  /// A generated block cannot silently vanish or multiply.
  @Test func generationRefusesMissingOrUnknownBlocks() throws {
    let checkedIn = try String(contentsOfFile: Self.metaPath, encoding: .utf8)
    let withoutEnums = checkedIn.replacingOccurrences(
      of: MetaFile.beginMarker + "enums\n", with: "")
    #expect(throws: MetaFile.Failure.self) { try MetaFile.generate(from: withoutEnums) }
    let unknown = checkedIn + "\n" + MetaFile.beginMarker + "nothing\n" + MetaFile.endMarker
    #expect(throws: MetaFile.Failure.self) { try MetaFile.generate(from: unknown) }
  }
}
