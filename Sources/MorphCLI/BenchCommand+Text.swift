import Foundation
import MorphCore
import MorphHost
import MorphRender

extension BenchCommand {
  /// A card stack frame (its titles and captions are most of the text the bundled plugins
  /// draw) from progress to pixels at scale 1, and how many texts were shaped for a frame
  /// whose text did not change, and how many outlines were traced for it: the layout
  /// cache's figures (goal 0).
  static func textCost(frames: Int) throws -> String {
    let host = try DocumentHost(path: PluginLocator.resolve("card_stack").path)
    let renderer = CairoRenderer()
    let progress = 1.5
    _ = try renderer.render(host.frame(progress: progress).list, scale: 1, background: .white)
    let before = PangoTextMeasure.layoutsMade
    let tracedBefore = PangoTextMeasure.outlinesTraced
    let frame = try time(frames) {
      _ = try renderer.render(host.frame(progress: progress).list, scale: 1, background: .white)
    }
    let shaped = Double(PangoTextMeasure.layoutsMade - before) / Double(frames)
    let traced = Double(PangoTextMeasure.outlinesTraced - tracedBefore) / Double(frames)
    return String(
      format: "card_stack frame (body, layout, raster@1): %.3f ms; "
        + "text layouts (shapings) per unchanged frame: %.2f (goal 0), "
        + "glyph outlines traced: %.2f (goal 0)", frame * 1000, shaped, traced)
  }
}
