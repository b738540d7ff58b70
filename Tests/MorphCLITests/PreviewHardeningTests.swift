import Foundation
import Testing

@testable import MorphCLI

/// The preview against a hostile neighbour, over loopback against the real
/// server: no header can be injected, foreign origins are refused on every
/// route, and idle or slow sockets, abandoned event streams and huge bodies
/// cannot lock out the tab. Every loop is bounded in count and in time.
@Suite(.serialized) struct PreviewHardeningTests {
  typealias Server = PreviewTests.Server

  /// What a raw exchange gave: the status, the head (up to the blank line)
  /// and how long the head took; status 0 when nothing came within `limit`.
  struct Answer {
    var status = 0
    var head = ""
    var seconds = 0.0
  }

  /// Sends `head` (a whole request head without its final blank line) and
  /// reads until the response head is complete, the socket closes or
  /// `limit` seconds pass: enough for streams, which never end.
  static func exchange(port: Int, _ head: String, body: String = "", limit: Double) throws
    -> Answer
  {
    let connection = try LoopbackConnection(port: port, timeout: 0.25)
    let start = Date()
    connection.write(head + "\r\n\r\n" + body)
    var bytes = [UInt8]()
    var answer = Answer()
    while Date().timeIntervalSince(start) < limit, let received = connection.receive() {
      bytes += received
      let text = String(decoding: bytes, as: UTF8.self)
      if let end = text.range(of: "\r\n\r\n") {
        answer.head = String(text[..<end.lowerBound])
        break
      }
    }
    answer.seconds = Date().timeIntervalSince(start)
    if answer.head.isEmpty { answer.head = String(decoding: bytes, as: UTF8.self) }
    answer.status = Int(answer.head.split(separator: " ").dropFirst().first ?? "") ?? 0
    return answer
  }

  /// Attempts at header injection: CR and LF, percent-encoded in either
  /// case or raw, in the plugin name, deeper in the path, and in the query.
  static let injections = [
    "/p/x%0d%0aSet-Cookie:%20pwn=1", "/p/x%0D%0ASet-Cookie:%20pwn=1",
    "/p/x%0aSet-Cookie:%20pwn=1", "/p/x%0dSet-Cookie:%20pwn=1",
    "/p/flip%0d%0aSet-Cookie:%20pwn=1", "/p/flip%0d%0aSet-Cookie:%20pwn=1/",
    "/p/flip/%0d%0aSet-Cookie:%20pwn=1", "/p/flip/props?x=%0d%0aSet-Cookie:%20pwn=1",
    "/p/flip/frame.png?scale=1%0d%0aSet-Cookie:%20pwn=1", "/p/%0d%0aSet-Cookie:%20pwn=1",
    "/p/x%250d%250aSet-Cookie:%20pwn=1", "/assets/x%0d%0aSet-Cookie:%20pwn=1",
    "/%0d%0aSet-Cookie:%20pwn=1", "/x?%0d%0aSet-Cookie:%20pwn=1",
    "/p/x\r\nSet-Cookie: pwn=1", "/p/x\nSet-Cookie: pwn=1", "/p/x\rSet-Cookie: pwn=1",
  ]

