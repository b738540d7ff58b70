import MorphRender

/// When an export's frames show: frame i at i / fps, each for 1 / fps, the
/// last held `hold` seconds longer. Every animated format times its frames
/// from here, so they agree (within their units) on when each frame shows.
public struct FrameTiming: Sendable, Equatable {
  public let fps: Double
  public let hold: Double
  /// Times the animation plays; 0 loops forever.
  public let loops: Int

  public init(fps: Double, hold: Double = 0, loops: Int = 0) {
    self.fps = fps
    self.hold = hold
    self.loops = loops
  }

  /// Seconds from the start to frame `index` (`count` frames in all: the end
  /// of the last one includes the hold).
  public func start(of index: Int, count: Int) -> Double {
    Double(index) / fps + (index >= count ? hold : 0)
  }

  /// Whole units (e.g. 100 for GIF's centiseconds) that frames `first..<end`
  /// show for, rounded at each end so that the rounding never accumulates.
  public func duration(_ first: Int, _ end: Int, count: Int, unitsPerSecond: Double) -> Int {
    let from = (start(of: first, count: count) * unitsPerSecond).rounded()
    let to = (start(of: end, count: count) * unitsPerSecond).rounded()
    return Int(to - from)
  }

  /// APNG's delay for frames `first..<end`: an exact fraction of a second
  /// when fps is whole, else milliseconds (coarser units for very long holds).
  public func apngDelay(_ first: Int, _ end: Int, count: Int) -> (UInt16, UInt16) {
    let limit = Int(UInt16.max)
    if fps == fps.rounded(), fps <= Double(limit) {
      let frames = Double(end - first) + (end >= count ? hold * fps : 0)
      if frames == frames.rounded(), frames <= Double(limit) {
        return (UInt16(frames), UInt16(fps))
      }
    }
    for unit in [1000, 100, 10, 1] {
      let n = duration(first, end, count: count, unitsPerSecond: Double(unit))
      if n <= limit || unit == 1 { return (UInt16(min(max(n, 1), limit)), UInt16(unit)) }
    }
    return (1, 1)
  }
}
