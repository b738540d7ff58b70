import Foundation
import MorphCore
import MorphHost
import MorphRender
import MorphScript

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which frames an export makes: a component in controlled mode over a
/// range of progress, or the component played through time.
public enum ExportTimeline: Sendable, Equatable {
  /// `frames` frames evenly from progress A to B, both included (nil: the
  /// plugin's own `progressRange`).
  case progress(ClosedRange<Double>? = nil, frames: Int)
  /// The input played for `duration` seconds: a frame every 1/`fps` s from
  /// 0 up to and including `duration`, or exactly `frames` frames spread
  /// over it, both ends included (a filmstrip's).
  case time(duration: Double, fps: Double, frames: Int? = nil)

  /// The most frames one export makes.
  public static let maxFrames = 10_000
  /// The longest input played, in seconds.
  public static let maxDuration = 600.0

  /// Frames at 0, 1/fps, … up to and including `duration`.
  public static func frameCount(duration: Double, fps: Double) -> Int {
    let count = (duration * fps + 1e-9).rounded(.down)
    return count < Double(Int.max / 2) ? Int(count) + 1 : Int.max / 2
  }

  /// How many frames the timeline makes.
  public var frameCount: Int {
    switch self {
    case .progress(_, let frames): frames
    case .time(_, _, let n?): n
    case .time(let duration, let fps, nil): Self.frameCount(duration: duration, fps: fps)
    }
  }

  /// Frames when none are asked for (controlled mode).
  public static let defaultFrames = 24
  /// Frames per second when none are asked for: a timeline through time's, and every
  /// controlled-mode animation's.
  public static let defaultFPS = 30.0
  /// Seconds of input played when only a frame rate is given.
  public static let defaultDuration = 1.0

  /// Frames per second of the animation written: the rate the frames were sampled at, so
  /// it plays in real time. Exactly `frames` frames over `duration` are 1 / (frames − 1)
  /// of it apart, whatever `fps` says; controlled mode plays at `defaultFPS`.
  public var fps: Double {
    switch self {
    case .progress: Self.defaultFPS
    case .time(let duration, _, let n?) where n > 1: Double(n - 1) / duration
    case .time(_, let fps, _): fps
    }
  }

  /// Seconds into the input at frame `index` (time mode).
  func seconds(_ index: Int) -> Double {
    switch self {
    case .progress: 0
    case .time(let duration, _, let n?): n == 1 ? 0 : duration * Double(index) / Double(n - 1)
    case .time(_, let fps, nil): Double(index) / fps
    }
  }

  /// `n` progress values evenly over `range`, both ends included.
  static func samples(_ range: ClosedRange<Double>, _ n: Int) -> [Double] {
    n == 1
      ? [range.lowerBound]
      : (0..<n).map {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double($0) / Double(n - 1)
      }
  }

  /// Refuses a timeline with no frames or too many, before anything loads.
  func check() throws(ExportError) {
    if case .time(let duration, let fps, _) = self {
      guard duration > 0, duration <= Self.maxDuration else {
        throw .invalidTimeline(
          "duration must be in (0, \(Self.maxDuration)] seconds, got \(duration)")
      }
      guard VirtualTime.frameRates.contains(fps) else {
        throw .invalidTimeline("fps must be in \(VirtualTime.frameRates), got \(fps)")
      }
    }
    if case .progress(let range?, _) = self,
      !range.lowerBound.isFinite || !range.upperBound.isFinite
    {
      throw .invalidTimeline("progress range must be finite, got \(range)")
    }
    let count = frameCount
    guard count >= 1, count <= Self.maxFrames else {
      throw .invalidTimeline("\(count) frames; an export makes 1…\(Self.maxFrames)")
    }
  }
}

/// Makes an export's display lists one at a time, in order, on one Lua state.
final class FrameSource {
  let canvas: Size
  /// The plugin's file and its imports (`DocumentHost.sourceFiles`).
  let sourceFiles: [String]
  private let make: (Int) throws -> DisplayList
  /// What a filmstrip shows under frame `index`: its time, or its progress.
  let label: (Int) -> String

  init(
    _ path: String, timeline: ExportTimeline, component: ComponentOptions, input: InputScript,
    margin: Double
  ) throws {
    let document = try DocumentHost(path: path, options: component, margin: margin)
    canvas = document.canvas
    sourceFiles = document.sourceFiles
    switch timeline {
    case .progress(let range, let frames):
      let points = ExportTimeline.samples(range ?? document.progressRange, frames)
      make = { try document.frame(progress: points[$0]).list }
      label = { String(format: "%.3g", points[$0]) }
    case .time:
      let host = try document.componentHost(for: "playing input")
      var player = ScriptPlayer(input)
      make = { i in
        try player.play(until: timeline.seconds(i), on: host)
        return try host.frame().list
      }
      label = { String(format: "%.2f s", timeline.seconds($0)) }
    }
  }

  func next(_ index: Int) throws -> DisplayList { try make(index) }

  /// One moment of the document at `path`: its first frame, a progress
  /// value, or its input played to a time. `loaded` sees the document before
  /// anything runs but its top level (a check of what it read).
  static func frame(
    _ path: String, at moment: FrameMoment, component: ComponentOptions, input: InputScript,
    margin: Double, loaded: (DocumentHost) throws -> Void = { _ in }
  ) throws -> ComponentHost.Frame {
    let document = try DocumentHost(path: path, options: component, margin: margin)
    try loaded(document)
    switch moment {
    case .initial: return try document.frame(progress: nil)
    case .progress(let progress): return try document.frame(progress: progress)
    case .time(let seconds):
      var player = ScriptPlayer(input)
      try player.play(until: seconds, on: try document.componentHost(for: "playing input"))
      return try document.frame(progress: nil)
    }
  }
}

