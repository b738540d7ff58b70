import CMorphEncode
import Foundation
import MorphRender

/// An animated PNG made small: after the first frame, each frame stores only
/// the rectangle that changed. Where every changed pixel is opaque the
/// rectangle blends over the previous frame with unchanged pixels cleared
/// (they compress to almost nothing); otherwise it replaces its area. Nothing
/// is disposed, so the canvas always holds the previous frame. Identical
/// frames merge into one longer delay; the frame count in the header is
/// patched at the end, so frames still stream. An animation known to be
/// opaque (an opaque background) is stored as RGB, colour type 2: a quarter
/// fewer bytes to compress, about 7 % smaller on the deck fan; without alpha
/// nothing can be cleared, so each rectangle replaces its area.
public struct APNGEncoder: AnimationEncoder {
  /// Every frame is opaque: stored as RGB.
  var opaque: Bool { compressor.opaque }
  private let compressor: Compressor
  private var frames: APNGFrames
  private var previous: RasterImage?
  private var index = 0

  typealias Part = APNGFrames.Part

  /// Animations are written once and watched often: libdeflate's level 9 (the default
  /// `APNGCompression`; `--optimize` is zopfli),
  /// a little slower than the PNG sequence's level, for smaller files. Level
  /// 12 was measured on deck_fan at 2× (`bench --export`): 13 % smaller at
  /// about seven times the time (0.6 s of CPU a frame, 38 s for 60 frames,
  /// on one thread), too slow a default for a review export.
  public static let defaultLevel: Int32 = 9

  /// What compressing one `width`×`height` frame holds, in bytes: the frame
  /// (the one before it is the previous frame's) and its rectangle cropped,
  /// filtered and deflated, at most two of those buffers at a time (the crop
  /// is freed before deflating; RGBA's two candidates are made one after
  /// the other). An export reserves this much for each frame before making it.
  public static func bytesInFlight(
    width: Int, height: Int, compression: APNGCompression = .standard
  ) -> Int {
    width * height * (4 + (1 + compression.filteredBuffers) * 4)
  }

  /// `budget`, when given, is charged `bytesInFlight` for each frame while it
  /// compresses (the export released the frame's own reservation as it handed
  /// the frame over).
  /// `isCancelled` is asked while a frame's compression is waited for (an optimized
  /// frame takes seconds): true stops the export with `ExportError.cancelled` at once, and
  /// compressions not yet done stop at their next step.
  public init(
    output: any EncodedOutput, count: Int, timing: FrameTiming, opaque: Bool = false,
    compression: APNGCompression = .standard, budget: ByteBudget? = nil,
    isCancelled: @escaping () -> Bool = { false }
  ) {
    let stop = CancelFlag()
    frames = APNGFrames(
      output: output, count: count, timing: timing, budget: budget, stop: stop,
      isCancelled: isCancelled)
    compressor = Compressor(opaque: opaque, compression: compression, stop: stop)
  }

  private var frameBytes: (RasterImage) -> Int {
    { [compression = compressor.compression] in
      Self.bytesInFlight(width: $0.width, height: $0.height, compression: compression)
    }
  }

  public mutating func add(_ frame: RasterImage) throws {
    defer { index += 1 }
    guard let previous else {
      try start(frame)
      return
    }
    guard frame.width == previous.width, frame.height == previous.height else {
      throw RenderError.invalidFrames("frame \(index + 1) differs in size from frame 1")
    }
    try checkOpaque(frame)
    var rect: [Int32] = [0, 0, 0, 0]
    let changed = previous.pixels.withUnsafeBufferPointer { a in
      frame.pixels.withUnsafeBufferPointer { b in
        morph_diff_rect(
          a.baseAddress, b.baseAddress, Int32(frame.width), Int32(frame.height), &rect)
      }
    }
    guard changed != 0 else {
      frames.repeatShown(index)
      return
    }
    let (compressor, box) = (self.compressor, rect.map(Int.init))
    try frames.show(
      { try compressor.part(frame, over: previous, rect: box) }, from: index,
      bytes: frameBytes(frame))
    self.previous = frame
  }

