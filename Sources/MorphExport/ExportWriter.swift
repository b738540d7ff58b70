import Foundation
import MorphCore
import MorphRender

/// An `OutputFile` as an encoder's destination.
final class FileOutput: EncodedOutput {
  let file: OutputFile

  init(_ file: OutputFile) { self.file = file }

  func write(_ bytes: [UInt8]) throws { try file.write(bytes) }
  func patch(_ bytes: [UInt8], at offset: Int) throws { try file.patch(bytes, at: offset) }
}

/// Writes one export in its format; returns the line saying what it wrote.
struct ExportWriter {
  let stream: FrameStream
  let format: ExportFormat
  let path: String
  let encoding: EncodingOptions
  let timing: FrameTiming
  let background: Color?
  let size: (width: Int, height: Int)
  /// The ffmpeg program video goes through (nil: none).
  let ffmpeg: String?

  var count: Int { stream.count }

  /// Pixels in a frame.
  var pixels: Int { size.width * size.height }

  /// What a frame holds from being made until it is handed over, in bytes:
  /// its raster, or for a frame encoded on a worker (a PNG, a quantized GIF
  /// frame) the raster and the encoder's buffers beside it (PNG: filtered
  /// rows and deflate's output; GIF: libimagequant's image and remap, the
  /// indices).
  var rasterBytes: Int { pixels * 4 }
  var encodedFrameBytes: Int { pixels * 12 }
  /// What libwebp's animation encoder keeps while it runs, set aside from
  /// the frames' room: about four canvases of the frame's size (the picture
  /// it imports, the previous canvas and its disposed copy, the sub-frame
  /// it tries). At scale 8 without it the WebP export peaked at 458 MB.
  var webPEncoderBytes: Int { pixels * 16 }

  func write() throws -> String {
    switch format {
    case .pngSequence: return try sequence()
    case .filmstrip: return try filmstrip()
    case .lottie, .dotLottie: preconditionFailure("vector formats are written by LottieExport")
    case .apng:
      if let colors = encoding.colors { return try indexedAPNG(colors: colors) }
      // Each frame reserves what its compression will hold, which it takes over.
      let compression = encoding.apngCompression
      let bytes = APNGEncoder.bytesInFlight(
        width: size.width, height: size.height, compression: compression)
      return try animation(
        encoding.optimize ? "animated PNG, optimized" : "animated PNG", frameBytes: bytes
      ) {
        APNGEncoder(
          output: $0, count: count, timing: timing, opaque: (background?.alpha ?? 0) == 1,
          compression: compression, budget: stream.budget,
          isCancelled: stream.observer.isCancelled)
      }
    case .webp:
      return try animation(
        encoding.quality == nil ? "animated WebP, lossless" : "animated WebP",
        encoderBytes: webPEncoderBytes
      ) {
        try WebPEncoder(
          output: $0, count: count, timing: timing, quality: encoding.quality)
      }
    case .gif: return try gif()
    case .mp4: return try video(.h264, "MP4, H.264")
    case .webm: return try video(.vp9, "WebM, VP9")
    }
  }

  /// Frames in order into an encoder that writes `path`, committed at the end.
  private func animation(
    _ kind: String, frameBytes: Int? = nil, encoderBytes: Int = 0,
    _ make: (FileOutput) throws -> some AnimationEncoder
  ) throws -> String {
    stream.budget.setAside(encoderBytes)
    defer { stream.budget.endAside(encoderBytes) }
    let file = try OutputFile(path)
    var encoder = try make(FileOutput(file))
    try stream.rasters(frameBytes: frameBytes ?? rasterBytes) { _, frame in
      try encoder.add(frame)
    }
    try encoder.finish()
    try file.commit()
    return "wrote \(path) (\(kind), \(count) frames)"
  }

  private func gif() throws -> String {
    let file = try OutputFile(path)
    let encoder = GIFEncoder(
      output: FileOutput(file), count: count, timing: timing,
      transparent: background == nil, lossy: encoding.lossy)
    let quantizer = encoding.gifQuantizer
    if encoding.sharesOnePalette(.gif) {
      try sharedPalette(quantizer) { try encoder.add($0) }
    } else {
      try stream.run(
        stream.source, frameBytes: encodedFrameBytes,
        work: { try PaletteQuantizer.quantize($0, quantizer) },
        consume: { _, frame in try encoder.add(frame) })
    }
    try encoder.finish()
    try file.commit()
    let palette = encoding.sharedPalette ? "one palette" : "a palette per frame"
    return "wrote \(path) (GIF, \(count) frames, \(palette))"
  }

  /// One palette for every frame, in two passes over the same frames:
  /// count every colour, then remap each frame into `consume`.
  private func sharedPalette(
    _ settings: PaletteQuantizer.Settings, _ consume: (QuantizedFrame) throws -> Void
  ) throws {
    let palette = try PaletteQuantizer.SharedPalette(settings)
    try stream.rasters(frameBytes: rasterBytes) { _, frame in try palette.add(frame) }
    try stream.rasters(try stream.makeSource(), frameBytes: rasterBytes) { _, frame in
      try consume(palette.remap(frame))
    }
  }

  private func indexedAPNG(colors: Int) throws -> String {
    let file = try OutputFile(path)
    var encoder = IndexedAPNGEncoder(
      output: FileOutput(file), count: count, timing: timing)
    try sharedPalette(PaletteQuantizer.Settings(dither: encoding.dither, colors: colors)) {
      try encoder.add($0)
    }
    try encoder.finish()
    try file.commit()
    return
      "wrote \(path) (animated PNG, \(count) frames, indexed: one palette of at most \(colors) colours)"
  }

  private func video(_ codec: VideoEncoder.Codec, _ kind: String) throws -> String {
    let file = try OutputFile(path)
    let encoder = try VideoEncoder(
      file: file, codec: codec, width: size.width, height: size.height, timing: timing,
      crf: encoding.crf, background: background, program: ffmpeg)
    try stream.rasters(frameBytes: rasterBytes) { _, frame in try encoder.add(frame) }
    try encoder.finish()
    try file.commit()
    return "wrote \(path) (\(kind), \(count) frames)"
  }

  /// PNGs encoded on the workers, written as they come.
  private func sequence() throws -> String {
    let sequence = try PNGSequence(path)
    try stream.run(
      stream.source, frameBytes: encodedFrameBytes, work: { try $0.pngData() },
      consume: { i, png in try sequence.write(png, frame: i) })
    sequence.keep()
    return "wrote \(count) frames to \(path)/"
  }

  /// The sheet is laid out (and an oversized one refused) before any frame renders.
  private func filmstrip() throws -> String {
    let layout = Filmstrip.Layout(
      count: count, frameWidth: size.width, frameHeight: size.height, columns: encoding.columns,
      labelHeight: encoding.labels ? Filmstrip.labelHeight(frameHeight: size.height) : 0)
    var sheet = try Filmstrip.Sheet(layout)
    try stream.rasters(frameBytes: rasterBytes) { i, frame in try sheet.place(frame, at: i) }
    if encoding.labels { try sheet.label((0..<count).map(stream.source.label)) }
    try OutputFile.write(try sheet.image.pngData(), to: path)
    return "wrote \(path) (\(count) frames, \(sheet.image.width)×\(sheet.image.height))"
  }
}
