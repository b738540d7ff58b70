import Foundation
import MorphCore
import Testing

@testable import MorphCLI

/// Issue 37: every number a preview request carries is range-checked before
/// anything computes with it. Hostile values on every route get an answer
/// (a 400 with one line where a number was refused), and the server stays up.
@Suite(.serialized) struct PreviewNumberTests {
  typealias Server = PreviewTests.Server

  /// Sends one HTTP/1.0 request and reads the answer: all of it, or only its
  /// head for an event stream (which never ends). Status 0: no answer
  /// within `limit` seconds.
  static func ask(
    port: Int, _ method: String, _ path: String, body: String? = nil, limit: Double = 30
  ) throws -> (status: Int, body: String) {
    let connection = try LoopbackConnection(port: port, timeout: 0.25)
    var head = "\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n"
    if let body {
      head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
    }
    connection.write(head + "\r\n" + (body ?? ""))
    var bytes = [UInt8]()
    let start = Date()
    while Date().timeIntervalSince(start) < limit, let received = connection.receive() {
      bytes += received
      let text = String(decoding: bytes, as: UTF8.self)
      if text.contains("text/event-stream"), text.contains("\r\n\r\n") { break }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
    let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
    return (status, body)
  }

  /// What a request may carry where a number belongs: the extremes of Int
  /// and Double, negatives, what is not a number at all, and nothing.
  static let hostile = [
    "-9223372036854775808", "-9223372036854775807", "9223372036854775807",
    "9223372036854775808", "-1", "0", "NaN", "nan", "inf", "-inf", "1e308", "-1e308", "1e999",
    "4.5", "0.999", "abc", "", "0x10", "1e3", "%00", "1%0a2", String(repeating: "9", count: 6000),
  ]

  /// The same as JSON tokens, for the bodies.
  static let hostileJSON = [
    "-9223372036854775808", "9223372036854775807", "-1", "0", "NaN", "1e308", "-1e308", "1e999",
    "-1e999", "\"abc\"", "\"\"", "null", "true", "[1]", "{}", String(repeating: "9", count: 6000),
  ]

  @Test func hostileNumbersOnEveryRouteAreAnsweredAndTheServerStaysUp() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server(["flip.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    var answers: [(String, Int, String)] = []
    func note(_ what: String, _ answer: (status: Int, body: String)) {
      answers.append((what, answer.status, answer.body))
    }
    let names = ["scale", "after", "marks", "epoch", "width", "height", "x", "y", "value"]
    for value in Self.hostile {
      // Every query name the server reads, on every route, all at once and one at a time.
      let all = names.map { "\($0)=\(value)" }.joined(separator: "&")
      // The routes that read a number get each name alone too (the first refused ends a request).
      let one = ["scale", "after", "marks", "epoch"].map { "\($0)=\(value)" }
      for path in ["", "events", "frame.png", "inspect", "props", "assets/preview.js", "nope"] {
        let reads = ["events", "frame.png", "inspect"].contains(path)
        for query in [all] + (reads ? one : []) {
          note(
            "GET /\(path)?\(query.prefix(80))", try Self.ask(port: port, "GET", "/\(path)?\(query)")
          )
        }
      }
    }
    for token in Self.hostileJSON {
      let bodies: [(String, String)] =
        [
          ("pointer", #"{"kind":"hover","x":\#(token),"y":10}"#),
          ("pointer", #"{"kind":"move","x":10,"y":\#(token)}"#),
          ("size", #"{"width":\#(token),"height":300}"#),
          ("size", #"{"width":300,"height":\#(token)}"#),
          ("props", #"{"name":"flipped","value":\#(token)}"#),
        ]
        + ["speed", "progress", "reduceMotion", "rewind", "play", "step", "pause"].map {
          ("control", #"{"action":"\#($0)","value":\#(token)}"#)
        }
      for (route, body) in bodies {
        note(
          "POST /\(route) \(body.prefix(80))",
          try Self.ask(port: port, "POST", "/\(route)", body: body))
      }
    }
    for (what, status, body) in answers {
      #expect([200, 204, 400, 404].contains(status), "\(what): \(status) \(body.prefix(200))")
      if status == 400 {
        #expect(
          body.hasPrefix("morphhost: ") && body.hasSuffix("\n"), "\(what): \(body.prefix(200))")
        #expect(body.dropLast().split(separator: "\n").count == 1, "\(what): more than one line")
        #expect(body.count < 400, "\(what): a \(body.count)-character answer")
      }
    }
    // Every number that is out of range was refused, not clamped.
    let refused = answers.filter { $0.1 == 400 }.count
    #expect(refused > answers.count / 2, "\(refused) of \(answers.count) refused")
    #expect(server.process.isRunning, "the server ended")
    let props = try Self.ask(port: port, "GET", "/props")
    #expect(props.status == 200)
  }

  /// A folder's plugins are served under `/p/NAME/` by the same routes.
  @Test func hostileNumbersInAFolderAreRefused() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server(["."], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    for value in ["-9223372036854775808", "9223372036854775807", "NaN", "1e308", "abc", ""] {
      for path in ["events", "frame.png", "inspect"] {
        for name in ["scale", "after", "marks", "epoch"] {
          let answer = try Self.ask(port: port, "GET", "/p/flip/\(path)?\(name)=\(value)")
          #expect([200, 400].contains(answer.status), "\(path)?\(name)=\(value): \(answer.status)")
        }
      }
    }
    for body in [
      #"{"action":"rewind","value":1e308}"#, #"{"action":"progress","value":-1e308}"#,
    ] {
      let answer = try Self.ask(port: port, "POST", "/p/flip/control", body: body)
      #expect(answer.status == 400, "\(body): \(answer.status)")
    }
    #expect(server.process.isRunning)
    #expect(try Self.ask(port: port, "GET", "/p/flip/props").status == 200)
  }

  @Test func outOfRangeNumbersAreRefusedWithOneLine() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server(["flip.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    let cases: [(String, String, String?, String)] = [
      ("GET", "/inspect?marks=-9223372036854775807&epoch=1", nil, "marks must be in 0…"),
      ("GET", "/inspect?after=-1", nil, "after must be in 0…"),
      ("GET", "/inspect?epoch=x", nil, "epoch expects a whole number, got 'x'"),
      ("GET", "/frame.png?scale=1e308", nil, "scale must be in 1…4, got 1e+308"),
      ("GET", "/frame.png?scale=NaN", nil, "scale expects a number, got 'NaN'"),
      ("GET", "/events?scale=0.5", nil, "scale must be in 1…4, got 0.5"),
      ("POST", "/control", #"{"action":"rewind","value":1e308}"#, "rewind must be in 0…"),
      ("POST", "/control", #"{"action":"speed","value":100}"#, "speed must be in 0.1…2"),
      ("POST", "/control", #"{"action":"progress","value":-5}"#, "progress must be in 0…1"),
      ("POST", "/pointer", #"{"kind":"down","x":1e300,"y":0}"#, "pointer x must be in -65536…"),
      (
        "POST", "/size", #"{"width":1e9,"height":10}"#, "width must be in 0…16384, got 1000000000.0"
      ),
    ]
    for (method, path, body, message) in cases {
      let answer = try Self.ask(port: port, method, path, body: body)
      #expect(answer.status == 400, "\(method) \(path): \(answer.status) \(answer.body)")
      #expect(answer.body.hasPrefix("morphhost: " + message), "\(method) \(path): \(answer.body)")
    }
    // What the page sends is still served.
    for path in ["/inspect?after=0&marks=0&epoch=-1", "/frame.png?scale=2.25", "/frame.png"] {
      #expect(try Self.ask(port: port, "GET", path).status == 200, "\(path)")
    }
    let rewind = try Self.ask(
      port: port, "POST", "/control", body: #"{"action":"rewind","value":0}"#)
    #expect(rewind.status == 204, "\(rewind.body)")
  }

  /// The issue's reproduction: more than 2 000 input markers, then the link
  /// that asked for the markers after -9223372036854775807.
  @Test func inspectAfterMoreMarkersThanKept() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let catalog = try PreviewCatalog(
      dir.appendingPathComponent("flip.lua").path, options: .init(), output: CapturedOutput())
    let server = try PreviewServer(catalog: catalog, port: 0)
    defer { server.stop() }
    let session = try #require(catalog.session("flip"))
    session.perform {
      for i in 0..<2100 { try? session.pointer("hover", at: Point(Double(i % 200), 20)) }
    }
    let epoch = try JSONDecoder().decode(
      Epoch.self, from: session.perform { try session.inspectJSON(after: 0, marks: 0, epoch: -1) })
    #expect(epoch.marked == 2100)
    for marks in ["-9223372036854775807", "-9223372036854775808", "9223372036854775807"] {
      let path = "/inspect?marks=\(marks)&after=\(marks)&epoch=\(epoch.epoch)"
      let answer = try Self.ask(port: server.port, "GET", path)
      #expect(answer.status == 400, "\(path): \(answer.body)")
    }
    // In range, past what is kept: the markers still kept after it.
    let answer = try Self.ask(
      port: server.port, "GET", "/inspect?marks=2099&after=0&epoch=\(epoch.epoch)")
    #expect(answer.status == 200)
    let markers = try JSONDecoder().decode(Epoch.self, from: Data(answer.body.utf8)).markers
    #expect(markers.count == 1)
    // The history itself takes any count (the route is not its only reader).
    let all = try session.perform {
      try session.inspectJSON(after: Int.min, marks: Int.min + 1, epoch: epoch.epoch)
    }
    #expect(try JSONDecoder().decode(Epoch.self, from: all).markers.count > 1000)
  }

  struct Epoch: Decodable {
    struct Marker: Decodable { var kind: String }
    var epoch: Int
    var marked: Int
    var markers: [Marker]
  }
}

/// Issue 37: a plugin file replaced by a FIFO blocked the preview's session
/// queue for good. Now the reload refuses it with one line in the page's
/// error, and every route goes on answering.
@Suite(.serialized) struct PreviewFIFOTests {
  @Test func aPluginReplacedByAFIFODoesNotBlockThePreview() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try PreviewTests.Server(["flip.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    #expect(try PreviewNumberTests.ask(port: port, "GET", "/props").status == 200)
    let fifo = dir.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(rename(fifo, dir.appendingPathComponent("flip.lua").path) == 0)
    // The page's stream shows the refusal once the watcher has reloaded.
    let stream = try LoopbackConnection(port: port, timeout: 0.1)
    stream.write("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    var text = ""
    let end = Date().addingTimeInterval(30)
    while !text.contains("is a FIFO"), Date() < end, let bytes = stream.receive() {
      text += String(decoding: bytes, as: UTF8.self)
    }
    #expect(text.contains("flip.lua is a FIFO, not a regular file"), "\(text.suffix(300))")
    for path in ["/props", "/frame.png", "/inspect", "/"] {
      let answer = try PreviewNumberTests.ask(port: port, "GET", path, limit: 20)
      #expect(answer.status == 200, "\(path): \(answer.status)")
    }
    let pause = try PreviewNumberTests.ask(
      port: port, "POST", "/control", body: #"{"action":"pause"}"#, limit: 20)
    #expect(pause.status == 204)
  }
}
