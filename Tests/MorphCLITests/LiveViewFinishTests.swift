import Foundation
import Testing

/// The live view's screen under tmux: overlays that restore the picture, a
/// long error read whole, start-up on a broken file, centring, truecolour.
@Suite(.serialized) struct LiveViewFinishTests {
  typealias Tmux = LiveViewTests.Tmux
  static let binary = LiveViewTests.binary
  static let flipSource = LiveViewTests.repository.appendingPathComponent("Plugins/flip.lua")

  /// A scratch folder with a copy of flip.lua as card.lua.
  final class Scratch {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("finish-\(UUID())")
    var file: URL { dir.appendingPathComponent("card.lua") }
    let original: String

    init() throws {
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
      original = try String(contentsOf: LiveViewFinishTests.flipSource, encoding: .utf8)
      try save(original)
    }

    func save(_ text: String) throws { try text.write(to: file, atomically: true, encoding: .utf8) }

    deinit { try? FileManager.default.removeItem(at: dir) }
  }

  /// `run FILE` in an 80×26 tmux window (its exit status echoed after).
  func start(_ tmux: Tmux, _ file: URL, term: String = "xterm-256color", width: Int = 80) throws {
    try tmux.startRun(file.path, environment: "TERM=\(term) NO_COLOR=", width: width)
  }

  /// Whether `screen` shows `text` once rows are joined and spaces dropped
  /// (a wrapped row that ends in a space is captured one shorter).
  static func shows(_ screen: String, _ text: String) -> Bool {
    screen.filter { !$0.isWhitespace }.contains(text.filter { !$0.isWhitespace })
  }

  static func rows(_ screen: String) -> [Substring] {
    screen.split(separator: "\n", omittingEmptySubsequences: false)
  }

  /// The status line is the window's bottom row (capture-pane gives 26 rows).
  static func statusIsOnTheBottomRow(_ screen: String, _ name: String) -> Bool {
    rows(screen).firstIndex(where: { $0.contains(name) }) == 25
  }

  static let longMessage = (1...60).map { "word\($0)" }.joined(separator: " ") + " THE-END"

  @Test(.enabled(if: LiveViewTests.tmuxAvailable, "needs tmux"))
  func aLongErrorCanBeReadWholeWithItsTraceback() throws {
    let tmux = Tmux()
    let scratch = try Scratch()
    try start(tmux, scratch.file)
    _ = try tmux.waitFor("the first frame") { $0.contains("Flip Card") }
    try tmux.run(["send-keys", "-t", "live", "space"])
    _ = try tmux.waitFor("reloaded or flipped") { $0.contains("Showing back") }
    // A good save says "reloaded"; a broken one after it must not.
    try scratch.save(scratch.original.replacingOccurrences(of: "Flip Card", with: "Good Card"))
    _ = try tmux.waitFor("the reload") { $0.contains("reloaded") }
    let broken = scratch.original.replacingOccurrences(
      of: "body = function(self)",
      with: "body = function(self)\n    local function deep() error(\"\(Self.longMessage)\") end\n"
        + "    deep()")
    #expect(broken != scratch.original)
    try scratch.save(broken)
    let panel = try tmux.waitFor("the error panel") { $0.contains("e shows the whole error") }
    #expect(!panel.contains("reloaded"))
    #expect(!Self.shows(panel, "THE-END"), "the panel is cut short")
    try tmux.run(["send-keys", "-t", "live", "e"])
    let whole = try tmux.waitFor("the whole error") {
      $0.contains("stack traceback") && Self.shows($0, "in local 'deep'")
    }
    #expect(Self.shows(whole, "card.lua:") && Self.shows(whole, Self.longMessage))
    #expect(Self.shows(whole, "in local 'deep'"), "the traceback names the function")
    #expect(!whole.contains("▀"), "the overlay is drawn on a cleared screen")
    // Any key closes it and the picture comes back, the error panel under it.
    try tmux.run(["send-keys", "-t", "live", "x"])
    // The whole redraw, not a capture taken halfway through it (seen at load 5).
    let back = try tmux.waitFor("the picture again, the error panel and the status line") {
      $0.contains("▀") && !$0.contains("stack traceback")
        && $0.contains("e shows the whole error") && Self.statusIsOnTheBottomRow($0, "Good Card")
    }
    #expect(back.contains("e shows the whole error"))
    try tmux.quit()
  }

