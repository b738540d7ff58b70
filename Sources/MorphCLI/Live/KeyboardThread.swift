import Foundation
import MorphScript

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the terminal on a thread of its own, so `q` and Ctrl-C work while
/// the main thread is inside plugin code: those keys cancel the running Lua
/// call at once (the state stops it as it would a spent budget). Every byte
/// is also queued for the main loop, which wakes on `descriptor`.
final class KeyboardThread: @unchecked Sendable {
  private let lock = NSLock()
  private var pending: [UInt8] = []
  private var closed = false
  private let wake: (read: Int32, write: Int32)
  private let canceller: LuaState.Canceller

  /// Bytes that quit the live view: `q` and Ctrl-C (raw mode sends it as a byte).
  static let quitBytes: Set<UInt8> = [UInt8(ascii: "q"), 0x03]

  init(canceller: LuaState.Canceller) {
    self.canceller = canceller
    var fds: [Int32] = [0, 0]
    if pipe(&fds) != 0 { fds = [-1, -1] }
    wake = (fds[0], fds[1])
    let thread = Thread { [self] in self.readLoop() }
    thread.name = "morphhost keyboard"
    thread.start()
  }

  /// Becomes readable when input (or the end of input) is waiting.
  var descriptor: Int32 { wake.read }

  /// The bytes read since the last call, and whether input has ended.
  func take() -> (bytes: [UInt8], closed: Bool) {
    var drain = [UInt8](repeating: 0, count: 256)
    while read(wake.read, &drain, drain.count) == drain.count {}
    return lock.withLock {
      defer { pending = [] }
      return (pending, closed)
    }
  }

  private func readLoop() {
    var buffer = [UInt8](repeating: 0, count: 1024)
    _ = fcntl(wake.read, F_SETFL, O_NONBLOCK)
    while true {
      let n = read(STDIN_FILENO, &buffer, buffer.count)
      if n < 0 && errno == EINTR { continue }
      let bytes = n > 0 ? Array(buffer[0..<n]) : []
      if bytes.contains(where: Self.quitBytes.contains) { canceller.cancel() }
      lock.withLock {
        pending += bytes
        if n <= 0 { closed = true }
      }
      var one: UInt8 = 1
      _ = write(wake.write, &one, 1)
      if n <= 0 { return }
    }
  }
}
