import Foundation
import MorphCore
import MorphRender

/// The frames a live view shows, newest first: rasterises display lists and
/// encodes what changed as PNG off the host's queue, on up to one worker thread per core, so Lua, input and reloads
/// never wait for pixels. Frames overlap: one is rasterised while the one
/// before it is compared and encoded. Each frame is compared with the one
/// started before it and posted after it, so frames reach the board in the
/// order they were made and each carries only the rectangle that changed.
/// At most one frame waits to start; a newer one replaces it (when the
/// workers are behind, only the newest moment is drawn). Nothing is posted
/// when neither the pixels nor the status changed. Raster buffers, the
/// renderers and the PNG encoders are reused from frame to frame.
public final class LiveFrameStream: @unchecked Sendable {
  private struct Job {
    var list: DisplayList?
    var status: SessionStatus
    var scales: [Double]
    var background: Color?
  }

  /// A frame taken by a worker: its number in start order and, once
  /// rasterised, its pixels (what the next frame is compared with).
  private final class Slot {
    let order: Int
    let list: DisplayList?
    let background: Color?
    /// What its scales were multiplied by to fit `frameBytes`.
    var fit = 1.0
    var rastered = false
    var rasters: [Double: RasterImage] = [:]

    init(order: Int, list: DisplayList?, background: Color?) {
      self.order = order
      self.list = list
      self.background = background
    }
  }

  private let board: LiveFrameBoard
  /// Bytes of pixels in one frame over every scale asked for (see `FrameFit`).
  public let frameBytes: Int
  private let limit = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
  /// A worker with nothing to do for this long ends (an idle preview runs no thread).
  static let idleTimeout = 2.0
  // Guarded by `condition`.
  private let condition = NSCondition()
  private var pending: Job?
  private var threads = 0
  private var idle = 0
  private var closed = false
  private var started = 0
  private var last: Slot?
  private var postedOrder = 0
  private var postedStatus: SessionStatus?
  private var postedScales: Set<Double> = []
  /// Raster buffers no frame holds any more.
  private var spare: [RasterImage] = []
  private var tally = Tally()

  /// What became of the frames submitted so far (for `bench`: whether the
  /// workers keep up with the clock, or newer frames replace waiting ones).
  public struct Tally: Equatable, Sendable {
    public var submitted = 0
    /// Replaced by a newer frame before a worker took them.
    public var superseded = 0
    /// Rasterised and compared (the rest were superseded or closed).
    public var drawn = 0
    /// Posted to the board with pixels that changed.
    public var changed = 0

    /// What happened after `earlier`, a tally taken before this one.
    public func since(_ earlier: Tally) -> Tally {
      Tally(
        submitted: submitted - earlier.submitted, superseded: superseded - earlier.superseded,
        drawn: drawn - earlier.drawn, changed: changed - earlier.changed)
    }
  }

  public var counts: Tally { condition.withLock { tally } }

  public init(board: LiveFrameBoard, frameBytes: Int) {
    self.board = board
    self.frameBytes = frameBytes
  }

