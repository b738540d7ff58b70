import Foundation
import MorphCore
import MorphHost
import MorphScript

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `morphhost bench`'s figures for the browser preview, measured through the
/// real server: save → frame pushed, frames streamed while animating, and
/// the CPU an idle preview costs.
enum PreviewBench {
  static func figures(saves: Int) throws -> [String] {
    [try saveToPush(saves: saves)] + (try streamAndIdle()) + [try streamMemory(seconds: 10)]
  }

  /// A component as large as it is offered that changes every pixel on
  /// every frame, for ever: the preview's worst case for memory.
  static let offerFiller = """
    local m = morph
    return m.component {
      name = "Offer filler",
      size = { 200, 200 },
      state = { t = 0 },
      appear = function(self)
        self:animate(m.linear(1):repeatForever { autoreverses = true }, { t = 1 })
      end,
      body = function(self)
        local s = self.size
        local k = 0.5 + self.t
        return m.zstack {
          m.rect():fill(m.color(self.t, 0.3, 1 - self.t)):frame(s.width, s.height),
          m.circle():fill(m.color "#FFFFFF"):frame(s.width * 0.5 * k, s.height * 0.5 * k),
        }
      end,
    }
    """

  /// Issue 37's case: `offerFiller` offered 1 950 points, thirteen streams
  /// at 4x reading for `seconds`; the preview's peak resident memory (its
  /// own process, read from /proc: Linux only).
  static func streamMemory(seconds: Double) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("filler.lua")
    try offerFiller.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BenchCommand.morphhostBinary)
    process.arguments = ["preview", file.path, "--no-open"]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    var line = [UInt8]()
    while let byte = try out.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 {
      line.append(byte)
    }
    guard
      let port = Int(
        String(decoding: line, as: UTF8.self).split(separator: ":").last?
          .trimmingCharacters(in: .init(charactersIn: "/")) ?? "")
    else { throw UsageError("the preview printed no URL") }
    let size = try LoopbackConnection(port: port, timeout: 5)
    let body = #"{"width":1950,"height":1950}"#
    size.write(
      "POST /size HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.utf8.count)"
        + "\r\n\r\n" + body)
    _ = size.receive()
    let streams = try (0..<13).map { _ in
      try EventStreamClient(port: port, path: "/events?scale=4")
    }
    var pictures = 0
    let end = BenchCommand.now() + seconds
    while BenchCommand.now() < end {
      for stream in streams { pictures += stream.count(for: 0.02).pictures }
    }
    guard
      let status = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
      let peak = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        .flatMap({ Int($0.split(separator: " ").dropFirst().first ?? "") })
    else { return "preview, 13 streams at 4x of a 1 950 pt offer: peak RSS not measured here" }
    return String(
      format: "preview, 13 streams at 4x of a 1 950 pt offer for %.0f s: peak RSS %.0f MiB "
        + "(goal < 1 GiB; %d pictures streamed; frame budget %d MiB)",
      seconds, Double(peak) / 1024, pictures, PreviewLimits.frameBytes >> 20)
  }

  /// Save → the new frame posted to the page's stream, alternating the
  /// accent so every save changes the picture (an unchanged one is not pushed).
  static func saveToPush(saves: Int) throws -> String {
    guard let flip = PluginLocator.bundled().first(where: { $0.name == "flip" }) else {
      throw UsageError("the bundled flip plugin is missing")
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("flip.lua")
    try flip.source.write(to: file, atomically: true, encoding: .utf8)
    let session = PreviewSession(path: file.path, options: ComponentOptions())
    defer { session.close() }
    session.perform { session.subscribe(scale: 2) }
    // The first frame with pixels before the first save: taken for the
    // save's push, it put every wait one save behind, and two saves then
    // merged into one reload whose picture had not changed (seen under load).
    var first = 0
    let firstDeadline = BenchCommand.now() + 30
    while true {
      let left = firstDeadline - BenchCommand.now()
      guard left > 0,
        case .some(.some(let posted)) = session.board.next(after: first, timeout: left)
      else { throw UsageError("the preview pushed no first frame within 30 s") }
      first = posted.sequence
      if posted.images[2] != nil { break }
    }
    var times: [Double] = []
    for i in 0..<saves {
      let accent = i % 2 == 0 ? "#FF0000" : "#2F6FED"
      let source = flip.source.replacingOccurrences(
        of: ##"accent = m.color "#2F6FED""##, with: "accent = m.color \"\(accent)\"")
      let seen = session.board.sequence
      let saved = BenchCommand.now()
      try source.write(to: file, atomically: true, encoding: .utf8)
      // A deadline for a hung preview, not a goal: a loaded machine is slow.
      guard case .some(.some) = session.board.next(after: seen, timeout: 30) else {
        throw UsageError("the preview pushed no frame within 30 s of a save")
      }
      times.append(BenchCommand.now() - saved)
    }
    times.sort()
    return String(
      format: "preview, save → new frame pushed at 2x (%d saves): median %.1f ms, max %.1f ms",
      saves, times[saves / 2] * 1000, times[saves - 1] * 1000)
  }

  /// The deck fan served over HTTP at 2x speed, one tab streaming 2x
  /// pixels: frames pushed per second while it animates (tapped every
  /// 0.2 s, so it never settles inside the window: at 0.4 s it sat still part
  /// of the time, and the rate counted that), what the encoder made of the
  /// frames (drawn, or superseded because the workers were behind), frames
  /// with new pixels while a pointer drags it (tapped, the picture holds
  /// still for some frames; dragged, it moves every frame), then the
  /// process's CPU time while it sits idle with the tab open.
  static func streamAndIdle() throws -> [String] {
    struct Quiet: TextOutput {
      func write(_ text: String) {}
      func error(_ text: String) {}
    }
    let catalog = try PreviewCatalog("deck_fan", options: ComponentOptions(), output: Quiet())
    let server = try PreviewServer(catalog: catalog, port: 0)
    defer { server.stop() }
    guard let session = catalog.session("deck_fan") else { return [] }
    try session.perform { try session.control("speed", 2) }
    let stream = try EventStreamClient(port: server.port, path: "/events?scale=2")
    _ = stream.count(for: 0.5)  // the first frame, and the server settles in

    let duration = 3.0
    let tapping = DispatchQueue(label: "bench.taps")
    let stop = DispatchSemaphore(value: 0)
    tapping.async {
      repeat {
        session.perform {
          try? session.pointer("down", at: Point(214, 144))
          try? session.pointer("up", at: Point(214, 144))
        }
      } while stop.wait(timeout: .now() + 0.2) == .timedOut
    }
    let streaming = cpuSeconds()
    let counted = session.frameCounts
    let (events, bytes, pictures) = stream.count(for: duration)
    let frameCPU = (cpuSeconds() - streaming) / Double(max(events, 1))
    let tally = session.frameCounts.since(counted)
    stop.signal()
    tapping.sync {}
    _ = stream.count(for: 1.5)  // let the last tap settle

    // A drag back and forth by a pointer moving at 60 Hz, as a page sends
    // it: the fan follows the finger, so every move changes the picture.
    // First a drag to the right that opens the fan whatever the taps left,
    // so the sweep to the left of where it starts stays inside the fan's range.
    func sweep(_ points: [Double]) {
      session.perform { _ = try? session.pointer("down", at: Point(points[0], 144)) }
      for x in points.dropFirst() {
        Thread.sleep(forTimeInterval: 1.0 / 60)
        session.perform { _ = try? session.pointer("move", at: Point(x, 144)) }
      }
      session.perform { _ = try? session.pointer("up", at: Point(points.last!, 144)) }
    }
    sweep(stride(from: 214.0, through: 364, by: 10).map { $0 })
    _ = stream.count(for: 1.5)  // it settles open
    let dragging = DispatchQueue(label: "bench.drag")
    let dragStop = DispatchSemaphore(value: 0)
    let beforeDrag = session.frameCounts
    dragging.async {
      session.perform { _ = try? session.pointer("down", at: Point(214, 144)) }
      // Moves on a fixed 60 Hz schedule, however long each takes; a tick
      // missed while a move was handled is skipped, not made up in a burst.
      let start = DispatchTime.now()
      var step = 0
      repeat {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds)
        step = max(step + 1, Int(elapsed * 60 / 1e9) + 1)
        // A second there and back, 5 to 115 pt left: the fan 0.96 to 0.04 open.
        let phase = Double(step % 60) / 60
        let x = 209 - 110 * (phase < 0.5 ? phase * 2 : 2 - phase * 2)
        session.perform { _ = try? session.pointer("move", at: Point(x, 144)) }
      } while dragStop.wait(timeout: start + .nanoseconds(step * 1_000_000_000 / 60)) == .timedOut
      session.perform { _ = try? session.pointer("up", at: Point(214, 144)) }
    }
    let dragged = stream.count(for: duration)
    dragStop.signal()
    dragging.sync {}
    let drag = session.frameCounts.since(beforeDrag)
    _ = stream.count(for: 1.5)  // let the release settle

    let idleSeconds = 3.0
    let before = cpuSeconds()
    let idleEvents = stream.count(for: idleSeconds).events
    let cpu = cpuSeconds() - before
    return [
      String(
        format:
          "preview, deck fan at 2x speed streamed at 2x pixels while animating: %.1f frames/s "
          + "(%d in %.0f s, %d with new pixels, %.0f KB each; the clock ticks at 60 Hz), "
          + "%.1f ms of CPU a frame (this process: server and reader)",
        Double(events) / duration, events, duration, pictures,
        Double(bytes) / Double(max(events, 1)) / 1024, frameCPU * 1000),
      String(
        format:
          "preview, the same window from the encoder's side: %d frames made (clock ticks and "
          + "taps), %d drawn, %d superseded by a newer one before a worker took them, "
          + "%d with changed pixels (%.1f/s; the rest showed the same pixels)",
        tally.submitted, tally.drawn, tally.superseded, tally.changed,
        Double(tally.changed) / duration),
      String(
        format:
          "preview, the deck fan dragged back and forth by a 60 Hz pointer: %.1f frames/s "
          + "with new pixels streamed (%d in %.0f s; %d frames made, %d superseded)",
        Double(dragged.pictures) / duration, dragged.pictures, duration, drag.submitted,
        drag.superseded),
      String(
        format: "preview, idle with a tab open: %.2f%% of a core (%.1f ms CPU in %.0f s, "
          + "%d frames pushed)", cpu / idleSeconds * 100, cpu * 1000, idleSeconds, idleEvents),
    ]
  }

  /// User and system CPU time of this process so far (getrusage).
  static func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
      getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }
}

