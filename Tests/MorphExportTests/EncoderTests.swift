import MorphCore
import MorphRender
import Testing

@testable import MorphExport

/// Bytes an encoder wrote, patches applied: a file in memory (the GIF coding tests use it too).
final class MemoryOutput: EncodedOutput {
  var bytes: [UInt8] = []
  func write(_ more: [UInt8]) throws { bytes += more }
  func patch(_ replacement: [UInt8], at offset: Int) throws {
    bytes.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
  }
}

@Suite struct EncoderTests {
  static func solid(_ value: UInt8, width: Int = 6, height: Int = 4) -> RasterImage {
    RasterImage(
      width: width, height: height,
      pixels: (0..<(width * height)).flatMap { _ in [value, value, value, 255] })
  }

  @Test func timingRoundsEachEndSoNothingDrifts() {
    let timing = FrameTiming(fps: 30, hold: 0.5)
    let centiseconds = (0..<30).map { timing.duration($0, $0 + 1, count: 30, unitsPerSecond: 100) }
    #expect(Set(centiseconds.dropLast()) == [3, 4])
    #expect(centiseconds.reduce(0, +) == 150)  // one second, then the half-second hold
    #expect(timing.apngDelay(0, 3, count: 30) == (3, 30))
    #expect(timing.apngDelay(29, 30, count: 30) == (16, 30))
    #expect(FrameTiming(fps: 12.5).apngDelay(0, 1, count: 2) == (80, 1000))
  }

  /// APNG's delay fraction for any rate: exact for whole rates, else
  /// milliseconds, and coarser units where a delay would not fit 16 bits.
  @Test func fractionalRatesGiveValidDelays() {
    #expect(FrameTiming(fps: 30).apngDelay(0, 1, count: 2) == (1, 30))
    #expect(FrameTiming(fps: 0.5).apngDelay(0, 1, count: 2) == (2000, 1000))
    #expect(FrameTiming(fps: 0.1).apngDelay(0, 1, count: 2) == (10000, 1000))
    #expect(FrameTiming(fps: 1e-9).apngDelay(0, 1, count: 2) == (UInt16.max, 1))
    #expect(FrameTiming(fps: 29.97).apngDelay(0, 1, count: 2) == (33, 1000))
  }

  @Test func apngStoresOnlyTheChangeAndMergesRepeats() throws {
    let output = MemoryOutput()
    var encoder = APNGEncoder(output: output, count: 4, timing: FrameTiming(fps: 10, loops: 2))
    var changed = Self.solid(10)
    changed.pixels.replaceSubrange(
      ((1 * 6 + 2) * 4)..<((1 * 6 + 4) * 4), with: [200, 0, 0, 255, 200, 0, 0, 255])
    for frame in [Self.solid(10), Self.solid(10), changed, changed] { try encoder.add(frame) }
    try encoder.finish()
    let chunks = try PNGChunks.chunks(output.bytes)
    let control = try #require(chunks.first { $0.type == "acTL" })
    #expect(control.data == [0, 0, 0, 2, 0, 0, 0, 2])  // two stored frames, two plays
    let frames = chunks.filter { $0.type == "fcTL" }
    #expect(frames.count == 2)
    // The second stores the 2×1 rectangle at (2, 1); each shows for two frames at 10 fps.
    #expect(Array(frames[1].data[4..<20]) == [0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1])
    #expect(frames.allSatisfy { Array($0.data[20..<24]) == [0, 2, 0, 10] })
    // The patched header's CRC matches its new data (acTL's CRC sits at bytes 49…52).
    let crc = PNGChunks.be32(PNGChunks.crc32(Array("acTL".utf8) + control.data))
    #expect(Array(output.bytes[49..<53]) == crc)
  }

