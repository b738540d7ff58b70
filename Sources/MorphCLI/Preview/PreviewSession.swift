import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphRender
import MorphScript
import MorphSession

/// One plugin in the browser preview: a `SessionHost` (the session on its
/// queue, its clock pump, its file monitor and its frame stream) and what the
/// page asks of it beyond input and playback: the props panel, the
/// inspector's JSON, a PNG of the frame, an export of the timeline. Each tab
/// has its own (`PreviewCatalog`).
final class PreviewSession: @unchecked Sendable {
  let path: String
  let host: SessionHost
  var queue: DispatchQueue { host.queue }
  /// Frames pushed so far, and the latest, for the event streams.
  var board: LiveFrameBoard { host.board }
  /// What became of the frames handed to the stream (any thread).
  var frameCounts: LiveFrameStream.Tally { host.frameCounts }

  // Everything below is used on `queue` only.
  private var session: PluginSession { host.session }
  private(set) var props: [PreviewProp] = []
  private var propsVersion = 0
  /// What the props panel last sent, by prop name, to show it again.
  private var panelValues: [String: String] = [:]

  init(path: String, options: ComponentOptions) {
    self.path = path
    var options = options
    options.output = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    host = SessionHost(
      path: path, options: options, frameBytes: PreviewLimits.frameBytes,
      label: "morphhost.preview.\(BundledPlugins.baseName(ofPath: path))")
    host.perform { [self] in
      host.decorate = { [unowned self] status in status.propsVersion = propsVersion }
      host.onReload = { [unowned self] in readProps() }
      readProps()
    }
  }

  /// Runs `body` on the host's queue and returns its result, publishing a
  /// frame afterwards if anything changed.
  func perform<T>(_ body: @escaping () throws -> T) throws -> T { try host.perform(body) }

  func perform(_ body: @escaping () -> Void) { host.perform(body) }

  /// Stops the clock and the watcher and unloads the component (its `disappear` runs);
  /// event streams end.
  func close() { host.close() }

  private func readProps() {
    guard let declared = try? PreviewProp.declared(path: path, limits: session.options.limits),
      declared != props
    else { return }
    props = declared
    propsVersion += 1
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
    if let range = session.range(of: name), let value = value ?? (name == .reduceMotion ? 0 : nil) {
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
    var exporter = Exporter(plugin: path, timeline: timeline, scale: 1, input: script ?? .default)
    exporter.component = session.options
    exporter.component.output = nil
    exporter.ffmpeg = VideoEncoder.locate(
      searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "")
    return exporter
  }

  /// Frames in a filmstrip from the page.
  static let filmstripFrames = 8

  func subscribe(scale: Double) { host.subscribe(scale: scale) }

  func unsubscribe(scale: Double) { host.unsubscribe(scale: scale) }
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
