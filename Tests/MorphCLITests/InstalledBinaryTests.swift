import Foundation
import MorphRender
import Testing

/// A `morphhost` copied anywhere (as `make install` does) carries its
/// bundled plugins: it needs no checkout beside it.
@Suite struct InstalledBinaryTests {
  static let names = ["card_stack", "deck_fan", "flip", "ticket_tear"]

  @Test func aCopyInAnEmptyFolderListsRendersAndRunsTheBundledPlugins() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("installed-\(UUID())")
    defer { try? FileManager.default.removeItem(at: root) }
    let work = root.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let binary = root.appendingPathComponent("morphhost")
    try copyExecutable(builtBinary, to: binary)

    let list = try Subprocess.run(["list"], executable: binary.path, in: work)
    #expect(list.status == 0, Comment(rawValue: list.err))
    let listed = list.out.split(separator: "\n").map { $0.split(separator: " ").first ?? "" }
    #expect(listed == Self.names.map { Substring($0) }, Comment(rawValue: list.out))

    for name in Self.names {
      let render = try Subprocess.run(
        ["render", name, "-o", "\(name).png"], executable: binary.path, in: work)
      #expect(render.status == 0, "\(name): \(render.err)")
      let png = try Data(contentsOf: work.appendingPathComponent("\(name).png"))
      let image = try RasterImage.decodePNG([UInt8](png))
      #expect(image.width > 100 && image.height > 100, "\(name)")
    }
    // `run` in a pipe plays the tap asked for and stops once the card settles.
    let run = try Subprocess.run(
      ["run", "flip", "--input", "tap"], executable: binary.path, in: work)
    #expect(run.status == 0, Comment(rawValue: run.err))
    #expect(run.out.contains("settled at t="), Comment(rawValue: run.out))
    // Nothing but what was asked for was written beside the user.
    let written = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
    #expect(written == Self.names.map { "\($0).png" })
  }

  /// Without a terminal, `render` sizes text from `COLUMNS` and `LINES`
  /// (the live view's tmux test covers a real window).
  @Test func textFitsTheSizeTheEnvironmentGives() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("columns-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try Subprocess.run(
      ["render", "flip", "--format", "ascii"], in: dir,
      environment: ["COLUMNS": "40", "LINES": "10"])
    #expect(result.status == 0, Comment(rawValue: result.err))
    // One row is kept for the prompt: 40×9 cells, fitted to the 428×288 canvas.
    let grid = TerminalLayout.fit(canvas: (428, 288), cols: 40, rows: 9)
    #expect(grid.cols == 27)
    let widths = Set(result.out.split(separator: "\n").map(\.count))
    #expect(widths == [grid.cols], Comment(rawValue: result.out))
  }
}