/// Counts the events of a server-sent event stream.
final class EventStreamClient {
  private let connection: LoopbackConnection
  private var pending = [UInt8]()

  init(port: Int, path: String) throws {
    connection = try LoopbackConnection(port: port, timeout: 0.1)
    connection.write("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
  }

  /// Events (`data:` lines), their bytes, and how many carried pixels,
  /// received in the next `seconds`.
  func count(for seconds: Double) -> (events: Int, bytes: Int, pictures: Int) {
    let end = BenchCommand.now() + seconds
    var events = 0
    var bytes = 0
    var pictures = 0
    while BenchCommand.now() < end, let received = connection.receive() {
      pending += received
      // Events end with a blank line.
      while let end = Self.blankLine(in: pending) {
        if pending.starts(with: Array("data: ".utf8)) {
          events += 1
          bytes += end
          if Self.contains(Self.pictureKey, in: pending[..<end]) { pictures += 1 }
        }
        pending.removeFirst(end + 2)
      }
    }
    return (events, bytes, pictures)
  }

  /// An event with pixels has an image (`PreviewEvent.image`).
  static let pictureKey = Array(#""image":"#.utf8)

  private static func contains(_ needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Bool {
    guard bytes.count >= needle.count else { return false }
    var i = bytes.startIndex
    while i <= bytes.endIndex - needle.count {
      if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
      i += 1
    }
    return false
  }

  private static func blankLine(in bytes: [UInt8]) -> Int? {
    guard bytes.count >= 2 else { return nil }
    for i in 0..<(bytes.count - 1) where bytes[i] == 10 && bytes[i + 1] == 10 {
      return i
    }
    return nil
  }
}
