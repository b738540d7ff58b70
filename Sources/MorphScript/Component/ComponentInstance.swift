import CLua
import Foundation
import MorphCore

/// How to start a component.
public struct ComponentOptions: Sendable {
  /// `--set key=value` pairs; values are Lua literals or JSON, else plain strings.
  public var props: [(key: String, value: String)]
  public var reduceMotion: Bool
  public var limits: ScriptLimits
  /// Where the plugin's `print` writes, from its first line on; nil keeps the
  /// Lua state's default. A host whose standard output carries data (JSON,
  /// frames, images) sends it elsewhere.
  public var output: (@Sendable (String) -> Void)?

  public init(
    props: [(key: String, value: String)] = [], reduceMotion: Bool = false,
    limits: ScriptLimits = .standard, output: (@Sendable (String) -> Void)? = nil
  ) {
    self.props = props
    self.reduceMotion = reduceMotion
    self.limits = limits
    self.output = output
  }
}

/// A running plugin: its Lua state, its instance (props, model and presented
/// state, the `self` handlers see) and the animation engine for its numbers.
///
/// Time only moves when the host says so (`advance(to:)`), so a run is a
/// pure function of the plugin, its props and the input it was given.
public final class ComponentInstance: AnimationHost {
  public let path: String
  public let state: LuaState
  public let options: ComponentOptions
  public private(set) var name: String
  public private(set) var size: Size
  public private(set) var progressKey: String?
  /// The component's one-line `description`, if it has one.
  public private(set) var summary: String?
  /// The range `progressRange` declares (default 0…1).
  public private(set) var progressRange: ClosedRange<Double> = 0...1
  public private(set) var dragMinimumDistance: Double
  /// Whether `animate` applies changes at once (`--reduce-motion`, the `m` key).
  public private(set) var reduceMotion: Bool
  public internal(set) var time: Double = 0
  public private(set) var engine = AnimationEngine()
  private var definition: LuaRef
  private var instance: LuaRef
  private var runtime: LuaRef
  /// Completion ids waiting to run in Lua.
  private var completed: [Int] = []
  var eventBuilder: LuaRef?
  private var propsTable: LuaValue?

  var instanceRef: LuaRef { instance }
  var definitionRef: LuaRef { definition }

  func takeCompleted() -> [Int] {
    defer { completed = [] }
    return completed
  }

  func replaceEngine(_ new: AnimationEngine) { engine = new }

  /// Turns reduce motion on or off for this and later handlers.
  public func setReduceMotion(_ on: Bool) throws(ScriptError) {
    reduceMotion = on
    try callRuntime("set_reduce_motion", [.table(instance), .boolean(on)])
  }

  /// Switches to another definition and instance (reload, or undoing one).
  func adopt(definition: LuaRef, instance: LuaRef) {
    self.definition = definition
    self.instance = instance
    readDefinition()
  }

  /// The `--set` overrides as a Lua table, parsed once.
  func parsedProps() throws(ScriptError) -> LuaValue {
    if let cached = propsTable { return cached }
    let table = try parseProps(options.props)
    propsTable = table
    return table
  }

