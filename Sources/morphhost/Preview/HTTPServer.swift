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

  func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Writes the answer to one request on a CivetWeb connection. Used only on
/// the handler thread that received the request.
struct HTTPResponder {
  fileprivate let connection: OpaquePointer

  /// A whole response with a body.
  func send(
    status: Int, _ reason: String, type: String, body: Data, headers: [String: String] = [:]
  ) {
    var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\n"
    head += "Content-Length: \(body.count)\r\nCache-Control: no-store\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    _ = write(Data((head + "\r\n").utf8))
    _ = write(body)
  }

  func send(status: Int, _ reason: String, text: String) {
    send(status: status, reason, type: "text/plain; charset=utf-8", body: Data((text + "\n").utf8))
  }

  /// Starts a server-sent event stream; write events with `write`.
  func startEventStream() -> Bool {
    write(
      Data(
        ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
          + "Connection: close\r\n\r\n").utf8))
  }

  /// Writes raw bytes; false once the client has gone.
  @discardableResult
  func write(_ data: Data) -> Bool {
    guard !data.isEmpty else { return true }
    return data.withUnsafeBytes { raw in
      mg_write(connection, raw.baseAddress, raw.count) == raw.count
    }
  }
}

/// A CivetWeb server bound to 127.0.0.1 only. Every request goes to one
/// Swift handler on CivetWeb's worker thread; the handler never throws, so
/// no Swift error can cross the C frames below it.
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

  /// Largest request body read (prop values and pointer events are small).
  static let maximumBody = 1 << 20

  init(port requested: Int, threads: Int = 48, handler: @escaping Handler) throws(StartError) {
    self.handler = handler
    try Self.checkBindable(port: requested)
    let options = [
      "listening_ports", "127.0.0.1:\(requested)", "num_threads", "\(threads)",
      "enable_keep_alive", "yes",
    ]
    var cOptions: [UnsafePointer<CChar>?] = options.map { UnsafePointer(strdup($0)) } + [nil]
    defer { for option in cOptions { free(UnsafeMutablePointer(mutating: option)) } }
    var callbacks = mg_callbacks()
    // CivetWeb's own log lines would interleave with ours; errors are reported here.
    callbacks.log_message = { _, _ in 1 }
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
      headers: headers,
      body: Self.readBody(connection, length: Int(info.content_length)),
      port: Int(info.server_port))
    handler(request, HTTPResponder(connection: connection))
  }

  private static func readBody(_ connection: OpaquePointer, length: Int) -> Data {
    guard length > 0 else { return Data() }
    var body = Data()
    var buffer = [UInt8](repeating: 0, count: 16384)
    while body.count < min(length, maximumBody) {
      let n = mg_read(connection, &buffer, min(buffer.count, length - body.count))
      guard n > 0 else { break }
      body.append(contentsOf: buffer[0..<Int(n)])
    }
    return body
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
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
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
