import Foundation
import MorphRender
import MorphTestSupport
import Testing

@testable import MorphCLI

/// The live view on a pseudo-terminal that answers like a terminal with
/// images: it picks the protocol from the answers, draws the picture at the
/// pane's pixel size, sends only changed frames, and restores the screen.
@Suite struct LiveImageTests {
  static let flip = Subprocess.repository.appendingPathComponent("Plugins/flip.lua").path
  /// 80 × 25 cells of 10 × 20 pixels: the picture's rows (24) limit it to 480 px tall.
  static let cell = CellSize(width: 10, height: 20)
  static let scale = 480.0 / 288

  /// kitty and sixel from the terminal's answers; iTerm2, which answers no query, by name.
  @Test(arguments: [GraphicsProtocol.kitty, GraphicsProtocol.sixel, GraphicsProtocol.iterm])
  func picksTheAnsweredProtocolAndDrawsOnlyChangedFrames(graphics: GraphicsProtocol) throws {
    var environment = ["TERM": "xterm-256color"]
    if graphics == .iterm { environment["LC_TERMINAL"] = "iTerm2" }
    let terminal = try PseudoTerminal(
      ["run", Self.flip], cols: 80, rows: 25, cell: Self.cell, environment: environment,
      binary: builtBinary.path)
    defer { terminal.stop() }
    try terminal.answerProbe(kitty: graphics == .kitty, sixel: graphics == .sixel, cell: Self.cell)
    let first = terminal.readUntil(timeout: 60) {
      (try? TerminalImages.decode($0.text, as: graphics).count) ?? 0 >= 1
        && $0.text.contains("Showing front")
    }
    #expect(first != nil, "a first image and the status line")
    #expect(terminal.output.text.contains(graphics.rawValue), "the status line names the protocol")
    // Nothing moves: nothing more is sent but the status line.
    let before = try TerminalImages.decode(terminal.output.text, as: graphics).count
    terminal.readUntil(timeout: 1) { _ in false }
    #expect(try TerminalImages.decode(terminal.output.text, as: graphics).count == before)
    // A tap flips the card: new images until it settles.
    let tapped = terminal.output.bytes.count
    terminal.write(" ")
    Self.waitForStillness(terminal, after: tapped)
    let images = try TerminalImages.decode(terminal.output.text, as: graphics)
    #expect(images.count > before + 2)
    let expected = try Self.rendered(time: 5)
    let last = try #require(images.last)
    #expect(last.width == expected.width && last.height == expected.height)
    let close = TerminalImageTests.shareWithin(32, last, expected)
    #expect(close > (graphics == .sixel ? 0.95 : 0.99), "\(close) of pixels within 32 levels")
    // Centred: 80 columns of 10 px hold 713 px (72 cells), so 4 columns to the left.
    #expect(terminal.output.text.contains("\u{1B}[1;5H"))
    terminal.write("q")
    #expect(terminal.wait(timeout: 30) == 0)
    let tail = terminal.output.text.suffix(400)
    #expect(tail.contains("\u{1B}[?1049l"), "the main screen is back")
    if graphics == .kitty {
      #expect(tail.contains("a=d,d=I"), "kitty's images are deleted")
    }
  }

  /// Reads until the card has turned and the status line says `idle` again
  /// (its last image is drawn before that), however slowly a loaded machine
  /// plays the flip (60 s at most).
  static func waitForStillness(_ terminal: PseudoTerminal, after mark: Int) {
    terminal.readUntil(timeout: 60) { output in
      let since = String(decoding: output.bytes[mark...], as: UTF8.self)
      // One status line: `Flip │ idle │ progress 0.500 │ Showing back │ …`.
      return since.range(of: "idle[^\u{1B}\n]*Showing back", options: .regularExpression) != nil
    }
  }

  /// `render flip --input tap --time T` at the live view's scale: the tap the test made.
  static func rendered(time: Double) throws -> RasterImage {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID()).png")
    defer { try? FileManager.default.removeItem(at: file) }
    let render = try Subprocess.run([
      "render", flip, "--input", "tap", "--time", "\(time)", "--scale", "\(scale)", "-o",
      file.path,
    ])
    #expect(render.status == 0, "\(render.err)")
    return try RasterImage.decodePNG(Array(try Data(contentsOf: file)))
  }
}
