import Foundation

/// Reading a plugin's (or scene's) source: measured before it is read, so a
/// file larger than the memory cap is refused without taking the memory.
public enum SourceFile {
  /// The text of the file at `path`, if it fits under `limits`' memory cap.
  public static func read(_ path: String, limits: ScriptLimits) throws(ScriptError) -> String {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    guard let size else {
      throw ScriptError(kind: .file, chunk: path, message: "cannot read file")
    }
    let cap = limits.memoryCapMiB * 1024 * 1024
    guard cap <= 0 || Double(size) <= cap else {
      throw ScriptError(kind: .memory, chunk: path, message: limits.memoryMessage)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ScriptError(kind: .file, chunk: path, message: "cannot read file")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