  @Test func noHeaderCanBeInjected() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    for arguments in [["."], ["flip.lua"]] {
      let server = try Server(arguments, in: dir)
      defer { #expect(server.stop() == 0) }
      for path in Self.injections {
        let answer = try Self.exchange(
          port: server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)", limit: 10)
        #expect(answer.status != 0, "\(arguments) \(path): no answer")
        // The injected text must not appear in the head at all, not even
        // inside another header's value.
        #expect(!answer.head.lowercased().contains("pwn"), "\(arguments) \(path): \(answer.head)")
        for line in answer.head.split(separator: "\r\n").dropFirst() {
          #expect(line.contains(":"), "\(arguments) \(path): a broken header line '\(line)'")
        }
      }
    }
    // The redirect that remains is to a plugin from the folder's listing.
    let server = try Server(["."], in: dir)
    defer { #expect(server.stop() == 0) }
    let redirect = try Self.exchange(
      port: server.port, "GET /p/flip HTTP/1.1\r\nHost: 127.0.0.1", limit: 10)
    #expect(redirect.status == 301 && redirect.head.contains("\r\nLocation: /p/flip/"))
    let unknown = try Self.exchange(
      port: server.port, "GET /p/nope HTTP/1.1\r\nHost: 127.0.0.1", limit: 10)
    #expect(unknown.status == 404 && !unknown.head.contains("Location"))
  }

  /// Header values are checked where the response is written: one with a
  /// control character is never sent.
  @Test func headerValuesAreChecked() {
    let good = HTTPResponder.head(
      status: 301, "Moved", type: "text/html", length: 0, headers: [("Location", "/p/a%20b/")])
    #expect(good?.contains("\r\nLocation: /p/a%20b/\r\n") == true)
    for bad in ["/p/x\r\nSet-Cookie: a=1", "/p/x\n", "/p/x\r", "x\u{0}", "x\u{7f}"] {
      let head = HTTPResponder.head(
        status: 301, "Moved", type: "text/html", length: 0, headers: [("Location", bad)])
      #expect(head == nil, "\(bad.debugDescription) was accepted")
    }
    #expect(
      HTTPResponder.head(
        status: 200, "OK", type: "text/plain", length: 0, headers: [("X\r\nY", "1")]) == nil)
    #expect(PreviewRoutes.location(ofPlugin: "a b?#%") == "/p/a%20b%3F%23%25/")
    #expect(PreviewRoutes.location(ofPlugin: "x\r\ny") == "/p/x%0D%0Ay/")
  }

  @Test func ownOrigins() {
    #expect(PreviewRoutes.isOwn(origin: "http://127.0.0.1:8080", port: 8080))
    #expect(PreviewRoutes.isOwn(origin: "http://localhost:8080", port: 8080))
    #expect(PreviewRoutes.isOwn(origin: "http://[::1]:8080", port: 8080))
    #expect(PreviewRoutes.isOwn(origin: "http://localhost", port: 80))
    #expect(!PreviewRoutes.isOwn(origin: "http://localhost", port: 8080))
    #expect(!PreviewRoutes.isOwn(origin: "http://[::1]", port: 8080))
    #expect(!PreviewRoutes.isOwn(origin: "https://127.0.0.1:8080", port: 8080))
    #expect(!PreviewRoutes.isOwn(origin: "http://127.0.0.1:8081", port: 8080))
    #expect(!PreviewRoutes.isOwn(origin: "http://127.0.0.1.evil.example:8080", port: 8080))
    #expect(!PreviewRoutes.isOwn(origin: "null", port: 8080))
  }

  /// Requests in flight: one client cannot take the total, and what is
  /// left is given back.
  @Test func clientGate() {
    let gate = ClientGate(perClient: 2, total: 3)
    #expect(gate.enter("a") && gate.enter("a"))
    #expect(!gate.enter("a"), "over the client's share")
    #expect(gate.enter("b"))
    #expect(!gate.enter("c"), "over the total")
    gate.leave("a")
    #expect(gate.enter("c") && gate.count == 3)
  }

