import Foundation
import MorphCore
import MorphRender
import MorphScript

extension BenchCommand {
  /// A whole frame (body, reading, layout, raster at scale 1) of `Bench/drawing_scene.lua`'s
  /// 1000 nodes with text, gradients and a blur, against the same nodes in flat colours:
  /// rounds of each in turn, the median round of each compared (goal: under 2×).
  static func drawingCost(frames: Int) throws -> String {
    let measure = PangoTextMeasure()
    let state = try LuaState(textMeasure: measure)
    let source = String(decoding: PackageResources.drawing_scene_lua, as: UTF8.self)
    let results = try state.call(try state.load(source, chunkName: "Bench/drawing_scene.lua"))
    guard results.count == 2, let plain = results[0].functionRef,
      let rich = results[1].functionRef
    else { throw BenchFailure("Bench/drawing_scene.lua must return two scene functions") }
    let builder = DisplayListBuilder(textMeasure: measure)
    let renderer = CairoRenderer()
    let canvas = Size(448, 298)
    func frame(_ body: LuaRef) throws {
      let value = try state.call(body).first ?? .nil
      let view = try state.readView(value, path: "Bench/drawing_scene.lua")
      let list = try builder.build(view.root, canvas: canvas)
      _ = try renderer.render(list, scale: 1, background: .white)
    }
    try frame(plain)
    try frame(rich)
    let rounds = 5
    let perRound = max(1, frames / rounds)
    var plainTimes: [Double] = []
    var richTimes: [Double] = []
    for _ in 0..<rounds {
      plainTimes.append(try time(perRound) { try frame(plain) })
      richTimes.append(try time(perRound) { try frame(rich) })
    }
    func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
    let (p, r) = (median(plainTimes), median(richTimes))
    return "1000 nodes with text, gradients and a blur: \(ms(r)) ms/frame, "
      + "flat colours \(ms(p)) ms, " + String(format: "ratio %.2fx (goal < 2)", r / p)
  }
}
