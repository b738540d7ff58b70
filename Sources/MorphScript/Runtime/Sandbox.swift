import CLua
import CMorphLua
import Foundation
import MorphCore

/// The Lua sources the host runs in every state, embedded at build time from
/// `Sources/MorphScript/Lua/` (where luacheck sees them).
public enum LuaSources {
  static let sandbox = text(PackageResources.sandbox_lua)
  static let inspect = text(PackageResources.inspect_lua)
  static let paths = text(PackageResources.paths_lua)
  static let support = text(PackageResources.support_lua)
  static let nodes = text(PackageResources.nodes_lua)
  static let component = text(PackageResources.component_lua)
  static let testing = text(PackageResources.testing_lua)
  /// The LuaLS definitions of `morph`, for `morphhost new` to hand to editors.
  public static let meta = text(PackageResources.morph_meta_lua)

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// The sandbox plugins run in (`Lua/sandbox.lua`, mostly table copying).
enum Sandbox {
  /// `read_module(name)` → source, path, chunk name: a `.lua` file inside
  /// the plugin's folder, never above it, through no link either; no larger
  /// than what remains of the memory cap. Messages name files as the plugin
  /// did.
  static let readModule: morph_hostfn = { lua in
    hostCall(lua, "import") { a in
      let state = LuaState.owner(of: a.lua)
      var name = try a.string(1)
      guard let directory = state.moduleDirectory else {
        throw a.error(1, "import is only available to plugins loaded from a file")
      }
      try ModuleFile.checkName(name, what: "a module name", args: a)
      if !name.hasSuffix(".lua") { name += ".lua" }
      let path = try ModuleFile.path(of: name, in: directory, args: a)
      let file = try ModuleFile(path: path, folder: directory, name: name, args: a)
      guard morph_fits(a.lua, file.size) != 0 else { throw a.outOfMemory() }
      let data = try file.read(name: name, limits: state.limits, args: a)
      if !state.importedFiles.contains(path) { state.importedFiles.append(path) }
      data.withUnsafeBytes { bytes in
        var length = bytes.count
        let start = bytes.baseAddress.flatMap { base in
          morph_skipprefix(base.assumingMemoryBound(to: CChar.self), &length)
        }
        lua_pushlstring(a.lua, start, length)
      }
      a.push(path)
      a.push(state.chunkName(forFile: path))
      return 3
    }
  }

  /// `print` in a plugin ends here: one string argument, already formatted.
  static let hostWrite: morph_hostfn = { lua in
    guard let lua else { return 0 }
    let state = LuaState.owner(of: lua)
    state.output(state.stringValue(at: 1))
    return 0
  }
}

/// A module file as the file system resolves it, confined to the plugin's
/// folder by real paths (so a link cannot lead out of it).
struct ModuleFile {
  let realPath: String
  let size: Int
  /// The modification time in nanoseconds, to tell a saved file from the one read before.
  let modified: Int

  /// Refuses names with control characters (they would reach the terminal in messages).
  static func checkName(_ name: String, what: String, args a: LuaArgs) throws(ArgumentError) {
    guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      throw a.error(1, "\(what) may not contain control characters")
    }
  }

  /// `name` inside `folder`: relative, with no `..` part.
  static func path(of name: String, in folder: String, args a: LuaArgs) throws(ArgumentError)
    -> String
  {
    let parts = name.split(separator: "/")
    guard !name.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
      throw a.error(1, "'\(name)' must be a path inside the plugin's folder")
    }
    return folder + "/" + name
  }

  init(path: String, folder: String, name: String, args a: LuaArgs) throws(ArgumentError) {
    guard let root = Self.realPath(folder), let real = Self.realPath(path) else {
      throw a.error(1, "cannot read '\(name)' beside the plugin")
    }
    guard real.hasPrefix(root == "/" ? "/" : root + "/") else {
      throw a.error(1, "'\(name)' leads outside the plugin's folder")
    }
    var info = stat()
    guard stat(real, &info) == 0 else {
      throw a.error(1, "cannot read '\(name)' beside the plugin")
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw a.error(
        1, "'\(name)' is \(CheckedFile.describe(info.st_mode & S_IFMT)), not a regular file")
    }
    realPath = real
    size = Int(info.st_size)
    modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
  }

  /// The file's bytes, read as a regular file only and no larger than the memory cap: the
  /// file checked above may have been swapped for a FIFO or a device since.
  func read(name: String, limits: ScriptLimits, args a: LuaArgs) throws(ArgumentError)
    -> [UInt8]
  {
    do {
      return try CheckedFile.read(realPath, maxBytes: SourceFile.cap(limits))
    } catch .tooLarge {
      throw a.outOfMemory()
    } catch .notRegular(let kind) {
      throw a.error(1, "'\(name)' is \(kind), not a regular file")
    } catch {
      throw a.error(1, "cannot read '\(name)' beside the plugin: \(error)")
    }
  }

  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
