import Foundation
import MorphCore
import MorphHost

/// A file an export writes, made safely by `SafeFile` (MorphHost, the one owner of safe
/// writing): the bytes go to a temporary file in the target's folder, which replaces the
/// target by rename only when every byte was written. The target must be a regular file
/// or not exist: a device, a FIFO or a folder is refused before anything is written, and
/// a failed write (a full disk) leaves neither a partial file nor the temporary. Errors
/// are `ExportError`s.
public final class OutputFile {
  private let file: SafeFile

  public var path: String { file.path }

  /// Opens the temporary file beside `path` after checking `path` can be replaced.
  public init(_ path: String) throws(ExportError) {
    do {
      file = try SafeFile(path)
    } catch {
      throw Self.export(error)
    }
  }

  /// Appends `bytes`; a short or failed write is an error naming the path.
  public func write(_ bytes: some ContiguousBytes) throws(ExportError) {
    do { try file.write(bytes) } catch { throw Self.export(error) }
  }

  /// Where the bytes go until `commit`: for a program that writes the file itself.
  public var temporaryPath: String { file.temporaryPath }

  /// Rewrites bytes already written at `offset` (a header known only at the end).
  public func patch(_ bytes: [UInt8], at offset: Int) throws(ExportError) {
    do { try file.patch(bytes, at: offset) } catch { throw Self.export(error) }
  }

  /// Flushes, closes and renames over the target (checked again: it may have changed).
  public func commit() throws(ExportError) {
    do { try file.commit() } catch { throw Self.export(error) }
  }

  /// Drops the temporary file; the target is untouched.
  public func abandon() { file.abandon() }

  /// Writes `bytes` to `path` in one go.
  public static func write(_ bytes: some ContiguousBytes, to path: String) throws(ExportError) {
    do { try SafeFile.write(bytes, to: path) } catch { throw export(error) }
  }

  /// Refuses a target that is not a regular file (a device, FIFO, socket or
  /// folder), or whose folder does not exist. A missing target is fine.
  public static func checkReplaceable(_ path: String) throws(ExportError) {
    do { try SafeFile.checkReplaceable(path) } catch { throw export(error) }
  }

  private static func export(_ error: FileWriteError) -> ExportError {
    .unwritable(path: error.path, reason: error.reason)
  }
}

/// Writes every byte to `descriptor`, retrying short writes; the errno of a failure.
public func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Int32? {
  SafeFile.writeAll(bytes, to: descriptor)
}
