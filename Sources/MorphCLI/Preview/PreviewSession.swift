import Foundation
import MorphCore
import MorphHost
import MorphRender
import MorphScript

/// One plugin in the browser preview: a single `ComponentHost` that every
/// open tab shares. Lua states are not thread-safe, so everything that
/// touches the host runs on `queue` (serial); HTTP threads hand their work
/// to it with `perform` and wait. Frames are pushed to `board`, where each
/// event stream waits for the next one: an idle preview runs nothing (no
/// timer while nothing animates; the file watcher is a dispatch source).
final class PreviewSession: @unchecked Sendable {
  let path: String
  let queue: DispatchQueue
  /// Frames pushed so far, and the latest, for the event streams.
  let board = FrameBoard()

  // Everything below is used on `queue` only.
  private var host: ComponentHost?
  private var overrides: [(key: String, value: String)]
  private var reduceMotion: Bool
  private var playing = true
  private var speed = 1.0
  private var lastTick = PreviewSession.now()
  private var error: PreviewError?
  private(set) var props: [PreviewProp] = []
  private var propsVersion = 0
  /// What the props panel last sent, by prop name, to show it again.
  private var panelValues: [String: String] = [:]
  private var watcher: FileWatcher?
  private var watchSource: DispatchSourceRead?
  /// Which `watch()` a pending callback belongs to (older ones do nothing).
  private var watchGeneration = 0
  private var timer: DispatchSourceTimer?
  /// For "save PNG"; frames for the page go through `encoder`.
  private let renderer = CairoRenderer()
  private let encoder: FrameEncoder

  /// What became of the frames handed to the encoder (any thread).
  var frameCounts: FrameEncoder.Tally { encoder.counts }
  /// Pixel scales the open tabs asked for, with how many tabs use each.
  private var scales: [Double: Int] = [:]

  static let frameInterval = 1.0 / 60
  static let speeds = 0.1...2.0

  init(path: String, options: ComponentOptions) {
    self.path = path
    overrides = options.props
    reduceMotion = options.reduceMotion
    queue = DispatchQueue(label: "morphhost.preview.\(BundledPlugins.baseName(ofPath: path))")
    encoder = FrameEncoder(board: board)
    onQueue {
      self.load()
      self.watch()
      self.publish()
    }
  }

  static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  /// Runs `body` on the host's queue and returns its result, publishing a
  /// frame afterwards if anything changed.
  func perform<T>(_ body: @escaping () throws -> T) throws -> T {
    try onQueue {
      self.catchUp()
      defer { self.publish() }
      return try body()
    }
  }

  func perform(_ body: @escaping () -> Void) {
    onQueue {
      self.catchUp()
      body()
      self.publish()
    }
  }

