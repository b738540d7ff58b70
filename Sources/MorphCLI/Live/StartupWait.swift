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
      let wake = session.wait(for: [STDIN_FILENO], timeout: 0.25)
      let input = wake.ready.isEmpty ? (bytes: [], closed: false) : readInput()
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
      guard wake.reloaded else { continue }
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

  /// The bytes typed (standard input is readable), and whether input ended.
  private static func readInput() -> (bytes: [UInt8], closed: Bool) {
    var buffer = [UInt8](repeating: 0, count: 256)
    let n = read(STDIN_FILENO, &buffer, buffer.count)
    return n > 0 ? (Array(buffer[0..<n]), false) : ([], n == 0)
  }
}
