import CLua
import CMorphLua

/// What a live state offers plugins, read from the state itself rather than
/// from any list, so the meta file can be checked against the implementation.
/// Uses the raw C API, which sees past the protected metatables. For tests
/// and the meta generator only.
enum LiveSurface {
  /// Method names by type name (`morph.Path`): every userdata type from its
  /// registry metatable, and the Lua-made `morph.Node`, `morph.Gradient`,
  /// `morph.Transition` and `morph.Self` from a node, a gradient and a component's `self`. Types
  /// without methods are left out.
  static func methods() throws -> [String: Set<String>] {
    let instance = try ComponentInstance(
      path: "meta-probe.lua",
      source: "return morph.component{ body = function() return morph.empty() end }")
    let state = instance.state
    let lua = state.lua
    var methods: [String: Set<String>] = [:]
    for name in registryTypeNames(lua) {
      _ = morph_getmetatable(lua, name)
      methods[name] = indexedMethods(lua)
      morph_pop(lua, 1)
    }
    guard
      case .table(let node)? = try state.evaluate("return morph.rect()", chunkName: "probe").first
    else { throw MetaFile.Failure(description: "morph.rect() made no table") }
    state.push(node)
    methods["morph.Node"] = metatableMethods(lua)
    let gradient = "return morph.linearGradient{ colors = { 'red', 'blue' } }"
    guard case .table(let paint)? = try state.evaluate(gradient, chunkName: "probe").first else {
      throw MetaFile.Failure(description: "morph.linearGradient made no table")
    }
    state.push(paint)
    methods["morph.Gradient"] = metatableMethods(lua)
    let opacity = "return morph.transition.opacity"
    guard case .table(let transition)? = try state.evaluate(opacity, chunkName: "probe").first
    else {
      throw MetaFile.Failure(description: "morph.transition.opacity made no table")
    }
    state.push(transition)
    methods["morph.Transition"] = metatableMethods(lua)
    state.push(instance.instance)
    _ = morph_rawgetfield(lua, -1, "self")
    methods["morph.Self"] = metatableMethods(lua)
    morph_pop(lua, 1)
    return methods.filter { !$0.value.isEmpty }
  }

  /// The keys `morph.component` accepts and the Lua type it checks each
  /// for: its upvalue `fields` (component.lua).
  static func definitionFields(in state: LuaState) throws -> [String: String] {
    guard
      case .function(let component)? = try state.evaluate(
        "return morph.component", chunkName: "probe"
      ).first
    else { throw MetaFile.Failure(description: "morph.component is not a function") }
    let lua = state.lua
    state.push(component)
    defer { morph_pop(lua, 1) }
    guard pushUpvalue(lua, of: -1, named: "fields") else {
      throw MetaFile.Failure(description: "morph.component has no upvalue 'fields'")
    }
    defer { morph_pop(lua, 1) }
    var fields: [String: String] = [:]
    lua_pushnil(lua)
    while lua_next(lua, -2) != 0 {
      if lua_type(lua, -2) == LUA_TSTRING, lua_type(lua, -1) == LUA_TSTRING {
        fields[String(cString: morph_tostring(lua, -2))] = String(cString: morph_tostring(lua, -1))
      }
      morph_pop(lua, 1)
    }
    return fields
  }

  /// Names of the metatables `luaL_newmetatable` made: `morph.*` string keys
  /// of the registry.
  private static func registryTypeNames(_ lua: OpaquePointer) -> [String] {
    var names: [String] = []
    lua_pushnil(lua)
    while lua_next(lua, morph_registryindex()) != 0 {
      if lua_type(lua, -2) == LUA_TSTRING, lua_type(lua, -1) == LUA_TTABLE {
        let name = String(cString: morph_tostring(lua, -2))
        if name.hasPrefix("morph.") { names.append(name) }
      }
      morph_pop(lua, 1)
    }
    return names.sorted()
  }

  /// The methods of the value on top (popped), through its raw metatable.
  private static func metatableMethods(_ lua: OpaquePointer) -> Set<String> {
    defer { morph_pop(lua, 1) }
    guard lua_getmetatable(lua, -1) != 0 else { return [] }
    defer { morph_pop(lua, 1) }
    return indexedMethods(lua)
  }

  /// What `__index` of the metatable on top resolves to: its own table, the
  /// methods table a host `__index` keeps (`ObjectType.define`; upvalue 2, as
  /// `morph_pushhostfn` puts the Swift function first), or the `methods`
  /// upvalue of a Lua `__index` (component.lua's `self`).
  private static func indexedMethods(_ lua: OpaquePointer) -> Set<String> {
    defer { morph_pop(lua, 1) }
    switch morph_rawgetfield(lua, -1, "__index") {
    case LUA_TTABLE:
      return keys(lua, tableAt: -1).filter { !$0.hasPrefix("__") }
    case LUA_TFUNCTION:
      let found =
        lua_iscfunction(lua, -1) != 0
        ? lua_getupvalue(lua, -1, 2) != nil : pushUpvalue(lua, of: -1, named: "methods")
      guard found else { return [] }
      defer { morph_pop(lua, 1) }
      return lua_type(lua, -1) == LUA_TTABLE ? keys(lua, tableAt: -1) : []
    default:
      return []
    }
  }

  /// Pushes the upvalue `name` of the function at `index`; false when it has none.
  private static func pushUpvalue(_ lua: OpaquePointer, of index: Int32, named name: String)
    -> Bool
  {
    let function = lua_absindex(lua, index)
    var n: Int32 = 1
    while let found = lua_getupvalue(lua, function, n) {
      if String(cString: found) == name { return true }
      morph_pop(lua, 1)
      n += 1
    }
    return false
  }

  private static func keys(_ lua: OpaquePointer, tableAt index: Int32) -> Set<String> {
    let table = lua_absindex(lua, index)
    var keys: Set<String> = []
    lua_pushnil(lua)
    while lua_next(lua, table) != 0 {
      if lua_type(lua, -2) == LUA_TSTRING { keys.insert(String(cString: morph_tostring(lua, -2))) }
      morph_pop(lua, 1)
    }
    return keys
  }
}