  /// Frames of palette indices: the PLTE holds the colours and a clear
  /// entry after them; a repeat merges; a changed 2×1 patch is stored alone,
  /// blending over (its unchanged pixels would take the clear entry); a
  /// patch of a translucent colour replaces its area; a frame with a
  /// palette of its own is refused.
  @Test func indexedAPNGStoresChangedIndicesOverThePreviousFrame() throws {
    let colors: [UInt32] = [0xFF00_0A0A, 0xFF00_00C8, 0x8000_C800]  // the last half clear
    func frame(_ patch: UInt8?) -> QuantizedFrame {
      var indices = [UInt8](repeating: 0, count: 24)
      if let patch {
        indices[1 * 6 + 2] = patch
        indices[1 * 6 + 3] = patch
      }
      let source = indices.flatMap { i -> [UInt8] in
        let c = colors[Int(i)]
        return [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16 & 0xFF), UInt8(c >> 24)]
      }
      return QuantizedFrame(width: 6, height: 4, indices: indices, colors: colors, source: source)
    }
    let output = MemoryOutput()
    var encoder = IndexedAPNGEncoder(output: output, count: 5, timing: FrameTiming(fps: 10))
    for patch: UInt8? in [nil, nil, 1, 2, 2] { try encoder.add(frame(patch)) }
    try encoder.finish()
    let chunks = try PNGChunks.chunks(output.bytes)
    #expect(chunks.first { $0.type == "IHDR" }?.data[9] == 3)  // colour type 3: palette
    #expect(chunks.first { $0.type == "PLTE" }?.data == [10, 10, 0, 200, 0, 0, 0, 200, 0, 0, 0, 0])
    #expect(chunks.first { $0.type == "tRNS" }?.data == [255, 255, 128, 0])
    let frames = chunks.filter { $0.type == "fcTL" }
    #expect(frames.count == 3)
    // Width, height, x, y of each stored patch; its delay; dispose none, then blend.
    let patch: [UInt8] = [0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1]
    #expect(frames.dropFirst().allSatisfy { Array($0.data[4..<20]) == patch })
    #expect(
      frames.map { Array($0.data[20..<24]) } == [[0, 2, 0, 10], [0, 1, 0, 10], [0, 2, 0, 10]])
    #expect(frames.map { $0.data[25] } == [0, 1, 0])  // over; the translucent patch replaces
    var refusing = IndexedAPNGEncoder(
      output: MemoryOutput(), count: 2, timing: FrameTiming(fps: 10))
    try refusing.add(frame(nil))
    var other = frame(1)
    other.colors[0] = 0xFF00_0000
    #expect(throws: RenderError.self) { try refusing.add(other) }
  }

  @Test func anOpaqueAPNGIsRGBAndRefusesAlpha() throws {
    let output = MemoryOutput()
    var encoder = APNGEncoder(
      output: output, count: 2, timing: FrameTiming(fps: 10), opaque: true)
    var image = Self.solid(0)
    for i in image.pixels.indices { image.pixels[i] = i % 4 == 3 ? 255 : UInt8((i * 37) % 256) }
    try encoder.add(image)
    try encoder.finish()
    let header = try #require(try PNGChunks.chunks(output.bytes).first { $0.type == "IHDR" })
    #expect(header.data[9] == 2)  // colour type 2: RGB
    // Viewers without APNG show the first frame: Cairo decodes it exactly.
    #expect(try RasterImage.decodePNG(output.bytes) == image)
    var clear = Self.solid(0)
    clear.pixels[3] = 0
    var refusing = APNGEncoder(
      output: MemoryOutput(), count: 1, timing: FrameTiming(fps: 10), opaque: true)
    #expect(throws: RenderError.self) { try refusing.add(clear) }
  }

  /// A frame whose true colours did not change is not stored again although
  /// its palette moved every colour by two levels (palettes shift from frame
  /// to frame; judged on palette colours, this frame would be stored whole).
  @Test func gifJudgesChangeOnTrueColoursNotThePalette() throws {
    let output = MemoryOutput()
    let encoder = GIFEncoder(
      output: output, count: 3, timing: FrameTiming(fps: 10), transparent: false)
    let source = Self.solid(100)
    func quantized(_ level: UInt32) -> QuantizedFrame {
      QuantizedFrame(
        width: 6, height: 4, indices: [UInt8](repeating: 0, count: 24),
        colors: [level | level << 8 | level << 16 | 0xFF00_0000], source: source.pixels)
    }
    for level: UInt32 in [100, 102, 104] { try encoder.add(quantized(level)) }
    try encoder.finish()
    // One graphic control block (21 F9 04, then flags and the delay), for all three frames.
    let bytes = output.bytes
    let controls = (0..<(bytes.count - 5)).filter {
      Array(bytes[$0..<($0 + 3)]) == [0x21, 0xF9, 4]
    }
    #expect(controls.count == 1)
    let delay = controls.first.map { Int(bytes[$0 + 4]) | Int(bytes[$0 + 5]) << 8 }
    #expect(delay == 30)  // centiseconds: three frames at 10 fps
  }

  /// A pixel stays as the screen shows it only while that is within the
  /// tolerance (1 level, summed over the channels) of the palette's colour
  /// for the truth of each frame: red creeping a level a frame, with an exact
  /// palette, is stored again every second frame and never drifts further
  /// (judged against the colour last stored, it would drift a level more).
  @Test func gifKeepsAPixelOnlyWithinTheToleranceOfEachFramesTruth() throws {
    let output = MemoryOutput()
    let encoder = GIFEncoder(
      output: output, count: 5, timing: FrameTiming(fps: 10), transparent: false)
    for red: UInt32 in 100...104 {
      var source = Self.solid(100)
      for i in stride(from: 0, to: source.pixels.count, by: 4) { source.pixels[i] = UInt8(red) }
      let color: UInt32 = red | 0x0064_6400 | 0xFF00_0000  // green and blue 100
      try encoder.add(
        QuantizedFrame(
          width: 6, height: 4, indices: [UInt8](repeating: 0, count: 24), colors: [color],
          source: source.pixels))
    }
    try encoder.finish()
    let bytes = output.bytes
    let controls = (0..<(bytes.count - 5)).filter {
      Array(bytes[$0..<($0 + 3)]) == [0x21, 0xF9, 4]
    }
    let delays = controls.map { Int(bytes[$0 + 4]) | Int(bytes[$0 + 5]) << 8 }
    // Frame 1 shows for frames 1–2 (101 is within a level of it), frame 3
    // (102) for 3–4, frame 5 (104) for itself.
    #expect(PaletteQuantizer.keepTolerance == 1)
    #expect(delays == [20, 20, 10])
  }
}
