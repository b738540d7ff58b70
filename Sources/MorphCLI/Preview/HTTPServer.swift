import CCivetWeb
import Foundation
import MorphCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One HTTP request, copied out of CivetWeb's structures.
struct HTTPRequest: Sendable {
  var method: String
  /// The decoded path, without the query.
  var path: String
  var query: [String: String]
  var headers: [String: String]
  var body: Data
  /// The port it arrived on (ours).
  var port: Int
  /// The client's address, for the per-client limits.
  var client: String

  func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Writes the answer to one request on a CivetWeb connection. Used only on
/// the handler thread that received the request.
struct HTTPResponder {
  fileprivate let connection: OpaquePointer

  /// Sent with every answer: no page may frame ours (a framed page could be
  /// clicked blind), and a type is never guessed.
  static let fixedHeaders = "X-Frame-Options: DENY\r\nX-Content-Type-Options: nosniff\r\n"

  /// A whole response with a body. `close` ends the connection after it
  /// (the request's body was not read, so the stream is out of step).
  func send(
    status: Int, _ reason: String, type: String, body: Data,
    headers: KeyValuePairs<String, String> = [:], close: Bool = false
  ) {
    var extra = Array(headers)
    if close {
      mg_disable_connection_keep_alive(connection)
      extra.append(("Connection", "close"))
    }
    guard
      let head = Self.head(status: status, reason, type: type, length: body.count, headers: extra)
    else {
      // Never reached with our own values; a bad one is refused, not sent.
      return send(status: 500, "Internal Server Error", text: "morphhost: unsafe header refused")
    }
    _ = write(Data(head.utf8))
    _ = write(body)
  }

  func send(status: Int, _ reason: String, text: String, close: Bool = false) {
    send(
      status: status, reason, type: "text/plain; charset=utf-8", body: Data((text + "\n").utf8),
      close: close)
  }

  /// The head of a response, or nil when a header name or value could end
  /// the line it is on (CR, LF or any other control): the one place a
  /// response head is put together, so no header can be injected. No
  /// `length`: the body runs to the end of the connection.
  static func head(
    status: Int, _ reason: String, type: String, length: Int?, headers: [(String, String)]
  ) -> String? {
    let all =
      [("Content-Type", type)] + (length.map { [("Content-Length", "\($0)")] } ?? []) + headers
    guard all.allSatisfy({ isToken($0.0) && isFieldValue($0.1) }), isFieldValue(reason) else {
      return nil
    }
    var head = "HTTP/1.1 \(status) \(reason)\r\nCache-Control: no-store\r\n" + fixedHeaders
    for (name, value) in all { head += "\(name): \(value)\r\n" }
    return head + "\r\n"
  }

  /// Printable ASCII and spaces only.
  static func isFieldValue(_ value: String) -> Bool {
    value.utf8.allSatisfy { (0x20...0x7E).contains($0) }
  }

  /// A header name: letters, digits and a few marks, nothing else.
  static func isToken(_ name: String) -> Bool {
    !name.isEmpty
      && name.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || Array("-_.!#$%&'*+^`|~".utf8).contains(byte)
      }
  }

  /// Starts a server-sent event stream; write events with `write`.
  func startEventStream() -> Bool {
    guard
      let head = Self.head(
        status: 200, "OK", type: "text/event-stream", length: nil,
        headers: [("Connection", "close")])
    else { return false }
    mg_disable_connection_keep_alive(connection)
    return write(Data(head.utf8))
  }

  /// Writes raw bytes; false once the client has gone, or has not taken
  /// them within `PreviewLimits.writeTimeout` (each piece also waits at most
  /// the header timeout, CivetWeb's).
  @discardableResult
  func write(_ data: Data) -> Bool {
    write(data, by: Date().addingTimeInterval(PreviewLimits.writeTimeout))
  }

  /// Writes raw bytes, all of them by `deadline` (one deadline for the
  /// pieces of one event); false once the client has gone or is too slow.
  func write(_ data: Data, by deadline: Date) -> Bool {
    var offset = 0
    while offset < data.count {
      guard Date() < deadline else { return false }
      let piece = min(data.count - offset, Self.writePiece)
      let written = data.withUnsafeBytes { raw in
        mg_write(connection, raw.baseAddress! + offset, piece)
      }
      guard written == piece else { return false }
      offset += piece
    }
    return true
  }

