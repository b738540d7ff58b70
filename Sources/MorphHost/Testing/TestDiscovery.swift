import Foundation
import MorphCore

/// Which test files a run takes: `*.test.lua` files found in folders (recursively, but not
/// into hidden folders or `.build`), and files named directly. A search stays inside the
/// folder it was given: a link (to a folder or a file) that leads out of it is not
/// followed, so a checkout cannot make the runner read or record goldens elsewhere.
public enum TestDiscovery {
  /// What marks a test file.
  public static let suffix = ".test.lua"

  /// The test files under `paths`, each folder's in name order; a missing path is an error.
  public static func files(in paths: [String]) throws(TestDiscoveryError) -> [String] {
    var found: [String] = []
    var visited = Set<String>()
    for path in paths {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw TestDiscoveryError(message: "no such file or folder: \(path)")
      }
      if isFolder.boolValue {
        found += files(under: path, root: realPath(path), visited: &visited)
      } else {
        found.append(path)
      }
    }
    // A file reached twice (through a link, or named and found) runs once.
    var seen = Set<String>()
    return found.filter { seen.insert(realPath($0)).inserted }
  }

  private static func realPath(_ path: String) -> String {
    SafeFile.realPath(path) ?? path
  }

  private static func files(under folder: String, root: String, visited: inout Set<String>)
    -> [String]
  {
    // Links may lead in circles: each real folder is read once.
    guard visited.insert(realPath(folder)).inserted else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var result: [String] = []
    for name in names.sorted() where !name.hasPrefix(".") {
      let path =
        folder == "." ? name : (folder.hasSuffix("/") ? folder + name : folder + "/" + name)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
      let real = realPath(path)
      guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else { continue }
      if isFolder.boolValue {
        result += files(under: path, root: root, visited: &visited)
      } else if name.hasSuffix(suffix) {
        result.append(path)
      }
    }
    return result
  }
}

/// A path given to the runner that does not exist.
public struct TestDiscoveryError: Diagnostic {
  public var message: String
  public var description: String { message }
  public var exitStatus: ExitStatus { .usage }
}