  /// Runs `body` on one of the queue's own threads and waits for it. Not
  /// `queue.sync`, which runs on the caller's thread: CivetWeb's threads have
  /// small stacks, and Lua and the tree reader recurse.
  private func onQueue<T>(_ body: @escaping () throws -> T) throws -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let work = UncheckedSendable(body)
    queue.async {
      result.value = Result { try work.value() }
      done.signal()
    }
    done.wait()
    guard let outcome = result.value else { throw UsageError("the preview stopped") }
    return try outcome.get()
  }

  private func onQueue(_ body: @escaping () -> Void) {
    _ = try? onQueue { () throws -> Void in body() }
  }

  /// Stops the clock and the watcher; event streams end.
  func close() {
    onQueue {
      self.timer?.cancel()
      self.timer = nil
      self.watchSource?.cancel()
      self.watchSource = nil
    }
    encoder.close()
    board.close()
  }

  // MARK: Loading and reloading

  private var options: ComponentOptions {
    ComponentOptions(
      props: overrides, reduceMotion: reduceMotion,
      output: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) })
  }

  /// Loads the plugin from scratch (at start, or after a load that failed).
  private func load() {
    do {
      host = try DocumentHost(path: path, options: options).componentHost(for: "preview")
      _ = try host?.frame()
      error = nil
    } catch {
      host = nil
      self.error = PreviewError(error)
    }
    readProps()
  }

  /// A save: new code, same state, as the terminal's live view reloads; a
  /// failed reload keeps the last good version running.
  private func reload() {
    if let host {
      do {
        try host.reload(source: try BundledPlugins.source(atPath: path))
        error = nil
      } catch {
        self.error = PreviewError(error)
      }
      readProps()
    } else {
      load()
    }
    // Imports may have changed: watch what the running code reads now.
    if let watched = host?.watchedFiles, watched != watcher?.requested { watch() }
  }

  private func readProps() {
    guard let declared = try? PreviewProp.declared(path: path, limits: options.limits),
      declared != props
    else { return }
    props = declared
    propsVersion += 1
  }

  /// Watches the plugin and its imports; a bundled plugin has no file.
  private func watch() {
    watchSource?.cancel()
    watchSource = nil
    watcher = nil
    watchGeneration += 1
    let files = host?.watchedFiles ?? (BundledPlugins.plugin(atPath: path) == nil ? [path] : [])
    guard !files.isEmpty else { return }
    let watcher = FileWatcher(paths: files)
    self.watcher = watcher
    guard let fd = watcher.descriptor else { return pollWatcher(watchGeneration) }
    let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
    let generation = watchGeneration
    source.setEventHandler { [weak self] in self?.watcherFired(generation) }
    // The watcher owns the descriptor: it must outlive the source's cancellation.
    let owner = UncheckedSendable(watcher)
    source.setCancelHandler { withExtendedLifetime(owner) {} }
    source.resume()
    watchSource = source
  }

  /// Debounced like the live view: the change counts once it is quiet.
  private func watcherFired(_ generation: Int) {
    guard generation == watchGeneration, let watcher else { return }
    if watcher.changed(now: Self.now()) { return changed() }
    queue.asyncAfter(deadline: .now() + watcher.quietPeriod + 0.002) { [weak self] in
      guard let self, generation == self.watchGeneration,
        self.watcher?.changed(now: Self.now()) == true
      else { return }
      self.changed()
    }
  }

  /// Where the system has no file notifications: look every quarter second.
  private func pollWatcher(_ generation: Int) {
    queue.asyncAfter(deadline: .now() + 0.25) { [weak self] in
      guard let self, generation == self.watchGeneration else { return }
      if self.watcher?.changed(now: Self.now()) == true { self.changed() }
      self.pollWatcher(generation)
    }
  }

  private func changed() {
    catchUp()
    reload()
    publish()
  }

  // MARK: Clock

  /// Brings the virtual clock up to now while playing (a stall is not a jump).
  private func catchUp() {
    let now = Self.now()
    let dt = min(0.1, now - lastTick)
    lastTick = now
    guard playing, let host else { return }
    attempt { try host.advance(by: dt * speed) }
  }

  /// A timer runs only while something animates and the clock plays.
  private func updateTimer() {
    let needed = playing && (host?.component.isAnimating ?? false)
    if needed, timer == nil {
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(deadline: .now() + Self.frameInterval, repeating: Self.frameInterval)
      timer.setEventHandler { [weak self] in
        guard let self else { return }
        self.catchUp()
        self.publish()
      }
      timer.resume()
      self.timer = timer
    } else if !needed, let timer {
      timer.cancel()
      self.timer = nil
    }
  }

  private func attempt(_ body: () throws -> Void) {
    do { try body() } catch { self.error = PreviewError(error) }
  }

  // MARK: Requests (on `queue`, through `perform`)

  /// The page's pointer events: a button pressed, moved and released, and
  /// with no button down a hover and the pointer leaving the picture.
  static let pointerKinds = ["down", "move", "up", "hover", "leave"]

  /// A pointer event in canvas points: the host's own gesture system
  /// decides what is a tap and what is a drag, as in the terminal.
  func pointer(_ kind: String, at point: Point) throws {
    guard Self.pointerKinds.contains(kind) else {
      throw UsageError(
        "unknown pointer event '\(kind)'; expected "
          + Self.pointerKinds.joined(separator: ", "))
    }
    guard let host else { return }
    // A handler's Lua error shows in #error; the request itself was fine.
    attempt {
      switch kind {
      case "down": try host.pointerDown(at: point)
      case "move": try host.pointerMoved(to: point)
      case "up": try host.pointerUp(at: point)
      case "hover": try host.hover(at: point)
      default: try host.endHover()
      }
    }
  }

  /// Playback: play, pause, step, speed, progress (scrubbing), reduce motion.
  func control(_ action: String, _ value: Double?) throws {
    switch action {
    case "play": playing = true
    case "pause": playing = false
    case "step":
      playing = false
      try host?.advance(by: Self.frameInterval)
    case "speed":
      guard let value, Self.speeds.contains(value) else {
        throw UsageError("speed must be in \(Self.speeds.lowerBound)…\(Self.speeds.upperBound)")
      }
      speed = value
    case "progress":
      guard let value else { throw UsageError("progress needs a value") }
      playing = false
      try host?.component.setProgress(value)
    case "reduceMotion":
      reduceMotion = (value ?? 0) != 0
      host?.component.setReduceMotion(reduceMotion)
    default: throw UsageError("unknown control '\(action)'")
    }
  }

  /// A prop from the panel: the instance is rebuilt with the new `--set`
  /// values (props are fixed for an instance's life); the numeric state
  /// carries over at its model values and the clock at its time. If the
  /// new props fail, the old instance keeps running and `#error` says why.
  func setProp(_ name: String, _ text: String) throws {
    guard let prop = props.first(where: { $0.name == name }) else {
      throw UsageError("no prop '\(name)'")
    }
    let setting = try prop.setting(text)
    let previous = (overrides, panelValues)
    overrides = overrides.filter { $0.key != name } + [(name, setting)]
    panelValues[name] = text
    do {
      let fresh = try DocumentHost(path: path, options: options).componentHost(for: "preview")
      if let old = host {
        try fresh.advance(to: old.time)
        for key in old.component.engine.channels.keys.sorted() {
          if let value = old.component.target(key), fresh.component.target(key) != nil {
            try fresh.component.setNumber(key, value)
          }
        }
      }
      _ = try fresh.frame()
      host = fresh
      error = nil
    } catch {
      (overrides, panelValues) = previous
      self.error = PreviewError(error)
    }
  }

  /// The declared props and the panel's values, for the page.
  func propsJSON() throws -> Data {
    struct Answer: Encodable {
      var props: [PreviewProp]
      var values: [String: String]
    }
    return try JSONEncoder().encode(Answer(props: props, values: panelValues))
  }

  /// The current frame as PNG at `scale` (the page's "save PNG").
  func png(scale: Double) throws -> Data {
    guard let host else { throw UsageError("the plugin has not loaded") }
    let frame = try host.frame()
    return Data(try renderer.render(frame.list, scale: scale, background: .white).pngData())
  }

  func subscribe(scale: Double) {
    scales[scale, default: 0] += 1
  }

  func unsubscribe(scale: Double) {
    scales[scale, default: 1] -= 1
    if scales[scale] == 0 { scales[scale] = nil }
  }

  // MARK: Publishing

  private func status() -> PreviewStatus {
    var status = PreviewStatus(
      name: BundledPlugins.baseName(ofPath: path), playing: playing, speed: speed,
      reduceMotion: reduceMotion, propsVersion: propsVersion, error: error)
    guard let host else { return status }
    let component = host.component
    status.name = component.name
    status.time = component.time
    status.progress = component.progress
    status.range = [component.progressRange.lowerBound, component.progressRange.upperBound]
    status.canvas = [host.canvas.width, host.canvas.height]
    if let accessibility = try? component.accessibility() {
      status.label = accessibility.label
      status.value = accessibility.value
    }
    return status
  }

  /// Builds the frame now and hands it to the encoder, which pushes it if
  /// its picture or status changed.
  private func publish() {
    var list: DisplayList?
    if let host {
      do {
        list = try host.frame().list
      } catch {
        self.error = PreviewError(error)
      }
    }
    encoder.submit(list: list, status: status(), scales: scales.keys.sorted())
    updateTimer()
  }
}