  /// How much one write hands CivetWeb, between looks at the deadline.
  static let writePiece = 64 * 1024
}

/// Requests being answered, per client address and in all, so that no
/// client can hold every worker; an answer that would go over is a 503.
final class ClientGate: @unchecked Sendable {
  let perClient: Int
  let total: Int
  private let lock = NSLock()
  private var counts: [String: Int] = [:]
  private var all = 0

  init(perClient: Int, total: Int) {
    self.perClient = perClient
    self.total = total
  }

  /// True when `client` may have one more request answered; `leave` then.
  func enter(_ client: String) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard all < total, counts[client, default: 0] < perClient else { return false }
    all += 1
    counts[client, default: 0] += 1
    return true
  }

  func leave(_ client: String) {
    lock.lock()
    defer { lock.unlock() }
    all -= 1
    counts[client, default: 1] -= 1
    if counts[client] == 0 { counts[client] = nil }
  }

  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return all
  }
}

/// A CivetWeb server bound to 127.0.0.1 only. Every request goes to one
/// Swift handler on CivetWeb's worker thread; the handler never throws, so
/// no Swift error can cross the C frames below it. The limits on what a
/// client may hold are `PreviewLimits`'.
final class HTTPServer: @unchecked Sendable {
  typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void

  /// The server could not start (the port is taken).
  struct StartError: Diagnostic {
    var message: String
    var description: String { message }
  }

  let handler: Handler
  private var context: OpaquePointer?
  private(set) var port = 0
  let gate = ClientGate(
    perClient: PreviewLimits.requestsPerClient, total: PreviewLimits.requests)

