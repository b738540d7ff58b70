import Foundation
import MorphCore
import MorphRender
import MorphTestSupport
import Testing

@testable import MorphExport

/// What the Lottie writer holds of the frames' outlines is charged to the export
/// budget (`LottieStream.maxHeldBytes`): an outline that changes every frame costs each
/// frame, one that only moves costs once; past the window (`LottieStream.windowBytes`)
/// the heaviest tracks' samples become layers in the spool and are dropped.
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
  /// allowed hundreds of GB. Now the samples past the window are made into layers and
  /// spooled, so what is held stays within the window (and a frame); smaller here.
  @Test func aPathWhosePointsMoveEveryFrameHoldsAWindow() throws {
    let perFrame = LottieTimeline.cost(of: Self.polyline(2_000, lift: 0))
    let window = 5 * perFrame
    var stream = LottieStream(LottieWriter(fps: 30, name: "t"), window: window)
    for f in 0..<40 {
      try stream.add(Self.frame(Self.polyline(2_000, lift: Double(f * f) * 0.1)))
      #expect(stream.heldBytes <= window + perFrame, "frame \(f)")
    }
    let json = stream.finish().json
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let layers = try #require(root["layers"] as? [[String: Any]])
    // Runs of frames, one layer each, which together draw every frame once.
    let spans = layers.compactMap { layer -> Range<Int>? in
      guard let ip = layer["ip"] as? Int else { return nil }
      return ip..<((layer["op"] as? Int) ?? 0)
    }.sorted { $0.lowerBound < $1.lowerBound }
    #expect(spans.count >= 6, "\(spans)")
    #expect(spans.first?.lowerBound == 0 && spans.last?.upperBound == 40)
    for (a, b) in zip(spans, spans.dropFirst()) {
      // A run that ends before the animation runs one frame longer, hidden there.
      #expect(a.upperBound == b.lowerBound + 1, "\(spans)")
    }
  }

  /// Played, the spooled runs draw what one layer over all the frames draws.
  @Test func spooledRunsPlayAsOneLayerInThorVG() throws {
    let lists = (0..<24).map { f in Self.frame(Self.polyline(2_000, lift: Double(f * f) * 0.2)) }
    let whole = LottieWriter(fps: 30, name: "t").write(lists).json
    var stream = LottieStream(
      LottieWriter(fps: 30, name: "t"),
      window: 4 * LottieTimeline.cost(of: Self.polyline(2_000, lift: 0)))
    for list in lists { try stream.add(list) }
    let spooled = stream.finish().json
    #expect(spooled != whole)
    let folder = try LottieVerification.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var played: [[RasterImage]] = []
    for (name, json) in [("whole", whole), ("spooled", spooled)] {
      let file = folder.appendingPathComponent("\(name).json")
      try Data(json.utf8).write(to: file)
      #expect(try LottieVerification.schemaErrors(file) == nil)
      played.append(try LottieVerification.thorvgFrames(file, width: 400, height: 300))
    }
    #expect(played[0].count == 24 && played[1].count == 24)
    for (f, (a, b)) in zip(played[0], played[1]).enumerated() {
      let fraction = try #require(ImageComparison.compare(expected: a, actual: b))
        .differingFraction
      #expect(fraction == 0, "frame \(f): \(fraction)")
    }
  }

  /// The spool has no name from the moment it exists: nothing is left in its folder
  /// whatever ends the export (SIGKILL included), and what was written reads back.
  @Test func theSpoolLeavesNothingInItsFolder() throws {
    let folder = try LottieVerification.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let spool = try LottieSpool(in: folder.path)
    let text = String(repeating: "[1,2.5,\"é\"]", count: 200_000)
    let first = try spool.append("{}")
    let span = try spool.append(text)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    var read: [UInt8] = []
    var pieces = 0
    try spool.read(span) {
      read.append(contentsOf: $0)
      pieces += 1
    }
    #expect(String(decoding: read, as: UTF8.self) == text)
    #expect(pieces == (text.utf8.count + LottieSpool.pieceBytes - 1) / LottieSpool.pieceBytes)
    var sink = LottieStringSink(spool: spool)
    try LottieJSON.array([.spooled(first), 1]).write(into: &sink)
    #expect(sink.text == "[{},1]")
  }

  /// A frame whose own outlines pass the budget still ends the export with one line.
  @Test func aFrameBeyondTheBudgetEndsTheExport() throws {
    let limit = LottieTimeline.cost(of: Self.polyline(2_000, lift: 0))
    var stream = LottieStream(LottieWriter(fps: 30, name: "t"), limit: limit, window: limit / 2)
    try stream.add(Self.frame(Self.polyline(2_000, lift: 0)))
    try stream.add(Self.frame(Self.polyline(2_000, lift: 1)))
    var failure: (any Error)?
    do {
      try stream.add(Self.frame(Self.polyline(4_000, lift: 2)))
    } catch {
      failure = error
    }
    let message = try #require(failure as? SceneError).message
    #expect(message.hasPrefix("Lottie export would hold more than 0 MiB of outlines by frame 3"))
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