/// One moment of a document, for a single frame.
public enum FrameMoment: Sendable, Equatable {
  /// The state it starts in.
  case initial
  /// Controlled mode at this progress value.
  case progress(Double)
  /// Its input (`InputScript.default`, nothing, unless given) played to this many seconds.
  case time(Double)
}

/// What an export tells whoever started it as it goes, and how it is stopped.
public struct ExportObserver {
  /// Called on the exporting thread after each frame is written: frames done
  /// and the total (twice the frame count when a shared palette takes two passes).
  public var frameDone: (_ done: Int, _ total: Int) -> Void
  /// Asked before each frame is made; true stops the export with
  /// `ExportError.cancelled`, removing what it wrote.
  public var isCancelled: () -> Bool

  public init(
    frameDone: @escaping (_ done: Int, _ total: Int) -> Void = { _, _ in },
    isCancelled: @escaping () -> Bool = { false }
  ) {
    self.frameDone = frameDone
    self.isCancelled = isCancelled
  }
}

/// An export's frames on their way to one output, through a `FramePipeline`:
/// made in order, rasterised (and for some formats encoded) on the workers,
/// handed over in order. Cancellation is noticed before each frame is made.
final class FrameStream {
  /// Bytes an export's frames may hold at once, shared by the frame queue
  /// and an APNG's compressions. At scale 2 (856×576 for the deck fan) a
  /// frame holds a few MB, so the counts (frames per worker, compressions
  /// waiting) bind first and nothing waits longer than before; at scale 8
  /// (3424×2304, 32 MB a raster, about 95 MB a frame while it is compressed)
  /// it lets one frame compress while the next renders, and keeps peak RSS
  /// under 400 MB. A frame larger than this still goes, alone.
  static let bytesInFlight = 160 << 20

  let source: FrameSource
  /// A fresh source for a second pass over the same frames (a shared GIF palette).
  let makeSource: () throws -> FrameSource
  let count: Int
  let threads: Int
  let observer: ExportObserver
  /// Frames the whole export hands over (the count once per pass).
  let total: Int
  private var done = 0
  let render: @Sendable (DisplayList, CairoRenderer) throws -> RasterImage
  /// What the frames in flight may hold, shared with the stages after them.
  let budget = ByteBudget(limit: FrameStream.bytesInFlight)

  init(
    first: FrameSource, makeSource: @escaping () throws -> FrameSource, count: Int, passes: Int,
    threads: Int, observer: ExportObserver,
    render: @escaping @Sendable (DisplayList, CairoRenderer) throws -> RasterImage
  ) {
    source = first
    self.makeSource = makeSource
    self.count = count
    total = count * passes
    self.threads = threads
    self.observer = observer
    self.render = render
  }

  /// Runs every frame of `source` through `work` (on the workers) into
  /// `consume` (in order), each frame holding `frameBytes` of the budget
  /// from before it is made until it is consumed.
  func run<Result>(
    _ source: FrameSource, frameBytes: Int,
    work: @escaping @Sendable (RasterImage) throws -> Result,
    consume: (Int, Result) throws -> Void
  ) throws {
    let render = self.render
    try FramePipeline.run(
      count: count, workers: threads, budget: budget, frameBytes: frameBytes,
      produce: { i in
        try checkCancelled()
        return try source.next(i)
      },
      work: { list, renderer in try work(try render(list, renderer)) },
      consume: { i, result in
        try consume(i, result)
        done += 1
        observer.frameDone(done, total)
      })
    try checkCancelled()
  }

  private func checkCancelled() throws(ExportError) {
    if observer.isCancelled() { throw .cancelled }
  }

  /// Every frame as a raster, in order, each holding `frameBytes` (at least its raster).
  func rasters(
    _ source: FrameSource? = nil, frameBytes: Int,
    _ consume: (Int, RasterImage) throws -> Void
  ) throws {
    try run(source ?? self.source, frameBytes: frameBytes, work: { $0 }, consume: consume)
  }
}

/// A numbered PNG sequence in a folder, written frame by frame. Unless kept,
/// a failed export removes what it wrote (and the folder, if it made it).
final class PNGSequence {
  let folder: String
  private let madeFolder: Bool
  private var written: [String] = []
  private var kept = false

  init(_ folder: String) throws(ExportError) {
    self.folder = folder
    madeFolder = !FileManager.default.fileExists(atPath: folder)
    if madeFolder && mkdir(folder, 0o777) != 0 { throw .unwritable(folder, errno: errno) }
  }

  /// The name of frame `index` (from 0) in the folder: `frame-0001.png` for the first.
  static func name(_ index: Int) -> String { String(format: "frame-%04d.png", index + 1) }

  func write(_ png: [UInt8], frame index: Int) throws(ExportError) {
    let path = folder + "/" + Self.name(index)
    try OutputFile.write(png, to: path)
    written.append(path)
  }

  func keep() { kept = true }

  deinit {
    guard !kept else { return }
    for path in written { unlink(path) }
    if madeFolder { rmdir(folder) }
  }
}
