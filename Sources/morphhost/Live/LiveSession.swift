import Foundation
import MorphCore
import MorphHost
import MorphRender
import MorphScript

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `morphhost run` on a terminal: the component live at the display's pace,
/// keys and mouse as input, hot reload on save, a status line.
final class LiveSession {
  let host: ComponentHost
  let path: String
  let settings: RunSettings
  var watcher: FileWatcher
  let renderer = CairoRenderer()
  var mode: TerminalColorMode
  var player: ScriptPlayer?

  private var reader = KeyReader()
  private var keyboard: KeyboardThread?
  private var running = true
  private var paused = false
  private var showHelp = false
  private var dirty = true
  private var message: String?
  private var lastError: String?
  private var lastFrameText = ""
  private var frameTimes: [Double] = []
  private var lastTick: Double
  private var keyDrag: (offset: Double, lastKey: Double)?
  private var pointerDown = false
  private var pngDueAt: Double?
  private var grid = (cols: 80, rows: 24, scale: 1.0)
  /// Rows under the picture that show the last error in full.
  private var errorRows = 0

  static let frameInterval = 1.0 / 60
  static let keyDragStep = 24.0
  static let keyDragRelease = 0.35

  init(host: ComponentHost, path: String, settings: RunSettings, script: InputScript?) {
    self.host = host
    self.path = path
    self.settings = settings
    watcher = FileWatcher(paths: host.watchedFiles)
    mode = textColorMode(ascii: settings.ascii, plainInPipe: false)
    player = script.map(ScriptPlayer.init)
    lastTick = Self.now()
    // What the plugin prints shows on the message line, not over the frame.
    // A body that prints every frame redraws only when the text changes.
    host.component.state.output = { [weak self] line in
      guard let self, self.message != "print: " + line else { return }
      self.message = "print: " + line
      self.dirty = true
    }
  }

  static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  /// Runs until `q`, Escape or Ctrl-C. The terminal is always restored.
  func run() throws {
    RawTerminal.enter(mouse: true)
    RawTerminal.watchResize()
    defer { RawTerminal.restore() }
    keyboard = KeyboardThread(canceller: host.component.state.canceller)
    measure()
    while running {
      let animating = host.component.isAnimating || keyDrag != nil || !(player?.isFinished ?? true)
      // Wake for the next frame on time (not a full interval after drawing).
      let nextFrame = (frameTimes.last ?? 0) + Self.frameInterval
      let timeout = animating && !paused ? max(0.001, nextFrame - Self.now()) : 0.25
      waitForInput(timeout: timeout)
      let now = Self.now()
      if RawTerminal.resized {
        RawTerminal.resized = false
        measure()
        RawTerminal.write(ANSI.clearScreen)
        dirty = true
      }
      if watcher.changed(now: now) { reload() }
      advanceClock(now)
      if let drag = keyDrag, now - drag.lastKey > Self.keyDragRelease { releaseKeyDrag() }
      if dirty || (host.component.isAnimating && !paused) { draw(now) }
      if let due = pngDueAt, now >= due { writePNG() }
    }
  }

  // MARK: Loop pieces

  private func waitForInput(timeout: Double) {
    guard let keyboard else { return }
    var fds = [pollfd(fd: keyboard.descriptor, events: Int16(POLLIN), revents: 0)]
    if let fd = watcher.descriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
    _ = poll(&fds, nfds_t(fds.count), Int32(timeout * 1000))
    guard fds[0].revents & Int16(POLLIN) != 0 else { return }
    let input = keyboard.take()
    for key in reader.feed(input.bytes) { handle(key) }
    if input.closed { running = false }
  }

  private func advanceClock(_ now: Double) {
    let dt = min(0.1, now - lastTick)  // a stall (suspend, debugger) is not a time jump
    lastTick = now
    guard !paused else { return }
    attempt {
      if var p = player {
        try p.play(until: host.time + dt, on: host) { try self.key($0) }
        player = p
      } else {
        try host.advance(by: dt)
      }
    }
  }

