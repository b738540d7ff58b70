import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// Issue 8, items 5 and 9: no request can make the clock run for hours or trap.
@Suite struct HostVirtualTimeTests {
  /// A component that never stops animating.
  static let restless = """
    local m = morph
    return m.component {
      name = "Restless",
      state = { p = 0 },
      body = function(self) return m.rect():frame(10 + self.p, 10) end,
      tap = function(self)
        self:animate(m.timing(0.1, 0.9, 0.1, 0.9, 1e9), { p = 1 })
      end,
    }
    """

  static func host() throws -> ComponentHost {
    ComponentHost(component: try ComponentInstance(path: "restless.lua", source: restless))
  }

  /// Runs `body` on its own thread and fails the test if it has not finished in
  /// `seconds`: without the caps these cases never end, and a test must fail, not hang.
  /// Generous: a capped case takes 4 s alone, and a minute beside the whole
  /// suite on a loaded machine.
  static func withDeadline(
    _ seconds: Double = 300, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () throws -> Void
  ) {
    let done = DispatchSemaphore(value: 0)
    let failure = LockedBox()
    Thread {
      do { try body() } catch { failure.set("\(error)") }
      done.signal()
    }.start()
    if done.wait(timeout: .now() + seconds) == .timedOut {
      Issue.record("did not finish within \(seconds) s", sourceLocation: sourceLocation)
    } else if let message = failure.get() {
      Issue.record("threw: \(message)", sourceLocation: sourceLocation)
    }
  }

  final class LockedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    func set(_ v: String) { lock.withLock { value = v } }
    func get() -> String? { lock.withLock { value } }
  }

  @Test func aHugeStepIsRefused() {
    Self.withDeadline {
      let host = try Self.host()
      #expect {
        try host.advance(to: 1e9)
      } throws: { error in
        "\(error)".contains("at most 3600 s at once")
      }
      #expect(throws: ScriptError.self) { try host.advance(to: .infinity) }
      try host.advance(to: 1)
      #expect(host.time == 1)
    }
  }

  @Test func settlingGivesUpWithinTheCap() {
    Self.withDeadline {
      let host = try Self.host()
      try host.tap()
      // 1e300 would never end (past ~1e14 s a tick no longer moves the clock).
      #expect(try host.settle(limit: 1e300) == nil)
      #expect(host.time <= VirtualTime.maxSeconds + 1)
    }
  }

  @Test func dragDurationsThatCannotBeStepsDoNotTrap() {
    Self.withDeadline {
      let host = try Self.host()
      try host.drag(from: host.center, to: host.center + Point(50, 0), over: .infinity)
      try host.drag(from: host.center, to: host.center + Point(50, 0), over: .nan)
      #expect(host.time == 0)
    }
  }

  @Test func scriptsPastTheCapAreRefused() {
    #expect(throws: InputScript.ParseError.self) {
      try InputScript.parse("3601 tap\n", file: "late.txt")
    }
    #expect {
      try InputScript.parse("0 drag 0,0 -> 1,1 over 1e300\n", file: "long.txt")
    } throws: { error in
      "\(error)" == "long.txt:1: expected a duration in (0, 3600] after 'over', got '1e300'"
    }
  }
}