  init(port requested: Int, handler: @escaping Handler) throws(StartError) {
    self.handler = handler
    try Self.checkBindable(port: requested)
    // No linger_timeout_ms: unset, closing a socket never waits for a
    // client that does not read (the kernel finishes sending on its own).
    let options = [
      "listening_ports", "127.0.0.1:\(requested)",
      "num_threads", "\(PreviewLimits.workerThreads)",
      "connection_queue", "\(PreviewLimits.connectionQueue)",
      "listen_backlog", "\(PreviewLimits.listenBacklog)",
      "request_timeout_ms", "\(Int(PreviewLimits.headerTimeout * 1000))",
      "keep_alive_timeout_ms", "\(Int(PreviewLimits.keepAliveTimeout * 1000))",
      "max_request_size", "\(PreviewLimits.maximumHeaderBytes)",
      "enable_keep_alive", "yes",
    ]
    var cOptions: [UnsafePointer<CChar>?] = options.map { UnsafePointer(strdup($0)) } + [nil]
    defer { for option in cOptions { free(UnsafeMutablePointer(mutating: option)) } }
    var callbacks = mg_callbacks()
    // CivetWeb's own log lines would interleave with ours; errors are reported here.
    callbacks.log_message = { _, _ in 1 }
    // CivetWeb's own refusals (a head too long, a malformed request) are
    // one line too, with our fixed headers, as every answer of ours is.
    callbacks.http_error = { connection, status, message in
      guard let connection else { return 1 }
      let reason = mg_get_response_code_text(connection, status).map { String(cString: $0) }
      let text = message.map { String(cString: $0) } ?? "the request was refused"
      HTTPResponder(connection: connection).send(
        status: Int(status),
        reason.flatMap { !$0.isEmpty && HTTPResponder.isFieldValue($0) ? $0 : nil } ?? "Error",
        text: "morphhost: " + PreviewRoutes.oneLine(text), close: true)
      return 0
    }
    let started = mg_start(&callbacks, nil, &cOptions)
    guard let started else {
      throw StartError(message: "cannot listen on 127.0.0.1:\(requested)")
    }
    context = started
    var ports = [mg_server_port](repeating: mg_server_port(), count: 4)
    if mg_get_server_ports(started, Int32(ports.count), &ports) > 0 { port = Int(ports[0].port) }
    mg_set_request_handler(
      started, "/",
      { connection, data in
        guard let connection, let data else { return 500 }
        let server = Unmanaged<HTTPServer>.fromOpaque(data).takeUnretainedValue()
        server.handle(connection)
        return 200
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Stops accepting and waits for the handlers to return.
  func stop() {
    guard let context else { return }
    self.context = nil
    mg_stop(context)
  }

  deinit { stop() }

  private func handle(_ connection: OpaquePointer) {
    guard let info = mg_get_request_info(connection)?.pointee else { return }
    let responder = HTTPResponder(connection: connection)
    let client = withUnsafeBytes(of: info.remote_addr) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    guard gate.enter(client) else {
      return responder.send(
        status: 503, "Service Unavailable", text: "morphhost: too many requests at once",
        close: true)
    }
    defer { gate.leave(client) }
    // Refused from the head alone: nothing of a body that long is read.
    guard info.content_length <= Int64(PreviewLimits.maximumBody) else {
      return responder.send(
        status: 413, "Content Too Large",
        text: "morphhost: a request body may be \(PreviewLimits.maximumBody) bytes at most",
        close: true)
    }
    let body: Data
    switch Self.readBody(connection, length: Int(info.content_length)) {
    case .whole(let data): body = data
    case .tooLarge:
      // A chunked body announces no length: it is refused once it passes the limit.
      return responder.send(
        status: 413, "Content Too Large",
        text: "morphhost: a request body may be \(PreviewLimits.maximumBody) bytes at most",
        close: true)
    case .incomplete:
      return responder.send(
        status: 408, "Request Timeout",
        text: "morphhost: the request body did not arrive whole within "
          + "\(PreviewLimits.bodyTimeout) s", close: true)
    }
    var headers: [String: String] = [:]
    withUnsafeBytes(of: info.http_headers) { raw in
      let all = raw.bindMemory(to: mg_header.self)
      for header in all.prefix(Int(info.num_headers)) {
        guard let name = header.name, let value = header.value else { continue }
        headers[String(cString: name).lowercased()] = String(cString: value)
      }
    }
    let request = HTTPRequest(
      method: info.request_method.map { String(cString: $0) } ?? "GET",
      path: info.local_uri.map { String(cString: $0) } ?? "/",
      query: Self.parseQuery(info.query_string.map { String(cString: $0) } ?? ""),
      headers: headers, body: body, port: Int(info.server_port), client: client)
    handler(request, responder)
  }

  /// The body, or nil when it did not arrive whole within the body timeout
  /// or went over the maximum (without a length, it runs to the close).
  /// Read a byte per call: CivetWeb keeps filling a larger read for as long
  /// as bytes trickle in, so a client sending one a second would hold it
  /// for hours; this way the deadline is looked at between bytes. Bodies
  /// are small, and mostly came with the head (then no system call is made).
  /// How reading a request body ended.
  private enum Body {
    case whole(Data)
    /// Past `PreviewLimits.maximumBody` (a chunked body, which announced no length).
    case tooLarge
    /// Shorter than announced, or not all there before the deadline.
    case incomplete
  }

  private static func readBody(_ connection: OpaquePointer, length: Int) -> Body {
    guard length != 0 else { return .whole(Data()) }
    let deadline = Date().addingTimeInterval(PreviewLimits.bodyTimeout)
    let expected = length > 0 ? length : PreviewLimits.maximumBody + 1
    var body = Data()
    var byte: UInt8 = 0
    while body.count < expected {
      guard Date() < deadline else { return .incomplete }
      guard mg_read(connection, &byte, 1) == 1 else { break }
      body.append(byte)
    }
    if body.count > PreviewLimits.maximumBody { return .tooLarge }
    return length < 0 || body.count == length ? .whole(body) : .incomplete
  }

  static func parseQuery(_ query: String) -> [String: String] {
    var result: [String: String] = [:]
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      let decode = { (s: String) in
        s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? s
      }
      result[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
    }
    return result
  }

  /// Binds the port once ourselves, so "in use" is reported as the system
  /// says it (CivetWeb only reports that it failed).
  private static func checkBindable(port: Int) throws(StartError) {
    guard port != 0 else { return }
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return }
    defer { close(fd) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = LoopbackConnection.address(port: port)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if bound != 0 {
      throw StartError(
        message: "cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
    }
  }
}
