import CLua
import CMorphLua
import MorphCore

/// A Swift function callable from Lua, like an entry of a `luaL_Reg` table.
/// `function` must not throw or raise: it reports errors by pushing a message
/// and returning `MORPH_RAISE`, and the C trampoline raises for it.
/// `doc` is the entry's LuaLS annotation lines without `---` (prose, then
/// `@param` and `@return`), from which `MetaFile` writes its declaration in
/// `morph.meta.lua`; nil for functions plugins never see.
struct HostFunction {
  let name: String
  let doc: String?
  let function: morph_hostfn

  init(name: String, doc: String? = nil, function: @escaping morph_hostfn) {
    self.name = name
    self.doc = doc
    self.function = function
  }
}

/// A host function's argument was refused; the message reads like Lua's own.
struct ArgumentError: Diagnostic {
  let description: String
  var message: String { description }
}

/// Runs a host function body, turning any Swift error into a Lua error raised
/// by the trampoline. Every binding goes through here.
func hostCall(
  _ lua: OpaquePointer?, _ name: String, method: Bool = false,
  _ body: (LuaArgs) throws -> Int32
) -> Int32 {
  guard let lua else { return 0 }
  do {
    return try body(LuaArgs(lua: lua, name: name, isMethod: method))
  } catch {
    lua_pushstring(lua, String(describing: error))
    return MORPH_RAISE
  }
}

/// Registers `functions` into the table on top of the stack.
func register(_ lua: OpaquePointer, _ functions: [HostFunction]) {
  for entry in functions {
    morph_pushhostfn(lua, entry.function, 0)
    morph_rawsetfield(lua, -2, entry.name)
  }
}

/// The arguments of one call, checked the way `luaL_check*` checks them.
struct LuaArgs {
  let lua: OpaquePointer
  /// The Lua-visible name used in messages.
  let name: String
  /// For methods, argument 1 is `self`, and numbers shown skip it, as Lua does.
  let isMethod: Bool

  var count: Int32 { lua_gettop(lua) }

  func typeName(_ i: Int32) -> String {
    if lua_type(lua, i) == LUA_TUSERDATA || lua_type(lua, i) == LUA_TTABLE,
      lua_getmetatable(lua, i) != 0
    {
      defer { morph_pop(lua, 1) }
      if morph_rawgetfield(lua, -1, "__name") == LUA_TSTRING {
        let name = LuaState.owner(of: lua).stringValue(at: -1)
        morph_pop(lua, 1)
        return name
      }
      morph_pop(lua, 1)
    }
    return String(cString: lua_typename(lua, lua_type(lua, i)))
  }

  /// `bad argument #i to 'name' (detail)`.
  func error(_ i: Int32, _ detail: String) -> ArgumentError {
    let shown = isMethod ? i - 1 : i
    if isMethod && shown == 0 {
      return ArgumentError(description: "calling '\(name)' on bad self (\(detail))")
    }
    return ArgumentError(description: "bad argument #\(shown) to '\(name)' (\(detail))")
  }

  func typeError(_ i: Int32, _ expected: String) -> ArgumentError {
    let got = lua_type(lua, i) == LUA_TNONE ? "no value" : typeName(i)
    return error(i, "\(expected) expected, got \(got)")
  }

  func isNoneOrNil(_ i: Int32) -> Bool { morph_isnoneornil(lua, i) != 0 }

  /// A number (not NaN: NaN geometry is never what an author meant).
  func number(_ i: Int32) throws(ArgumentError) -> Double {
    guard lua_type(lua, i) == LUA_TNUMBER else { throw typeError(i, "number") }
    let value = morph_tonumber(lua, i)
    guard !value.isNaN else { throw error(i, "number expected, got nan") }
    return value
  }

  /// A number that is also finite.
  func finite(_ i: Int32) throws(ArgumentError) -> Double {
    let value = try number(i)
    guard value.isFinite else { throw error(i, "finite number expected, got \(value)") }
    return value
  }

  func number(_ i: Int32, default value: Double) throws(ArgumentError) -> Double {
    isNoneOrNil(i) ? value : try number(i)
  }

  func integer(_ i: Int32) throws(ArgumentError) -> Int {
    let value = try number(i)
    guard value.isFinite, value == value.rounded(), abs(value) < 9.0e15 else {
      throw error(i, "number has no integer representation")
    }
    return Int(value)
  }

  func string(_ i: Int32) throws(ArgumentError) -> String {
    guard lua_type(lua, i) == LUA_TSTRING else { throw typeError(i, "string") }
    return LuaState.owner(of: lua).stringValue(at: i)
  }

  func boolean(_ i: Int32, default value: Bool) throws(ArgumentError) -> Bool {
    if isNoneOrNil(i) { return value }
    guard lua_type(lua, i) == LUA_TBOOLEAN else { throw typeError(i, "boolean") }
    return lua_toboolean(lua, i) != 0
  }

