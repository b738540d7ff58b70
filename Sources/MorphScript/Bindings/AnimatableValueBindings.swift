import CLua
import CMorphLua
import MorphCore

/// Values of any `AnimatableKind` to and from Lua: a number; a plain table
/// with exactly a named kind's number fields (`{x =, y =}`, sizes, rects); a
/// `morph.Color`, as its premultiplied OKLab channels (`Color.animatableChannels`,
/// as `animate` interpolates it); or an array of numbers.
enum AnimatableValues {
  static let expected =
    "number, point {x, y}, size {width, height}, rect {x, y, width, height}, morph.Color "
    + "or array of numbers"

  /// The kind and components of the value at `i`, or nil when it is none of them.
  static func read(_ lua: OpaquePointer, at index: Int32) -> (AnimatableKind, [Double])? {
    let i = lua_absindex(lua, index)
    if lua_type(lua, i) == LUA_TNUMBER {
      let x = morph_tonumber(lua, i)
      return x.isFinite ? (.number, [x]) : nil
    }
    if let c = ColorBindings.type.value(lua, at: i) { return (.color, c.animatableChannels) }
    guard isPlainTable(lua, i) else { return nil }
    let count = fieldCount(lua, i)
    for kind in AnimatableKind.namedTables where kind.fields.count == count {
      if let values = components(lua, at: i, of: kind) { return (kind, values) }
    }
    let kind = AnimatableKind.array(count)
    guard count > 0, lua_rawlen(lua, i) == count, let values = components(lua, at: i, of: kind)
    else { return nil }
    return (kind, values)
  }

  /// `kind`'s components from the value at `i`: a number for a number kind,
  /// else a table of the kind's fields (a colour's `{l, a, b, alpha}`, the
  /// shape of its velocity); nil when it is not that.
  static func components(_ lua: OpaquePointer, at index: Int32, of kind: AnimatableKind)
    -> [Double]?
  {
    let i = lua_absindex(lua, index)
    if kind == .number {
      let x = morph_tonumber(lua, i)
      return lua_type(lua, i) == LUA_TNUMBER && x.isFinite ? [x] : nil
    }
    guard isPlainTable(lua, i), fieldCount(lua, i) == kind.count else { return nil }
    var values: [Double] = []
    for (n, field) in kind.fields.enumerated() {
      let type =
        kind.isArray ? lua_rawgeti(lua, i, lua_Integer(n + 1)) : morph_rawgetfield(lua, i, field)
      let x = morph_tonumber(lua, -1)
      morph_pop(lua, 1)
      guard type == LUA_TNUMBER, x.isFinite else { return nil }
      values.append(x)
    }
    return values
  }

  /// Pushes a value of `kind` from its components (a colour as a `morph.Color`).
  static func push(_ lua: OpaquePointer, _ kind: AnimatableKind, _ values: [Double]) {
    switch kind {
    case .number: lua_pushnumber(lua, values.first ?? .nan)
    case .color: ColorBindings.type.push(lua, Color(animatableChannels: values))
    default:
      lua_createtable(lua, 0, Int32(values.count))
      for (n, (field, x)) in zip(kind.fields, values).enumerated() {
        lua_pushnumber(lua, x)
        if kind.isArray {
          lua_rawseti(lua, -2, lua_Integer(n + 1))
        } else {
          morph_rawsetfield(lua, -2, field)
        }
      }
    }
  }

  private static func isPlainTable(_ lua: OpaquePointer, _ i: Int32) -> Bool {
    guard lua_type(lua, i) == LUA_TTABLE else { return false }
    guard lua_getmetatable(lua, i) == 0 else {
      morph_pop(lua, 1)
      return false
    }
    return true
  }

  private static func fieldCount(_ lua: OpaquePointer, _ i: Int32) -> Int {
    var n = 0
    lua_pushnil(lua)
    while lua_next(lua, i) != 0 {
      morph_pop(lua, 1)
      n += 1
    }
    return n
  }
}
