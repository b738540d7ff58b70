import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphRender
import MorphScript

/// Loads a plugin, taps it, steps the virtual clock and writes PNG frames,
/// then exports the same tap as `anim.gif` in one call:
///
///     swift run EmbedHost [PLUGIN.lua] [OUTPUT-FOLDER]
@main
struct EmbedHost {
  static func main() {
    let arguments = CommandLine.arguments.dropFirst()
    let plugin = arguments.first ?? "../../Plugins/flip.lua"
    let folder = arguments.dropFirst().first ?? "frames"
    do {
      try run(plugin: plugin, folder: folder)
    } catch {
      // ScriptError reads "file:line: message", like the CLI's errors.
      FileHandle.standardError.write(Data("EmbedHost: \(error)\n".utf8))
      exit(1)
    }
  }

  static func run(plugin: String, folder: String) throws {
    // 1. Load the plugin into a sandboxed Lua state; props could be overridden here.
    let component = try ComponentInstance(
      path: plugin, options: ComponentOptions(props: [], reduceMotion: false))
    // 2. A host: virtual clock, input, frames. The canvas is the plugin's size plus a margin.
    let host = ComponentHost(component: component, margin: 24)
    let renderer = CairoRenderer()
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

    // 3. Send a tap at the centre, as a person would.
    try host.tap()

    // 4. Step the clock at 10 frames per second and write each frame.
    var index = 0
    repeat {
      let frame = try host.frame()
      let image = try renderer.render(frame.list, scale: 2, background: .white)
      let path = "\(folder)/frame-\(String(format: "%03d", index)).png"
      try image.writePNG(to: path)
      let progress = component.progress.map { String(format: "%.3f", $0) } ?? "-"
      print("t=\(String(format: "%.2f", host.time))  progress=\(progress)  \(path)")
      index += 1
      try host.advance(by: 0.1)
    } while component.isAnimating && index < 100

    // 5. What a screen reader would say now.
    if let a = try component.accessibility() {
      print("accessibility: \(a.label ?? "") — \(a.value ?? "")")
    }

    // 6. The same tap played for a second and exported as a GIF, in one call.
    let gif = URL(fileURLWithPath: folder).appendingPathComponent("anim.gif")
    let written = try Exporter(plugin: plugin, timeline: .time(duration: 1, fps: 10))
      .write(to: gif)
    print(written.summary)
  }
}
