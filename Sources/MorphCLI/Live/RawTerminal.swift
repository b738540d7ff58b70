import Foundation
import MorphRender

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal in raw mode on the alternate screen, restored on every way
/// out: normal exit, Ctrl-C, SIGTERM, SIGHUP and fatal signals.
final class RawTerminal {
  // Signal handlers read these; they are set once on the main thread before.
  nonisolated(unsafe) private static var saved: termios?
  nonisolated(unsafe) private static var active = false
  /// Written before the screen is restored: what removes images that outlive
  /// text (kitty's), set once the live view has chosen how it draws.
  nonisolated(unsafe) static var erase = ""

  /// Switches the terminal; `restore()` (or a signal) switches it back.
  /// A second call while switched does nothing.
  static func enter(mouse: Bool) {
    guard !active else { return }
    var attributes = termios()
    guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return }
    saved = attributes
    cfmakeraw(&attributes)
    // Keep output processing so "\n" still returns the carriage.
    attributes.c_oflag |= tcflag_t(OPOST)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &attributes)
    active = true
    write(
      ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.clearScreen
        + (mouse ? ANSI.enableMouse : ""))
    installSignalHandlers()
    atexit { RawTerminal.restore() }
  }

  /// Puts everything back; safe to call twice and from a signal handler.
  static func restore() {
    guard active else { return }
    active = false
    write(erase + ANSI.disableMouse + ANSI.reset + ANSI.showCursor + ANSI.leaveAlternateScreen)
    if var attributes = saved { tcsetattr(STDIN_FILENO, TCSAFLUSH, &attributes) }
  }

  static func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        Foundation.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
      }
      if n <= 0 { break }
      offset += n
    }
  }

  private static func installSignalHandlers() {
    // The stop signals (`StopSignals`) and a closed terminal or Ctrl-\ end the live view.
    for sig in StopSignals.numbers + [SIGHUP, SIGQUIT] {
      signal(sig) { number in
        RawTerminal.restore()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
    for sig in [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP] {
      signal(sig) { number in
        RawTerminal.restore()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// Set by SIGWINCH; the loop reads and clears it.
  nonisolated(unsafe) static var resized = false

  static func watchResize() {
    signal(SIGWINCH) { _ in RawTerminal.resized = true }
    // A parent may start us with it blocked (a thread of a test runner that
    // started tmux did): this thread, and the threads it starts, take it.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGWINCH)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  }
}
