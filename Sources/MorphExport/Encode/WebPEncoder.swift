import CWebP
import MorphRender

/// An animated WebP through libwebp's WebPAnimEncoder: lossless unless a
/// quality is given, alpha kept. The encoder holds the compressed frames (it
/// chooses key frames and sub-rectangles itself) and the file is written at the
/// end; single-threaded encoding keeps the bytes the same on every run.
public final class WebPEncoder: AnimationEncoder {
  let output: any EncodedOutput
  let count: Int
  let timing: FrameTiming
  private var config = WebPConfig()
  private var encoder: OpaquePointer?
  private var index = 0

  /// `quality` in 0…100 makes a lossy file; nil keeps it lossless.
  public init(output: any EncodedOutput, count: Int, timing: FrameTiming, quality: Double?)
    throws(RenderError)
  {
    self.output = output
    self.count = count
    self.timing = timing
    guard WebPConfigInit(&config) != 0 else {
      throw .encoder("libwebp is not the version built against")
    }
    if let quality {
      config.lossless = 0
      config.quality = Float(quality)
    } else {
      config.lossless = 1
      config.quality = 75  // effort, for lossless
    }
    config.method = 4
    config.thread_level = 0
    config.exact = 1  // keep the colour of transparent pixels as rendered
    guard WebPValidateConfig(&config) != 0 else { throw .encoder("libwebp refused the settings") }
  }

  deinit {
    if let encoder { WebPAnimEncoderDelete(encoder) }
  }

  public func add(_ frame: RasterImage) throws {
    defer { index += 1 }
    if encoder == nil {
      var options = WebPAnimEncoderOptions()
      guard WebPAnimEncoderOptionsInit(&options) != 0 else {
        throw RenderError.encoder("libwebp's animation encoder is not the version built against")
      }
      options.anim_params.loop_count = Int32(clamping: timing.loops)
      options.allow_mixed = 0
      encoder = WebPAnimEncoderNew(Int32(frame.width), Int32(frame.height), &options)
      guard encoder != nil else {
        throw RenderError.encoder("libwebp cannot animate \(frame.width)×\(frame.height) frames")
      }
    }
    var picture = WebPPicture()
    guard WebPPictureInit(&picture) != 0 else {
      throw RenderError.encoder("libwebp picture failed")
    }
    picture.use_argb = 1
    picture.width = Int32(frame.width)
    picture.height = Int32(frame.height)
    defer { WebPPictureFree(&picture) }
    let imported = frame.pixels.withUnsafeBufferPointer {
      WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.width * 4))
    }
    guard imported != 0 else {
      throw RenderError.encoder("libwebp could not take frame \(index + 1)")
    }
    guard WebPAnimEncoderAdd(encoder, &picture, timestamp(index), &config) != 0 else {
      throw RenderError.encoder("libwebp could not encode frame \(index + 1): \(lastError)")
    }
  }

  /// Milliseconds from the start to frame `index`.
  private func timestamp(_ index: Int) -> Int32 {
    Int32(timing.duration(0, index, count: count, unitsPerSecond: 1000))
  }

  private var lastError: String {
    WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
  }

  public func finish() throws {
    guard let encoder else { throw RenderError.invalidFrames("an animation needs frames") }
    guard WebPAnimEncoderAdd(encoder, nil, timestamp(count), nil) != 0 else {
      throw RenderError.encoder("libwebp could not end the animation: \(lastError)")
    }
    var data = WebPData()
    WebPDataInit(&data)
    defer { WebPDataClear(&data) }
    guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
      throw RenderError.encoder("libwebp could not assemble the animation: \(lastError)")
    }
    try output.write(Array(UnsafeBufferPointer(start: bytes, count: data.size)))
  }
}
