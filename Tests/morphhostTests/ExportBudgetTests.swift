import Foundation
import MorphCore
import MorphRender
import Testing

@testable import morphhost

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

  /// An APNG's compressions charge the budget while they run and give it
  /// all back; the file is the same as without a budget.
  @Test func apngCompressionsChargeTheBudget() throws {
    final class Sink: EncodedOutput {
      var bytes: [UInt8] = []
      func write(_ b: [UInt8]) throws { bytes += b }
      func patch(_ b: [UInt8], at offset: Int) throws {
        bytes.replaceSubrange(offset..<offset + b.count, with: b)
      }
    }
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
