import Foundation
import MorphCore

/// Reading a plugin's (or scene's) source: counted against the memory cap as it is read, so
/// a file, pipe or device larger than the cap (`/dev/zero`, an endless pipe) is refused as
/// soon as it passes it, without taking the memory.
public enum SourceFile {
  /// The bytes of the file at `path`, if they fit under `limits`' memory cap. Unchanged, as
  /// `luaL_loadfile` reads them: a Latin-1 string literal stays one byte a character. Only
  /// a regular file is read (`CheckedFile`): a FIFO, a device or a folder is refused at
  /// once, so a plugin replaced by a FIFO cannot block whoever loads it.
  public static func read(_ path: String, limits: ScriptLimits) throws(ScriptError) -> [UInt8] {
    do {
      return try CheckedFile.read(path, maxBytes: cap(limits))
    } catch .tooLarge {
      throw ScriptError(kind: .memory, chunk: path, message: limits.memoryMessage)
    } catch .notRegular(let kind) {
      throw ScriptError(kind: .file, chunk: path, message: "is \(kind), not a regular file")
    } catch {
      throw ScriptError(kind: .file, chunk: path, message: "cannot read file: \(error)")
    }
  }

  /// The most bytes a source may have: the memory cap (none: no cap).
  static func cap(_ limits: ScriptLimits) -> Int {
    limits.memoryCapMiB > 0 ? Int(min(limits.memoryCapMiB * 1024 * 1024, Double(Int.max))) : Int.max
  }

  /// Everything `handle` gives until its end, refused with the memory message as soon as it
  /// passes the cap (`name` is what errors call it).
  public static func read(_ handle: FileHandle, name: String, limits: ScriptLimits)
    throws(ScriptError) -> [UInt8]
  {
    let cap = cap(limits)
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
