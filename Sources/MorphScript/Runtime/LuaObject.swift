import CLua
import CMorphLua

/// What a box holds outside Lua's heap, charged to the plugin's memory
/// account (`morph_charge`) until `__gc` releases the box.
class ChargedObject {
  var chargedBytes = 0
}

/// Holds a Swift value for a Lua userdata; the userdata stores a retained
/// pointer to the box, released by `__gc`.
final class ObjectBox<Value>: ChargedObject {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// A Swift value type exposed to Lua as userdata with a metatable named
/// `name` (`morph.Spring`, …). The metatable is protected (`__metatable`), so
/// a plugin can neither read nor call its `__gc`.
struct ObjectType<Value> {
  let name: String

  /// Creates the metatable: `__index` resolves `methods` first, then
  /// `properties` (a host function called as `properties(self, key)`).
  func define(
    _ lua: OpaquePointer, methods: [HostFunction], properties: morph_hostfn? = nil,
    extra: [HostFunction] = []
  ) {
    _ = luaL_newmetatable(lua, name)
    lua_pushstring(lua, name)
    morph_rawsetfield(lua, -2, "__metatable")
    morph_pushhostfn(lua, releaseBox, 0)
    morph_rawsetfield(lua, -2, "__gc")
    register(lua, extra)
    morph_newtable(lua)
    register(lua, methods)
    if let properties {
      // __index = function(self, key) return methods[key] or properties(self, key) end,
      // built in C terms: methods table as upvalue of a host function.
      morph_pushhostfn(lua, properties, 1)
    }
    morph_rawsetfield(lua, -2, "__index")
    morph_pop(lua, 1)
  }

  @discardableResult
  func push(_ lua: OpaquePointer, _ value: Value) -> ObjectBox<Value> {
    let slot = morph_newuserdata(lua, MemoryLayout<UnsafeMutableRawPointer?>.size)!
      .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    let box = ObjectBox(value)
    slot.pointee = Unmanaged.passRetained(box as AnyObject).toOpaque()
    _ = morph_getmetatable(lua, name)
    _ = lua_setmetatable(lua, -2)
    return box
  }

  /// The value at `i` when it is one of ours, else nil.
  func value(_ lua: OpaquePointer, at i: Int32) -> Value? { box(lua, at: i)?.value }

  /// The box at `i`, for methods that change the value in place (builders).
  func box(_ lua: OpaquePointer, at i: Int32) -> ObjectBox<Value>? {
    guard let raw = luaL_testudata(lua, i, name) else { return nil }
    guard let pointer = raw.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee
    else { return nil }
    let box = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
    return box as? ObjectBox<Value>
  }
}

extension LuaArgs {
  /// The argument at `i` as a value of `type`, or a Lua-style type error.
  func object<Value>(_ i: Int32, _ type: ObjectType<Value>) throws(ArgumentError) -> Value {
    guard let value = type.value(lua, at: i) else { throw typeError(i, type.name) }
    return value
  }

  func push<Value>(_ value: Value, as type: ObjectType<Value>) { type.push(lua, value) }

  /// Pushes a value that holds `bytes` outside Lua's heap, charged to the
  /// plugin's memory account; refused like any allocation over the cap.
  func push<Value>(_ value: Value, as type: ObjectType<Value>, bytes: Int) throws(ArgumentError) {
    guard morph_charge(lua, Int64(bytes)) != 0 else { throw outOfMemory() }
    type.push(lua, value).chargedBytes = bytes
  }

  /// Charges a box for holding `bytes` now (its charge so far is released).
  func recharge(_ box: ChargedObject, bytes: Int) throws(ArgumentError) {
    let delta = bytes - box.chargedBytes
    guard morph_charge(lua, Int64(delta)) != 0 else { throw outOfMemory() }
    box.chargedBytes = bytes
  }

  /// Lua's own memory error, which stops the call like any allocation over the cap.
  func outOfMemory() -> ArgumentError {
    morph_stop(lua, Int32(MORPH_STOP_MEMORY))
    return ArgumentError(description: "not enough memory")
  }

  /// The box of the object at `i`, to change it in place.
  func box<Value>(_ i: Int32, _ type: ObjectType<Value>) throws(ArgumentError) -> ObjectBox<Value> {
    guard let box = type.box(lua, at: i) else { throw typeError(i, type.name) }
    return box
  }
}

/// `__index` for object types with properties: upvalue 1 is the methods table.
/// Looks up a method first, then asks `lookup` for a property.
func indexMethodsThenProperties(
  _ lua: OpaquePointer?, _ lookup: (LuaArgs, String) throws -> Bool
) -> Int32 {
  hostCall(lua, "__index") { args in
    if lua_type(args.lua, 2) == LUA_TSTRING {
      lua_pushvalue(args.lua, 2)
      if lua_rawget(args.lua, morph_upvalueindex(1)) != LUA_TNIL { return 1 }
      morph_pop(args.lua, 1)
      if try lookup(args, args.stringValue(2)) { return 1 }
    }
    lua_pushnil(args.lua)
    return 1
  }
}

extension LuaArgs {
  fileprivate func stringValue(_ i: Int32) -> String { LuaState.owner(of: lua).stringValue(at: i) }
}

/// `__gc` of every object type: drops the Swift box exactly once.
private let releaseBox: morph_hostfn = { lua in
  guard let lua, let raw = lua_touserdata(lua, 1) else { return 0 }
  let slot = raw.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
  if let pointer = slot.pointee {
    let object = Unmanaged<AnyObject>.fromOpaque(pointer)
    if let charged = object.takeUnretainedValue() as? ChargedObject, charged.chargedBytes > 0 {
      morph_charge(lua, -Int64(charged.chargedBytes))
    }
    object.release()
    slot.pointee = nil
  }
  return 0
}
