import Foundation
import MorphCore
import MorphSession
import Testing

@testable import MorphCLI

/// Issue 37: the preview's streams are charged to a byte budget. A frame's
/// rasters, over every scale the streams asked for, fit
/// `PreviewLimits.frameBytes`; the streams' own PNGs and `frame.png` share
/// `PreviewLimits.hostBytes`; thirteen streams at 4x of a 1 950-point offer
/// stay far under 1 GB.
@Suite(.serialized) struct PreviewStreamMemoryTests {
  static func scratch() throws -> URL {
    let dir = try PreviewTests.scratch()
    try PreviewBench.offerFiller.write(
      to: dir.appendingPathComponent("big.lua"), atomically: true, encoding: .utf8)
    return dir
  }

  @Test func aFrameOfEveryScaleFitsTheFrameBudget() throws {
    let canvas = Size(1998, 1998)
    let quarterSteps = (0...12).map { 1 + Double($0) / 4 }
    for scales in [[4.0], quarterSteps, [1.0, 4.0]] {
      let fit = FrameFit.factor(scales, canvas: canvas, bytes: PreviewLimits.frameBytes)
      #expect(fit < 1 && fit > 0.05, "\(scales)")
      let bytes = scales.reduce(0) { $0 + FrameFit.rasterBytes(canvas, scale: $1 * fit) }
      #expect(bytes <= PreviewLimits.frameBytes, "\(scales): \(bytes) bytes")
      // Not far below either: the budget is what the picture gets.
      #expect(bytes > PreviewLimits.frameBytes * 8 / 10, "\(scales): \(bytes) bytes")
    }
    // What a screen of a plugin the size it declares needs is drawn as asked.
    #expect(FrameFit.factor([2, 4], canvas: Size(428, 288), bytes: PreviewLimits.frameBytes) == 1)
    // A canvas that cannot be drawn is left to the renderer to explain.
    #expect(FrameFit.factor([4], canvas: Size(.nan, 10), bytes: PreviewLimits.frameBytes) == 1)
  }

  @Test func theByteBudgetLetsOneThroughAndTheRestWait() {
    let budget = ByteBudget(limit: 100)
    // One charge larger than the whole budget goes alone.
    #expect(budget.charge(1000, timeout: 0))
    #expect(!budget.charge(1, timeout: 0.05), "nothing fits beside it")
    budget.release(1000)
    #expect(budget.charge(60, timeout: 0))
    #expect(!budget.charge(60, timeout: 0.05))
    #expect(!budget.charge(41, timeout: 10, stopped: { true }), "a stopped waiter gives up")
    #expect(budget.charge(40, timeout: 0))
    // A waiter gets its bytes when they are released.
    let released = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      released.wait()
      budget.release(100)
    }
    released.signal()
    #expect(budget.charge(100, timeout: 60))
    #expect(budget.inUse == 100)
    budget.release(100)
    #expect(budget.inUse == 0)
  }

  /// The issue's case: a 1 950-point offer, thirteen streams at 4x (each
  /// scale of the page's, too). Every stream gets pictures within the frame
  /// budget, `frame.png` is fitted the same way, and the server's peak
  /// memory stays under 1 GB (it was 2.2 GB for the same thirteen streams at
  /// 4x, 3.6 GB for thirteen scales, in a debug build).
  @Test func thirteenStreamsAtFourTimesAFullOfferStayUnderAGigabyte() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try PreviewTests.Server(["big.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    let offer = try PreviewNumberTests.ask(
      port: port, "POST", "/size", body: #"{"width":1950,"height":1950}"#)
    #expect(offer.status == 204)
    for scales in [Array(repeating: 4.0, count: 13), (0...12).map { 1 + Double($0) / 4 }] {
      let streams = try scales.map { scale in
        let connection = try LoopbackConnection(port: port, timeout: 0.05)
        connection.write("GET /events?scale=\(scale) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        return connection
      }
      // Read until the streams still open (the roster keeps 8 of one
      // client's) have each had a picture, or a minute has passed.
      var text = Array(repeating: "", count: streams.count)
      var sizes: [[Int]] = []
      var pictures = Set<Int>()
      let end = Date().addingTimeInterval(60)
      while pictures.count < PreviewLimits.eventStreamsPerClient, Date() < end {
        for (index, stream) in streams.enumerated() {
          guard let bytes = stream.receive(), !bytes.isEmpty else { continue }
          text[index] += String(decoding: bytes, as: UTF8.self)
          while let range = text[index].range(of: "\n\n") {
            let event = String(text[index][..<range.lowerBound])
            text[index].removeSubrange(..<range.upperBound)
            guard let size = Self.size(in: event) else { continue }
            sizes.append(size)
            pictures.insert(index)
          }
        }
      }
      #expect(pictures.count >= PreviewLimits.eventStreamsPerClient, "\(scales): \(pictures)")
      for size in sizes {
        #expect(size[0] * size[1] * 4 <= PreviewLimits.frameBytes, "a \(size) frame")
        #expect(size[0] > 250, "drawn at a usable density: \(size)")
      }
    }
    let png = try PreviewNumberTests.ask(port: port, "GET", "/frame.png?scale=4")
    #expect(png.status == 200)
    #if os(Linux)
      let peak = try #require(Subprocess.highWaterMark(server.process.processIdentifier))
      #expect(peak < 1 << 30, "peak \(peak >> 20) MiB")
    #endif
    #expect(server.process.isRunning)
  }

  /// An event's `"size":[w,h]`, when it carries pixels.
  static func size(in event: String) -> [Int]? {
    guard let start = event.range(of: #""size":["#) else { return nil }
    let numbers = event[start.upperBound...].prefix { $0 != "]" }.split(separator: ",")
    let size = numbers.compactMap { Int($0) }
    return size.count == 2 ? size : nil
  }
}