  /// Runs a step that may fail; the error goes to the status line, state stays.
  private func attempt(_ body: () throws -> Void) {
    do {
      try body()
    } catch {
      lastError = "\(error)"
      dirty = true
    }
  }

  private func reload() {
    do {
      try host.reload(source: try BundledPlugins.source(atPath: path))
      lastError = nil
      message = "reloaded"
    } catch {
      lastError = "\(error)"
    }
    // Imports may have changed: watch what the running code reads now.
    if host.watchedFiles != watcher.requested {
      watcher = FileWatcher(paths: host.watchedFiles)
    }
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
      if showHelp {
        showHelp = false
        dirty = true
        return
      }
      attempt { try key(name) }
    case .mouse(let event):
      attempt { try mouse(event) }
    }
    dirty = true
  }

  func key(_ name: String) throws {
    if name != "left" && name != "right" && name != "h" && name != "l" { releaseKeyDrag() }
    message = nil
    switch name {
    case "escape": running = false
    case "space", "enter": try host.tap()
    case "left", "h": try keyDrag(-1)
    case "right", "l": try keyDrag(1)
    case "r": reload()
    case "p":
      paused.toggle()
      message = paused ? "paused: [ and ] scrub" : "running"
    case "[", "]": try scrub(name == "]" ? 1 : -1)
    case "m":
      try host.component.setReduceMotion(!host.component.reduceMotion)
      message = "reduce motion \(host.component.reduceMotion ? "on" : "off")"
    case "s": savePNG()
    case "?": showHelp = true
    default: message = "unknown key '\(name)'; ? for help"
    }
  }

  private func keyDrag(_ direction: Double) throws {
    if keyDrag == nil {
      try host.pointerDown(at: host.center)
      keyDrag = (0, Self.now())
    }
    keyDrag!.offset += direction * Self.keyDragStep
    keyDrag!.lastKey = Self.now()
    try host.pointerMoved(to: host.center + Point(keyDrag!.offset, 0))
  }

  private func releaseKeyDrag() {
    guard let drag = keyDrag else { return }
    keyDrag = nil
    attempt { try host.pointerUp(at: host.center + Point(drag.offset, 0)) }
  }

  private func scrub(_ direction: Double) throws {
    guard paused else {
      message = "press p to pause, then [ and ] scrub"
      return
    }
    let range = host.component.progressRange
    let step = (range.upperBound - range.lowerBound) / 50
    let current = host.component.progress ?? range.lowerBound
    try host.component.setProgress(current + direction * step)
  }

  private func mouse(_ event: MouseEvent) throws {
    // Cell (column, row) → the pixel at its centre → canvas points.
    let x = (Double(event.column) - 0.5) / grid.scale
    let y = (Double(event.row - 1) * 2 + 1) / grid.scale
    let p = Point(x, y)
    switch event.kind {
    case .press:
      try host.pointerDown(at: p)
      pointerDown = true
    case .drag:
      if pointerDown { try host.pointerMoved(to: p) }
    case .release:
      if pointerDown { try host.pointerUp(at: p) }
      pointerDown = false
    }
  }

  // MARK: Output

  private func measure() {
    let size = TerminalLayout.terminalSize() ?? (80, 24)
    let cols = settings.cols ?? size.cols
    let rows = max(1, (settings.rows ?? size.rows) - 1 - errorRows)
    let fitted = TerminalLayout.fit(
      canvas: (host.canvas.width, host.canvas.height), cols: cols, rows: rows)
    grid = (fitted.cols, fitted.rows, Double(fitted.cols) / host.canvas.width)
  }

  private func draw(_ now: Double) {
    dirty = false
    frameTimes.append(now)
    frameTimes.removeAll { now - $0 > 1 }
    var screen = ANSI.home
    let panel = errorPanel()
    if panel.count != errorRows {
      // The picture gives up rows to the error, and takes them back after.
      errorRows = panel.count
      measure()
      screen = ANSI.clearScreen + ANSI.home
    }
    if showHelp {
      screen += Self.help.replacingOccurrences(of: "\n", with: ANSI.reset + "\u{1B}[K\n")
    } else {
      do {
        let frame = try host.frame()
        lastFrameText = try TerminalFrame.render(
          frame.list, cols: grid.cols, rows: grid.rows, mode: mode, renderer: renderer)
        if settings.pngPath != nil, pngDueAt == nil { pngDueAt = now + 0.1 }
      } catch {
        lastError = "\(error)"
      }
      screen += lastFrameText
    }
    for line in panel { screen += ANSI.reset + line + "\u{1B}[K\n" }
    screen += status()
    RawTerminal.write(screen)
  }

  private func status() -> String {
    // The rate of recent frames, not a count that idle time would dilute.
    var fps = 0
    if let first = frameTimes.first, let last = frameTimes.last, last > first {
      fps = Int((Double(frameTimes.count - 1) / (last - first)).rounded())
    }
    var parts = [host.component.name, "\(fps) fps"]
    if let p = host.component.progress { parts.append(String(format: "progress %.3f", p)) }
    if let value = (try? host.component.accessibility())??.value { parts.append(value) }
    if paused { parts.append("paused") }
    if host.component.reduceMotion { parts.append("reduce motion") }
    if let message { parts.append(message) }
    if lastError != nil { parts.append("error (above)") }
    let width = max(10, TerminalLayout.terminalSize()?.cols ?? grid.cols)
    // Name, value, errors and printed lines are the plugin's text: escaped.
    var line = " " + terminalSafe(parts.joined(separator: " │ ")) + "   ? help  q quit"
    if line.count > width { line = String(line.prefix(width - 1)) + "…" }
    line += String(repeating: " ", count: max(0, width - line.count))
    return "\u{1B}[7m" + line + ANSI.reset
  }

  /// The last error, whole (its full path and line), wrapped to the
  /// window's width; at most half the window (its start kept when cut).
  private func errorPanel() -> [String] {
    guard let lastError else { return [] }
    let size = TerminalLayout.terminalSize() ?? (80, 24)
    let width = max(10, settings.cols ?? size.cols)
    let limit = max(1, (settings.rows ?? size.rows) / 2)
    var lines: [String] = []
    // Plugin text: control characters shown escaped, never sent raw.
    let text = terminalSafe(
      ("error: " + lastError).replacingOccurrences(of: "\t", with: "  "), multiline: true)
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var rest = Substring(paragraph)
      repeat {
        lines.append(String(rest.prefix(width)))
        rest = rest.dropFirst(width)
      } while !rest.isEmpty
    }
    return Array(lines.prefix(limit))
  }

  private func savePNG() {
    let name =
      "\(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)-"
      + String(format: "%.3f", host.time) + ".png"
    attempt {
      let frame = try host.frame()
      try OutputFile.write(
        try renderer.render(frame.list, scale: settings.scale, background: .white).pngData(),
        to: name)
      message = "saved \(name)"
    }
  }

  /// `--png FILE`: the latest frame, written atomically (viewers never see half a file).
  private func writePNG() {
    pngDueAt = nil
    guard let target = settings.pngPath else { return }
    attempt {
      let frame = try host.frame()
      try OutputFile.write(
        try renderer.render(frame.list, scale: settings.scale, background: .white).pngData(),
        to: target)
    }
  }

  static let help = """
     morphhost — keys

     space, enter   tap the component's centre
     ← → (h l)      drag left/right by steps; released after a short pause
     mouse          click to tap, drag to drag (terminals with mouse reporting)
     r              reload the plugin now (it also reloads on every save)
     p              pause / resume the clock
     [ ]            scrub progress while paused
     m              toggle reduce motion
     s              save the current frame as PNG
     ?              this help (any other key closes it)
     q, Esc         quit
    """
}
