import CMorphEncode
import Foundation
import MorphRender

/// Bytes in flight through an export, shared by its stages (the frame queue,
/// an APNG's compressions): a frame reserves what it will hold before it is
/// made, and whatever holds those bytes gives them back when it is done with
/// them. A reservation always goes ahead when nothing is held, so a frame
/// larger than the whole budget still progresses, one at a time.
public final class ByteBudget: @unchecked Sendable {
  /// Bytes that may be held at once (a lone reservation may exceed it).
  public let limit: Int
  private let condition = NSCondition()
  private var held = 0
  /// Set aside for a stage's own state while it runs (`setAside`).
  private var aside = 0
  private var peak = 0

  public init(limit: Int) {
    self.limit = limit
  }

  /// Bytes held now, those set aside included.
  public var heldBytes: Int { condition.withLock { held + aside } }

  /// The most bytes held at once so far.
  public var peakBytes: Int { condition.withLock { peak } }

  /// Reserves `bytes` when they fit now (or nothing is held); false when they do not.
  public func tryReserve(_ bytes: Int) -> Bool {
    condition.withLock {
      guard fits(bytes) else { return false }
      take(bytes)
      return true
    }
  }

  /// Waits until `bytes` fit (or nothing is held), then reserves them. Only
  /// for a caller that holds none of the bytes it waits for: they must come
  /// back from other threads.
  public func reserve(_ bytes: Int) {
    condition.withLock {
      while !fits(bytes) { condition.wait() }
      take(bytes)
    }
  }

  /// Takes over `bytes` without waiting: a stage handed a frame whose
  /// reservation (at least as large) was just released.
  public func add(_ bytes: Int) {
    condition.withLock { take(bytes) }
  }

  /// Sets `bytes` aside for as long as a stage keeps state of its own (an
  /// encoder's canvases): frames have that much less room, and one still
  /// goes ahead when nothing else is held.
  public func setAside(_ bytes: Int) {
    condition.withLock {
      aside += bytes
      peak = max(peak, held + aside)
    }
  }

  /// Gives back bytes set aside.
  public func endAside(_ bytes: Int) {
    condition.withLock {
      aside -= bytes
      condition.broadcast()
    }
  }

  /// Gives back `bytes`.
  public func release(_ bytes: Int) {
    condition.withLock {
      held -= bytes
      condition.broadcast()
    }
  }

  /// Makes freed frame-sized buffers leave the process. glibc raises its
  /// mmap threshold to the largest buffer freed so far (up to 32 MiB), after
  /// which large frames and their compression buffers are carved from the
  /// threads' arenas and stay resident once freed: at scale 8 the export's
  /// peak RSS was a third above the bytes in flight. Buffers of 4 MiB or more
  /// (a scale-2 deck fan frame is 2 MB, so small exports are untouched) are
  /// then mapped and unmapped on their own.
  public static func returnLargeBuffers() {
    morph_map_large_buffers(4 << 20)
  }

  private func fits(_ bytes: Int) -> Bool { held == 0 || aside + held + bytes <= limit }

  private func take(_ bytes: Int) {
    held += bytes
    peak = max(peak, held + aside)
  }
}
