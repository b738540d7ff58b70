import Foundation
import MorphRender

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension BenchCommand {
  /// The live view in kitty mode on a pseudo-terminal that answers like
  /// kitty: frames per second while the deck fan animates (the pane is its
  /// natural size, one pixel a point) and the CPU an idle view uses.
  static func terminalFigures() throws -> [String] {
    let cell = CellSize(width: 10, height: 20)
    // 428 × 288 points: 43 × 15 cells of 10 × 20 pixels, plus the status line.
    let terminal = try PseudoTerminal(
      ["run", "deck_fan", "--graphics", "kitty"], cols: 43, rows: 16, cell: cell)
    defer { terminal.stop() }
    try terminal.answerProbe(kitty: true, sixel: false)
    guard terminal.readUntil(timeout: 10, { $0.kittyImages >= 1 }) != nil else {
      throw BenchFailure("bench: the kitty live view drew no image")
    }
    var rates: [Double] = []
    var cpuPerFrame: [Double] = []
    for _ in 0..<3 {
      terminal.write(" ")
      let start = terminal.output.kittyImages
      let began = now()
      let cpuBefore = terminal.cpuTime()
      // The fan's spring runs under a second; count until it has been still for 0.3 s.
      var last = (count: start, at: began)
      while now() - last.at < 0.3 && now() - began < 5 {
        _ = terminal.readUntil(timeout: 0.05) { _ in false }
        let count = terminal.output.kittyImages
        if count != last.count { last = (count, now()) }
      }
      guard last.count - start > 1 else { continue }
      rates.append(Double(last.count - start - 1) / (last.at - began))
      if let before = cpuBefore, let after = terminal.cpuTime() {
        cpuPerFrame.append((after - before) / Double(last.count - start))
      }
    }
    let idle = terminal.cpuSeconds(over: 3)
    let rate = rates.isEmpty ? "n/a" : String(format: "%.0f fps", rates.sorted()[rates.count / 2])
    // CPU per frame holds on a loaded machine, where the rate does not.
    let cost =
      cpuPerFrame.isEmpty
      ? ""
      : String(
        format: ", %.1f ms of CPU a frame", cpuPerFrame.sorted()[cpuPerFrame.count / 2] * 1000)
    // /proc counts in clock ticks (10 ms on Linux): less than one reads as a bound.
    let tick = 1 / Double(sysconf(Int32(_SC_CLK_TCK)))
    let cpu =
      idle.map {
        $0 < tick
          ? String(format: "under %.2f %% of a core (no clock tick used)", tick / 3 * 100)
          : String(format: "%.2f %% of a core", $0 / 3 * 100)
      } ?? "n/a (no /proc)"
    return [
      "live view, kitty images on a pseudo-terminal, deck_fan at 428×288 px: \(rate) while "
        + "animating\(cost) (median of 3 taps; goal >= 30 fps)",
      "live view idle (kitty, nothing moving), CPU over 3 s: \(cpu) (goal < 1 %)",
    ]
  }
}

/// `morphhost ARGUMENTS` on a pseudo-terminal of a given size in cells and
/// pixels, as a terminal would run it: what it writes is collected, what it
/// should read is written. The bench and the tests drive the live view so.
final class PseudoTerminal {
  let master: Int32
  let pid: pid_t
  private(set) var output = TerminalOutput()

