import Foundation
import Testing

@testable import MorphCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `morphhost preview` as a subprocess: a server that prints its URL, serves
/// only loopback names, and stops cleanly; and in a real browser.
@Suite(.serialized) struct PreviewTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// A running `morphhost preview`, stopped with SIGTERM.
  final class Server {
    let process = Process()
    let url: String
    let port: Int
    private let errFile: URL

    init(_ arguments: [String], in directory: URL) throws {
      errFile = directory.appendingPathComponent(".err-\(UUID())")
      _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
      let out = Pipe()
      process.executableURL = builtBinary
      process.arguments = ["preview"] + arguments + ["--no-open"]
      process.currentDirectoryURL = directory
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = out
      process.standardError = try FileHandle(forWritingTo: errFile)
      try process.run()
      // The URL is the first line; read byte by byte so nothing after it is lost.
      var line = [UInt8]()
      while let byte = try out.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 {
        line.append(byte)
      }
      url = String(decoding: line, as: UTF8.self)
      port =
        Int(url.split(separator: ":").last?.trimmingCharacters(in: .init(charactersIn: "/")) ?? "")
        ?? 0
    }

    /// SIGTERM, then the exit status (killed after 20 s: a hang fails).
    func stop() -> Int32 {
      process.terminate()
      let end = Date().addingTimeInterval(20)
      while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        Issue.record("preview did not stop on SIGTERM")
      }
      try? FileManager.default.removeItem(at: errFile)
      return process.terminationStatus
    }
  }

  /// One raw HTTP/1.0 request, so the Host header is exactly what we say.
  static func request(port: Int, _ head: String, body: String = "") throws -> (Int, String) {
    let connection = try LoopbackConnection(port: port, timeout: 30)
    connection.write(head + "\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
    var answer = [UInt8]()
    while let received = connection.receive(), !received.isEmpty { answer += received }
    let response = String(decoding: answer, as: UTF8.self)
    let status = Int(response.split(separator: " ").dropFirst().first ?? "") ?? 0
    return (status, response)
  }

  static func scratch() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: repository.appendingPathComponent("Plugins/flip.lua"),
      to: dir.appendingPathComponent("flip.lua"))
    return dir
  }

  @Test func servesLoopbackOnlyAndStopsCleanly() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server(["flip.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    #expect(server.url.hasPrefix("http://127.0.0.1:"))
    let port = server.port
    let page = try Self.request(port: port, "GET / HTTP/1.0\r\nHost: 127.0.0.1:\(port)")
    #expect(page.0 == 200)
    for id in ["stage", "scrub", "status", "error", "props", "reduce-motion", "save"] {
      #expect(page.1.contains("id=\"\(id)\""), "the page has #\(id)")
    }
    let named = try Self.request(port: port, "GET / HTTP/1.0\r\nHost: localhost:\(port)")
    #expect(named.0 == 200)
    let evil = try Self.request(port: port, "GET / HTTP/1.0\r\nHost: evil.example")
    #expect((400..<500).contains(evil.0), "a foreign Host is refused: \(evil.0)")
    let otherPort = try Self.request(port: port, "GET / HTTP/1.0\r\nHost: 127.0.0.1:1")
    #expect((400..<500).contains(otherPort.0))
    let crossOrigin = try Self.request(
      port: port,
      "POST /control HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://evil.example",
      body: #"{"action": "pause"}"#)
    #expect(crossOrigin.0 == 403)
    let script = try Self.request(
      port: port, "GET /assets/preview.js HTTP/1.0\r\nHost: 127.0.0.1:\(port)")
    #expect(script.0 == 200 && script.1.contains("EventSource"))
    let png = try Self.request(port: port, "GET /frame.png?scale=2 HTTP/1.0\r\nHost: localhost")
    #expect(png.0 == 200 && png.1.contains("image/png"))

    // A second preview on the same port says so in one line and exits 1.
    let taken = try Subprocess.run(
      ["preview", "flip.lua", "--port", "\(port)", "--no-open"], in: dir, deadline: 30)
    #expect(taken.status == 1)
    #expect(taken.err.contains("cannot listen on 127.0.0.1:\(port)"), "\(taken.err)")
  }

  /// Issue 27: `POST size` gives the page's room for the frame (points) to a
  /// body that reads `self.size`; nulls give the declared size back.
  @Test func aPostedSizeLaysOutABodyThatReadsIt() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.copyItem(
      at: Self.repository.appendingPathComponent("Tests/MorphCLITests/Fixtures/adaptive.lua"),
      to: dir.appendingPathComponent("adaptive.lua"))
    let server = try Server(["adaptive.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    let post = { (body: String) in
      try Self.request(port: port, "POST /size HTTP/1.0\r\nHost: 127.0.0.1:\(port)", body: body).0
    }
    // 200 × 100 with 24-point margins.
    #expect(try Self.frameWidth(port: port) == 248)
    #expect(try post(#"{"width": 320, "height": 90}"#) == 204)
    #expect(try Self.frameWidth(port: port) == 368)
    #expect(try post("[320, 90]") == 400)
    #expect(try post(#"{"width": null, "height": null}"#) == 204)
    #expect(try Self.frameWidth(port: port) == 248)
  }

  /// The width of `frame.png` at scale 1, from its header.
  static func frameWidth(port: Int) throws -> Int {
    let connection = try LoopbackConnection(port: port, timeout: 30)
    connection.write("GET /frame.png HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    var answer = [UInt8]()
    while let received = connection.receive(), !received.isEmpty { answer += received }
    let end = Array("\r\n\r\n".utf8)
    guard
      let head = (0..<max(0, answer.count - 4)).first(where: { Array(answer[$0..<$0 + 4]) == end })
    else { return 0 }
    // The signature (8 bytes), IHDR's length and type (8), then the width.
    let width = answer.dropFirst(head + 4 + 16).prefix(4)
    return width.reduce(0) { $0 << 8 | Int($1) }
  }

  /// A frame that never ends (the plugin spins under a 60 s budget) must
  /// not keep a stopped server alive: stopping has its own deadline.
  @Test func stopsWhileAFrameSpins() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("flip.lua")
    let spin = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
      of: "body = function(self)", with: "body = function(self)\n    while true do end")
    try spin.write(to: file, atomically: true, encoding: .utf8)
    let server = try Server(
      ["flip.lua", "--budget", "1000000000000", "--timeout", "60"], in: dir)
    let port = server.port
    let asked = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      asked.signal()
      _ = try? Self.request(port: port, "GET /frame.png HTTP/1.0\r\nHost: localhost")
    }
    asked.wait()
    Thread.sleep(forTimeInterval: 0.5)
    let stopping = Date()
    #expect(server.stop() == 0)
    // The deadline is 3 s; 15 s leaves room for a loaded machine, and is
    // far below the 60 s the spinning frame would otherwise take.
    #expect(Date().timeIntervalSince(stopping) < 15)
  }

  @Test func missingPluginIsOneLine() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try Subprocess.run(["preview", "nope.lua", "--no-open"], in: dir, deadline: 30)
    #expect(result.status == 1)
    #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
    #expect(result.out.isEmpty)
  }

  @Test func indexOfAFolder() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server(["."], in: dir)
    defer { #expect(server.stop() == 0) }
    let index = try Self.request(port: server.port, "GET / HTTP/1.0\r\nHost: 127.0.0.1")
    #expect(index.1.contains("href=\"p/flip/\""))
    let redirect = try Self.request(port: server.port, "GET /p/flip HTTP/1.0\r\nHost: 127.0.0.1")
    #expect(redirect.0 == 301 && redirect.1.contains("Location: /p/flip/"))
  }

  @Test func indexOfTheBundledPlugins() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server([], in: dir)
    defer { #expect(server.stop() == 0) }
    let index = try Self.request(port: server.port, "GET / HTTP/1.0\r\nHost: 127.0.0.1")
    for name in ["card_stack", "deck_fan", "flip", "ticket_tear"] {
      #expect(index.1.contains("href=\"p/\(name)/\""), "the index links \(name)")
    }
    let thumbnail = try Self.request(
      port: server.port, "GET /p/deck_fan/frame.png HTTP/1.0\r\nHost: 127.0.0.1")
    #expect(thumbnail.0 == 200 && thumbnail.1.contains("image/png"))
    let unknown = try Self.request(port: server.port, "GET /p/nope/ HTTP/1.0\r\nHost: 127.0.0.1")
    #expect(unknown.0 == 404)
  }

  @Test func loopbackNames() {
    #expect(PreviewRoutes.isLoopback(host: "127.0.0.1:8080", port: 8080))
    #expect(PreviewRoutes.isLoopback(host: "LOCALHOST:8080", port: 8080))
    #expect(PreviewRoutes.isLoopback(host: "localhost", port: 8080))
    #expect(!PreviewRoutes.isLoopback(host: "localhost:8081", port: 8080))
    #expect(!PreviewRoutes.isLoopback(host: "evil.example:8080", port: 8080))
    #expect(!PreviewRoutes.isLoopback(host: "127.0.0.1.evil.example", port: 8080))
  }

  @Test func declaredPropsAndTheirSettings() throws {
    let path = Self.repository.appendingPathComponent("Plugins/flip.lua").path
    let props = try PreviewProp.declared(path: path)
    #expect(
      props.map(\.name) == ["accent", "axis", "backColor", "duration", "frontColor", "perspective"])
    #expect(props.first { $0.name == "accent" }?.kind == .color)
    #expect(props.first { $0.name == "axis" }?.value == "{0, 1, 0}")
    let duration = try #require(props.first { $0.name == "duration" })
    #expect(duration.kind == .number)
    #expect(try duration.setting("0.8") == "0.8")
    #expect(throws: UsageError.self) { try duration.setting("fast") }
    let text = PreviewProp(name: "title", kind: .string, value: "")
    #expect(try text.setting("12") == "\"12\"", "a string that looks like a number stays a string")
    #expect(try text.setting("say \"hi\"\n") == #""say \"hi\"\n""#)
  }

  static let browserReason =
    "needs /usr/bin/chromium and Python's playwright (scripts/install-deps.sh installs both)"

  static var browserAvailable: Bool {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else { return false }
    let probe = try? Subprocess.run(
      ["python3", "-c", "import playwright"], executable: "/usr/bin/env", deadline: 30)
    return probe?.status == 0
  }

  /// Set to 1 to let the browser test refresh the README's screenshot.
  static let refreshScreenshotVariable = "MORPH_REFRESH_SCREENSHOT"

  /// Tests/browser/test_preview.py: click, scrub, edit, break, fix, Host,
  /// hover, and the studio (fitted stage, exports, own tabs, the overlay, the
  /// folder index). Its screenshots (1440 × 900, and 390 × 844 beside it as
  /// `-mobile`) go to a scratch folder, or to the README's docs/preview.png
  /// and docs/preview-mobile.png when `MORPH_REFRESH_SCREENSHOT=1`.
  @Test(.enabled(if: browserAvailable, Comment(rawValue: browserReason)))
  func inARealBrowser() throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "browser-\(UUID())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let refresh = ProcessInfo.processInfo.environment[Self.refreshScreenshotVariable] == "1"
    let screenshot =
      refresh
      ? Self.repository.appendingPathComponent("docs/preview.png")
      : scratch.appendingPathComponent("preview.png")
    let result = try Subprocess.run(
      [
        "python3", Self.repository.appendingPathComponent("Tests/browser/test_preview.py").path,
        builtBinary.path, Self.repository.appendingPathComponent("Plugins/flip.lua").path,
        Self.repository.appendingPathComponent("Tests/MorphCLITests/Fixtures/hover.lua").path,
        screenshot.path,
      ], executable: "/usr/bin/env", deadline: 600)
    #expect(result.status == 0, "\(result.out)\n\(result.err)")
    #expect(result.out.contains("all checks passed"))
    #expect(FileManager.default.fileExists(atPath: screenshot.path), "no screenshot saved")
    let mobile = screenshot.deletingPathExtension().path + "-mobile.png"
    #expect(FileManager.default.fileExists(atPath: mobile), "no 390 × 844 screenshot saved")
  }
}
