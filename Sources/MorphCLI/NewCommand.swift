import Foundation
import MorphCore
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
    let files = FileManager.default
    try files.createDirectory(atPath: dir + "/.morph", withIntermediateDirectories: true)
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

  /// Writes unless the file exists (and `force` is off); returns what it wrote.
  static func write(_ text: String, to path: String, force: Bool) throws -> String? {
    if FileManager.default.fileExists(atPath: path) && !force {
      if path.hasSuffix(".lua") { throw UsageError("\(path) exists; use --force to replace it") }
      return nil
    }
    do {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw UsageError("cannot write \(path): \(error.localizedDescription)")
    }
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
