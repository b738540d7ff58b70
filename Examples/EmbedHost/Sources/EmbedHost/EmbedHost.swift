import Foundation
import Morph

/// Plays a plugin the way an app would, then exports it:
///
///     swift run EmbedHost [PLUGIN.lua] [OUTPUT-FOLDER]
///
/// One import (`Morph`) is the whole API: a session host plays the plugin on a
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

    // 1. A session host: the session on a queue of its own, loading the plugin
    //    in its sandbox, keeping its state and reloading it on a save, with the
    //    frame stream a live view reads (the browser preview serves the same host).
    let host = SessionHost(path: plugin, clock: .virtual, frameBytes: 32 << 20)
    defer { host.close() }
    try host.perform {
      let session = host.session
      if let error = session.error { throw error }

      // 2. A tap at the centre, as a person would.
      session.apply(.tap(nil))

      // 3. Play the clock at 10 frames per second and write each frame.
      try session.play(every: 0.1, maxFrames: 100) { index in
        let path = "\(folder)/frame-\(String(format: "%03d", index)).png"
        try Data(try session.png(scale: 2)).write(to: URL(fileURLWithPath: path))
        let progress = session.progress.map { String(format: "%.3f", $0) } ?? "-"
        let time = String(format: "%.2f", session.host?.time ?? 0)
        print("t=\(time)  progress=\(progress)  \(path)")
        if let error = session.error { throw error }
      }

      // 4. What a screen reader would say now.
      if let a = try session.host?.component.accessibility() {
        print("accessibility: \(a.label ?? "") — \(a.value ?? "")")
      }
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
