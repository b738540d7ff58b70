import Foundation
import MorphHost
import MorphRender
import MorphScript
import MorphSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `run` on a file that fails to load: the error is shown whole (with its
/// traceback) on the live view's screen until a save fixes the file, or the
/// user quits. Nothing of the plugin runs meanwhile, so standard input is
/// read here directly (the keyboard thread starts with the live view).
enum StartupWait {
  /// The loaded document, or nil when the user quit first.
  static func load(_ session: PluginSession) -> DocumentHost? {
    if let document = session.document { return document }
    RawTerminal.enter(mouse: true)
    RawTerminal.watchResize()
    var overlay = Overlay(
      title: "waiting for a save that fixes it", text: "", plugin: true, closing: "q quits")
    var reader = KeyReader()
    var redraw = true
    while true {
      if redraw {
        overlay.text = "error: " + (session.error?.detail ?? "")
        show(overlay, name: URL(fileURLWithPath: session.path).lastPathComponent)
        redraw = false
      }
      let input = waitForInput(watching: session.watchDescriptor, timeout: 0.25)
      for key in reader.feed(input.bytes) {
        guard case .key(let name) = key else { continue }
        if ["q", "ctrl-c", "escape"].contains(name) { return nil }
        if overlay.scroll(name) { redraw = true }
      }
      if input.closed { return nil }
      if RawTerminal.resized {
        RawTerminal.resized = false
        redraw = true
      }
      guard session.checkFiles() else { continue }
      if let document = session.document { return document }
      redraw = true
    }
  }

  private static func show(_ overlay: Overlay, name: String) {
    let size = ProcessEnvironment.terminalSize() ?? (80, 24)
    let status = LiveView.statusLine(
      terminalSafe("\(name) │ does not load: save a fix"), width: size.cols, keys: "q quit")
    RawTerminal.write(
      ANSI.reset + ANSI.clearScreen + overlay.text(cols: size.cols, rows: size.rows - 1)
        + ANSI.moveTo(row: size.rows, col: 1) + status)
  }

  /// Bytes typed within `timeout` (sooner when the file changes), and whether input ended.
  private static func waitForInput(
    watching descriptor: Int32?, timeout: Double
  ) -> (bytes: [UInt8], closed: Bool) {
    var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
    if let fd = descriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
    _ = poll(&fds, nfds_t(fds.count), Int32(timeout * 1000))
    guard fds[0].revents & Int16(POLLIN | POLLHUP) != 0 else { return ([], false) }
    var buffer = [UInt8](repeating: 0, count: 256)
    let n = read(STDIN_FILENO, &buffer, buffer.count)
    return n > 0 ? (Array(buffer[0..<n]), false) : ([], n == 0)
  }
}
