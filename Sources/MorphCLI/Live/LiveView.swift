import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphRender
import MorphScript
import MorphSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `morphhost run` on a terminal: a `PluginSession` shown live at the
/// display's pace, keys and mouse as its input, a status line. The session
/// reloads, keeps time and keeps the errors; this draws them.
final class LiveView {
  let session: PluginSession
  let path: String
  let settings: RunSettings
  var mode: TerminalColorMode

  private var reader = KeyReader()
  private var keyboard: KeyboardThread?
  private var running = true
  private var dirty = true
  private var message: String?
  /// The error as last drawn, to redraw when the session's changes.
  private var shownError: SessionDiagnostic?
  /// When pictures were sent in the last second (the frame rate), and when
  /// the loop last drew (its pace, whether or not the picture changed).
  private var frameTimes: [Double] = []
  private var lastDraw = 0.0
  private var keyDrag: (offset: Double, lastKey: Double)?
  private var pointerDown = false
  private var pngDueAt: Double?
  private var graphics = LiveGraphics(note: "blocks")
  private var drawer: PictureDrawer
  private var layout = PictureLayout.text(canvas: Size(1, 1), cols: 1, rows: 1)
  /// The canvas `layout` fits (a frame in a new offer has another).
  private var laidOut = Size(1, 1)
  private var screen = (cols: 80, rows: 24)
  /// Rows above the status line that show the last error, shortened.
  private var errorRows = 0
  /// The screen is cleared before the next draw (a resize, an overlay closed).
  private var needsClear = true
  private var overlay: Overlay?
  /// The overlay as last sent, so an unchanged one is not sent again.
  private var overlayShown = ""
  private var wasAnimating = false

  /// How long the loop sleeps while nothing plays (keys and saves wake it sooner).
  static let idleWait = 0.25
  static let keyDragStep = 24.0
  static let keyDragRelease = 0.35
  /// How far `[` and `]` move the progress: a fiftieth of its range.
  static let scrubFraction = 1.0 / 50

  /// The running plugin. The view starts once a component has loaded, and
  /// a session keeps its last good version from then on.
  private var host: ComponentHost { session.host! }

  init(session: PluginSession, settings: RunSettings) {
    self.session = session
    path = session.path
    self.settings = settings
    mode = textColorMode(ascii: settings.ascii, plainInPipe: false, forced: settings.color)
    drawer = PictureDrawer(graphics: graphics, mode: mode)
    // What the plugin prints shows on the message line, not over the frame.
    // A body that prints every frame redraws only when the text changes.
    session.onPrint = { [weak self] line in
      guard let self, self.message != "print: " + line else { return }
      self.message = "print: " + line
      self.dirty = true
    }
    // An input script's keys are the live view's keys.
    session.onKey = { [weak self] in self?.key($0) }
  }

  /// Runs until `q`, Escape or Ctrl-C. The terminal is always restored.
  func run() throws {
    RawTerminal.enter(mouse: true)
    RawTerminal.watchResize()
    defer { RawTerminal.restore() }
    // The terminal answers queries on standard input: ask before the keyboard thread reads it.
    graphics = LiveGraphics.choose(settings.graphics, textMode: mode)
    drawer = PictureDrawer(graphics: graphics, mode: mode)
    RawTerminal.erase = drawer.erase
    keyboard = KeyboardThread(canceller: host.component.state.canceller)
    measure()
    while running {
      let animating = isAnimating
      if animating != wasAnimating {
        wasAnimating = animating
        dirty = true  // the status line says "idle", or the rate again
      }
      // Wake for the next frame on time (not a full interval after drawing);
      // a key drag still held wakes to be released.
      let idle = keyDrag == nil || session.isPaused ? Self.idleWait : Self.keyDragRelease / 4
      waitForInput(timeout: session.nextFrameDelay(after: lastDraw) ?? idle)
      let now = session.wallNow
      if RawTerminal.resized {
        RawTerminal.resized = false
        remeasure()
      }
      session.catchUp()
      if let drag = keyDrag, now - drag.lastKey > Self.keyDragRelease { releaseKeyDrag() }
      if session.error != shownError { dirty = true }
      if dirty || session.isPlaying { draw(now) }
      if let due = pngDueAt, now >= due { writePNG() }
    }
    // The view ends: the component unloads; a `disappear` that fails is the run's error.
    let shown = session.error
    session.close()
    if let error = session.error, error != shown { throw error }
  }

