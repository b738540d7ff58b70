import Foundation
import MorphCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paths of files that belong to a test file. A test file names its plugin, its input
/// scripts and (through its snapshots) its goldens relative to its own folder, and the
/// runner keeps every one of them inside that folder's tree: a test file from a pull
/// request must not read `/proc/self/environ` into a CI report, nor write a golden
/// anywhere else.
enum TestPaths {
  /// `name` in the folder of `file`, written as `file` was, so messages show the paths a
  /// person typed.
  static func beside(_ file: String, _ name: String) -> String {
    guard let slash = file.lastIndex(of: "/") else { return name }
    return String(file[...slash]) + name
  }

  /// The folder of `file`, as written (`.` for a bare name).
  static func folder(of file: String) -> String {
    guard let slash = file.lastIndex(of: "/") else { return "." }
    return slash == file.startIndex ? "/" : String(file[..<slash])
  }

  /// `name` (the test file's `what`, written at `line`) as a regular file inside the test
  /// file's folder tree: relative, no `..` part, and no link leading out. Errors name the
  /// file as written and never show what is in it.
  static func confined(_ name: String, what: String, testFile: String, line: Int)
    throws(TestSetupError) -> String
  {
    func refuse(_ message: String) -> TestSetupError {
      TestSetupError(location: FilePosition(file: testFile, line: line), message: message)
    }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains("..") else {
      throw refuse("\(what) '\(name)' must be a relative path inside the test file's folder")
    }
    let path = beside(testFile, name)
    guard let real = SafeFile.realPath(path) else {
      throw refuse("\(what) '\(name)' not found beside the test file (\(path))")
    }
    guard let root = SafeFile.realPath(folder(of: testFile)), contains(root, real) else {
      throw refuse("\(what) '\(name)' leads outside the test file's folder")
    }
    var info = stat()
    guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw refuse("\(what) '\(name)' is not a regular file")
    }
    return path
  }

  /// Whether the real path `inner` is `root` or inside it.
  static func contains(_ root: String, _ inner: String) -> Bool {
    inner == root || inner.hasPrefix(root == "/" ? "/" : root + "/")
  }
}

/// Reading a file that belongs to a test (an input script, a golden) through the host's
/// one checked reader (`CheckedFile`): only a regular file, opened so that a FIFO or a
/// device cannot stall the run, refused by its size before a byte is read.
enum RegularFile {
  struct Refusal: Error {
    var reason: String
  }

  /// The bytes of the regular file at `path`, at most `maxBytes` of them; with
  /// `followingLinks` false, a link is refused too.
  static func contents(_ path: String, maxBytes: Int, followingLinks: Bool = true) throws(Refusal)
    -> [UInt8]
  {
    do {
      return try CheckedFile.read(path, maxBytes: maxBytes, followingLinks: followingLinks)
    } catch {
      throw Refusal(reason: error.description)
    }
  }
}
