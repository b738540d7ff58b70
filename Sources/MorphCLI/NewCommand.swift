import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphScript

/// `morphhost new NAME`: a plugin skeleton an editor understands at once.
enum NewCommand {
  static let usage = """
    Usage: morphhost new NAME [--dir DIR] [--force]

    Writes DIR/NAME.lua (default DIR: the current folder): a component with
    props, state, a progress key, a body, a tap handler and accessibility; and
    DIR/NAME.test.lua, its tests, which `morphhost test DIR` runs. Also
    writes DIR/.luarc.json pointing LuaLS at the `morph` definitions (a copy in
    DIR/.morph/morph.meta.lua), so editors complete `morph.*` straight away.
    Existing files are kept unless --force is given.
    """

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    let dir = try options.value("--dir") ?? "."
    let force = options.flag("--force")
    var name = try options.positional(name: "name")
    if name.hasSuffix(".lua") { name.removeLast(4) }
    guard name.range(of: "^[A-Za-z_][A-Za-z0-9_-]*$", options: .regularExpression) != nil else {
      throw UsageError(
        "a plugin name is letters, digits, '_' and '-', starting with a letter; got '\(name)'")
    }
    try makeFolder(dir, option: "--dir")
    try makeFolder(dir + "/.morph", option: nil)
    let plugin = dir + "/" + name + ".lua"
    let written = [
      try write(skeleton(name), to: plugin, force: force),
      try write(
        fill(PackageResources.component_test_lua, name),
        to: dir + "/" + name + TestDiscovery.suffix,
        force: force),
      try write(LuaSources.meta, to: dir + "/.morph/morph.meta.lua", force: true),
      try write(luarc, to: dir + "/.luarc.json", force: force),
    ].compactMap { $0 }
    for path in written { output.write("wrote \(path)") }
    output.write("next: morphhost run \(plugin)")
    output.write("tests: morphhost test \(dir)")
    return .success
  }

  /// Makes `path` (and the folders above it) unless it is a folder already; anything else
  /// there (a file, a FIFO) is one line naming it.
  static func makeFolder(_ path: String, option: String?) throws {
    var info = stat()
    if stat(path, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      guard kind == S_IFDIR else {
        throw UsageError(
          "\(option.map { $0 + " " } ?? "")\(path) is \(CheckedFile.describe(kind)), not a folder")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw UsageError("cannot make folder \(path): \(ForeignError.line(error))")
    }
  }

  /// Writes unless the file exists (and `force` is off); returns what it wrote. Written
  /// as every output is (`OutputFile`): to a temporary file beside it, then renamed.
  static func write(_ text: String, to path: String, force: Bool) throws -> String? {
    if FileManager.default.fileExists(atPath: path) && !force {
      if path.hasSuffix(".lua") { throw UsageError("\(path) exists; use --force to replace it") }
      return nil
    }
    try OutputFile.write(Array(text.utf8), to: path)
    return path
  }

  static let luarc = """
    {
      "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
      "runtime.version": "Lua 5.4",
      "workspace.library": [".morph/morph.meta.lua"],
      "diagnostics.globals": ["morph"]
    }

    """

  /// The new plugin: `Templates/component.lua` (embedded at build time, linted
  /// by luacheck like every Lua file) with its `{{name}}` and `{{title}}` filled in.
  static func skeleton(_ name: String) -> String {
    fill(PackageResources.component_lua, name)
  }

  /// A template with `{{name}}` and `{{title}}` filled in.
  static func fill(_ template: [UInt8], _ name: String) -> String {
    let title = name.replacingOccurrences(of: "_", with: " ")
      .replacingOccurrences(of: "-", with: " ").capitalized
    return String(decoding: template, as: UTF8.self)
      .replacingOccurrences(of: "{{name}}", with: name)
      .replacingOccurrences(of: "{{title}}", with: title)
  }
}