  func checkType(_ i: Int32, _ type: Int32, _ expected: String) throws(ArgumentError) {
    guard lua_type(lua, i) == type else { throw typeError(i, expected) }
  }

  /// One of `choices`; a wrong string lists the valid ones.
  func choice<T>(_ i: Int32, _ choices: [(String, T)]) throws(ArgumentError) -> T {
    let text = try string(i)
    if let match = choices.first(where: { $0.0 == text }) { return match.1 }
    let valid = choices.map { "'\($0.0)'" }.joined(separator: ", ")
    let hint = Suggestion.clause(for: text, in: choices.map(\.0))
    throw error(i, "invalid option '\(text)'; expected one of \(valid)\(hint)")
  }

  /// A case of a Swift enum, by its raw value; a wrong string lists them all.
  func choice<T: CaseIterable & RawRepresentable>(_ i: Int32, _ type: T.Type) throws(ArgumentError)
    -> T where T.RawValue == String
  {
    try choice(i, type.allCases.map { ($0.rawValue, $0) })
  }

  // MARK: Option tables

  /// Checks that the table at `i` has only `allowed` string keys. Every wrong key is
  /// named, sorted (table order is not stable), each with the valid one nearest it, as
  /// `Lua/support.lua`'s `check.options` words it.
  func options(_ i: Int32, allowed: [String]) throws(ArgumentError) -> LuaOptions {
    guard lua_type(lua, i) == LUA_TTABLE else { throw typeTableError(i) }
    let index = lua_absindex(lua, i)
    var wrong: [String] = []
    lua_pushnil(lua)
    while lua_next(lua, index) != 0 {
      morph_pop(lua, 1)
      let key =
        lua_type(lua, -1) == LUA_TSTRING
        ? LuaState.owner(of: lua).stringValue(at: -1) : "[\(typeName(-1))]"
      if !allowed.contains(key) { wrong.append(key) }
    }
    guard wrong.isEmpty else {
      let named = wrong.sorted().map { key in
        "'\(key)'"
          + (Suggestion.nearest(to: key, in: allowed).map { " (did you mean '\($0)'?)" } ?? "")
      }
      let valid = allowed.joined(separator: ", ")
      throw error(
        i,
        "unknown option\(wrong.count > 1 ? "s" : "") \(named.joined(separator: ", ")); valid options: \(valid)"
      )
    }
    return LuaOptions(args: self, index: index)
  }

  private func typeTableError(_ i: Int32) -> ArgumentError { typeError(i, "table") }

  // MARK: Pushing results

  func push(_ value: Double) { lua_pushnumber(lua, value) }
  func push(_ value: Bool) { lua_pushboolean(lua, value ? 1 : 0) }
  func push(_ value: String) { lua_pushstring(lua, value) }
}

/// Reads fields of an option table already checked by `LuaArgs.options`.
struct LuaOptions {
  let args: LuaArgs
  let index: Int32

  var lua: OpaquePointer { args.lua }

  func has(_ key: String) -> Bool {
    defer { morph_pop(lua, 1) }
    return morph_rawgetfield(lua, index, key) != LUA_TNIL
  }

  func number(_ key: String) throws(ArgumentError) -> Double? {
    defer { morph_pop(lua, 1) }
    let type = morph_rawgetfield(lua, index, key)
    if type == LUA_TNIL { return nil }
    let value = morph_tonumber(lua, -1)
    guard type == LUA_TNUMBER, !value.isNaN else {
      let got = type == LUA_TNUMBER ? "nan" : args.typeName(-1)
      throw args.error(index, "option '\(key)': number expected, got \(got)")
    }
    return value
  }

  func number(_ key: String, default value: Double) throws(ArgumentError) -> Double {
    try number(key) ?? value
  }

  func boolean(_ key: String, default value: Bool) throws(ArgumentError) -> Bool {
    defer { morph_pop(lua, 1) }
    let type = morph_rawgetfield(lua, index, key)
    if type == LUA_TNIL { return value }
    guard type == LUA_TBOOLEAN else {
      throw args.error(index, "option '\(key)': boolean expected, got \(args.typeName(-1))")
    }
    return lua_toboolean(lua, -1) != 0
  }

  func string(_ key: String) throws(ArgumentError) -> String? {
    defer { morph_pop(lua, 1) }
    let type = morph_rawgetfield(lua, index, key)
    if type == LUA_TNIL { return nil }
    guard type == LUA_TSTRING else {
      throw args.error(index, "option '\(key)': string expected, got \(args.typeName(-1))")
    }
    return LuaState.owner(of: lua).stringValue(at: -1)
  }
}
