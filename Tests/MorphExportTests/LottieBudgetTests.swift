import Foundation
import MorphCore
import Testing

@testable import MorphExport

/// The Lottie writer keeps every frame's samples until the keyframes are chosen, so
/// what it holds is charged to the export budget (`LottieStream.maxHeldBytes`): an
/// outline that changes every frame costs each frame, one that only moves costs once.
@Suite struct LottieBudgetTests {
  /// A polyline of `points` points, raised by `lift`.
  static func polyline(_ points: Int, lift: Double) -> Path {
    var path = Path()
    path.move(to: Point(0, 150 + lift))
    for i in 1..<points {
      path.line(
        to: Point(Double(i) * 400 / Double(points), 150 + 100 * sin(Double(i) * 0.001) + lift))
    }
    return path
  }

  static func frame(_ path: Path, x: Double = 0) -> DisplayList {
    DisplayList(
      canvas: Size(400, 300),
      commands: [
        .item(
          DisplayItem(
            kind: .path, path: path, frame: Rect(origin: .zero, size: Size(400, 300)),
            transform: ProjectiveTransform(.translation(x, 0)),
            stroke: Stroke(paint: .color(.black), width: 1), identity: "/0"))
      ])
  }

  /// The reported case: a 90 000-point path whose points move every frame held every
  /// frame's outline (about 60 MB a frame once written), so the 10 000-frame cap
  /// allowed hundreds of GB. It ends with one line naming the budget, at the frame
  /// that passes it.
  @Test func aPathWhosePointsMoveEveryFrameEndsAtTheBudget() throws {
    var stream = LottieStream(LottieWriter(fps: 30, name: "t"))
    let perFrame = LottieTimeline.cost(of: Self.polyline(90_000, lift: 0))
    let last = LottieStream.maxHeldBytes / perFrame + 1
    var failure: SceneError?
    for f in 0..<400 {
      do {
        try stream.add(Self.frame(Self.polyline(90_000, lift: Double(f))))
      } catch {
        failure = error
        #expect(f + 1 == last, "ended at frame \(f + 1)")
        break
      }
    }
    let message = try #require(failure).message
    #expect(message.hasPrefix("Lottie export would hold more than 1024 MiB of outlines by frame"))
    #expect(message.contains("(the export budget)"))
    #expect(!message.contains("\n"))
  }

  /// An outline that keeps its points while its transform moves is held once.
  @Test func aPathThatOnlyMovesIsChargedOnce() throws {
    let path = Self.polyline(2_000, lift: 0)
    var timeline = LottieTimeline(limit: LottieTimeline.cost(of: path))
    for f in 0..<400 { try timeline.add(Self.frame(path, x: Double(f))) }
    #expect(timeline.heldBytes == LottieTimeline.cost(of: path))
    // The same points moved point by point cost a frame's worth each.
    var moving = LottieTimeline(limit: .max)
    for f in 0..<3 { try moving.add(Self.frame(Self.polyline(2_000, lift: Double(f)))) }
    #expect(moving.heldBytes == 3 * LottieTimeline.cost(of: path))
  }

  /// Two equal samples are one value: a two-frame export of ten 10 000-character texts
  /// wrote each glyph contour's outline twice (105 MB, a 2 GB peak, against 49 MB and
  /// 1 GB for four frames).
  @Test func twoEqualSamplesAreOneValue() {
    var p = SampledProperty()
    p.append(0, [1, 2, 3])
    p.append(1, [1, 2, 3])
    #expect(p.lottie(.points) == ["a": 0, "k": [1, 2, 3]])
    var moved = SampledProperty()
    moved.append(0, [1])
    moved.append(1, [2])
    #expect(KeyframeReducer.reduce(moved, tolerance: 0.05).keys == [0, 1])
  }
}
