import Foundation
import MorphCore
import MorphHost
import MorphScript

extension BenchCommand {
  /// A component frame in controlled mode, as `render --progress` and export
  /// make them: the progress set in the engine, then `body` and the read of
  /// its tree. Prints the scripting cost per frame and how often the host
  /// entered Lua per frame (goal: once, for `body`).
  static func componentFrameCost(plugin: String, frames: Int) throws -> String {
    let host = try DocumentHost(
      path: PluginLocator.resolve(plugin).path, options: ComponentOptions(output: { _ in }))
    let component = try host.componentHost(for: "bench").component
    let range = component.progressRange
    func progress(_ i: Int) -> Double {
      range.lowerBound + (range.upperBound - range.lowerBound) * Double(i) / Double(frames)
    }
    // Scripting alone: progress, then body and accessibility and the read.
    let scripting = try time(frames) {
      try component.setProgress(progress(frames / 2))
      _ = try component.frameContent()
    }
    let entriesBefore = component.state.entryCount
    var i = 0
    let whole = try time(frames) {
      _ = try host.frame(progress: progress(i))
      i += 1
    }
    let entries = Double(component.state.entryCount - entriesBefore) / Double(frames)
    return String(
      format:
        "component frame (%@, progress set each frame): scripting (progress, body, "
        + "accessibility, read) %.1f µs, whole frame to a display list %.1f µs; "
        + "Lua entries per frame %.1f (goal 1)",
      component.name, scripting * 1e6, whole * 1e6, entries)
  }
}
