import CLua
import CMorphLua

/// Two plain Lua states side by side in one process: one whose `string` and `table`
/// functions are the sandbox's bounded ones (`Sources/CMorphLua/bounded_*.c`), one with
/// Lua's own. The same chunk run in both must give the same answer: the differential
/// tests, the fuzz target and `morphhost bench --patterns` use it. Neither state is a
/// sandbox, and neither has a memory cap.
public final class LibraryComparison {
  /// Which library a chunk runs with.
  public enum Library: Sendable, CaseIterable {
    /// The host's bounded functions, as plugins get them.
    case bounded
    /// The functions of the Lua that morphhost links.
    case stock
  }

  /// An argument for a chunk.
  public enum Argument: Sendable {
    case integer(Int64)
    case bytes([UInt8])
  }

  private let limits: UnsafeMutablePointer<morph_limits>
  private let bounded: OpaquePointer
  private let stock: OpaquePointer

  /// The Lua release morphhost was built with, e.g. "5.4.4".
  public static var luaRelease: String { releaseName(morph_lua_release()) }

  /// The Lua releases the bounded library is built for, e.g. "5.4.4 to 5.4.8"; the C
  /// target refuses to compile against any other.
  public static var supportedReleases: String {
    "\(releaseName(MORPH_LUA_OLDEST)) to \(releaseName(MORPH_LUA_NEWEST))"
  }

  private static func releaseName(_ number: Int32) -> String {
    "\(number / 10000).\(number / 100 % 100).\(number % 100)"
  }

  /// `budget`: instructions a run with the bounded library may take (its C work
  /// included), 0 for no limit; a run past it answers "error: plugin exceeded its time
  /// budget (…)". Lua's own library has no such bound: a caller that must not hang runs
  /// a chunk with it only when the bounded run finished.
  public init(budget: Int = 0) throws(ScriptError) {
    limits = .allocate(capacity: 1)
    limits.initialize(to: morph_limits())
    limits.pointee.budget = Int64(budget)
    guard let bounded = morph_newstate(limits), let stock = luaL_newstate() else {
      limits.deallocate()
      throw ScriptError(kind: .memory, message: "could not create a Lua state")
    }
    self.bounded = bounded
    self.stock = stock
    luaL_openlibs(bounded)
    morph_openbounded(bounded)
    limits.pointee.in_host = 0
    luaL_openlibs(stock)
  }

  deinit {
    lua_close(bounded)
    lua_close(stock)
    limits.deallocate()
  }

  /// Runs `code` with `library`, passing `arguments`; its first result as text (a
  /// number or a string; other values by type name), or "error: " and the message.
  public func run(_ code: String, with library: Library, arguments: [Argument] = []) -> [UInt8] {
    let lua = library == .bounded ? bounded : stock
    if library == .bounded { morph_resetbudget(lua) }
    let base = lua_gettop(lua)
    defer { lua_settop(lua, base) }
    var status = code.utf8CString.withUnsafeBufferPointer { buffer in
      luaL_loadbufferx(lua, buffer.baseAddress, buffer.count - 1, "=comparison", "t")
    }
    if status == LUA_OK {
      for argument in arguments {
        switch argument {
        case .integer(let value): lua_pushinteger(lua, lua_Integer(value))
        case .bytes(let bytes):
          bytes.withUnsafeBufferPointer { buffer in
            _ = buffer.withMemoryRebound(to: CChar.self) { chars in
              lua_pushlstring(lua, chars.baseAddress, chars.count)
            }
          }
        }
      }
      status = lua_pcallk(lua, Int32(arguments.count), 1, 0, 0, nil)
    }
    var length = 0
    if lua_type(lua, -1) == LUA_TNUMBER || lua_type(lua, -1) == LUA_TSTRING,
      let text = lua_tolstring(lua, -1, &length)
    {
      let bytes = [UInt8](UnsafeRawBufferPointer(start: text, count: length))
      return status == LUA_OK ? bytes : Array("error: ".utf8) + bytes
    }
    let name = String(cString: lua_typename(lua, lua_type(lua, -1)))
    return Array(((status == LUA_OK ? "" : "error: ") + name).utf8)
  }
}