  private var isAnimating: Bool { session.isAnimating || keyDrag != nil }

  // MARK: Loop pieces

  /// Waits for keys or a save (which the session reloads).
  private func waitForInput(timeout: Double) {
    guard let keyboard else { return }
    let wake = session.wait(for: [keyboard.descriptor], timeout: timeout)
    if wake.reloaded { reloaded() }
    guard wake.ready.contains(keyboard.descriptor) else { return }
    let input = keyboard.take()
    for key in reader.feed(input.bytes) { handle(key) }
    if input.closed { running = false }
  }

  /// After a reload: "reloaded", or nothing when it failed ("reloaded" from
  /// an earlier save would read as this one's).
  private func reloaded() {
    message = session.error == nil ? "reloaded" : nil
    // New code may read `self.size` now, or no longer.
    remeasure()
  }

  /// The window (or what the picture may use of it) changed: lay out again.
  private func remeasure() {
    measure()
    needsClear = true
    dirty = true
  }

  // MARK: Input

  private func handle(_ input: TerminalInput) {
    switch input {
    case .key(let name):
      // q and Ctrl-C quit from anywhere: the keyboard thread has already
      // cancelled any plugin call they interrupted.
      if name == "q" || name == "ctrl-c" {
        running = false
        return
      }
      if var shown = overlay {
        if shown.scroll(name) {
          overlay = shown
        } else {
          overlay = nil
          needsClear = true
        }
        dirty = true
        return
      }
      key(name)
    case .mouse(let event):
      mouse(event)
    }
    dirty = true
  }

  func key(_ name: String) {
    if name != "left" && name != "right" && name != "h" && name != "l" { releaseKeyDrag() }
    message = nil
    switch name {
    case "escape": running = false
    case "space", "enter": session.apply(.tap(nil))
    case "left", "h": keyDrag(-1)
    case "right", "l": keyDrag(1)
    case "r":
      session.reload()
      reloaded()
    case "p":
      try? session.apply(session.isPaused ? SessionCommand.play : .pause)
      message = session.isPaused ? "paused: [ and ] scrub" : "running"
    case "[", "]": scrub(name == "]" ? 1 : -1)
    case "m":
      try? session.apply(SessionCommand.reduceMotion(!session.reduceMotion))
      message = "reduce motion \(session.reduceMotion ? "on" : "off")"
    case "s": savePNG()
    case "?": overlay = Overlay(title: "keys", text: Self.help)
    case "e":
      if let error = session.error {
        overlay = Overlay(title: "the last error", text: error.detail, plugin: true)
      } else {
        message = "no error to show"
      }
    default: message = "unknown key '\(name)'; ? for help"
    }
  }

  private func keyDrag(_ direction: Double) {
    if keyDrag == nil {
      session.apply(.down(host.center))
      keyDrag = (0, session.wallNow)
    }
    keyDrag!.offset += direction * Self.keyDragStep
    keyDrag!.lastKey = session.wallNow
    session.apply(.move(host.center + Point(keyDrag!.offset, 0)))
  }

  private func releaseKeyDrag() {
    guard let drag = keyDrag else { return }
    keyDrag = nil
    session.apply(.up(host.center + Point(drag.offset, 0)))
  }

  private func scrub(_ direction: Double) {
    guard session.isPaused else {
      message = "press p to pause, then [ and ] scrub"
      return
    }
    session.scrub(by: direction * Self.scrubFraction)
  }

  private func mouse(_ event: MouseEvent) {
    let p = layout.canvasPoint(column: event.column, row: event.row)
    switch event.kind {
    case .press:
      session.apply(.down(p))
      pointerDown = true
    case .drag:
      if pointerDown { session.apply(.move(p)) }
    case .release:
      if pointerDown { session.apply(.up(p)) }
      pointerDown = false
    case .move:
      // Off the component's frame (the margin, the status line) ends a hover.
      if !pointerDown { session.apply(.hover(p)) }
    }
  }