  public mutating func finish() throws { try frames.finish() }

  /// An opaque animation stored as RGB must be opaque, or it would lose its alpha.
  private func checkOpaque(_ frame: RasterImage) throws {
    guard opaque else { return }
    let all = frame.pixels.withUnsafeBufferPointer {
      morph_opaque($0.baseAddress, frame.width * frame.height)
    }
    guard all != 0 else {
      throw RenderError.invalidFrames("frame \(index + 1) is not opaque although its background is")
    }
  }

  private mutating func start(_ frame: RasterImage) throws {
    try checkOpaque(frame)
    try frames.start(
      header: PNGEncoder.header(
        width: frame.width, height: frame.height, channels: compressor.channels))
    let compressor = self.compressor
    try frames.show(
      { try compressor.whole(frame) }, from: 0, bytes: frameBytes(frame))
    previous = frame
  }
}

extension APNGEncoder {
  /// How frames become stored parts: pure, so they are compressed on other
  /// threads (`APNGFrames`).
  struct Compressor: Sendable {
    let opaque: Bool
    let compression: APNGCompression
    /// Set when the export stops: compressions still to run give up.
    var stop = CancelFlag()

    var channels: Int { opaque ? 3 : 4 }

    /// The first frame, whole.
    func whole(_ frame: RasterImage) throws -> Part {
      let data =
        opaque
        ? try rgb(frame, rect: [0, 0, frame.width, frame.height])
        : try frame.pixels.withUnsafeBufferPointer { buffer in
          try compression.compress(
            buffer.baseAddress!, stride: frame.width * 4, width: frame.width,
            height: frame.height, channels: 4, stop: stop)
        }
      return Part(rect: (0, 0, frame.width, frame.height), blendOver: false, data: data)
    }

    /// `rect` of an opaque frame as RGB, compressed.
    func rgb(_ frame: RasterImage, rect: [Int]) throws -> [UInt8] {
      try compressed(width: rect[2], height: rect[3], channels: 3) {
        var crop = [UInt8](repeating: 0, count: rect[2] * rect[3] * 3)
        frame.pixels.withUnsafeBufferPointer { b in
          crop.withUnsafeMutableBufferPointer {
            morph_crop_rgb(b.baseAddress, Int32(frame.width), rect.map(Int32.init), $0.baseAddress)
          }
        }
        return crop
      }
    }

    /// The pixels `makeCrop` returns, filtered and deflated. Unless filters are tried (which
    /// needs it throughout), the crop is freed once filtered, before deflating.
    func compressed(width: Int, height: Int, channels: Int, _ makeCrop: () -> [UInt8])
      throws -> [UInt8]
    {
      if compression.triesFilters {
        return try makeCrop().withUnsafeBufferPointer {
          try compression.compress(
            $0.baseAddress!, stride: width * channels, width: width, height: height,
            channels: channels, stop: stop)
        }
      }
      let filtered = makeCrop().withUnsafeBufferPointer {
        PNGEncoder.filteredRows(
          $0.baseAddress!, stride: width * channels, width: width, height: height,
          channels: channels)
      }
      return try compression.deflate(filtered, stop: stop)
    }

    /// The changed rectangle of `frame`, cropped and compressed. Where it may
    /// blend over, both ways are compressed and the smaller kept (clearing
    /// unchanged pixels helps flat areas and hurts gradients), as ffmpeg does.
    func part(_ frame: RasterImage, over previous: RasterImage, rect: [Int]) throws -> Part {
      let box = (rect[0], rect[1], rect[2], rect[3])
      if opaque { return Part(rect: box, blendOver: false, data: try rgb(frame, rect: rect)) }
      let replaced = try crop(frame, over: previous, rect: rect, clearUnchanged: false)
      let changesOpaque = previous.pixels.withUnsafeBufferPointer { a in
        frame.pixels.withUnsafeBufferPointer { b in
          morph_changes_opaque(
            a.baseAddress, b.baseAddress, Int32(frame.width), rect.map(Int32.init))
        }
      }
      guard changesOpaque != 0 else { return Part(rect: box, blendOver: false, data: replaced) }
      let blended = try crop(frame, over: previous, rect: rect, clearUnchanged: true)
      return blended.count <= replaced.count
        ? Part(rect: box, blendOver: true, data: blended)
        : Part(rect: box, blendOver: false, data: replaced)
    }

