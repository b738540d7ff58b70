import Foundation

/// Where a session's time comes from: the wall clock, read through `now` (a
/// test passes its own), or nothing (a virtual clock that moves only when the
/// session is told to advance).
public struct SessionClock: Sendable {
  /// Seconds from any fixed origin, or nil for a virtual clock.
  public let now: (@Sendable () -> Double)?

  /// The system's monotonic clock, or `now` instead.
  public static func wall(_ now: @escaping @Sendable () -> Double = uptime) -> SessionClock {
    SessionClock(now: now)
  }

  /// Time moves only through `PluginSession.advance(by:)`, `step()` and input scripts.
  public static let virtual = SessionClock(now: nil)

  /// Seconds since boot: never jumps with the time of day.
  @Sendable public static func uptime() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
  }

  /// The most virtual time one catch-up plays: a stall (a suspended
  /// process, a debugger) is not a jump in time.
  public static let maxStep = 0.1
  /// One display frame, what `step()` plays.
  public static let frameInterval = 1.0 / 60
}
