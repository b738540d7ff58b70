import MorphCore

/// The files one run reads — the plugin, what it imports, the input script, a file the
/// options name — and the one rule about them: nothing the run writes may land on one.
/// `render p.lua -o p.lua --format json` would otherwise replace the user's source with
/// its own frame. Files are compared as the system knows them (device and inode, so a
/// link or another spelling is caught), and by resolved path while the output does
/// not exist yet.
public struct RunInputs: Sendable {
  /// A file read, and what it is to the run ("the plugin this run reads").
  public struct File: Sendable, Equatable {
    public var role: String
    public var path: String

    public init(role: String, path: String) {
      self.role = role
      self.path = path
    }
  }

  public var files: [File]

  public init(_ files: [File] = []) { self.files = files }

  /// Adds `path` as `role`.
  public mutating func add(_ role: String, _ path: String) {
    files.append(File(role: role, path: path))
  }

  /// The plugin and its imports as a loaded document names them.
  public mutating func add(sources: [String]) {
    for (i, path) in sources.enumerated() {
      add(i == 0 ? "the plugin this run reads" : "a file the plugin imports", path)
    }
  }

  /// Refuses `output` (what `what` names: "-o", "--report") when it is one of the files
  /// read, in one line naming both.
  public func check(_ output: String, as what: String = "the output") throws(ExportError) {
    for file in files where FileIdentity.same(output, file.path) {
      throw .unwritable(
        path: output,
        reason: "\(what) names \(file.role) (\(file.path)); refusing to write over it")
    }
  }
}
