import Foundation
import MorphCore
import MorphHost
import MorphRender
import MorphScript

/// One export in one call: what to play, how to draw it, and where to write it.
///
/// ```swift
/// let written = try Exporter(plugin: "flip.lua", timeline: .progress(frames: 24), scale: 2)
///   .write(to: URL(fileURLWithPath: "flip.gif"))
/// print(written.summary)  // wrote flip.gif (GIF, 24 frames, a palette per frame)
/// ```
///
/// Frames stream through a bounded pipeline: each is made on one Lua state,
/// rasterised (and for some formats encoded) on worker threads and written
/// in order, so memory grows neither with the number of frames nor with
/// their size, and the output is the same byte for byte whatever `threads` is.
/// A failed export leaves nothing behind.
public struct Exporter: Sendable {
  /// The plugin (a component) or scene file, by path.
  public var plugin: String
  /// Which frames: controlled mode over progress, or the input played through time.
  public var timeline: ExportTimeline
  /// Pixels per point, within `CairoRenderer.scaleRange`.
  public var scale: Double
  /// The canvas colour; nil keeps the canvas transparent.
  public var background: Color?
  /// Props, reduce motion, script limits and where the plugin's `print` goes.
  public var component: ComponentOptions
  /// The input played in time mode (`InputScript.default`, nothing, unless given).
  public var input: InputScript
  /// Each format's settings: loops, hold, palettes, quality…
  public var encoding: EncodingOptions
  /// Rasterising threads; the output is the same whatever their number.
  public var threads: Int
  /// Points of canvas around the document's frame.
  public var margin: Double = DocumentHost.defaultMargin
  /// Lottie and dotLottie: where to write how each item mapped (JSON; see
  /// docs/lottie.md); nil writes none. `Written.fidelity` holds it either way.
  public var fidelityReport: String?

  /// Files the caller read for this run beyond the plugin and its imports (the input
  /// script): no output may be written over one of them, nor over the plugin or its imports.
  public var reads = RunInputs()

  /// The ffmpeg program MP4 and WebM go through (`VideoEncoder.locate(searchPath:)` finds
  /// one); nil: a video export fails, saying ffmpeg is needed.
  public var ffmpeg: String?

  /// Where a warning goes (a progress outside the plugin's `progressRange`): one line,
  /// the run goes on.
  public var warn: @Sendable (String) -> Void = { _ in }

  /// Bytes an export's frames may hold at once (see `FrameStream`).
  public static var bytesInFlight: Int { FrameStream.bytesInFlight }

  public init(
    plugin: String, timeline: ExportTimeline = .progress(frames: ExportTimeline.defaultFrames),
    scale: Double = 1,
    background: Color? = .white, props: [(key: String, value: String)] = [],
    reduceMotion: Bool = false, input: InputScript = .default,
    encoding: EncodingOptions = EncodingOptions(),
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) {
    self.plugin = plugin
    self.timeline = timeline
    self.scale = scale
    self.background = background
    component = ComponentOptions(props: props, reduceMotion: reduceMotion)
    self.input = input
    self.encoding = encoding
    self.threads = threads
  }

  /// What an export wrote.
  public struct Written: Sendable {
    public var path: String
    public var format: ExportFormat
    public var frames: Int
    public var width: Int
    public var height: Int
    /// One line saying what was written, e.g. `wrote a.gif (GIF, 24 frames, a palette per frame)`.
    public var summary: String
    /// Lottie and dotLottie: how each item mapped (native, approximated, baked).
    public var fidelity: LottieFidelityReport?
  }

  /// Writes every frame to `url` in `format` (nil: from the extension; no
  /// extension or an existing folder is a folder of PNGs). Everything that can
  /// be checked is checked before the first frame renders; `observer` sees
  /// each frame written and can stop the export.
  @discardableResult
  public func write(
    to url: URL, format: ExportFormat? = nil, observer: ExportObserver = ExportObserver()
  ) throws(ExportError) -> Written {
    do {
      return try run(path: url.path, format: format ?? ExportFormat.forPath(url.path), observer)
    } catch {
      throw ExportError.wrap(error)
    }
  }