  // MARK: Output

  private func measure() {
    let size = ProcessEnvironment.terminalSize() ?? (80, 24)
    screen = (settings.cols ?? size.cols, max(2, settings.rows ?? size.rows))
    // The status line takes the bottom row, the error panel the rows above it.
    let rows = max(1, screen.rows - 1 - errorRows)
    // A font change resizes the cells too: the kernel's pixel size says so.
    if graphics.images != nil, let cell = TerminalProbe.windowCell() { graphics.cell = cell }
    // A body that reads `self.size` gets the whole picture area, at the zoom
    // its declared size shows at; the frame then fills it.
    let declared = layout(canvas: session.declaredCanvas ?? host.canvas, rows: rows)
    let margin = 2 * host.margin
    session.offer(
      Size(
        Double(screen.cols) * declared.cell.width / declared.scale - margin,
        Double(rows) * declared.cell.height / declared.scale - margin))
    laidOut = host.canvas
    layout = layout(canvas: host.canvas, rows: rows)
  }

  private func layout(canvas: Size, rows: Int) -> PictureLayout {
    graphics.images == nil
      ? .text(canvas: canvas, cols: screen.cols, rows: rows)
      : .image(canvas: canvas, cols: screen.cols, rows: rows, cell: graphics.cell)
  }

  private func draw(_ now: Double) {
    dirty = false
    lastDraw = now
    let frame = session.frame()
    shownError = session.error
    let panel = errorPanel()
    // The picture gives up rows to the error, and takes them back after; a
    // body laid out in the window's size has a new canvas.
    if panel.count != errorRows || host.canvas != laidOut {
      errorRows = panel.count
      measure()
      needsClear = true
    }
    var out = ""
    if needsClear {
      needsClear = false
      out += drawer.erase + ANSI.reset + ANSI.clearScreen
      drawer.forget()
    }
    if let overlay {
      let text = overlay.text(cols: screen.cols, rows: screen.rows - 1)
      if text != overlayShown || out != "" {
        out += drawer.erase + text
        overlayShown = text
        drawer.forget()
      }
    } else {
      overlayShown = ""
      out += picture(frame, now)
      for (i, line) in panel.enumerated() {
        out +=
          ANSI.moveTo(row: screen.rows - errorRows + i, col: 1) + ANSI.reset + line + "\u{1B}[K"
      }
    }
    out += ANSI.moveTo(row: screen.rows, col: 1) + status()
    RawTerminal.write(out)
  }

  /// The frame's picture, or "" when it did not change.
  private func picture(_ frame: ComponentHost.Frame?, _ now: Double) -> String {
    guard let frame else { return "" }
    do {
      let drawn = try drawer.draw(frame.list, in: layout)
      if !drawn.isEmpty {
        frameTimes.append(now)
        frameTimes.removeAll { now - $0 > 1 }
        if settings.pngPath != nil, pngDueAt == nil { pngDueAt = now + 0.1 }
      }
      return drawn
    } catch {
      session.report(error)
      return ""
    }
  }

  private func status() -> String {
    var parts = [
      host.component.name, isAnimating && !session.isPaused ? "\(framesPerSecond()) fps" : "idle",
    ]
    if let p = host.component.progress { parts.append(String(format: "progress %.3f", p)) }
    if let value = (try? host.component.accessibility())??.value { parts.append(value) }
    if session.isPaused { parts.append("paused") }
    if session.reduceMotion { parts.append("reduce motion") }
    if let message { parts.append(message) }
    if session.error != nil { parts.append("error (above; e shows it whole)") }
    parts.append(graphics.note)
    // Name, value, errors and printed lines are the plugin's text: escaped.
    return Self.statusLine(terminalSafe(parts.joined(separator: " │ ")), width: screen.cols)
  }

  /// The rate of recent frames, not a count that idle time would dilute.
  private func framesPerSecond() -> Int {
    guard let first = frameTimes.first, let last = frameTimes.last, last > first else { return 0 }
    return Int((Double(frameTimes.count - 1) / (last - first)).rounded())
  }

