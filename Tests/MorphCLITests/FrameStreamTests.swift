import Foundation
import MorphCore
import MorphRender
import MorphScript
import MorphSession
import Testing

@testable import MorphCLI

/// The preview's stream of changed rectangles: what the board tells a
/// stream to redraw, and that a page pasting those rectangles, however
/// many frames it misses, ends with the picture `render` draws.
@Suite(.serialized) struct FrameStreamTests {
  static let status = SessionStatus(
    name: "test", playing: true, speed: 1, reduceMotion: false, propsVersion: 0)

  @Test func theBoardUnitesTheChangesAStreamMissed() {
    let board = LiveFrameBoard()
    let whole = PixelBox(width: 100, height: 50)
    let a = PixelBox(x: 10, y: 10, width: 5, height: 5)
    let b = PixelBox(x: 40, y: 20, width: 10, height: 20)
    func post(_ box: PixelBox?, at scale: Double = 1) {
      let picture = LiveFrameBoard.Picture(
        raster: RasterImage(width: 100, height: 50), changed: box, png: [])
      board.post(status: Self.status, images: [scale: picture])
    }
    post(whole)  // 1
    post(a)  // 2
    post(nil)  // 3: only the status changed
    post(b)  // 4
    #expect(board.changes(at: 1, after: 0, upTo: 4, size: whole) == whole, "nothing shown yet")
    #expect(board.changes(at: 1, after: 1, upTo: 4, size: whole) == a.union(b))
    #expect(board.changes(at: 1, after: 2, upTo: 3, size: whole) == nil)
    #expect(board.changes(at: 1, after: 3, upTo: 4, size: whole) == b)
    #expect(board.changes(at: 2, after: 3, upTo: 4, size: whole) == whole, "another scale")
    for _ in 0..<LiveFrameBoard.historyLength { post(a) }
    #expect(
      board.changes(at: 1, after: 3, upTo: board.sequence, size: whole) == whole,
      "b, at 4, is no longer remembered")
    #expect(board.changes(at: 1, after: 4, upTo: board.sequence, size: whole) == a)
    #expect(board.changes(at: 1, after: board.sequence - 1, upTo: board.sequence, size: whole) == a)
    // A frame without this scale forgets its history: the next is sent whole.
    post(nil, at: 2)
    post(a)
    #expect(
      board.changes(at: 1, after: board.sequence - 2, upTo: board.sequence, size: whole) == whole)
  }

  /// A stream as `PreviewRoutes.stream` runs it, reading slowly (so it
  /// misses frames), pasting every rectangle into its own copy.
  @Test func aSlowStreamEndsWithTheRenderedPicture() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("flip.lua")
    try FileManager.default.copyItem(at: PreviewSessionTests.flip, to: file)
    let session = PreviewSession(path: file.path, options: ComponentOptions())
    defer { session.close() }
    session.perform { session.subscribe(scale: 1) }

    var page = RasterImage(width: 0, height: 0)
    var seen = 0
    var shown = 0
    var partial = 0
    var missed = 0
    let encoder = try StreamingPNGEncoder()
    var tapped = false
    let end = Date().addingTimeInterval(30)
    while Date() < end {
      guard case .some(.some(let posted)) = session.board.next(after: seen, timeout: 1.5) else {
        if tapped { break }  // settled
        try session.perform {
          try session.pointer("down", at: Point(214, 144))
          try session.pointer("up", at: Point(214, 144))
        }
        tapped = true
        continue
      }
      if posted.sequence > seen + 1 { missed += 1 }
      seen = posted.sequence
      guard let picture = posted.images[1] else { continue }
      let raster = picture.raster
      let whole = PixelBox(width: raster.width, height: raster.height)
      if let box = session.board.changes(at: 1, after: shown, upTo: seen, size: whole) {
        let png = box == picture.changed ? picture.png! : try encoder.encode(raster, box: box)
        let piece = try RasterImage.decodePNG(png)
        #expect(piece.width == box.width && piece.height == box.height)
        if page.width != whole.width || page.height != whole.height {
          page = RasterImage(width: whole.width, height: whole.height)
        }
        for row in 0..<box.height {
          let from = row * box.width * 4
          let to = ((box.y + row) * page.width + box.x) * 4
          page.pixels.replaceSubrange(
            to..<(to + box.width * 4), with: piece.pixels[from..<(from + box.width * 4)])
        }
        if box.area < whole.area { partial += 1 }
      }
      shown = seen
      // Slower than the frames: let two more come (or a second pass) before reading.
      let wait = Date().addingTimeInterval(1)
      while session.board.sequence < seen + 2, Date() < wait {
        Thread.sleep(forTimeInterval: 0.01)
      }
    }
    let expected = try RasterImage.decodePNG(
      Array(try session.perform { try session.png(scale: 1) }))
    #expect(tapped)
    #expect(partial > 0, "some frames were rectangles")
    #expect(missed > 0, "the stream missed frames, so rectangles were united")
    #expect(page.width == expected.width && page.height == expected.height)
    let differing = zip(page.pixels, expected.pixels).filter { $0 != $1 }.count
    #expect(differing == 0, "the pasted rectangles make the rendered picture")
  }
}
