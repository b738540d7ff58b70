import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// The LuaLS meta file in step with the code: it is exactly what `MetaFile`
/// generates, its functions and methods are exactly those a live state has,
/// and the bundled plugins and examples call only what it declares, with
/// argument counts its signatures accept.
@Suite struct MetaFileTests {
  static let metaPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/MorphScript/Lua/morph.meta.lua").path

  static func metaLines() throws -> [String] {
    try String(contentsOfFile: metaPath, encoding: .utf8).components(separatedBy: "\n")
  }

  /// With `MORPH_REFRESH_META=1` it writes the generated file instead of failing.
  @Test func checkedInFileIsTheGeneratedOne() throws {
    let checkedIn = try String(contentsOfFile: Self.metaPath, encoding: .utf8)
    let generated = try MetaFile.generate().text
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

  static func declarations() throws -> [MetaFile.Declaration] {
    try MetaFile.generate().declarations
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
    var declared: [String: Set<String>] = [:]
    for declaration in try Self.declarations() {
      let parts = declaration.name.split(separator: ":")
      guard parts.count == 2 else { continue }
      declared["morph." + parts[0], default: []].insert(String(parts[1]))
    }
    for (type, methods) in implemented.sorted(by: { $0.key < $1.key }) {
      let missing = methods.subtracting(declared[type] ?? []).sorted()
      #expect(missing.isEmpty, "\(type) methods missing from the meta file: \(missing)")
    }
    for (type, methods) in declared.sorted(by: { $0.key < $1.key }) {
      let stale = methods.subtracting(implemented[type] ?? []).sorted()
      #expect(stale.isEmpty, "\(type) methods in the meta file but not in the host: \(stale)")
    }
  }

  /// `morph.a.b` of every declared function, without `morph.`, and `ease.NAME`.
  static func declaredFunctions() throws -> Set<String> {
    let functions = try declarations().map(\.name).filter { $0.hasPrefix("morph.") }
      .map { String($0.dropFirst("morph.".count)) }
    return Set(functions + Easing.allCases.map { "ease." + $0.rawValue })
  }

  @Test func everyMorphFunctionIsDeclaredAndNoneIsStale() throws {
    let state = try LuaState()
    // `morph.test` is a test file's; the meta file declares it too.
    _ = try state.installTestVocabulary()
    let code = """
      local names = {}
      for k, v in pairs(morph) do
        -- `morph.color` is a callable table (it holds `p3`).
        if type(v) == "function" or getmetatable(v) == "morph.color" then names[#names + 1] = k end
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
    let declared = try Self.declaredFunctions()
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

  /// Every Lua file of the bundled plugins and the examples.
  static func pluginsAndExamples() -> [String] {
    var files: [String] = []
    for folder in ["Sources/MorphScript/Plugins", "Examples"] {
      let base = root.appendingPathComponent(folder)
      // Hidden folders skipped: an example's own `.build` holds no plugin.
      let found = FileManager.default.enumerator(
        at: base, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
      files += (found?.allObjects ?? []).compactMap { ($0 as? URL)?.path }
        .filter { $0.hasSuffix(".lua") }
    }
    return files.sorted()
  }

  /// No LuaLS is packaged for this machine (Debian 12, PyPI), so the bundled
  /// plugins and the examples are checked by name: luacheck, told that
  /// `morph` has exactly the members the meta file declares, reports any
  /// other `morph.x` they read (W143).
  @Test(.enabled(if: luacheck != nil, "luacheck is not installed"))
  func pluginsAndExamplesUseOnlyDeclaredNames() throws {
    var members: [String: Set<String>] = ["version": []]
    for name in try Self.declaredFunctions() {
      let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
      members[parts[0], default: []].formUnion(parts.dropFirst())
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
    let files = Self.pluginsAndExamples()
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

  static func callCheck() throws -> LuaCallCheck {
    var ease: [String: ClosedRange<Int>] = [:]
    for easing in Easing.allCases { ease["morph.ease." + easing.rawValue] = 1...4 }
    return LuaCallCheck(try declarations(), extraFunctions: ease)
  }

  /// The type check LuaLS would make, as far as calls go: every bundled
  /// plugin and example (tests too) calls declared functions and methods
  /// with argument counts their signatures accept.
  @Test func pluginsAndExamplesCallWhatTheMetaFileDeclares() throws {
    let check = try Self.callCheck()
    var problems: [String] = []
    var calls = 0
    for path in Self.pluginsAndExamples() {
      let source = try String(contentsOfFile: path, encoding: .utf8)
      let found = check.check(source, file: URL(fileURLWithPath: path).lastPathComponent)
      problems += found.problems
      calls += found.calls
    }
    // Hundreds of calls, so a tokenizer that sees none cannot pass.
    #expect(calls > 300, "only \(calls) calls checked")
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// The check can fail: wrong names and counts are each reported, with their line.
  @Test func wrongCallsAreCaught() throws {
    let source = """
      local m = morph
      local test = morph.test
      local n = m.rect():frame(10, 20, "top", 4)
      n = n:fram(10)
      local x = m.lerp(1, 2)
      local y = m.lerpp(1, 2, 3)
      local p = m.path():move(1):line(1, 2)
      local c = morph.color("red"):mix("blue")
      local k = test.approx()
      local fine = m.clamp(m.ease.outCubic(0.5)) + ("%d"):format(1)
      local hooked = m.rect():onAppear():onDisappear(print, print):onAppear(print)
      return m.component { body = function(self) self:animate(m.spring(), { a = 1 }, function() end) end }
      """
    let problems = try Self.callCheck().check(source, file: "wrong.lua").problems
    #expect(
      problems == [
        "wrong.lua:3: :frame takes 0 to 3 arguments, given 4",
        "wrong.lua:4: no class declares a method :fram",
        "wrong.lua:5: morph.lerp takes 3 arguments, given 2",
        "wrong.lua:6: morph.lerpp is not declared",
        "wrong.lua:7: :move takes 2 arguments, given 1",
        "wrong.lua:8: :mix takes 2 arguments, given 1",
        "wrong.lua:9: morph.test.approx takes 1 to 2 arguments, given 0",
        "wrong.lua:11: :onAppear takes 1 argument, given 0",
        "wrong.lua:11: :onDisappear takes 1 argument, given 2",
      ], "\(problems)")
  }

  /// A binding or an op without a signature fails the generator, naming it.
  @Test func aBindingWithoutASignatureFailsNamingIt() {
    let bare = HostFunction(name: "unsigned") { _ in 0 }
    #expect(throws: MetaFile.Failure.self) { try MetaFile.declaration("morph.", bare) }
    do {
      _ = try MetaFile.declaration("morph.", bare)
    } catch {
      #expect("\(error)".contains("morph.unsigned"))
    }
    let op = NodeSchema.Op("unsignedModifier", .modifier)
    do {
      _ = try MetaFile.declaration(of: op)
      Issue.record("an op without a doc was declared")
    } catch {
      #expect("\(error)".contains("Node:unsignedModifier"))
    }
  }

  /// Each signature's `@param`s make the declaration and its argument counts.
  @Test func signaturesGiveParametersAndCounts() {
    let clamp = MetaFile.Declaration(
      name: "morph.clamp",
      doc: ["Clamps.", "@param x number", "@param lo? number", "@return number"])
    #expect(clamp.lines.last == "function morph.clamp(x, lo) end")
    #expect(clamp.arguments == 1...2)
    let frame = MetaFile.Declaration(
      name: "Node:frame",
      doc: ["@param width number|morph.FrameOptions|nil", "@param height? number"])
    #expect(frame.arguments == 0...2)
  }
}
