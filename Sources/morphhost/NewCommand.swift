import Foundation
import MorphHost
import MorphScript

/// `morphhost new NAME`: a plugin skeleton an editor understands at once.
enum NewCommand {
  static let usage = """
    Usage: morphhost new NAME [--dir DIR] [--force]

    Writes DIR/NAME.lua (default DIR: the current folder): a component with
    props, state, a progress key, a body, a tap handler and accessibility. Also
    writes DIR/.luarc.json pointing LuaLS at the `morph` definitions (a copy in
    DIR/.morph/morph.meta.lua), so editors complete `morph.*` straight away.
    Existing files are kept unless --force is given.
    """

  static func run(_ arguments: [String], output: some TextOutput) throws -> Int32 {
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
      try write(LuaSources.meta, to: dir + "/.morph/morph.meta.lua", force: true),
      try write(luarc, to: dir + "/.luarc.json", force: force),
    ].compactMap { $0 }
    for path in written { output.write("wrote \(path)") }
    output.write("next: morphhost run \(plugin)")
    return 0
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

  static func skeleton(_ name: String) -> String {
    let title = name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(
      of: "-", with: " "
    )
    .capitalized
    return """
      -- \(title): a morphhost component. Run it with `morphhost run \(name).lua`;
      -- every save reloads it and keeps its state.
      local m = morph

      return m.component {
        name = "\(title)",
        description = "One line about what it does.",
        size = { 380, 240 },
        props = {
          color = m.color "#2F6FED",
        },
        -- Numbers animate; use false for "none" (nil cannot be stored).
        state = { p = 0 },
        -- The state key that --progress, filmstrips and `check` drive.
        progress = "p",
        progressRange = { 0, 1 },

        body = function(self)
          return m.roundedRect(24)
            :fill(self.color)
            :frame(120 + 80 * self.p, 120)
            :rotate(15 * self.p)
            :shadow { radius = m.lerp(4, 16, self.p), y = 4 }
            :id("shape")
            :frame { maxWidth = math.huge, maxHeight = math.huge }
        end,

        tap = function(self)
          local target = self.target.p > 0.5 and 0 or 1
          self:animate(m.spring { response = 0.4, dampingFraction = 0.7 }, { p = target })
        end,

        accessibility = function(self)
          return {
            label = "\(title)",
            value = self.p > 0.5 and "On" or "Off",
            hint = "Tap to toggle",
            traits = { "button" },
          }
        end,
      }

      """
  }
}
