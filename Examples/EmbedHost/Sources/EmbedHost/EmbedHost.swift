import Foundation
import Morph

/// Plays a plugin the way an app would, then exports it:
///
///     swift run EmbedHost [PLUGIN.lua] [OUTPUT-FOLDER]
///
/// One import (`Morph`) is the whole API: a session plays the plugin on a
/// virtual clock and hands out frames, and `Exporter` writes a GIF in one call.
@main
struct EmbedHost {
  static func main() {
    let arguments = CommandLine.arguments.dropFirst()
    let plugin = arguments.first ?? "../../Plugins/flip.lua"
    let folder = arguments.dropFirst().first ?? "frames"
    do {
      try run(plugin: plugin, folder: folder)
    } catch {
      // Errors read "file:line: message", like the CLI's.
      FileHandle.standardError.write(Data("EmbedHost: \(error)\n".utf8))
      exit(1)
    }
  }

  static func run(plugin: String, folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

    // 1. A session: loads the plugin in its sandbox, keeps its state, and would
    //    reload it on a save (an app with an editor calls `checkFiles()`).
    let session = PluginSession(path: plugin, clock: .virtual)
    if let error = session.error { throw error }

    // 2. A tap at the centre, as a person would.
    session.tap()

    // 3. Step the clock at 10 frames per second and write each frame.
    var index = 0
    repeat {
      let path = "\(folder)/frame-\(String(format: "%03d", index)).png"
      try Data(try session.png(scale: 2)).write(to: URL(fileURLWithPath: path))
      let progress = session.progress.map { String(format: "%.3f", $0) } ?? "-"
      let time = String(format: "%.2f", session.host?.time ?? 0)
      print("t=\(time)  progress=\(progress)  \(path)")
      index += 1
      session.advance(by: 0.1)
      if let error = session.error { throw error }
    } while session.isAnimating && index < 100

    // 4. What a screen reader would say now.
    if let a = try session.host?.component.accessibility() {
      print("accessibility: \(a.label ?? "") — \(a.value ?? "")")
    }

    // 5. The plugin tapped at 0 s, played for a second and exported as a GIF, in one call
    // (without `input`, nothing plays: the same rule as every command).
    let gif = URL(fileURLWithPath: folder).appendingPathComponent("anim.gif")
    let written = try Exporter(
      plugin: plugin, timeline: .time(duration: 1, fps: 10), input: .tap
    ).write(to: gif)
    print(written.summary)
  }
}
