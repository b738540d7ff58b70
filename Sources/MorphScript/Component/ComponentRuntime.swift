import CLua
import CMorphLua
import Foundation
import MorphCore

/// The Lua side of a component, wrapped in the manner of LÖVE's `wrap_*.cpp`:
/// typed entry points into `Lua/component.lua`. With `ComponentHostFunctions` (the
/// `host` table that Lua calls back), it is the raw-stack code of the component model;
/// `ComponentInstance` above them calls into Lua only through these two (and charges
/// the sandbox's budget for work the host does on a plugin's behalf).
///
/// Stack helpers note their effect as Lua's manual does, `[-o, +p, x]`:
/// values popped, values pushed, and whether they can raise (`-` never).
struct ComponentRuntime {
  let state: LuaState
  private let entries: [Entry: LuaRef]

  /// The functions `Lua/component.lua` returns, by name.
  enum Entry: String, CaseIterable {
    case instantiate, body, frame, call, handler, accessibility, complete, numbers, value
    case progressRange = "progress_range"
    case transfer
    case reloadHook = "reload_hook"
    case parseLiteral = "parse_literal"
  }

  init(state: LuaState) throws(ScriptError) {
    guard let table = state.componentRuntime else {
      throw ScriptError(kind: .runtime, message: "component runtime missing")
    }
    var entries: [Entry: LuaRef] = [:]
    for entry in Entry.allCases {
      guard case .function(let f) = state.field(of: table, entry.rawValue) else {
        throw ScriptError(kind: .runtime, message: "component runtime has no '\(entry.rawValue)'")
      }
      entries[entry] = f
    }
    self.state = state
    self.entries = entries
  }

  @discardableResult
  private func call(_ entry: Entry, _ args: [LuaValue]) throws(ScriptError) -> [LuaValue] {
    // Every entry was resolved in init.
    try state.call(entries[entry]!, args)
  }

  // MARK: Entry points

  /// A new instance of the definition `def`, with prop overrides applied.
  func instantiate(_ def: LuaRef, overrides: LuaValue) throws(ScriptError) -> LuaRef {
    guard case .table(let instance)? = try call(.instantiate, [.table(def), overrides]).first
    else { throw ScriptError(kind: .runtime, message: "instantiate returned no table") }
    return instance
  }

  /// What `body(self)` returns.
  func body(_ instance: LuaRef) throws(ScriptError) -> LuaValue {
    try call(.body, [.table(instance)]).first ?? .nil
  }

  /// What `body(self)` and `accessibility(self)` return, in one call.
  func frame(_ instance: LuaRef) throws(ScriptError) -> (LuaValue, Accessibility?) {
    let results = try call(.frame, [.table(instance)])
    return (results.first ?? .nil, accessibility(from: results.count > 1 ? results[1] : .nil))
  }

  /// Calls the component's own handler `name` (`tap`, `drag`).
  func callHandler(_ instance: LuaRef, named name: String, _ event: InputEvent)
    throws(ScriptError)
  {
    try call(.call, [.table(instance), .string(name), eventValue(event)])
  }

  /// Calls the component's function `name` with `self` and `value`.
  func callHandler(_ instance: LuaRef, named name: String, _ value: LuaValue) throws(ScriptError) {
    try call(.call, [.table(instance), .string(name), value])
  }

  /// Calls a node's handler `f` with `self` and the event.
  func callHandler(_ instance: LuaRef, _ f: LuaRef, _ event: InputEvent) throws(ScriptError) {
    try call(.handler, [.table(instance), .function(f), eventValue(event)])
  }

  /// Calls a node's `onAppear` or `onDisappear` handler `f` with `self`.
  func callHook(_ instance: LuaRef, _ f: LuaRef) throws(ScriptError) {
    try call(.handler, [.table(instance), .function(f), .nil])
  }

  /// Runs the completion callbacks of the animations `ids`.
  func complete(_ instance: LuaRef, _ ids: [Int]) throws(ScriptError) {
    try call(.complete, [.table(instance), state.makeArray(ids)])
  }

  /// The numeric state keys, sorted, with their declared values.
  func numbers(_ instance: LuaRef) throws(ScriptError) -> [(key: String, value: Double)] {
    let results = try call(.numbers, [.table(instance)])
    guard results.count == 2, case .table(let keys) = results[0],
      case .table(let values) = results[1]
    else { return [] }
    let names = stringList(keys)
    let numbers = numberList(values)
    return Array(zip(names, numbers)).map { (key: $0.0, value: $0.1) }
  }