  @Test(.enabled(if: LiveViewTests.tmuxAvailable, "needs tmux"))
  func helpWithAnErrorShowingIsAnOverlayThatRestoresThePicture() throws {
    let tmux = Tmux()
    let scratch = try Scratch()
    try start(tmux, scratch.file)
    _ = try tmux.waitFor("the first frame") { $0.contains("Flip Card") }
    let before = try tmux.screen()
    try scratch.save("error('broken on purpose')\n" + scratch.original)
    let withError = try tmux.waitFor("the error") { Self.shows($0, "broken on purpose") }
    try tmux.run(["send-keys", "-t", "live", "?"])
    let help = try tmux.waitFor("the help") { $0.contains("pause / resume the clock") }
    #expect(!help.contains("▀"), "no picture rows are left under the help")
    #expect(!Self.shows(help, "broken on purpose"), "the error panel is not drawn over the help")
    #expect(Self.rows(help).count == Self.rows(before).count, "nothing scrolled")
    #expect(Self.statusIsOnTheBottomRow(help, "Flip Card"))
    try tmux.run(["send-keys", "-t", "live", "x"])
    let restored = try tmux.waitFor("the picture again") {
      !$0.contains("pause / resume") && Self.shows($0, "broken on purpose")
    }
    // The same picture and error panel as before the help, row for row.
    #expect(restored == withError)
    try tmux.quit()
  }

  @Test(.enabled(if: LiveViewTests.tmuxAvailable, "needs tmux"))
  func startsOnABrokenFileAndWaitsForTheFix() throws {
    let tmux = Tmux()
    let scratch = try Scratch()
    try scratch.save("local x = nil\nlocal function f() return x.y end\nf()\n")
    try start(tmux, scratch.file)
    let waiting = try tmux.waitFor("the error") {
      $0.contains("waiting for a save") && $0.contains("stack traceback")
    }
    #expect(Self.shows(waiting, "card.lua:2: attempt to index a nil value"))
    #expect(waiting.contains("stack traceback"))
    #expect(!waiting.contains("exit="), "it waits instead of exiting")
    try scratch.save(scratch.original)
    let running = try tmux.waitFor("the fixed plugin") {
      $0.contains("Flip Card") && $0.contains("Showing front")
    }
    #expect(!running.contains("waiting for a save"))
    try tmux.quit()
  }

  /// In a wide window the picture (74 of 120 columns: the height limits it)
  /// sits in the middle, and the status line on the bottom row.
  @Test(.enabled(if: LiveViewTests.tmuxAvailable, "needs tmux"))
  func thePictureIsCentred() throws {
    let tmux = Tmux()
    let scratch = try Scratch()
    try start(tmux, scratch.file, width: 120)
    let screen = try tmux.waitFor("the first frame") { $0.contains("Showing front") }
    #expect(Self.statusIsOnTheBottomRow(screen, "Flip Card"))
    let styled = try tmux.run(["capture-pane", "-t", "live", "-p", "-e"], capture: true)
    // Each picture row starts with the margin's white: the columns before it are the gutter.
    let gutters = Self.rows(styled).dropLast().compactMap { row -> Int? in
      guard let start = row.range(of: "\u{1B}[48;5;231m") else { return nil }
      return row[..<start.lowerBound].replacingOccurrences(
        of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression
      ).count
    }
    #expect(gutters.count >= 20, "picture rows found: \(gutters.count)")
    #expect(Set(gutters) == [23], "left gutters: \(Set(gutters)); (120 - 74) / 2 = 23")
    try tmux.quit()
  }

  /// TERM=xterm alone means 256 colours; tmux's RGB feature for it means truecolour.
  @Test(
    .enabled(if: LiveViewTests.tmuxAvailable, "needs tmux"),
    arguments: [true, false])
  func truecolourFollowsTmuxsRGBFeature(rgb: Bool) throws {
    let tmux = Tmux()
    let scratch = try Scratch()
    // The option is set while the shell sleeps, before morphhost asks tmux.
    try tmux.startRun(
      scratch.file.path, environment: "TERM=xterm COLORTERM= NO_COLOR=", before: "sleep 1; ",
      config: "/dev/null")
    if rgb { try tmux.run(["set-option", "-as", "terminal-features", ",xterm*:RGB"]) }
    _ = try tmux.waitFor("the first frame") { $0.contains("Showing front") }
    let styled = try tmux.run(["capture-pane", "-t", "live", "-p", "-e"], capture: true)
    #expect(styled.contains("8;2;") == rgb, "24-bit colour escapes")
    #expect(styled.contains("8;5;") == !rgb, "256-colour escapes")
    try tmux.quit()
  }
}