  /// `text` and the `keys` hint in reverse video across the whole row, cut with "…" to `width`.
  static func statusLine(_ text: String, width: Int, keys: String = "? help  q quit") -> String {
    let width = max(10, width)
    var line = " " + text + "   " + keys
    if line.count > width { line = String(line.prefix(width - 1)) + "…" }
    line += String(repeating: " ", count: max(0, width - line.count))
    return "\u{1B}[7m" + line + ANSI.reset
  }

  /// The last error wrapped to the window's width, at most a quarter of the
  /// window (its start kept when cut; `e` shows it whole).
  private func errorPanel() -> [String] {
    guard let error = session.error else { return [] }
    let text = ("error: " + error.locatedMessage).replacingOccurrences(of: "\t", with: "  ")
    let lines = Overlay.wrap(terminalSafe(text, multiline: true), width: screen.cols)
    let limit = max(1, screen.rows / 4)
    guard lines.count > limit else { return lines }
    return Array(lines.prefix(limit - 1)) + ["… (e shows the whole error)"]
  }

  private func savePNG() {
    let name =
      "\(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)-"
      + String(format: "%.3f", host.time) + ".png"
    do {
      try OutputFile.write(try session.png(scale: settings.scale), to: name)
      message = "saved \(name)"
    } catch {
      session.report(error)
    }
  }

  /// `--png FILE`: the latest frame, written atomically (viewers never see half a file).
  private func writePNG() {
    pngDueAt = nil
    guard let target = settings.pngPath else { return }
    do {
      try OutputFile.write(try session.png(scale: settings.scale), to: target)
    } catch {
      session.report(error)
    }
  }

  static let help = """
     morphhost — keys

     space, enter   tap the component's centre
     ← → (h l)      drag left/right by steps; released after a short pause
     mouse          click to tap, drag to drag, move to hover; moving off
                    the component ends the hover (terminals with mouse reporting)
     r              reload the plugin now (it also reloads on every save)
     p              pause / resume the clock
     [ ]            scrub progress while paused
     m              toggle reduce motion
     s              save the current frame as PNG
     e              the last error whole, with its traceback
     ?              this help (any other key closes it)
     q, Esc         quit
    """
}

/// Text over the picture (help, the whole error), drawn on a cleared screen
/// and scrolled with ↑ ↓; closing it redraws the picture.
struct Overlay {
  var title: String
  var text: String
  /// Whether the text is the plugin's (escaped before it is shown).
  var plugin = false
  /// What ends it, for the footer.
  var closing = "any other key closes"
  var offset = 0

  /// Scrolls for ↑ ↓ (k j); false for any other key, which closes it.
  mutating func scroll(_ key: String) -> Bool {
    switch key {
    case "up", "k": offset = max(0, offset - 1)
    case "down", "j": offset += 1
    default: return false
    }
    return true
  }

  /// The overlay filling `rows` rows of `cols` cells, every row positioned and cleared.
  func text(cols: Int, rows: Int) -> String {
    let plain = text.replacingOccurrences(of: "\t", with: "  ")
    let body = Self.wrap(plugin ? terminalSafe(plain, multiline: true) : plain, width: cols)
    let room = max(1, rows - 1)
    let first = min(offset, max(0, body.count - room))
    let shown = body.dropFirst(first).prefix(room)
    var footer = " \(title) — \(closing)"
    if body.count > room {
      footer =
        " \(title): lines \(first + 1)–\(first + shown.count) of \(body.count); ↑ ↓ scroll, \(closing)"
    }
    var out = ""
    for row in 0..<rows {
      let line = row < shown.count ? shown[shown.startIndex + row] : row == rows - 1 ? footer : ""
      out += ANSI.moveTo(row: row + 1, col: 1) + ANSI.reset + String(line.prefix(cols)) + "\u{1B}[K"
    }
    return out
  }

  /// Lines of `text` cut to `width` characters.
  static func wrap(_ text: String, width: Int) -> [String] {
    let width = max(1, width)
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var rest = Substring(paragraph)
      repeat {
        lines.append(String(rest.prefix(width)))
        rest = rest.dropFirst(width)
      } while !rest.isEmpty
    }
    return lines
  }
}
