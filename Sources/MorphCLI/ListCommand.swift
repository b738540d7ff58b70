import MorphCore
import MorphHost
import MorphScript

/// `morphhost list`: the bundled plugins, one line each.
enum ListCommand {
  static let usage = """
    Usage: morphhost list

    Lists the plugins built into morphhost with a line about each.
    """

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    try options.finish()
    let plugins = PluginLocator.bundled()
    let width = plugins.map(\.name.count).max() ?? 0
    for plugin in plugins {
      let line: String
      do {
        let instance = try ComponentInstance(path: plugin.path)
        line = "\(instance.name) — \(instance.summary ?? "(no description)")"
      } catch {
        line = "(does not load: \(error))"
      }
      output.write(plugin.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + line)
    }
    return .success
  }
}