  init(
    _ arguments: [String], cols: Int, rows: Int, cell: CellSize,
    environment: [String: String] = ["TERM": "xterm-256color"],
    binary: String = BenchCommand.morphhostBinary
  ) throws {
    guard let (master, slave) = Self.openPair() else {
      throw BenchFailure("cannot open a pseudo-terminal")
    }
    self.master = master
    var size = winsize(
      ws_row: UInt16(rows), ws_col: UInt16(cols), ws_xpixel: UInt16(Double(cols) * cell.width),
      ws_ypixel: UInt16(Double(rows) * cell.height))
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, master)
    var env = ProcessInfo.processInfo.environment
    // Nothing about the terminal this runs in leaks into the one it fakes.
    for key in ["TMUX", "TERM_PROGRAM", "LC_TERMINAL", "COLORTERM", "NO_COLOR"] { env[key] = nil }
    for (key, value) in environment { env[key] = value }
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for entry in envp { free(entry) } }
    var child: pid_t = 0
    guard posix_spawn(&child, binary, &actions, nil, argv, envp) == 0 else {
      close(master)
      throw BenchFailure("cannot start \(binary)")
    }
    pid = child
  }

  /// A new pseudo-terminal: its master descriptor and the path of its slave.
  static func openPair() -> (Int32, String)? {
    #if canImport(Glibc)
      // Glibc's module hides posix_openpt and friends; these are their ioctls
      // (<asm-generic/ioctls.h>: TIOCSPTLCK, TIOCGPTN).
      let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      var unlock: Int32 = 0
      var number: UInt32 = 0
      guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0,
        ioctl(master, 0x8004_5430, &number) == 0
      else { return nil }
      return (master, "/dev/pts/\(number)")
    #else
      let master = posix_openpt(O_RDWR | O_NOCTTY)
      guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master)
      else { return nil }
      return (master, String(cString: name))
    #endif
  }

  func write(_ text: String) {
    var bytes = Array(text.utf8)
    _ = Foundation.write(master, &bytes, bytes.count)
  }

  /// Reads until `done` holds for everything read so far (the output so
  /// far), or `timeout` seconds pass (nil then).
  @discardableResult
  func readUntil(timeout: Double, _ done: (TerminalOutput) -> Bool) -> TerminalOutput? {
    let deadline = BenchCommand.now() + timeout
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !done(output) {
      let left = deadline - BenchCommand.now()
      guard left > 0 else { return nil }
      var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
      guard poll(&fds, 1, Int32(left * 1000) + 1) > 0 else { continue }
      let n = read(master, &buffer, buffer.count)
      guard n > 0 else { return nil }
      output.append(buffer[0..<n])
    }
    return output
  }

  /// Waits for the live view's queries and answers them as a terminal would:
  /// kitty's graphics reply, the cell size, device attributes (4: sixel).
  func answerProbe(kitty: Bool, sixel: Bool, cell: CellSize = CellSize(width: 10, height: 20))
    throws
  {
    guard readUntil(timeout: 10, { $0.text.contains("\u{1B}[c") }) != nil else {
      throw BenchFailure("the live view asked the terminal nothing")
    }
    write(
      (kitty ? "\u{1B}_Gi=31;OK\u{1B}\\" : "")
        + "\u{1B}[6;\(Int(cell.height));\(Int(cell.width))t"
        + (sixel ? "\u{1B}[?62;4;22c" : "\u{1B}[?62;22c"))
  }

  /// CPU seconds the child used over the next `seconds` (read from /proc; nil without it).
  func cpuSeconds(over seconds: Double) -> Double? {
    guard let before = cpuTime() else { return nil }
    _ = readUntil(timeout: seconds) { _ in false }
    return cpuTime().map { $0 - before }
  }

  /// The child's CPU time so far, in seconds (nil without /proc).
  func cpuTime() -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return nil }
    // Fields after the command name: state is the 3rd field, utime the 14th, stime the 15th.
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12])
    else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// Waits up to `timeout` seconds for the child to exit: its status, or nil.
  func wait(timeout: Double) -> Int32? {
    let deadline = BenchCommand.now() + timeout
    var status: Int32 = 0
    while BenchCommand.now() < deadline {
      _ = readUntil(timeout: 0.02) { _ in false }
      if waitpid(pid, &status, WNOHANG) == pid { return (status >> 8) & 0xFF }
    }
    return nil
  }

  /// Ends the child if it still runs, and closes the terminal.
  func stop() {
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == 0 {
      kill(pid, SIGKILL)
      waitpid(pid, &status, 0)
    }
    close(master)
  }
}

/// What the live view wrote to its terminal, with a count of the kitty
/// images in it (kept as bytes arrive: the output runs to megabytes).
struct TerminalOutput {
  private(set) var bytes: [UInt8] = []
  /// kitty images sent so far (each begins with `a=T`).
  private(set) var kittyImages = 0
  static let kittyStart = Array("\u{1B}_Ga=T,".utf8)

  var text: String { String(decoding: bytes, as: UTF8.self) }

  mutating func append(_ more: ArraySlice<UInt8>) {
    let from = max(0, bytes.count - Self.kittyStart.count + 1)
    bytes += more
    kittyImages += Self.occurrences(Self.kittyStart, in: bytes[from...])
  }

  static func occurrences(_ needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int {
    var count = 0
    var i = bytes.startIndex
    while i + needle.count <= bytes.endIndex {
      if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
        count += 1
        i += needle.count
      } else {
        i += 1
      }
    }
    return count
  }
}
