import Foundation
import MorphCore
import MorphRender
import Testing

@testable import MorphExport

/// An animation's bytes, in memory.
private final class Sink: EncodedOutput, @unchecked Sendable {
  var bytes: [UInt8] = []
  func write(_ b: [UInt8]) throws { bytes += b }
  func patch(_ b: [UInt8], at offset: Int) throws {
    bytes.replaceSubrange(offset..<offset + b.count, with: b)
  }
}

/// The export holds its frames by bytes, not by count: each frame reserves
/// its bytes before it is made, and stages that keep a frame take them over.
/// Counted, never timed: these hold on a loaded machine.
@Suite struct ExportBudgetTests {
  static let list = DisplayList(canvas: Size(1, 1))

  /// Runs `count` fake frames of `frameBytes` each through the pipeline;
  /// `consume` sees each index in order.
  static func run(
    count: Int, workers: Int, budget: ByteBudget, frameBytes: Int,
    consume: (Int) throws -> Void = { _ in }
  ) throws -> [Int] {
    var seen: [Int] = []
    try FramePipeline<Int>.run(
      count: count, workers: workers, budget: budget, frameBytes: frameBytes,
      produce: { _ in list }, work: { _, _ in 0 },
      consume: { i, _ in
        seen.append(i)
        try consume(i)
      })
    return seen
  }

  @Test func framesInFlightStayWithinTheBudget() throws {
    let budget = ByteBudget(limit: 100 << 20)
    let seen = try Self.run(count: 200, workers: 4, budget: budget, frameBytes: 30 << 20)
    #expect(seen == Array(0..<200))
    #expect(budget.peakBytes <= 100 << 20, "peak \(budget.peakBytes) bytes")
    #expect(budget.peakBytes >= 30 << 20)
    #expect(budget.heldBytes == 0)
  }

  @Test func aFrameLargerThanTheBudgetStillProgressesAlone() throws {
    let budget = ByteBudget(limit: 64 << 20)
    let seen = try Self.run(count: 20, workers: 3, budget: budget, frameBytes: 100 << 20)
    #expect(seen == Array(0..<20))
    #expect(budget.peakBytes == 100 << 20, "one frame at a time")
    #expect(budget.heldBytes == 0)
  }

  /// An encoder's own state, set aside, leaves the frames less room; one
  /// still goes ahead when no other frame is held.
  @Test func bytesSetAsideLeaveFramesLessRoom() throws {
    let budget = ByteBudget(limit: 100 << 20)
    budget.setAside(50 << 20)
    _ = try Self.run(count: 30, workers: 4, budget: budget, frameBytes: 20 << 20)
    #expect(budget.peakBytes <= 100 << 20, "peak \(budget.peakBytes) bytes")
    budget.endAside(50 << 20)
    let crowded = ByteBudget(limit: 100 << 20)
    crowded.setAside(90 << 20)
    let seen = try Self.run(count: 30, workers: 4, budget: crowded, frameBytes: 20 << 20)
    #expect(seen == Array(0..<30))
    #expect(crowded.peakBytes == 110 << 20, "one frame at a time")
    crowded.endAside(90 << 20)
    #expect(budget.heldBytes == 0 && crowded.heldBytes == 0)
  }

  /// A stage that keeps each frame (as an APNG's compression does) takes its
  /// bytes over and gives them back from another thread: the next frames
  /// wait for them, and the total never passes the budget.
  @Test func aStageThatKeepsFramesSharesTheBudget() throws {
    let budget = ByteBudget(limit: 100 << 20)
    let frame = 30 << 20
    let group = DispatchGroup()
    let seen = try Self.run(count: 100, workers: 2, budget: budget, frameBytes: frame) { _ in
      budget.add(frame)
      group.enter()
      Thread {
        budget.release(frame)
        group.leave()
      }.start()
    }
    group.wait()
    #expect(seen == Array(0..<100))
    #expect(budget.peakBytes <= 100 << 20, "peak \(budget.peakBytes) bytes")
    #expect(budget.heldBytes == 0)
  }

  @Test func aFailedFrameGivesItsBytesBack() throws {
    struct Stop: Error {}
    let budget = ByteBudget(limit: 100 << 20)
    #expect(throws: Stop.self) {
      _ = try Self.run(count: 50, workers: 2, budget: budget, frameBytes: 10 << 20) { i in
        if i == 7 { throw Stop() }
      }
    }
    #expect(budget.heldBytes == 0)
  }

  /// Frame `i` of an opaque animation whose every frame changes.
  static func frame(_ i: Int, width: Int, height: Int) -> RasterImage {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for p in stride(from: 0, to: pixels.count, by: 4) {
      let (x, y) = (p / 4 % width, p / 4 / width)
      pixels[p] = UInt8((x + i * 9) & 255)
      pixels[p + 1] = UInt8((y / 3 + i) & 255)
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }

  /// Large frames through the pipeline into an APNG sharing its budget, as
  /// `export … -o x.apng` runs them: the frame queue and the compressions
  /// together stay within the budget, and the file is the one an unbounded
  /// encoder writes.
  @Test func largeFramesIntoAnAPNGStayWithinTheBudget() throws {
    let (width, height) = (1200, 900)
    let frameBytes = APNGEncoder.bytesInFlight(width: width, height: height)
    let budget = ByteBudget(limit: 3 * frameBytes)
    @Sendable func frame(_ i: Int) -> RasterImage { Self.frame(i, width: width, height: height) }
    let count = 10
    let sink = Sink()
    var encoder = APNGEncoder(
      output: sink, count: count, timing: FrameTiming(fps: 30), opaque: true, budget: budget)
    try FramePipeline<RasterImage>.run(
      count: count, workers: 3, budget: budget, frameBytes: frameBytes,
      produce: { i in DisplayList(canvas: Size(Double(i), 1)) },
      work: { list, _ in frame(Int(list.canvas.width)) },
      consume: { _, image in try encoder.add(image) })
    try encoder.finish()
    #expect(budget.peakBytes <= budget.limit, "peak \(budget.peakBytes) of \(budget.limit) bytes")
    #expect(budget.peakBytes >= 2 * frameBytes, "frames and compressions overlap")
    #expect(budget.heldBytes == 0)
    let unbounded = Sink()
    var plain = APNGEncoder(
      output: unbounded, count: count, timing: FrameTiming(fps: 30), opaque: true)
    for i in 0..<count { try plain.add(frame(i)) }
    try plain.finish()
    #expect(sink.bytes == unbounded.bytes)
  }

  /// An APNG's compressions charge the budget while they run and give it
  /// all back; the file is the same as without a budget.
  @Test func apngCompressionsChargeTheBudget() throws {
    let frames = (0..<6).map { i in
      var image = RasterImage(width: 40, height: 30)
      for p in stride(from: 0, to: image.pixels.count, by: 4) {
        image.pixels[p] = UInt8((p / 4 + i * 7) % 256)
        image.pixels[p + 3] = 255
      }
      return image
    }
    let timing = FrameTiming(fps: 30)
    var files: [[UInt8]] = []
    let budget = ByteBudget(limit: 1 << 20)
    for shared in [nil, budget] {
      let sink = Sink()
      var encoder = APNGEncoder(
        output: sink, count: frames.count, timing: timing, opaque: true, budget: shared)
      for frame in frames { try encoder.add(frame) }
      try encoder.finish()
      files.append(sink.bytes)
    }
    #expect(files[0] == files[1])
    #expect(budget.heldBytes == 0)
    #expect(budget.peakBytes >= APNGEncoder.bytesInFlight(width: 40, height: 30))
  }
}
