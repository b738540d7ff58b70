import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphRender
import MorphScript
import MorphSession

/// One plugin in the browser preview: a single `PluginSession` that every
/// open tab shares. Lua states are not thread-safe, so everything that
/// touches the session runs on `queue` (serial); HTTP threads hand their work
/// to it with `perform` and wait. Frames are pushed to `board`, where each
/// event stream waits for the next one: an idle preview runs nothing (no
/// timer while nothing animates; the file watcher is a dispatch source).
final class PreviewSession: @unchecked Sendable {
  let path: String
  let queue: DispatchQueue
  /// Frames pushed so far, and the latest, for the event streams.
  let board = FrameBoard()

  // Everything below is used on `queue` only.
  private let session: PluginSession
  private(set) var props: [PreviewProp] = []
  private var propsVersion = 0
  /// What the props panel last sent, by prop name, to show it again.
  private var panelValues: [String: String] = [:]
  /// Reloads the session when its files change.
  private var monitor: SessionFileMonitor?
  private var timer: DispatchSourceTimer?
  private let encoder: FrameEncoder

  /// What became of the frames handed to the encoder (any thread).
  var frameCounts: FrameEncoder.Tally { encoder.counts }
  /// Pixel scales the open tabs asked for, with how many tabs use each.
  private var scales: [Double: Int] = [:]

  init(path: String, options: ComponentOptions) {
    self.path = path
    let queue = DispatchQueue(label: "morphhost.preview.\(BundledPlugins.baseName(ofPath: path))")
    self.queue = queue
    encoder = FrameEncoder(board: board)
    var options = options
    options.output = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    let settings = UncheckedSendable(options)
    // Loading runs Lua: on the queue's own thread, like everything after it.
    session = Self.run(on: queue) {
      let session = PluginSession(path: path, options: settings.value, clock: .wall())
      session.startRecording()
      return session
    }
    onQueue {
      self.readProps()
      self.monitor = SessionFileMonitor(session: self.session, queue: queue) { [weak self] in
        self?.changed()
      }
      self.publish()
    }
  }

  /// Runs `body` on the host's queue and returns its result, publishing a
  /// frame afterwards if anything changed.
  func perform<T>(_ body: @escaping () throws -> T) throws -> T {
    try onQueue {
      self.session.catchUp()
      defer { self.publish() }
      return try body()
    }
  }

  func perform(_ body: @escaping () -> Void) {
    onQueue {
      self.session.catchUp()
      body()
      self.publish()
    }
  }

  private func onQueue<T>(_ body: @escaping () throws -> T) throws -> T {
    try Self.run(on: queue) { Result { try body() } }.get()
  }