  /// The model value of a non-numeric state key.
  func value(_ instance: LuaRef, _ key: String) throws(ScriptError) -> LuaValue {
    try call(.value, [.table(instance), .string(key)]).first ?? .nil
  }

  /// `progressRange` (a table, or a function of self); nil when the
  /// component declares none, an error when the one it declares is bad.
  func progressRange(_ instance: LuaRef) throws(ScriptError) -> ClosedRange<Double>? {
    guard case .table(let r)? = try call(.progressRange, [.table(instance)]).first else {
      return nil
    }
    let (lo, hi) = pair(r)
    guard lo.isFinite, hi.isFinite, lo <= hi else {
      throw ScriptError(
        kind: .value, message: "progressRange must be {lo, hi} with finite lo <= hi")
    }
    return lo...hi
  }

  /// Hot reload: carries non-numeric state and pending completions from
  /// `old` into `new`; returns the old model values and what `save` returned.
  func transfer(from old: LuaRef, to new: LuaRef) throws(ScriptError) -> (
    previous: LuaValue, saved: LuaValue
  ) {
    let results = try call(.transfer, [.table(old), .table(new)])
    return (results.first ?? .nil, results.count > 1 ? results[1] : .nil)
  }

  /// Runs the new code's `restore(self, saved)` and `reload(self, old)`.
  func reloadHook(_ instance: LuaRef, previous: LuaValue, saved: LuaValue) throws(ScriptError) {
    try call(.reloadHook, [.table(instance), previous, saved])
  }

  /// A prop override's value as a Lua literal, or nil when it is not one.
  func parseLiteral(_ text: String) throws(ScriptError) -> LuaValue {
    try call(.parseLiteral, [.string(text)]).first ?? .nil
  }

  /// The component's accessibility description, if it declares one.
  func accessibility(_ instance: LuaRef) throws(ScriptError) -> Accessibility? {
    accessibility(from: try call(.accessibility, [.table(instance)]).first ?? .nil)
  }

  /// The description `accessibility(self)` returned, read raw.
  private func accessibility(from value: LuaValue) -> Accessibility? {
    guard case .table(let t) = value else { return nil }
    let lua = state.lua
    state.push(t)
    defer { morph_pop(lua, 1) }
    var result = Accessibility(
      label: text(field: "label"), value: text(field: "value"), hint: text(field: "hint"))
    if morph_rawgetfield(lua, -1, "traits") == LUA_TTABLE {
      for i in 0..<Int(lua_rawlen(lua, -1)) {
        lua_rawgeti(lua, -1, lua_Integer(i + 1))
        if lua_type(lua, -1) == LUA_TSTRING { result.traits.append(state.stringValue(at: -1)) }
        morph_pop(lua, 1)
      }
    }
    morph_pop(lua, 1)
    return result
  }

  // MARK: Reading the definition

  /// The plain fields of a definition table, read raw (no metamethod runs;
  /// `component.lua` checked their types), each
  /// absent one at its default; `progressRange`, `hasController` and `hasAppear` are read
  /// by calls.
  func fields(of definition: LuaRef, defaultName: String) -> ComponentDefinition {
    let lua = state.lua
    state.push(definition)
    defer { morph_pop(lua, 1) }
    var fields = ComponentDefinition(name: text(field: "name") ?? defaultName)
    fields.progressKey = text(field: "progress")
    fields.summary = text(field: "description")
    if morph_rawgetfield(lua, -1, "dragMinimumDistance") == LUA_TNUMBER {
      fields.dragMinimumDistance = max(0, morph_tonumber(lua, -1))
    }
    morph_pop(lua, 1)
    if morph_rawgetfield(lua, -1, "size") == LUA_TTABLE {
      let (width, height) = state.numberPair(at: -1)
      fields.size = Size(width, height)
    }
    morph_pop(lua, 1)
    return fields
  }

  /// Whether `table` is a definition `morph.component` marked.
  func isComponent(_ table: LuaRef) -> Bool { state.isComponentDefinition(.table(table)) }

  /// Whether the definition has a function field `name`.
  func hasFunction(_ definition: LuaRef, _ name: String) -> Bool {
    state.push(definition)
    defer { morph_pop(state.lua, 2) }
    return morph_rawgetfield(state.lua, -1, name) == LUA_TFUNCTION
  }

  // MARK: Values

