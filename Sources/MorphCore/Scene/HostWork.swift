/// Work the host does for a plugin outside Lua — text shaping and layout today — is
/// charged to the call or frame that asked for it. Lua's count hook never sees C
/// libraries work, so the caller opens a `HostWork` with the time it has left; the
/// worker asks `mayStart` before each unit (one layout) and, once the time is gone or a
/// unit is refused, does no more work and answers empty. The caller then throws the
/// recorded stop: one clear line, at most one unit past the limit.
///
/// The open work is a task-local value: a frame laid out on an export worker thread
/// sees its own, and code outside any call (a test measuring text) sees none.
public final class HostWork: @unchecked Sendable {
  /// Why work stopped.
  public enum Stop: Equatable, Sendable {
    /// The caller's time ran out; `seconds` is what it had.
    case time(seconds: Double)
    /// One unit would cost more than the frame budget allows (the message says what).
    case refused(SceneError)
  }

  @TaskLocal public static var current: HostWork?

  private let clock = ContinuousClock()
  private let deadline: ContinuousClock.Instant
  /// The time the caller had, for the message.
  public let seconds: Double
  /// Set once; only the thread that opened the work touches it.
  public private(set) var stop: Stop?

  /// Work allowed to run for `seconds` from now (clamped to [0, one day]).
  public init(seconds: Double) {
    let allowed = seconds.isNaN ? 0 : min(max(seconds, 0), 86_400)
    self.seconds = allowed
    deadline = clock.now.advanced(by: .milliseconds(Int64((allowed * 1000).rounded(.up))))
  }

  /// Runs `body` with this work open on the current task or thread.
  public func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    let result = Self.$current.withValue(self) { Result { () throws(E) -> T in try body() } }
    return try result.get()
  }

  /// Whether the next unit may start: false once the time is gone or a unit was refused.
  public func mayStart() -> Bool {
    if stop != nil { return false }
    guard clock.now <= deadline else {
      stop = .time(seconds: seconds)
      return false
    }
    return true
  }

  /// Records that a unit was refused before it started.
  public func refuse(_ error: SceneError) {
    if stop == nil { stop = .refused(error) }
  }

  /// The stop as a scene error for a frame: `what` names the work ("laying out text").
  public func frameError(_ what: String) -> SceneError? {
    switch stop {
    case nil: return nil
    case .time(let seconds):
      return SceneError(
        "frame exceeded its time budget (\(Self.format(seconds)) s per frame) \(what)")
    case .refused(let error): return error
    }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
