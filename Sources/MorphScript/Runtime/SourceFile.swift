import Foundation

/// Reading a plugin's (or scene's) source: counted against the memory cap as it is read, so
/// a file, pipe or device larger than the cap (`/dev/zero`, an endless pipe) is refused as
/// soon as it passes it, without taking the memory.
public enum SourceFile {
  /// The bytes of the file at `path`, if they fit under `limits`' memory cap. Unchanged, as
  /// `luaL_loadfile` reads them: a Latin-1 string literal stays one byte a character.
  public static func read(_ path: String, limits: ScriptLimits) throws(ScriptError) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw ScriptError(kind: .file, chunk: path, message: "cannot read file")
    }
    defer { try? handle.close() }
    return try read(handle, name: path, limits: limits)
  }

  /// Everything `handle` gives until its end, refused with the memory message as soon as it
  /// passes the cap (`name` is what errors call it).
  public static func read(_ handle: FileHandle, name: String, limits: ScriptLimits)
    throws(ScriptError) -> [UInt8]
  {
    let cap = limits.memoryCapMiB > 0 ? Int(limits.memoryCapMiB * 1024 * 1024) : Int.max
    var bytes: [UInt8] = []
    while true {
      let chunk: Data?
      do {
        chunk = try handle.read(upToCount: 1 << 16)
      } catch {
        throw ScriptError(kind: .file, chunk: name, message: "cannot read file")
      }
      guard let chunk, !chunk.isEmpty else { return bytes }
      guard chunk.count <= cap - bytes.count else {
        throw ScriptError(kind: .memory, chunk: name, message: limits.memoryMessage)
      }
      bytes.append(contentsOf: chunk)
    }
  }
}