    func crop(
      _ frame: RasterImage, over previous: RasterImage, rect: [Int], clearUnchanged: Bool
    )
      throws -> [UInt8]
    {
      try compressed(width: rect[2], height: rect[3], channels: 4) {
        var crop = [UInt8](repeating: 0, count: rect[2] * rect[3] * 4)
        previous.pixels.withUnsafeBufferPointer { a in
          frame.pixels.withUnsafeBufferPointer { b in
            crop.withUnsafeMutableBufferPointer {
              morph_crop(
                a.baseAddress, b.baseAddress, Int32(frame.width), rect.map(Int32.init),
                clearUnchanged ? 1 : 0, $0.baseAddress)
            }
          }
        }
        return crop
      }
    }
  }
}

/// The chunks of an animated PNG, written as its frames come: the header
/// (the frame count is patched in at the end, so frames stream), then each
/// stored frame once the next different one (or the end) says how long it
/// shows. Nothing is disposed, so the canvas always holds the previous frame.
/// Each frame is compressed on another thread while later frames are made
/// (compression is most of an APNG's time, and each frame's depends on its
/// own pixels alone); at most `framesAhead` wait, and while a frame
/// compresses its bytes are charged to the export's budget, which the next
/// frame waits for, so memory stays bounded.
struct APNGFrames {
  let output: any EncodedOutput
  let count: Int
  let timing: FrameTiming
  let budget: ByteBudget?
  /// Raised for the compressions when `isCancelled` says the export stops.
  let stop: CancelFlag
  let isCancelled: () -> Bool
  /// Shown frames not yet written, oldest first; the last one's end may still grow.
  private var waiting: [HeldFrame<Compressing>] = []
  private var started = false
  private var sequence: UInt32 = 0
  /// Frames written so far (identical ones merged).
  private var storedFrames: UInt32 = 0

  /// Frames that may wait, compressing, before the oldest is written: at
  /// least 1, as the last frame shown waits until the next different one
  /// (or the end) says how long it shows.
  static let framesAhead = 4

  /// One stored frame: its rectangle, how it blends, its zlib data.
  struct Part: Sendable {
    var rect: (x: Int, y: Int, width: Int, height: Int)
    var blendOver: Bool
    var data: [UInt8]
  }

  /// A part being made on another thread, holding `bytes` of `budget`
  /// until it is made (the frames it reads are let go first).
  final class Compressing: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once by the worker before `done` is signalled, read after.
    private var result: Result<Part, any Error>?
    // Dropped by the worker once run, with the frames it holds.
    private var make: (@Sendable () throws -> Part)?

    init(_ make: @escaping @Sendable () throws -> Part, budget: ByteBudget?, bytes: Int) {
      self.make = make
      budget?.add(bytes)
      let thread = Thread {
        self.result = Result { try self.make!() }
        self.make = nil
        budget?.release(bytes)
        self.done.signal()
      }
      thread.start()
    }