  private func run(path: String, format: ExportFormat, _ observer: ExportObserver) throws
    -> Written
  {
    try timeline.check()
    try encoding.check(for: format)
    try checkScale()
    guard threads >= 1 else {
      throw ExportError.invalidSetting("threads must be at least 1, got \(threads)")
    }
    try format.checkDestination(path)
    // The plugin's own file is refused before it runs; its imports once they are known.
    let file = BundledPlugins.plugin(atPath: plugin) == nil ? [plugin] : []
    try checkOutputs([(path, "-o"), (fidelityReport, "--report")], sources: file)
    let makeSource = { [plugin, timeline, component, input, margin] in
      try FrameSource(
        plugin, timeline: timeline, component: component, input: input, margin: margin)
    }
    let source = try makeSource()
    try checkOutputs([(path, "-o"), (fidelityReport, "--report")], sources: source.sourceFiles)
    if format.isVector { return try writeVector(source, path: path, format: format, observer) }
    let (width, height) = try CairoRenderer.pixelSize(source.canvas, scale: scale)
    try format.checkSize(width: width, height: height)
    ByteBudget.returnLargeBuffers()
    let (scale, background) = (scale, background)
    let stream = try FrameStream(
      first: source, makeSource: makeSource, count: timeline.frameCount,
      passes: encoding.sharesOnePalette(format) ? 2 : 1, threads: threads, observer: observer
    ) { list, renderer in try renderer.render(list, scale: scale, background: background) }
    let writer = ExportWriter(
      stream: stream, format: format, path: path, encoding: encoding,
      timing: FrameTiming(fps: timeline.fps, hold: encoding.hold, loops: encoding.loops),
      background: background, size: (width, height), ffmpeg: ffmpeg)
    let summary = try writer.write()
    return Written(
      path: path, format: format, frames: timeline.frameCount, width: width, height: height,
      summary: summary)
  }

  /// Lottie: the display lists themselves, so neither scale nor threads apply;
  /// the size is the canvas in points.
  private func writeVector(
    _ source: FrameSource, path: String, format: ExportFormat, _ observer: ExportObserver
  ) throws -> Written {
    if let fidelityReport { try OutputFile.checkReplaceable(fidelityReport) }
    let export = LottieExport(
      format: format, path: path, reportPath: fidelityReport, fps: timeline.fps,
      count: timeline.frameCount, background: background)
    let (summary, report) = try export.write(source, observer: observer)
    return Written(
      path: path, format: format, frames: timeline.frameCount,
      width: Int(source.canvas.width.rounded()), height: Int(source.canvas.height.rounded()),
      summary: summary, fidelity: report)
  }

  /// Refuses an output that is a file this run reads, or that another output of it
  /// also names (`--report` and `-o` the same file).
  private func checkOutputs(_ outputs: [(path: String?, option: String)], sources: [String])
    throws(ExportError)
  {
    var inputs = reads
    inputs.add(sources: sources)
    var earlier = RunInputs()
    for case (let path?, let option) in outputs {
      try inputs.check(path, as: option)
      try earlier.check(path, as: option)
      earlier.add("the file \(option) writes", path)
    }
  }

  private func checkScale() throws(ExportError) {
    let range = CairoRenderer.scaleRange
    guard range.contains(scale) else {
      throw .invalidSetting(
        "scale must be in \(String(format: "%g…%g", range.lowerBound, range.upperBound)), "
          + "got \(scale)")
    }
  }

  /// One moment's display list and what it shows (the timeline is not used):
  /// for a text or JSON view of a single frame. `output`, when given, is where the
  /// caller will write it: refused if it is a file the run reads.
  public func frame(at moment: FrameMoment, output: String? = nil) throws(ExportError) -> (
    list: DisplayList, summary: SceneSummary
  ) {
    do {
      let frame = try FrameSource.frame(
        plugin, at: moment, component: component, input: input, margin: margin
      ) { document in
        try checkOutputs([(output, "-o")], sources: document.sourceFiles)
        if case .progress(let p) = moment, document.component != nil {
          let range = document.progressRange
          if !range.contains(p) {
            warn(
              "--progress \(String(format: "%g", p)) is outside the plugin's progressRange "
                + "\(String(format: "%g", range.lowerBound))…\(String(format: "%g", range.upperBound)); "
                + "the plugin may clamp it")
          }
        }
      }
      return (frame.list, frame.summary)
    } catch {
      throw ExportError.wrap(error)
    }
  }

  /// One moment as an SVG or PDF document over `background`, drawn by the same code as
  /// `writeFrame`'s PNG (text as glyph outlines, images embedded); one document unit is one
  /// pixel of that PNG. Returns the bytes written.
  @discardableResult
  public func writeVectorFrame(to url: URL, at moment: FrameMoment, format: VectorFormat)
    throws(ExportError) -> [UInt8]
  {
    do {
      try checkScale()
      try OutputFile.checkReplaceable(url.path)
      let bytes = try CairoRenderer().renderVector(
        try frame(at: moment, output: url.path).list, format: format, scale: scale,
        background: background)
      try OutputFile.write(bytes, to: url.path)
      return bytes
    } catch {
      throw ExportError.wrap(error)
    }
  }

  /// One moment as a PNG file at `scale` over `background`; the image written.
  @discardableResult
  public func writeFrame(to url: URL, at moment: FrameMoment) throws(ExportError) -> RasterImage {
    do {
      try checkScale()
      try OutputFile.checkReplaceable(url.path)
      let image = try CairoRenderer().render(
        try frame(at: moment, output: url.path).list, scale: scale, background: background)
      try OutputFile.write(try image.pngData(), to: url.path)
      return image
    } catch {
      throw ExportError.wrap(error)
    }
  }
}
