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

/// `morphhost export`: frames for review — a numbered PNG sequence, an
/// animated PNG, or a filmstrip contact sheet.
enum ExportCommand {
  static let usage = """
    Usage: morphhost export PLUGIN -o OUT [options]

    OUT is a folder (a numbered PNG sequence: frame-0001.png …), a .png or
    .apng file (an animated PNG), or with --filmstrip a .png contact sheet.

    What to export (one of):
      --progress-range A:B --frames N   controlled mode: N frames from progress A to B
                                        (default: the plugin's progressRange, 24 frames)
      --duration S --fps F              play the input for S seconds at F frames per second
                                        (default input: one tap at 0; fps default 30)
    Options:
      --input SCRIPT      the input to play with --duration
      --filmstrip N       one image of N frames side by side (--columns C to wrap)
      --scale S           pixels per point (default 1)
      --background C      #RRGGBB[AA], a name, or none (default white)
      --set KEY=VALUE     override a prop (repeatable); --reduce-motion
    """

  enum Timeline {
    case progress(ClosedRange<Double>?, frames: Int)
    case time(duration: Double, fps: Double)
  }

  static func run(_ arguments: [String], output: some TextOutput) throws -> Int32 {
    var options = CommandLineOptions(arguments)
    let play = try PlayOptions(&options)
    guard let out = try options.value("-o") ?? options.value("--output") else {
      throw UsageError("export needs -o OUT (a folder, a .png/.apng file); see --help")
    }
    let scale = try options.double("--scale") ?? 1
    guard scale > 0, scale <= 8 else { throw UsageError("--scale must be in (0, 8], got \(scale)") }
    let background = try RenderRequest.parseBackground(try options.value("--background"))
    let filmstrip = try options.int("--filmstrip")
    let columns = try options.int("--columns")
    let timeline = try readTimeline(&options, filmstrip: filmstrip)
    let given = try options.positional(name: "plugin")
    let path = try resolvePlugin(given, output: output)
    let lists = try displayLists(path, timeline: timeline, play: play)
    let progress = ProgressBar(total: lists.count, enabled: isatty(STDERR_FILENO) == 1)
    let images = try RasterPool.render(lists, scale: scale, background: background) {
      progress.advance()
    }
    progress.finish()
    let written = try write(
      images, to: out, filmstrip: filmstrip != nil, columns: columns, timeline: timeline)
    output.write(written)
    return 0
  }

  static func readTimeline(_ options: inout CommandLineOptions, filmstrip: Int?) throws -> Timeline
  {
    let duration = try options.double("--duration")
    let fps = try options.double("--fps")
    let range = try options.value("--progress-range")
    let frames = try options.int("--frames")
    if let filmstrip, filmstrip < 1 || filmstrip > 100 {
      throw UsageError("--filmstrip must be in 1…100, got \(filmstrip)")
    }
    if duration != nil || fps != nil {
      guard range == nil, frames == nil else {
        throw UsageError("use either --progress-range/--frames or --duration/--fps, not both")
      }
      let d = duration ?? 1
      let f = fps ?? 30
      guard d > 0, d <= 600 else { throw UsageError("--duration must be in (0, 600], got \(d)") }
      guard f > 0, f <= 240 else { throw UsageError("--fps must be in (0, 240], got \(f)") }
      if let n = filmstrip { return .time(duration: d, fps: Double(max(1, n - 1)) / d) }
      return .time(duration: d, fps: f)
    }
    let count = filmstrip ?? frames ?? 24
    guard count >= 1, count <= 10_000 else { throw UsageError("--frames must be in 1…10000") }
    guard let range else { return .progress(nil, frames: count) }
    let parts = range.split(separator: ":").map { Double($0) }
    guard parts.count == 2, let a = parts[0], let b = parts[1], a.isFinite, b.isFinite, a <= b
    else { throw UsageError("--progress-range expects A:B with A <= B, got '\(range)'") }
    return .progress(a...b, frames: count)
  }