    /// The part, once made; waits in short steps, asking `isCancelled` between them, so
    /// a stopped export does not wait seconds for a compression it will not use.
    func part(stop: CancelFlag, isCancelled: () -> Bool) throws -> Part {
      while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
        if isCancelled() {
          stop.raise()
          throw ExportError.cancelled
        }
      }
      return try result!.get()  // once: each waiting frame is written once
    }
  }

  /// Where acTL's data lies: after the signature (8), IHDR (25) and acTL's length and type.
  static let frameCountOffset = 8 + 25 + 8

  init(
    output: any EncodedOutput, count: Int, timing: FrameTiming, budget: ByteBudget? = nil,
    stop: CancelFlag = CancelFlag(), isCancelled: @escaping () -> Bool = { false }
  ) {
    self.output = output
    self.count = count
    self.timing = timing
    self.budget = budget
    self.stop = stop
    self.isCancelled = isCancelled
  }

  /// The signature, IHDR (`header`'s data), acTL, then `chunks` (a palette).
  mutating func start(header: [UInt8], chunks: [(type: String, data: [UInt8])] = []) throws {
    var head = PNGChunks.signature
    PNGChunks.append(&head, "IHDR", header)
    PNGChunks.append(&head, "acTL", PNGChunks.be32(0) + loops)
    for chunk in chunks { PNGChunks.append(&head, chunk.type, chunk.data) }
    try output.write(head)
    started = true
  }

  /// The part `make` returns (run on another thread, holding `bytes` of the
  /// budget) shows from frame `index` on; frames shown before it are
  /// written once enough wait.
  mutating func show(
    _ make: @escaping @Sendable () throws -> Part, from index: Int, bytes: Int = 0
  ) throws {
    let compressing = Compressing(make, budget: budget, bytes: bytes)
    waiting.append(HeldFrame(payload: compressing, first: index, end: index + 1))
    while waiting.count > Self.framesAhead { try writeOldest() }
  }

  /// Frame `index` is the same as the one shown last: that shows a frame longer.
  mutating func repeatShown(_ index: Int) {
    if !waiting.isEmpty { waiting[waiting.count - 1].end = index + 1 }
  }

  mutating func finish() throws {
    guard started, !waiting.isEmpty else {
      throw RenderError.invalidFrames("an animation needs frames")
    }
    while !waiting.isEmpty { try writeOldest() }
    var end: [UInt8] = []
    PNGChunks.append(&end, "IEND", [])
    try output.write(end)
    // acTL's data (frame count, plays) and its CRC, now that the count is known.
    let data = PNGChunks.be32(storedFrames) + loops
    try output.patch(
      data + PNGChunks.be32(PNGChunks.crc32(Array("acTL".utf8) + data)),
      at: Self.frameCountOffset)
  }

  private var loops: [UInt8] { PNGChunks.be32(UInt32(clamping: timing.loops)) }

  /// Writes the oldest waiting frame, whose delay is known (a newer one follows it).
  private mutating func writeOldest() throws {
    let held = waiting.removeFirst()
    let part = try held.payload.part(stop: stop, isCancelled: isCancelled)
    let (numerator, denominator) = timing.apngDelay(held.first, held.end, count: count)
    var out: [UInt8] = []
    var control = PNGChunks.be32(sequence)
    control += PNGChunks.be32(UInt32(part.rect.width)) + PNGChunks.be32(UInt32(part.rect.height))
    control += PNGChunks.be32(UInt32(part.rect.x)) + PNGChunks.be32(UInt32(part.rect.y))
    control += PNGChunks.be16(numerator) + PNGChunks.be16(denominator)
    control += [0, part.blendOver ? 1 : 0]  // dispose none; blend over or source
    PNGChunks.append(&out, "fcTL", control)
    sequence += 1
    if held.first == 0 {
      PNGChunks.append(&out, "IDAT", part.data)
    } else {
      PNGChunks.append(&out, "fdAT", PNGChunks.be32(sequence) + part.data)
      sequence += 1
    }
    storedFrames += 1
    try output.write(out)
  }
}

/// A stop request shared with compressions on other threads.
final class CancelFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var raised = false

  func raise() { lock.withLock { raised = true } }
  var isRaised: Bool { lock.withLock { raised } }

  /// Throws `ExportError.cancelled` once raised.
  func check() throws(ExportError) {
    if isRaised { throw .cancelled }
  }
}
