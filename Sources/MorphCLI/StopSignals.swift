import Foundation
import MorphCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signal that asked the process to stop (0: none yet). A handler may only store to
/// such a variable.
nonisolated(unsafe) private var stopSignalReceived: sig_atomic_t = 0

/// The one owner of "stop" signals in the CLI: Ctrl-C (SIGINT) and SIGTERM, what
/// `timeout`, `kill` and CI cancellation send, are one request to stop. While caught,
/// the handler only records which arrived; the command notices it at its next check,
/// stops its children, removes its partial files and exits with 128 + the signal
/// (130, 143). Installed synchronously, so a signal that comes before the first check is
/// not lost.
enum StopSignals {
  /// The signals that mean "stop".
  static let numbers: [Int32] = [SIGINT, SIGTERM]

  /// Catches the stop signals until `release`, unblocking them on this thread (a parent
  /// may start us with them blocked).
  static func catchThem() {
    stopSignalReceived = 0
    var set = sigset_t()
    sigemptyset(&set)
    for number in numbers {
      signal(number) { stopSignalReceived = $0 }
      sigaddset(&set, number)
    }
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  /// Back to the default: a stop signal ends the process at once.
  static func release() {
    for number in numbers { signal(number, SIG_DFL) }
  }

  /// Blocks until a stop signal arrives (a few wake-ups a second), then releases them,
  /// so a second Ctrl-C ends the process at once.
  static func waitForOne() {
    while stopSignalReceived == 0 { usleep(50_000) }
    release()
  }

  /// The stop signal received since `catchThem`, if any.
  static var received: Int32? { stopSignalReceived == 0 ? nil : Int32(stopSignalReceived) }
}

/// A command stopped by a signal: one line, and the shell's status for it.
struct StoppedBySignal: Diagnostic {
  let number: Int32
  /// What was given up, e.g. "no output was written".
  let outcome: String

  var message: String {
    let name =
      number == SIGINT
      ? "interrupted (SIGINT)"
      : number == SIGTERM ? "stopped (SIGTERM)" : "stopped by signal \(number)"
    return "\(name); \(outcome)"
  }
  var description: String { message }
  var exitStatus: ExitStatus { ExitStatus(rawValue: 128 + number) }
}