/// Carries a value from the queue's thread back to the waiting caller.
final class ResultBox<T>: @unchecked Sendable {
  var value: Result<T, any Error>?
}

/// A value handed to another queue that only one thread uses at a time.
struct UncheckedSendable<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}

/// What the page shows beside the picture.
struct PreviewStatus: Codable, Equatable, Sendable {
  var name: String
  var label: String?
  var value: String?
  var time = 0.0
  var progress: Double?
  var range: [Double]?
  var canvas: [Double]?
  var playing: Bool
  var speed: Double
  var reduceMotion: Bool
  var propsVersion: Int
  var error: PreviewError?
}

/// A failed load or reload, as `#error` shows it: `file:line: message`,
/// the offending line of source, and the traceback.
struct PreviewError: Codable, Equatable, Sendable {
  var line: String
  var source: String?
  var traceback: String?

  init(_ error: any Error) {
    let diagnostic = error as? any Diagnostic ?? ForeignError(error)
    line = diagnostic.commandLine
    guard let script = error as? ScriptError else { return }
    traceback = script.traceback
    if let chunk = script.chunk, let number = script.line, number > 0,
      let text = try? BundledPlugins.source(atPath: chunk)
    {
      // Shown as text: bytes that are not UTF-8 show as U+FFFD here, and only here.
      let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      if number <= lines.count { source = String(decoding: lines[number - 1], as: UTF8.self) }
    }
  }
}
