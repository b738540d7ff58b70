import CLua
import CMorphLua
import MorphCore

extension NodeSchema {
  /// Pushes what `Lua/nodes.lua` needs to check arguments:
  /// `{ enums = { BlendMode = {"normal", …}, … }, options = { frame = {"width", …}, … },
  /// shapes = {"rect", …}, maxTextCharacters = 10000, maxFontSize = 4096 }` (the frame budget's
  /// limits of one text).
  /// [-0, +1, m]
  static func push(_ lua: OpaquePointer) {
    morph_newtable(lua)
    morph_newtable(lua)
    for enumeration in enumerations {
      pushStrings(lua, enumeration.cases)
      morph_rawsetfield(lua, -2, enumeration.name)
    }
    morph_rawsetfield(lua, -2, "enums")
    morph_newtable(lua)
    for op in ops where !op.options.isEmpty {
      pushStrings(lua, op.options.map(\.name))
      morph_rawsetfield(lua, -2, op.name)
    }
    morph_rawsetfield(lua, -2, "options")
    pushStrings(lua, ops.filter { $0.role == .shape }.map(\.name))
    morph_rawsetfield(lua, -2, "shapes")
    pushStrings(lua, insettable)
    morph_rawsetfield(lua, -2, "insettable")
    lua_pushinteger(lua, lua_Integer(FrameBudget.standard.maxTextRunCharacters))
    morph_rawsetfield(lua, -2, "maxTextCharacters")
    lua_pushnumber(lua, FrameBudget.standard.maxFontSize)
    morph_rawsetfield(lua, -2, "maxFontSize")
  }

  /// The shape ops `strokeBorder` insets (`ShapeSpec.isInsettable`).
  static let insettable = ["rect", "roundedRect", "circle", "ellipse", "capsule"]

  private static func pushStrings(_ lua: OpaquePointer, _ strings: [String]) {
    lua_createtable(lua, Int32(strings.count), 0)
    for (i, s) in strings.enumerated() {
      lua_pushstring(lua, s)
      lua_rawseti(lua, -2, lua_Integer(i + 1))
    }
  }

  /// Pushes `{ rect = 1, … }`: each op's name → its number in `ops`, which
  /// the reader looks a record's `op` up in without making a Swift string.
  /// [-0, +1, m]
  static func pushOpNumbers(_ lua: OpaquePointer) {
    lua_createtable(lua, 0, Int32(ops.count))
    for (i, op) in ops.enumerated() {
      lua_pushinteger(lua, lua_Integer(i + 1))
      morph_rawsetfield(lua, -2, op.name)
    }
  }
}