  /// Every frame's display list, built in order on one Lua state.
  static func displayLists(_ path: String, timeline: Timeline, play: PlayOptions) throws
    -> [DisplayList]
  {
    let document = try DocumentHost(path: path, options: play.component)
    switch timeline {
    case .progress(let range, let frames):
      return try samples(range ?? document.progressRange, frames).map { p in
        try document.frame(progress: p).list
      }
    case .time(let duration, let fps):
      let host = try document.componentHost(for: "--duration")
      var player = ScriptPlayer(try play.script() ?? .defaultTap)
      let count = Int((duration * fps).rounded(.down)) + 1
      return try (0..<count).map { i in
        try player.play(until: Double(i) / fps, on: host)
        return try host.frame().list
      }
    }
  }

  static func samples(_ r: ClosedRange<Double>, _ n: Int) -> [Double] {
    n == 1
      ? [r.lowerBound]
      : (0..<n).map { r.lowerBound + (r.upperBound - r.lowerBound) * Double($0) / Double(n - 1) }
  }

  static func write(
    _ images: [RasterImage], to out: String, filmstrip: Bool, columns: Int?, timeline: Timeline
  ) throws -> String {
    let ext = URL(fileURLWithPath: out).pathExtension.lowercased()
    if filmstrip {
      guard ext == "png" else {
        throw UsageError("--filmstrip writes one .png image; got '\(out)'")
      }
      let sheet = try Filmstrip.compose(images, columns: columns)
      try sheet.writePNG(to: out)
      return "wrote \(out) (\(images.count) frames, \(sheet.width)×\(sheet.height))"
    }
    if ext == "png" || ext == "apng" {
      let fps: Double
      if case .time(_, let f) = timeline { fps = f } else { fps = 30 }
      let delay =
        fps == fps.rounded() && fps <= 1000
        ? (UInt16(1), UInt16(fps)) : (UInt16((1000 / fps).rounded()), UInt16(1000))
      let data = try APNGWriter.write(frames: try images.map { try $0.pngData() }, delay: delay)
      try writeFile(data, to: out)
      return "wrote \(out) (animated PNG, \(images.count) frames)"
    }
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    for (i, image) in images.enumerated() {
      try image.writePNG(to: out + "/" + String(format: "frame-%04d.png", i + 1))
    }
    return "wrote \(images.count) frames to \(out)/"
  }

  static func writeFile(_ bytes: [UInt8], to path: String) throws {
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    } catch {
      throw UsageError("cannot write \(path): \(error.localizedDescription)")
    }
  }
}

/// Rasterises frames on every core, one Cairo renderer per worker.
enum RasterPool {
  final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [RasterImage?]
    private var failure: Error?

    init(count: Int) { images = Array(repeating: nil, count: count) }

    func store(_ image: RasterImage, at i: Int) { lock.withLock { images[i] = image } }
    func fail(_ error: Error) { lock.withLock { failure = failure ?? error } }
    func finished() throws -> [RasterImage] {
      try lock.withLock {
        if let failure { throw failure }
        return images.compactMap { $0 }
      }
    }
  }

  static func render(
    _ lists: [DisplayList], scale: Double, background: Color?,
    onFrame: @escaping @Sendable () -> Void
  ) throws -> [RasterImage] {
    let results = Results(count: lists.count)
    let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, lists.count))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let renderer = CairoRenderer()
      for i in stride(from: worker, to: lists.count, by: workers) {
        do {
          results.store(try renderer.render(lists[i], scale: scale, background: background), at: i)
          onFrame()
        } catch {
          results.fail(error)
          return
        }
      }
    }
    return try results.finished()
  }
}

/// A one-line progress bar on standard error (terminals only).
final class ProgressBar: @unchecked Sendable {
  let total: Int
  let enabled: Bool
  private var done = 0
  private let lock = NSLock()

  init(total: Int, enabled: Bool) {
    self.total = total
    self.enabled = enabled && total >= 8
  }

  func advance() {
    guard enabled else { return }
    lock.withLock {
      done += 1
      let width = 30
      let filled = width * done / max(1, total)
      let bar =
        String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
      FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) frames".utf8))
    }
  }

  func finish() {
    if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
  }
}
