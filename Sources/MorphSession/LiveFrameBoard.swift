import Foundation
import MorphRender

/// The latest frame and status, for the event streams (any thread), and
/// which pixels changed in the frames before it, so a stream that missed
/// some frames (it was still writing when they came) can send one rectangle
/// that covers them all.
public final class LiveFrameBoard: @unchecked Sendable {
  /// One scale's picture in a posted frame.
  public struct Picture {
    /// The whole frame.
    public var raster: RasterImage
    /// What changed since the previous frame posted (nil: nothing), and
    /// those pixels as PNG: what a stream that saw that frame sends.
    public var changed: PixelBox?
    public var png: [UInt8]?

    public init(raster: RasterImage, changed: PixelBox? = nil, png: [UInt8]? = nil) {
      self.raster = raster
      self.changed = changed
      self.png = png
    }
  }

  public struct Posted {
    public var sequence: Int
    public var status: SessionStatus
    public var images: [Double: Picture]
  }

  /// Per scale: the boxes that changed, by the sequence that changed them.
  private struct History {
    /// Every change after this sequence is in `changes`.
    var since: Int
    var changes: [(sequence: Int, box: PixelBox)] = []
  }

  /// Changes remembered per scale; a stream further behind gets a whole frame.
  public static let historyLength = 32

  private let condition = NSCondition()
  private var latest: Posted?
  private var histories: [Double: History] = [:]
  private var closed = false

  public init() {}

  public func post(status: SessionStatus, images: [Double: Picture]) {
    condition.lock()
    let sequence = (latest?.sequence ?? 0) + 1
    latest = Posted(sequence: sequence, status: status, images: images)
    for scale in histories.keys where images[scale] == nil { histories[scale] = nil }
    for (scale, picture) in images {
      var history = histories[scale] ?? History(since: sequence - 1)
      if let box = picture.changed {
        history.changes.append((sequence, box))
        if history.changes.count > Self.historyLength {
          history.since = history.changes.removeFirst().sequence
        }
      }
      histories[scale] = history
    }
    condition.broadcast()
    condition.unlock()
  }

  /// The number of the latest frame (0 before the first).
  public var sequence: Int {
    condition.lock()
    defer { condition.unlock() }
    return latest?.sequence ?? 0
  }

  public func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  /// The first frame posted after `sequence`; nil when the board closed or
  /// `stopped` says so (looked at on every wake: see `wake`), or `.some(nil)`
  /// after `timeout` seconds with nothing new (the stream sends a heartbeat).
  public func next(
    after sequence: Int, timeout: Double, stopped: () -> Bool = { false }
  ) -> Posted?? {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date().addingTimeInterval(timeout)
    while !closed, !stopped(), (latest?.sequence ?? 0) <= sequence {
      if !condition.wait(until: deadline) { return .some(nil) }
    }
    // Spelled out: in a ternary, `nil` would be taken as `latest`'s type
    // and come back as `.some(nil)`, "nothing yet", and the stream go on.
    if closed || stopped() { return nil }
    return .some(latest)
  }

  /// Wakes every waiting `next`, so that one whose `stopped` has become
  /// true returns now.
  public func wake() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }

  /// What a page showing frame `shown` (0: nothing yet) at `scale` must
  /// redraw to show frame `target`: nil when nothing changed, the whole
  /// frame when the changes are no longer known.
  public func changes(at scale: Double, after shown: Int, upTo target: Int, size: PixelBox)
    -> PixelBox?
  {
    condition.lock()
    defer { condition.unlock() }
    guard shown > 0, let history = histories[scale], history.since <= shown else { return size }
    var union: PixelBox?
    for change in history.changes where change.sequence > shown && change.sequence <= target {
      union = union.map { $0.union(change.box) } ?? change.box
    }
    return union?.clamped(width: size.width, height: size.height)
  }
}
