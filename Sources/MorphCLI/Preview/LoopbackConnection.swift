import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP connection to 127.0.0.1: how `bench` (and the tests) talk to a
/// preview without a browser, with headers exactly as written.
final class LoopbackConnection {
  /// 127.0.0.1:`port` as a socket address (the server binds it, clients connect to it).
  static func address(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  private let fd: Int32

  /// Connects; `receive` gives up waiting after `timeout` seconds.
  init(port: Int, timeout: Double) throws(UsageError) {
    #if canImport(Glibc)
      fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var wait = timeval()
    wait.tv_sec = .init(timeout)
    wait.tv_usec = .init((timeout - timeout.rounded(.down)) * 1e6)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    var address = Self.address(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      throw UsageError("cannot connect to 127.0.0.1:\(port)")
    }
  }

  deinit { close(fd) }

  func write(_ text: String) {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
      guard n > 0 else { return }
      sent += n
    }
  }

  /// The bytes that arrived: empty after the timeout, nil once closed.
  func receive() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let n = recv(fd, &buffer, buffer.count, 0)
    if n > 0 { return Array(buffer[0..<n]) }
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? [] : nil
  }
}