  /// The event as the table handlers receive, built without running Lua.
  func eventValue(_ e: InputEvent) -> LuaValue {
    let lua = state.lua
    lua_createtable(lua, 0, 8)
    if let phase = e.phase {
      lua_pushstring(lua, phase.rawValue)
      morph_rawsetfield(lua, -2, "phase")
    }
    setNumber("x", e.location.x)
    setNumber("y", e.location.y)
    setNumber("time", e.time)
    setPoint("location", e.location)
    setPoint("startLocation", e.startLocation)
    setPoint("translation", e.translation)
    setPoint("velocity", e.velocity)
    setPoint("predictedEndTranslation", e.predictedEndTranslation)
    return .table(LuaRef(popping: state))
  }

  /// `t[key] = n` for the table on top. [-0, +0, -]
  private func setNumber(_ key: String, _ n: Double) {
    lua_pushnumber(state.lua, n)
    morph_rawsetfield(state.lua, -2, key)
  }

  /// `t[key] = {x =, y =}` for the table on top. [-0, +0, -]
  private func setPoint(_ key: String, _ p: Point) {
    lua_createtable(state.lua, 0, 2)
    setNumber("x", p.x)
    setNumber("y", p.y)
    morph_rawsetfield(state.lua, -2, key)
  }

  /// `t[key]` of the table on top when it is a string or number. [-0, +0, -]
  private func text(field key: String) -> String? {
    defer { morph_pop(state.lua, 1) }
    let type = morph_rawgetfield(state.lua, -1, key)
    return type == LUA_TSTRING || type == LUA_TNUMBER ? state.stringValue(at: -1) : nil
  }

  /// `t[1], t[2]` of `table` as numbers (NaN where they are not).
  private func pair(_ table: LuaRef) -> (Double, Double) {
    state.push(table)
    defer { morph_pop(state.lua, 1) }
    return state.numberPair(at: -1)
  }

  func stringList(_ table: LuaRef) -> [String] {
    state.push(table)
    defer { morph_pop(state.lua, 1) }
    return (0..<Int(lua_rawlen(state.lua, -1))).map { i in
      lua_rawgeti(state.lua, -1, lua_Integer(i + 1))
      defer { morph_pop(state.lua, 1) }
      return state.stringValue(at: -1)
    }
  }

  private func numberList(_ table: LuaRef) -> [Double] {
    state.push(table)
    defer { morph_pop(state.lua, 1) }
    return (0..<Int(lua_rawlen(state.lua, -1))).map { i in
      lua_rawgeti(state.lua, -1, lua_Integer(i + 1))
      defer { morph_pop(state.lua, 1) }
      return morph_tonumber(state.lua, -1)
    }
  }

  /// Prop overrides as a Lua table: each value a Lua literal, else JSON, else a string.
  func props(_ props: [(key: String, value: String)]) throws(ScriptError) -> LuaValue {
    guard !props.isEmpty else { return .nil }
    let table = state.makeArray()
    guard case .table(let t) = table else { return .nil }
    for (key, text) in props {
      var value = try parseLiteral(text)
      if case .nil = value { value = jsonValue(text) ?? .string(text) }
      state.push(t)
      state.push(value)
      morph_rawsetfield(state.lua, -2, key)
      morph_pop(state.lua, 1)
    }
    return table
  }

  /// JSON arrays and objects become Lua tables, built from Foundation's parse.
  private func jsonValue(_ text: String) -> LuaValue? {
    guard
      let object = try? JSONSerialization.jsonObject(
        with: Data(text.utf8), options: [.fragmentsAllowed])
    else { return nil }
    pushJSON(object)
    defer { morph_pop(state.lua, 1) }
    return state.value(at: -1)
  }

  /// Pushes a JSON value. [-0, +1, -]
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
}

extension LuaState {
  /// Whether `value` is a table `morph.component` returned: its metatable
  /// (read raw, past `__metatable`) is named `morph.Component`.
  func isComponentDefinition(_ value: LuaValue) -> Bool {
    guard case .table(let table) = value else { return false }
    push(table)
    defer { morph_pop(lua, 1) }
    guard lua_getmetatable(lua, -1) != 0 else { return false }
    defer { morph_pop(lua, 2) }
    morph_rawgetfield(lua, -1, "__name")
    return lua_type(lua, -1) == LUA_TSTRING && stringValue(at: -1) == "morph.Component"
  }

  /// `table[key]`, read raw.
  func field(of table: LuaRef, _ key: String) -> LuaValue {
    push(table)
    defer { morph_pop(lua, 2) }
    morph_rawgetfield(lua, -1, key)
    return value(at: -1)
  }
}