  /// Event streams: a client's oldest closes for its newest, anyone's
  /// oldest past the total, and each closed one is woken.
  @Test func eventStreamRoster() {
    let roster = EventStreams(perClient: 2, total: 3)
    let woken = Counter()
    let a1 = roster.open(client: "a") { woken.add() }
    let a2 = roster.open(client: "a") { woken.add() }
    let a3 = roster.open(client: "a") { woken.add() }
    #expect(roster.isClosed(a1) && !roster.isClosed(a2) && !roster.isClosed(a3))
    let b1 = roster.open(client: "b") { woken.add() }
    let b2 = roster.open(client: "b") { woken.add() }
    #expect(roster.isClosed(a2) && !roster.isClosed(a3), "past the total: the oldest of all")
    #expect(roster.count == 3 && woken.value == 2)
    roster.close(b1)
    roster.close(b2)
    roster.close(a3)
    #expect(roster.count == 0 && woken.value == 2, "closing its own is no eviction")
  }

  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }

  @Test func foreignOriginsAreRefusedOnEveryRoute() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server(["flip.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    let host = "Host: 127.0.0.1:\(port)"
    for path in ["/events", "/events?scale=2", "/frame.png", "/props", "/", "/assets/preview.js"] {
      let foreign = [
        "http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1:\(port)",
        "http://127.0.0.1",
      ]
      for origin in foreign {
        let answer = try Self.exchange(
          port: port, "GET \(path) HTTP/1.1\r\n\(host)\r\nOrigin: \(origin)", limit: 10)
        #expect(answer.status == 403, "GET \(path) from \(origin): \(answer.status)")
      }
      // A cross-site page's <img> or fetch sends no Origin, but says where it came from.
      let embedded = try Self.exchange(
        port: port,
        "GET \(path) HTTP/1.1\r\n\(host)\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors",
        limit: 10)
      #expect(embedded.status == 403, "a cross-site GET \(path): \(embedded.status)")
    }
    // The address bar (no Origin), a link followed from elsewhere, and the page itself.
    for extra in [
      "", "\r\nSec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate",
      "\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate",
      "\r\nOrigin: http://127.0.0.1:\(port)\r\nSec-Fetch-Site: same-origin",
      "\r\nOrigin: http://localhost:\(port)",
    ] {
      let page = try Self.exchange(port: port, "GET / HTTP/1.1\r\n\(host)\(extra)", limit: 10)
      #expect(page.status == 200, "GET / with \(extra.debugDescription): \(page.status)")
    }
    let props = try Self.exchange(
      port: port, "GET /props HTTP/1.1\r\n\(host)\r\nOrigin: http://127.0.0.1:\(port)", limit: 10)
    #expect(props.status == 200)
  }

  /// Opens `count` sockets that never finish their request head: half say
  /// nothing, half send part of a head and stop.
  static func slowSockets(port: Int, count: Int) throws -> [LoopbackConnection] {
    try (0..<count).map { index in
      let connection = try LoopbackConnection(port: port, timeout: 0.05)
      if index % 2 == 1 {
        connection.write("GET /props HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ")
      }
      return connection
    }
  }

  @Test func slowHeaderSocketsDoNotLockOutTheTab() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server(["flip.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    let host = "Host: 127.0.0.1:\(port)"
    // Warm: the plugin is loaded before anything is timed.
    let warm = try Self.exchange(port: port, "GET /props HTTP/1.1\r\n\(host)", limit: 60)
    #expect(warm.status == 200)
    let slow = try Self.slowSockets(port: port, count: 200)
    // The tab is answered while all 200 are still open. 1 s is the goal
    // (see docs/sandbox.md); 8 s leaves room for a loaded machine and is still
    // far below the 30 s CivetWeb holds a silent socket by default.
    let props = try Self.exchange(port: port, "GET /props HTTP/1.1\r\n\(host)", limit: 8)
    #expect(props.status == 200, "GET /props with 200 slow sockets: \(props.head)")
    let frame = try Self.exchange(port: port, "GET /frame.png HTTP/1.1\r\n\(host)", limit: 8)
    #expect(frame.status == 200, "GET /frame.png with 200 slow sockets: \(frame.head)")
    // The server closes every one of them on its own (its header timeout).
    let end = Date().addingTimeInterval(10)
    var open = slow
    while !open.isEmpty && Date() < end {
      open.removeAll { connection in
        // nil: closed. Drain whatever answer (408) came first.
        while let bytes = connection.receive() { if bytes.isEmpty { return false } }
        return true
      }
    }
    #expect(open.isEmpty, "\(open.count) of 200 slow sockets still open after 10 s")
  }

  @Test func abandonedEventStreamsDoNotLockOutTheTab() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server(["flip.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    let host = "Host: 127.0.0.1:\(port)"
    let warm = try Self.exchange(port: port, "GET /props HTTP/1.1\r\n\(host)", limit: 60)
    #expect(warm.status == 200)
    // 60 streams that never read, then 60 that went away.
    var streams = try (0..<60).map { _ in
      let connection = try LoopbackConnection(port: port, timeout: 0.05)
      connection.write("GET /events HTTP/1.1\r\n\(host)\r\n\r\n")
      return connection
    }
    let held = try Self.exchange(port: port, "GET /props HTTP/1.1\r\n\(host)", limit: 8)
    #expect(held.status == 200, "GET /props with 60 open streams: \(held.head)")
    streams.removeAll()
    for _ in 0..<60 {
      let connection = try LoopbackConnection(port: port, timeout: 0.05)
      connection.write("GET /events?scale=2 HTTP/1.1\r\n\(host)\r\n\r\n")
    }
    let props = try Self.exchange(port: port, "GET /props HTTP/1.1\r\n\(host)", limit: 8)
    #expect(props.status == 200, "GET /props after 60 abandoned streams: \(props.head)")
    let frame = try Self.exchange(port: port, "GET /frame.png HTTP/1.1\r\n\(host)", limit: 8)
    #expect(frame.status == 200, "GET /frame.png after 60 abandoned streams: \(frame.head)")
    // A new stream still starts.
    let stream = try Self.exchange(port: port, "GET /events HTTP/1.1\r\n\(host)", limit: 8)
    #expect(stream.status == 200 && stream.head.contains("text/event-stream"))
  }

  @Test func overLargeAndStalledBodiesAreRefused() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try Server(["flip.lua"], in: dir)
    defer { #expect(server.stop() == 0) }
    let port = server.port
    let host = "Host: 127.0.0.1:\(port)"
    // Refused from the head alone: not one byte of the body is sent.
    let huge = try Self.exchange(
      port: port, "POST /props HTTP/1.1\r\n\(host)\r\nContent-Length: 100000000000000", limit: 8)
    #expect(huge.status == 413, "a 1e14-byte body: \(huge.head)")
    let justOver = try Self.exchange(
      port: port,
      "POST /props HTTP/1.1\r\n\(host)\r\nContent-Length: \(PreviewLimits.maximumBody + 1)",
      limit: 8)
    #expect(justOver.status == 413)
    // A body that stops half way is given up in bounded time.
    let stalled = try Self.exchange(
      port: port, "POST /props HTTP/1.1\r\n\(host)\r\nContent-Length: 100", body: #"{"name":"#,
      limit: 15)
    #expect((400..<500).contains(stalled.status), "a stalled body: \(stalled.head)")
    let fine = try Self.exchange(
      port: port, "POST /control HTTP/1.1\r\n\(host)\r\nContent-Length: 19",
      body: #"{"action": "pause"}"#, limit: 30)
    #expect(fine.status == 204)
  }
}

/// The event streams, in process: the cap on open streams, and a client that
/// went away is let go within seconds (the heartbeat's failed write).
@Suite(.serialized) struct PreviewStreamTests {
  @Test func streamsAreCappedAndDeadOnesDropped() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let catalog = try PreviewCatalog(
      dir.appendingPathComponent("flip.lua").path, options: .init(), output: CapturedOutput())
    let server = try PreviewServer(catalog: catalog, port: 0)
    defer { server.stop() }
    let port = server.port
    var clients = [LoopbackConnection]()
    for _ in 0..<(PreviewLimits.eventStreams * 3) {
      let connection = try LoopbackConnection(port: port, timeout: 0.05)
      connection.write("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
      clients.append(connection)
    }
    let cap = PreviewLimits.eventStreamsPerClient
    #expect(Self.waitFor(seconds: 20) { server.streams.count == cap })
    #expect(server.streams.count <= PreviewLimits.eventStreamsPerClient)
    // The streams closed for newer ones end (which ones depends on the order
    // the workers took them): their clients see the end, the others do not.
    var ended = Set<Int>()
    let end = Date().addingTimeInterval(20)
    while ended.count < clients.count - cap && Date() < end {
      for (index, client) in clients.enumerated() where !ended.contains(index) {
        if client.receive() == nil { ended.insert(index) }
      }
    }
    #expect(ended.count == clients.count - cap, "\(ended.count) closed streams ended")
    #expect(server.streams.count == cap)
    let closing = Date()
    clients.removeAll()
    #expect(Self.waitFor(seconds: 20) { server.streams.count == 0 }, "dead streams stay")
    let seconds = Date().timeIntervalSince(closing)
    // Two heartbeats at most, plus room for a loaded machine.
    #expect(seconds < 3 * PreviewLimits.heartbeat + 5, "dead streams dropped after \(seconds) s")
  }

  /// Polls `condition` every 10 ms for at most `seconds`.
  static func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
  }
}
