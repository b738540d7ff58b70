import Foundation
import MorphRender
import MorphSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the terminal answered when asked how it draws images.
struct TerminalAnswers: Equatable {
  /// kitty's graphics protocol answered its `a=q` query with OK.
  var kitty = false
  /// The primary device attributes list 4 (sixel graphics).
  var sixel = false
  /// Pixels per cell (`CSI 16 t`, or the window's pixels `CSI 14 t` over its cells).
  var cell: CellSize?
  /// The device attributes arrived: every terminal answers them, and in order,
  /// so nothing asked before them is still on its way.
  var complete = false
}

/// A cell's size in pixels.
struct CellSize: Equatable {
  var width: Double
  var height: Double

  /// The sizes a terminal's answer may give: whole pixels are not required, but a cell
  /// over 1024 pixels, under one, or not finite is a wrong answer (placing the picture
  /// would turn it into a cell count past `Int`), and the default is kept instead.
  static let plausible = 1.0...1024.0

  var isPlausible: Bool { Self.plausible.contains(width) && Self.plausible.contains(height) }
}

/// Asks the terminal what it can draw, before the keyboard thread owns
/// standard input: kitty's graphics query, the cell and window size in
/// pixels, and the primary device attributes last (its answer ends the wait).
enum TerminalProbe {
  /// kitty's query: a 1×1 image it checks but does not keep (`a=q`).
  static let kittyQuery = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
  /// Cell size, window size in pixels, primary device attributes.
  static let otherQueries = "\u{1B}[16t\u{1B}[14t\u{1B}[c"

  /// Writes the queries (kitty's through tmux's passthrough when asked) and
  /// reads answers for at most `timeout` seconds. The terminal must be raw.
  static func ask(timeout: Double = 0.5, passthrough: Bool) -> TerminalAnswers {
    let kitty =
      passthrough
      ? "\u{1B}Ptmux;" + kittyQuery.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}")
        + "\u{1B}\\" : kittyQuery
    RawTerminal.write(kitty + otherQueries)
    let deadline = SessionClock.uptime() + timeout
    var bytes: [UInt8] = []
    var answers = parse(bytes)
    var buffer = [UInt8](repeating: 0, count: 1024)
    while !answers.complete {
      let left = deadline - SessionClock.uptime()
      guard left > 0 else { break }
      var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
      guard poll(&fds, 1, Int32(left * 1000) + 1) > 0 else { break }
      let n = read(STDIN_FILENO, &buffer, buffer.count)
      guard n > 0 else { break }
      bytes += buffer[0..<n]
      answers = parse(bytes)
    }
    if let cell = windowCell(), cell.isPlausible { answers.cell = cell }
    return answers
  }

  /// The answers in `bytes` so far.
  static func parse(_ bytes: [UInt8]) -> TerminalAnswers {
    var answers = TerminalAnswers()
    let text = String(decoding: bytes, as: UTF8.self)
    var windowPixels: (Double, Double)?
    for reply in text.components(separatedBy: "\u{1B}").dropFirst() {
      if reply.hasPrefix("_G") && reply.contains(";OK") { answers.kitty = true }
      guard reply.hasPrefix("["), let final = reply.last else { continue }
      let body = reply.dropFirst().dropLast()
      if final == "c" && body.hasPrefix("?") {
        answers.sixel = body.dropFirst().split(separator: ";").contains("4")
        answers.complete = true
      } else if final == "t" {
        let fields = body.split(separator: ";").compactMap { Double($0) }
        guard fields.count == 3, fields[1] > 0, fields[2] > 0 else { continue }
        let cell = CellSize(width: fields[2], height: fields[1])
        if fields[0] == 6 && cell.isPlausible { answers.cell = cell }
        if fields[0] == 4 { windowPixels = (fields[2], fields[1]) }
      }
    }
    if answers.cell == nil, let (width, height) = windowPixels,
      let size = ProcessEnvironment.terminalSize()
    {
      let cell = CellSize(width: width / Double(size.cols), height: height / Double(size.rows))
      if cell.isPlausible { answers.cell = cell }
    }
    return answers
  }

  /// The cell size from the kernel's window size, where the terminal fills in pixels.
  static func windowCell() -> CellSize? {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0,
      size.ws_xpixel > 0, size.ws_ypixel > 0
    else { return nil }
    return CellSize(
      width: Double(size.ws_xpixel) / Double(size.ws_col),
      height: Double(size.ws_ypixel) / Double(size.ws_row))
  }
}

/// How the live view draws, chosen once at start from `--graphics`, the
/// terminal's answers and the environment, with a note for the status line.
struct LiveGraphics {
  /// The image protocol, or nil for text (half blocks or ASCII).
  var images: GraphicsProtocol?
  var passthrough = false
  var cell = CellSize(width: 8, height: 16)
  /// What was chosen and, where it fell back, why.
  var note: String

  /// Terminals that show iTerm2 inline images but answer no query for them.
  static let itermPrograms: Set<String> = ["iTerm.app", "WezTerm", "vscode"]

  static func choose(_ choice: GraphicsChoice, textMode: TerminalColorMode) -> LiveGraphics {
    let text = textMode == .ascii ? "ascii" : "blocks"
    switch choice {
    case .blocks, .ascii: return LiveGraphics(note: choice.rawValue)
    case .auto, .kitty, .iterm, .sixel: break
    }
    if textMode == .ascii && choice == .auto { return LiveGraphics(note: text) }
    // Inside tmux, images reach the terminal through its passthrough; tmux
    // itself answers the device attributes (with 4 when it draws sixels).
    let inTmux = Tmux.isInside
    let passthrough = inTmux && Tmux.allowsPassthrough()
    let answers = TerminalProbe.ask(passthrough: passthrough)
    var picked = choice.imageProtocol ?? autoProtocol(answers)
    if inTmux && !passthrough {
      guard picked == .sixel && answers.sixel else {
        return LiveGraphics(note: "\(text) (tmux passthrough off)")
      }
      picked = .sixel
    }
    guard let picked else { return LiveGraphics(note: "\(text) (no image support answered)") }
    let via = passthrough ? " via tmux" : inTmux ? " (tmux)" : ""
    guard let cell = answers.cell else {
      if choice == .auto { return LiveGraphics(note: "\(text) (no cell size in pixels)") }
      return LiveGraphics(
        images: picked, passthrough: passthrough, note: "\(picked)\(via), cell 8×16?")
    }
    return LiveGraphics(
      images: picked, passthrough: passthrough, cell: cell, note: "\(picked)\(via)")
  }

  /// What the answers and the environment say the terminal draws, best first.
  static func autoProtocol(_ answers: TerminalAnswers) -> GraphicsProtocol? {
    let environment = ProcessInfo.processInfo.environment
    if environment["LC_TERMINAL"] == "iTerm2" || environment["TERM_PROGRAM"] == "iTerm.app" {
      return .iterm
    }
    if answers.kitty { return .kitty }
    if answers.sixel { return .sixel }
    if let program = environment["TERM_PROGRAM"], itermPrograms.contains(program) { return .iterm }
    return nil
  }
}