  /// Runs `body` on one of `queue`'s own threads and waits for it. Not
  /// `queue.sync`, which runs on the caller's thread: CivetWeb's threads have
  /// small stacks, and Lua and the tree reader recurse.
  private static func run<T>(on queue: DispatchQueue, _ body: @escaping () -> T) -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let work = UncheckedSendable(body)
    queue.async {
      result.value = work.value()
      done.signal()
    }
    done.wait()
    return result.value!  // set before the signal
  }

  private func onQueue(_ body: @escaping () -> Void) {
    _ = try? onQueue { () throws -> Void in body() }
  }

  /// Stops the clock and the watcher and unloads the component (its `disappear` runs);
  /// event streams end.
  func close() {
    onQueue {
      self.timer?.cancel()
      self.timer = nil
      self.monitor?.cancel()
      self.monitor = nil
      self.session.close()
    }
    encoder.close()
    board.close()
  }

  /// After a save the session reloaded (or tried to).
  private func changed() {
    session.catchUp()
    readProps()
    publish()
  }

  private func readProps() {
    guard let declared = try? PreviewProp.declared(path: path, limits: session.options.limits),
      declared != props
    else { return }
    props = declared
    propsVersion += 1
  }

  /// A timer runs only while something animates and the clock plays.
  private func updateTimer() {
    let needed = session.isPlaying
    if needed, timer == nil {
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(
        deadline: .now() + SessionClock.frameInterval, repeating: SessionClock.frameInterval)
      timer.setEventHandler { [weak self] in
        guard let self else { return }
        self.session.catchUp()
        self.publish()
      }
      timer.resume()
      self.timer = timer
    } else if !needed, let timer {
      timer.cancel()
      self.timer = nil
    }
  }

  // MARK: Requests (on `queue`, through `perform`)

  /// A pointer event in canvas points: the host's own gesture system
  /// decides what is a tap and what is a drag, as in the terminal. A
  /// handler's Lua error shows in #error; the request itself was fine.
  /// The kinds are `SessionInput.Kind`'s.
  func pointer(_ kind: String, at point: Point) throws {
    guard let known = SessionInput.Kind(rawValue: kind), SessionInput.Kind.pointer.contains(known),
      let input = SessionInput(kind: known, point: point)
    else {
      throw UsageError(
        "unknown pointer event '\(RequestNumbers.shown(kind))'; expected "
          + SessionInput.Kind.pointer.map(\.rawValue).joined(separator: ", "))
    }
    session.apply(input)
  }

  /// Playback: a `SessionCommand` by name. Each value is checked against the
  /// range the session gives it before the session sees it: a rewind to
  /// 1e308 s would play the take for ever on this queue.
  func control(_ action: String, _ value: Double?) throws {
    guard let name = SessionCommand.Name(rawValue: action) else {
      throw UsageError("unknown control '\(terminalSafe(String(action.prefix(40))))'")
    }
    var checked: Double?
    if let range = session.range(of: name), let value = value ?? (name == .reduceMotion ? 0 : nil)
    {
      checked = try RequestNumbers.check(value, action, in: .within(range))
    }
    guard let command = SessionCommand(name: name, value: checked) else {
      throw UsageError("\(action) needs a value")
    }
    try session.apply(command)
  }

  /// A prop from the panel: the session rebuilds the instance with the new
  /// `--set` values, keeping the numeric state and the clock. If the new
  /// props fail, the old instance keeps running and `#error` says why.
  func setProp(_ name: String, _ text: String) throws {
    guard let prop = props.first(where: { $0.name == name }) else {
      throw UsageError("no prop '\(name)'")
    }
    let setting = try prop.setting(text)
    let props = session.options.props.filter { $0.key != name } + [(name, setting)]
    if session.setProps(props) { panelValues[name] = text }
  }

  /// The declared props and the panel's values, for the page.
  func propsJSON() throws -> Data {
    struct Answer: Encodable {
      var props: [PreviewProp]
      var values: [String: String]
    }
    return try JSONEncoder().encode(Answer(props: props, values: panelValues))
  }

  /// The inspector's view of the history: the samples after the first
  /// `after` and the markers after the first `marks` of history `epoch`
  /// (all of them for another epoch), each key's
  /// as its own series, with the markers, the running animations and the
  /// engine's readings now.
  func inspectJSON(after: Int, marks: Int, epoch: Int) throws -> Data {
    let history = session.history ?? SessionHistory()
    let same = epoch == history.epoch
    let samples = history.samples(after: same ? after : 0)
    var series: [String: InspectSeries] = [:]
    for key in history.keys {
      var line = InspectSeries()
      for sample in samples {
        guard let reading = sample.readings[key] else { continue }
        line.t.append(sample.time)
        line.v.append(reading.value)
        line.g.append(reading.target)
        line.d.append(reading.velocity)
      }
      series[key] = line
    }
    let answer = InspectAnswer(
      epoch: history.epoch, recorded: history.recorded, marked: history.marked,
      time: session.host?.time ?? 0, paused: session.isPaused, keys: history.keys, series: series,
      markers: Array(history.markers(after: same ? marks : 0)),
      take: session.take.count, animations: session.animations, now: session.readings)
    let encoder = JSONEncoder()
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    return try encoder.encode(answer)
  }

  /// The page's room for the component's frame, in canvas points (nil: none):
  /// a body that reads `self.size` is laid out in it.
  func resize(to size: Size?) {
    session.offer(size)
  }

  /// The current frame as PNG at `scale` (the page's "save PNG"), or at
  /// the density that fits `PreviewLimits.frameBytes`, as the streams' frames
  /// do. Its render (surface, raster and PNG) is charged to the preview's
  /// byte budget, shared by every plugin: a folder's pages cannot render
  /// many at once past it.
  func png(scale: Double) throws -> Data {
    guard let list = session.frame()?.list else {
      if let error = session.error { throw UsageError(error.message) }
      throw SessionError.notLoaded
    }
    let fitted =
      scale * FrameFit.factor([scale], canvas: list.canvas, bytes: PreviewLimits.frameBytes)
    let bytes = 3 * FrameFit.rasterBytes(list.canvas, scale: fitted)
    guard ByteBudget.shared.charge(bytes, timeout: PreviewLimits.hostBytesWait) else {
      throw PreviewBusy(message: "the preview is busy drawing; ask for frame.png again")
    }
    defer { ByteBudget.shared.release(bytes) }
    return Data(try CairoRenderer().render(list, scale: fitted, background: .white).pngData())
  }

  /// An export of what the timeline shows, as the session runs now (its props,
  /// reduce motion and limits): the take played through time when there is one,
  /// else the plugin's progress range. Made on the queue; run anywhere.
  func exporter(for format: ExportFormat) -> Exporter {
    var timeline = ExportTimeline.progress(frames: ExportTimeline.defaultFrames)
    let script = session.takeScript
    if script != nil {
      let fps = ExportTimeline.defaultFPS
      let duration = min(
        ExportTimeline.maxDuration, max(session.timelineEnd, script?.duration ?? 0, 1 / fps))
      timeline = .time(duration: duration, fps: fps)
    }
    if format == .filmstrip {
      switch timeline {
      case .progress: timeline = .progress(frames: Self.filmstripFrames)
      case .time(let duration, let fps, _):
        timeline = .time(duration: duration, fps: fps, frames: Self.filmstripFrames)
      }
    }
    var exporter = Exporter(plugin: path, timeline: timeline, scale: 1, input: script)
    exporter.component = session.options
    exporter.component.output = nil
    exporter.ffmpeg = VideoEncoder.locate(
      searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "")
    return exporter
  }

  /// Frames in a filmstrip from the page.
  static let filmstripFrames = 8

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
      name: session.name, playing: !session.isPaused, speed: session.speed,
      reduceMotion: session.reduceMotion, propsVersion: propsVersion, error: session.error)
    guard let document = session.document else { return status }
    status.progress = session.progress
    status.range = [document.progressRange.lowerBound, document.progressRange.upperBound]
    status.canvas = [document.canvas.width, document.canvas.height]
    guard let component = session.host?.component else { return status }
    status.time = component.time
    status.history = session.history.map { [$0.epoch, $0.recorded, $0.marked] }
    if let accessibility = try? component.accessibility() {
      status.label = accessibility.label
      status.value = accessibility.value
    }
    return status
  }

  /// Builds the frame now and hands it to the encoder, which pushes it if
  /// its picture or status changed.
  private func publish() {
    let list = session.frame()?.list
    encoder.submit(list: list, status: status(), scales: scales.keys.sorted())
    // New props may import other files.
    monitor?.follow()
    updateTimer()
  }
}

/// Carries a value from the queue's thread back to the waiting caller.
final class ResultBox<T>: @unchecked Sendable {
  var value: T?
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
  var error: SessionDiagnostic?
  /// The history's epoch, samples and markers recorded: the inspector
  /// fetches `inspect` when they change.
  var history: [Int]?
}

/// One key's samples: times, presented values, targets, velocities.
struct InspectSeries: Encodable {
  var t: [Double] = []
  var v: [Double] = []
  var g: [Double] = []
  var d: [Double] = []
}

/// What `inspect` answers.
struct InspectAnswer: Encodable {
  var epoch: Int
  var recorded: Int
  /// Markers made in this epoch; `markers` holds those after the asked count.
  var marked: Int
  var time: Double
  var paused: Bool
  var keys: [String]
  var series: [String: InspectSeries]
  var markers: [SessionHistory.Marker]
  /// Input events a replay would play.
  var take: Int
  var animations: [RunningAnimation]
  var now: [String: SessionHistory.Reading]
}