  /// Loads the plugin at `path` (or `source`, named `path`).
  public init(path: String, source: String? = nil, options: ComponentOptions = ComponentOptions())
    throws(ScriptError)
  {
    self.path = path
    self.options = options
    reduceMotion = options.reduceMotion
    let text: String
    if let source {
      text = source
    } else {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw ScriptError(kind: .file, chunk: path, message: "cannot read file")
      }
      text = String(decoding: data, as: UTF8.self)
    }
    state = try LuaState(limits: options.limits)
    if let output = options.output { state.output = output }
    guard let runtime = state.componentRuntime else {
      throw ScriptError(kind: .runtime, message: "component runtime missing")
    }
    self.runtime = runtime
    if source == nil {
      state.moduleDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    }
    let chunk = try state.load(text, chunkName: path)
    let definition = try state.call(chunk).first ?? .nil
    guard case .table(let def) = definition else {
      throw ScriptError(
        kind: .value, chunk: path,
        message: "the plugin must return morph.component{ … }, got \(definition.typeName)")
    }
    self.definition = def
    name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    size = Size(380, 240)
    dragMinimumDistance = 10
    instance = def
    state.animationHost = self
    let overrides = try parsedProps()
    instance = try callRuntimeRef(
      "instantiate", [.table(def), overrides, .boolean(options.reduceMotion)])
    readDefinition()
    for key in try numericKeys() {
      engine.define(key, value: targetValue(key) ?? 0)
    }
  }

  // MARK: Lua plumbing

  private func runtimeFunction(_ name: String) -> LuaValue {
    state.push(runtime)
    defer { morph_pop(state.lua, 1) }
    morph_rawgetfield(state.lua, -1, name)
    defer { morph_pop(state.lua, 1) }
    return state.value(at: -1)
  }

  @discardableResult
  func callRuntime(_ name: String, _ args: [LuaValue]) throws(ScriptError) -> [LuaValue] {
    guard case .function(let f) = runtimeFunction(name) else {
      throw ScriptError(kind: .runtime, message: "component runtime has no '\(name)'")
    }
    do {
      return try state.call(f, args)
    } catch {
      throw error.locatedIn(path)
    }
  }

  func callRuntimeRef(_ name: String, _ args: [LuaValue]) throws(ScriptError) -> LuaRef {
    guard case .table(let t)? = try callRuntime(name, args).first else {
      throw ScriptError(kind: .runtime, chunk: path, message: "\(name) returned no table")
    }
    return t
  }

  /// Reads `name`, `size`, `progress` and `dragMinimumDistance` from the definition.
  func readDefinition() {
    let lua = state.lua
    name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    size = Size(380, 240)
    progressKey = nil
    summary = nil
    progressRange = 0...1
    dragMinimumDistance = 10
    state.push(definition)
    defer { morph_pop(lua, 1) }
    if morph_rawgetfield(lua, -1, "name") == LUA_TSTRING { name = state.stringValue(at: -1) }
    morph_pop(lua, 1)
    if morph_rawgetfield(lua, -1, "progress") == LUA_TSTRING {
      progressKey = state.stringValue(at: -1)
    }
    morph_pop(lua, 1)
    if morph_rawgetfield(lua, -1, "description") == LUA_TSTRING {
      summary = state.stringValue(at: -1)
    }
    morph_pop(lua, 1)
    if morph_rawgetfield(lua, -1, "dragMinimumDistance") == LUA_TNUMBER {
      dragMinimumDistance = max(0, morph_tonumber(lua, -1))
    }
    morph_pop(lua, 1)
    if morph_rawgetfield(lua, -1, "size") == LUA_TTABLE {
      let (w, h) = state.numberPair(at: -1)
      size = Size(w, h)
    }
    morph_pop(lua, 1)
    readProgressRange()
  }

  /// `progressRange`, a table or a function of self; a bad one keeps 0…1.
  private func readProgressRange() {
    guard case .table(let r)? = try? callRuntime("progress_range", [.table(instance)]).first
    else { return }
    state.push(r)
    defer { morph_pop(state.lua, 1) }
    let (lo, hi) = state.numberPair(at: -1)
    if lo.isFinite, hi.isFinite, lo <= hi { progressRange = lo...hi }
  }

  func numericKeys() throws(ScriptError) -> [String] {
    guard case .table(let keys)? = try callRuntime("numeric_state", [.table(instance)]).first
    else { return [] }
    state.push(keys)
    defer { morph_pop(state.lua, 1) }
    return (0..<Int(lua_rawlen(state.lua, -1))).map { i in
      lua_rawgeti(state.lua, -1, lua_Integer(i + 1))
      defer { morph_pop(state.lua, 1) }
      return state.stringValue(at: -1)
    }
  }

  /// A field of the instance's `target` (model) or `presented` table.
  private func instanceValue(_ table: String, _ key: String) -> LuaValue {
    let lua = state.lua
    state.push(instance)
    morph_rawgetfield(lua, -1, table)
    morph_rawgetfield(lua, -1, key)
    defer { morph_pop(lua, 3) }
    return state.value(at: -1)
  }

  func targetLuaValue(_ key: String) -> LuaValue { instanceValue("target", key) }

  func targetValue(_ key: String) -> Double? {
    switch instanceValue("target", key) {
    case .number(let n): return n
    case .integer(let i): return Double(i)
    default: return nil
    }
  }

  /// Parses each `--set` value as a Lua literal, else JSON, else a string.
  private func parseProps(_ props: [(key: String, value: String)]) throws(ScriptError) -> LuaValue {
    guard !props.isEmpty else { return .nil }
    let parser = try state.load(
      """
      local text = ...
      local chunk = load("return " .. text, "=--set", "t", {})
      if chunk then
        local ok, v = pcall(chunk)
        if ok and v ~= nil then return v end
      end
      return nil
      """, chunkName: "--set")
    let table = state.makeArray()
    guard case .table(let t) = table else { return .nil }
    for (key, text) in props {
      var value = try state.call(parser, [.string(text)]).first ?? .nil
      if case .nil = value {
        value = try jsonValue(text) ?? .string(text)
      }
      state.push(t)
      state.push(value)
      morph_rawsetfield(state.lua, -2, key)
      morph_pop(state.lua, 1)
    }
    return table
  }

  /// JSON arrays and objects become Lua tables (through a small Lua decoder
  /// fed by Foundation's parser).
  private func jsonValue(_ text: String) throws(ScriptError) -> LuaValue? {
    guard
      let object = try? JSONSerialization.jsonObject(
        with: Data(text.utf8), options: [.fragmentsAllowed])
    else { return nil }
    pushJSON(object)
    defer { morph_pop(state.lua, 1) }
    return state.value(at: -1)
  }

  private func pushJSON(_ object: Any) {
    let lua = state.lua
    _ = lua_checkstack(lua, 4)
    switch object {
    case let array as [Any]:
      lua_createtable(lua, Int32(array.count), 0)
      for (i, element) in array.enumerated() {
        pushJSON(element)
        lua_rawseti(lua, -2, lua_Integer(i + 1))
      }
    case let dictionary as [String: Any]:
      morph_newtable(lua)
      for (k, v) in dictionary {
        pushJSON(v)
        morph_rawsetfield(lua, -2, k)
      }
    case let number as NSNumber:
      // JSON booleans arrive as NSNumbers of type char ("c").
      if String(cString: number.objCType) == "c" {
        lua_pushboolean(lua, number.boolValue ? 1 : 0)
      } else {
        lua_pushnumber(lua, number.doubleValue)
      }
    case let string as String: lua_pushstring(lua, string)
    default: lua_pushnil(lua)
    }
  }

  // MARK: AnimationHost

  func setState(_ key: String, to value: Double) {
    completed += engine.set(key, to: value)
  }

  func animate(_ changes: [(key: String, value: Double)], with curve: AnimationCurve) -> Int {
    let (id, done) = engine.animate(changes, with: curve, at: time)
    completed += done
    return id
  }
}