  /// A new moment to show: its display list (nil when the plugin has not
  /// loaded), its status, the scales the open tabs want, and what it is drawn
  /// over (nil: transparent, for a viewer that draws its own background;
  /// opaque is cheaper: no pixel needs its alpha divided out).
  public func submit(
    list: DisplayList?, status: SessionStatus, scales: [Double], background: Color? = .white
  ) {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return }
    tally.submitted += 1
    if pending != nil { tally.superseded += 1 }
    pending = Job(list: list, status: status, scales: scales, background: background)
    if idle > 0 {
      condition.broadcast()
    } else if threads < limit {
      threads += 1
      let thread = Thread { [self] in workLoop() }
      thread.name = "morphhost.preview.encode"
      thread.start()
    }
  }

  /// Ends the workers (the frame in hand is finished first).
  public func close() {
    condition.lock()
    closed = true
    pending = nil
    condition.broadcast()
    condition.unlock()
  }

  private func workLoop() {
    let renderer = CairoRenderer()
    let png = try? StreamingPNGEncoder()
    condition.lock()
    defer {
      threads -= 1
      condition.unlock()
    }
    while !closed {
      guard let job = pending else {
        idle += 1
        let woken = condition.wait(until: Date().addingTimeInterval(Self.idleTimeout))
        idle -= 1
        if !woken && pending == nil { return }
        continue
      }
      pending = nil
      started += 1
      let slot = Slot(order: started, list: job.list, background: job.background)
      let previous = last
      last = slot
      condition.unlock()
      run(job, slot, after: previous, renderer, png)
      condition.lock()
    }
  }

  private func run(
    _ job: Job, _ slot: Slot, after previous: Slot?, _ renderer: CairoRenderer,
    _ png: StreamingPNGEncoder?
  ) {
    var status = job.status
    // Every scale of the frame drawn at `fit` of it, so that all of its
    // rasters together stay within the frame budget.
    let fit = job.list.map {
      FrameFit.factor(job.scales, canvas: $0.canvas, bytes: frameBytes)
    }
    slot.fit = fit ?? 1
    // The same list (and density) as the frame before: its pixels still hold.
    var kept: [Double: RasterImage] = [:]
    if job.list != nil, let previous, previous.list == job.list,
      previous.background == job.background
    {
      let before = pixels(of: previous)
      if previous.fit == slot.fit {
        for scale in job.scales { kept[scale] = before[scale] }
      }
    }
    var rasters = kept
    if let list = job.list {
      for scale in job.scales where kept[scale] == nil {
        var image = condition.withLock { spare.popLast() } ?? RasterImage(width: 0, height: 0)
        do {
          try renderer.render(
            list, scale: scale * slot.fit, background: job.background, into: &image)
          rasters[scale] = image
        } catch {
          status.error = SessionDiagnostic(error)
        }
      }
    }
    condition.withLock {
      slot.rasters = rasters
      slot.rastered = true
      condition.broadcast()
    }

    // Compare and encode while the next frame is being rasterised.
    let before = previous.map { pixels(of: $0) } ?? [:]
    var pictures: [Double: LiveFrameBoard.Picture] = [:]
    for (scale, raster) in rasters {
      if kept[scale] != nil {
        pictures[scale] = LiveFrameBoard.Picture(raster: raster)
        continue
      }
      let whole = PixelBox(width: raster.width, height: raster.height)
      guard
        let box = before[scale].map({ StreamingPNGEncoder.changedBox(from: $0, to: raster) })
          ?? whole
      else {
        pictures[scale] = LiveFrameBoard.Picture(raster: raster)
        continue
      }
      do {
        guard let png else { throw RenderError.encoder("cannot allocate a PNG compressor") }
        pictures[scale] = LiveFrameBoard.Picture(
          raster: raster, changed: box, png: try png.encode(raster, box: box))
      } catch {
        // Posted without this scale, so streams send the next frame whole.
        status.error = SessionDiagnostic(error)
      }
    }

    condition.lock()
    defer { condition.unlock() }
    while postedOrder != slot.order - 1 { condition.wait() }
    let pixelsChanged = pictures.values.contains(where: { $0.changed != nil })
    tally.drawn += 1
    if pixelsChanged { tally.changed += 1 }
    let scales = Set(pictures.keys)
    if status != postedStatus || scales != postedScales || pixelsChanged {
      board.post(status: status, images: pictures)
      postedStatus = status
      postedScales = scales
    }
    postedOrder = slot.order
    // The frame before is compared and replaced: buffers this one did not keep are free.
    if let previous {
      let free = previous.rasters.filter { kept[$0.key] == nil }.map(\.value)
      previous.rasters = [:]
      // Kept by count and by bytes: a frame's worth at most.
      spare = Array((spare + free).suffix(2 * limit))
      while spare.reduce(0, { $0 + $1.pixels.count }) > frameBytes {
        spare.removeFirst()
      }
    }
    condition.broadcast()
  }

  /// A slot's pixels, once it has been rasterised.
  private func pixels(of slot: Slot) -> [Double: RasterImage] {
    condition.withLock {
      while !slot.rastered { condition.wait() }
      return slot.rasters
    }
  }
}
