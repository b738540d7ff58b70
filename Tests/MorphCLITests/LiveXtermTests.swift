import Foundation
import MorphRender
import Testing

/// The live view in a real xterm started as a VT340 (`-ti vt340`, sixel
/// graphics) on a virtual X display: it detects sixel by itself (the
/// primary device attributes) and draws the component as an image, which
/// xterm's own sixel decoder shows. The screenshot (ffmpeg's x11grab) is the
/// README's picture of the live view.
@Suite(.serialized) struct LiveXtermTests {
  /// The programs, and xterm's default bitmap font (xfonts-base), without
  /// which it would not start.
  static let tools = [
    "/usr/bin/xterm", "/usr/bin/Xvfb", "/usr/bin/ffmpeg", "/usr/bin/timeout",
    "/usr/share/fonts/X11/misc/fonts.dir",
  ]
  static var available: Bool { tools.allSatisfy(FileManager.default.fileExists) }
  static let reason = "needs xterm, Xvfb and ffmpeg (scripts/install-deps.sh installs them)"
  static let screen = (width: 1000, height: 700)

  @Test(.enabled(if: available, Comment(rawValue: reason)))
  func drawsTheComponentAsSixelImagesInARealXterm() throws {
    let (display, server) = try Self.startDisplay()
    defer {
      Self.stop(server)
      // Killed, the server leaves its lock and socket behind.
      let number = display.dropFirst()
      for path in ["/tmp/.X\(number)-lock", "/tmp/.X11-unix/X\(number)"] { unlink(path) }
    }
    let flip = Subprocess.repository.appendingPathComponent("Plugins/flip.lua").path
    let xterm = Process()
    xterm.executableURL = URL(fileURLWithPath: "/usr/bin/xterm")
    xterm.arguments = [
      "-ti", "vt340", "-xrm", "XTerm*numColorRegisters: 256", "-geometry", "110x40+0+0", "-e",
      // Bounded: the shell and its children inherit blocked signals.
      "/usr/bin/timeout", "-s", "KILL", "120", "/bin/sh", "-c",
      "'\(builtBinary.path)' run '\(flip)'; sleep 60",
    ]
    // Only what a desktop session would pass: the test runner's NO_COLOR or
    // TERM must not choose the live view's mode.
    let inherited = ProcessInfo.processInfo.environment
    xterm.environment = ["PATH", "HOME", "LANG"].reduce(into: ["DISPLAY": display]) {
      $0[$1] = inherited[$1]
    }
    xterm.standardOutput = FileHandle.nullDevice
    xterm.standardError = FileHandle.nullDevice
    try xterm.run()
    defer { Self.stop(xterm) }

    // The card's blue dot, drawn at pixel resolution: its rows have many
    // widths (half-block cells would give a few, in steps of a cell).
    var shot: RasterImage?
    var widths = 0
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline, xterm.isRunning {
      Thread.sleep(forTimeInterval: 0.5)
      guard let image = try? Self.screenshot(display) else { continue }
      widths = Self.rowWidths(of: image).count
      if widths >= 20 {
        shot = image
        break
      }
    }
    let image = try #require(
      shot,
      "no sixel picture of the flip card (\(widths) row widths; xterm running: \(xterm.isRunning))"
    )
    if ProcessInfo.processInfo.environment[PreviewTests.refreshScreenshotVariable] == "1" {
      try Data(try Self.window(in: image).pngData()).write(
        to: Subprocess.repository.appendingPathComponent("docs/live-view.png"))
    }
  }

  /// The distinct widths of the rows of the flip card's accent (#2F6FED).
  static func rowWidths(of image: RasterImage) -> Set<Int> {
    var widths = Set<Int>()
    let p = image.pixels
    for y in 0..<image.height {
      var count = 0
      for x in 0..<image.width {
        let i = (y * image.width + x) * 4
        if abs(Int(p[i]) - 0x2F) < 24 && abs(Int(p[i + 1]) - 0x6F) < 24
          && abs(Int(p[i + 2]) - 0xED) < 24
        {
          count += 1
        }
      }
      if count > 0 { widths.insert(count) }
    }
    return widths
  }

  /// The xterm window: the screen cropped to what is not the root window's black.
  static func window(in image: RasterImage) -> RasterImage {
    var (x0, y0, x1, y1) = (image.width, image.height, -1, -1)
    let p = image.pixels
    for y in 0..<image.height {
      for x in 0..<image.width {
        let i = (y * image.width + x) * 4
        guard p[i] | p[i + 1] | p[i + 2] != 0 else { continue }
        (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
      }
    }
    guard x1 >= x0, y1 >= y0 else { return image }
    let (width, height) = (x1 - x0 + 1, y1 - y0 + 1)
    var pixels = [UInt8]()
    pixels.reserveCapacity(width * height * 4)
    for y in y0...y1 {
      let start = (y * image.width + x0) * 4
      pixels += p[start..<(start + width * 4)]
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }

  /// The whole virtual screen as an image, through ffmpeg's x11grab.
  static func screenshot(_ display: String) throws -> RasterImage {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("xterm-\(UUID()).png")
    defer { try? FileManager.default.removeItem(at: file) }
    let grab = try Subprocess.run(
      [
        "ffmpeg", "-v", "error", "-y", "-f", "x11grab", "-video_size",
        "\(screen.width)x\(screen.height)", "-i", display, "-frames:v", "1", file.path,
      ], executable: "/usr/bin/env", deadline: 120)
    guard grab.status == 0 else { throw RenderError.io("x11grab failed: \(grab.err)") }
    return try RasterImage.decodePNG([UInt8](try Data(contentsOf: file)))
  }

  /// Xvfb on a display number no other server holds, once its socket is there.
  static func startDisplay() throws -> (display: String, server: Process) {
    for _ in 0..<20 {
      let number = Int.random(in: 200..<900)
      let socket = "/tmp/.X11-unix/X\(number)"
      let lock = "/tmp/.X\(number)-lock"
      guard !FileManager.default.fileExists(atPath: socket),
        !FileManager.default.fileExists(atPath: lock)
      else { continue }
      let server = Process()
      server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
      server.arguments = [
        ":\(number)", "-screen", "0", "\(screen.width)x\(screen.height)x24", "-nolisten", "tcp",
      ]
      server.standardOutput = FileHandle.nullDevice
      server.standardError = FileHandle.nullDevice
      try server.run()
      let deadline = Date().addingTimeInterval(30)
      while Date() < deadline, server.isRunning {
        if FileManager.default.fileExists(atPath: socket) { return (":\(number)", server) }
        Thread.sleep(forTimeInterval: 0.1)
      }
      stop(server)
      unlink(lock)
    }
    throw RenderError.io("no X display could be started")
  }

  /// Ends a child for good: it inherits the test runner's blocked signals,
  /// SIGTERM among them, so it is killed.
  static func stop(_ process: Process) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}
