import MorphCore
import MorphHost
import MorphRender
import MorphScript

/// One plugin (or scene) kept running while its author edits it, for any
/// front end (the terminal's live view, the browser preview, an app): it loads the file,
/// watches it and the files it imports, reloads on a save keeping the state,
/// keeps the last good version when a save breaks it, plays the clock (wall or
/// virtual, paused, faster or slower, stepped, scrubbed), takes input, and
/// builds frames when asked. What fails becomes `error`, a `SessionDiagnostic`;
/// no call here throws a plugin's error at its caller.
///
/// A session is confined: a Lua state is not thread-safe, so use one from a
/// single thread or serial queue at a time (the preview wraps it in a queue,
/// the live view in its loop). It knows nothing of terminals or HTTP: it hands
/// out `watchDescriptor` and `nextFileCheck` for the caller to wait on.
public final class PluginSession {
  public let path: String
  public private(set) var options: ComponentOptions
  /// What the file returned, a component or a scene: nil until it first loads.
  public private(set) var document: DocumentHost?
  /// The running component (nil for a scene, or until the file loads).
  public var host: ComponentHost? { document?.component }
  /// The last failure (a load, a reload, a handler, a frame); a load or reload
  /// that works clears it.
  public private(set) var error: SessionDiagnostic?
  public let clock: SessionClock
  public private(set) var isPaused = false
  /// Virtual seconds per wall second.
  public private(set) var speed = 1.0
  /// Where the plugin's `print` goes (set on every instance the session loads);
  /// nil keeps `options.output`.
  public var onPrint: ((String) -> Void)? {
    didSet { connectOutput() }
  }
  /// Keys an input script presses (a front end's own key bindings).
  public var onKey: ((String) throws -> Void)?

  /// What watches the plugin and its imports: a new one whenever the files
  /// change (a caller waiting on its descriptor waits on the new one then).
  public private(set) var watcher: FileWatcher?
  private let watchesFiles: Bool
  /// The size the front end's view offers the body (a window, a canvas), if any.
  public private(set) var viewSize: Size?
  private var player: ScriptPlayer?
  private var lastTick: Double?
  /// A scene's progress (its body takes 0…1); a component keeps its own in its state.
  private var sceneProgress = 0.0

  /// What the session has played, once `startRecording()` asked for it (nil
  /// costs nothing per tick).
  public private(set) var history: SessionHistory?
  /// The input events since the instance started fresh (a load, a replay),
  /// at their times: what `replay()` plays again. At most
  /// `SessionHistory.markerCapacity`.
  public private(set) var take: [SessionHistory.Marker] = []
  /// Events of a replay (or of the take after a rewound moment) still to play.
  private var replaying: [SessionHistory.Marker] = []
  /// Playing the take again to reach a moment: nothing is recorded then.
  private var isRewinding = false

  /// The playback speeds a session accepts.
  public static let speeds = 0.1...2.0

  /// Loads `path` (a file, or a bundled plugin's `NAME.lua (bundled)`, which
  /// has no file to watch) and starts watching it. A file that fails to load
  /// leaves `document` nil and says why in `error`; a save that fixes it
  /// loads it then.
  /// `watchesFiles: false` (a run that plays once and ends) reads the file once.
  public init(
    path: String, options: ComponentOptions = ComponentOptions(), clock: SessionClock,
    watchesFiles: Bool = true
  ) {
    self.path = path
    self.options = options
    self.clock = clock
    self.watchesFiles = watchesFiles
    lastTick = clock.now?()
    load()
    watch()
  }

  public var name: String { document?.name ?? BundledPlugins.baseName(ofPath: path) }

  /// The progress now: a component's (if it declares one), or a scene's.
  public var progress: Double? {
    guard let document else { return nil }
    return document.component.map { $0.component.progress } ?? sceneProgress
  }

  /// Whether an input script still has events to play.
  public var isPlayingInput: Bool { !(player?.isFinished ?? true) }

  /// Whether frames change on their own: motion, a clock the plugin reads, an
  /// input script still playing.
  public var isAnimating: Bool {
    (host?.component.isAnimating ?? false) || isPlayingInput || (!replaying.isEmpty && !isPaused)
  }

  /// Whether a front end should draw at the display's pace now: frames
  /// change on their own and the clock plays.
  public var isPlaying: Bool { isAnimating && !isPaused }

  /// Seconds (wall time) until the next display frame is due, after one
  /// drawn at `lastFrame` on `wallNow`'s clock; nil while nothing plays.
  public func nextFrameDelay(after lastFrame: Double) -> Double? {
    guard isPlaying else { return nil }
    return max(0.001, lastFrame + SessionClock.frameInterval - wallNow)
  }

  // MARK: Loading and reloading

  /// Loads the file from scratch (at start, after a load that failed, and
  /// for a scene, which has no state to keep). A load that fails keeps what
  /// ran before. True when the new document runs.
  @discardableResult
  private func load() -> Bool {
    do {
      try checkFile()
      let loaded = try DocumentHost(path: path, options: options)
      _ = try documentFrame(loaded)
      error = nil
      replaceDocument(with: loaded)
      connectOutput()
      startTake()
      return true
    } catch {
      record(error)
      return false
    }
  }

  /// Reads the file again: new code, same state. A reload that fails keeps
  /// the last good version running. True when the new code runs.
  @discardableResult
  public func reload() -> Bool {
    defer { rewatchIfNeeded() }
    guard let host else { return load() }
    do {
      try checkFile()
      try host.reload(source: try BundledPlugins.source(atPath: path, limits: options.limits))
      error = nil
      mark("reload")
      return true
    } catch {
      record(error)
      return false
    }
  }

  /// New props: a fresh instance (props are fixed for an instance's life)
  /// that carries over the numeric state at its model values and the clock at
  /// its time. If it fails, the old instance keeps running. True when it worked.
  @discardableResult
  public func setProps(_ props: [(key: String, value: String)]) -> Bool {
    // The file is read again: watch what it imports now.
    defer { rewatchIfNeeded() }
    var changed = options
    changed.props = props
    do {
      try checkFile()
      let document = try DocumentHost(path: path, options: changed)
      if let fresh = document.component, let old = host {
        try fresh.advance(to: old.time)
        for key in old.component.engine.channels.keys.sorted() {
          if let value = old.component.target(key), fresh.component.target(key) != nil {
            try fresh.component.setNumber(key, value)
          }
        }
      }
      _ = try documentFrame(document)
      options = changed
      error = nil
      replaceDocument(with: document)
      connectOutput()
      mark("props")
      return true
    } catch {
      record(error)
      return false
    }
  }

  /// Puts `new` in place of the running document, which is unloaded (its `disappear`
  /// and its nodes' `onDisappear` run). The new one loads first, so a file that fails
  /// to load keeps the old one running.
  private func replaceDocument(with new: DocumentHost) {
    let old = host
    document = new
    if let old, old !== host { unload(old) }
  }

  /// The session ends (its view closed, its run over): the component is unloaded — its
  /// `disappear` and its nodes' `onDisappear` run, once; what fails becomes `error`. A
  /// hot reload that keeps state never unloads.
  public func close() {
    if let host { unload(host) }
  }

  private func unload(_ host: ComponentHost) {
    do { try host.component.unload() } catch { record(error) }
  }

  private func connectOutput() {
    guard let onPrint, let host else { return }
    host.component.state.output = onPrint
  }

  /// Refuses a path that reading could block on (a FIFO saved in the
  /// plugin's place), before anything reads it.
  private func checkFile() throws(SessionError) {
    if let refusal = PluginFileCheck.refusal(of: path) { throw refusal }
  }

  // MARK: Watching

  /// What to watch: the file and its imports, or the file alone while it
  /// does not load; a bundled plugin has no file.
  private var filesToWatch: [String] {
    guard watchesFiles, BundledPlugins.plugin(atPath: path) == nil else { return [] }
    switch document?.content {
    case .component(let host): return host.watchedFiles
    case .scene(let scene): return [path] + scene.state.importedFiles
    case nil: return [path]
    }
  }

  private func watch() {
    let files = filesToWatch
    watcher = files.isEmpty ? nil : FileWatcher(paths: files)
  }

  /// Imports may have changed: watch what the running code reads now.
  private func rewatchIfNeeded() {
    if filesToWatch != (watcher?.requested ?? []) { watch() }
  }

  /// The files watched now.
  public var watchedFiles: [String] { watcher?.requested ?? [] }

  /// A descriptor that becomes readable when a watched file changes; nil
  /// where the system has none (then call `checkFiles()` every so often).
  public var watchDescriptor: Int32? { watcher?.descriptor }

  /// When, on the wall clock, a change seen so far is due to be checked.
  public var nextFileCheck: Double? { watcher?.dueAt }

  /// Looks at the watched files and reloads once a change has been quiet for
  /// the watcher's debounce period. True when it reloaded (or tried to).
  @discardableResult
  public func checkFiles() -> Bool {
    guard let watcher, watcher.changed(now: wallNow) else { return false }
    reload()
    return true
  }

  /// The clock's wall time, or the system's for a virtual clock.
  public var wallNow: Double { clock.now?() ?? SessionClock.uptime() }

  // MARK: Clock

  /// Brings the virtual clock up to the wall clock while playing (at most
  /// `SessionClock.maxStep` at once). A virtual clock does nothing here.
  public func catchUp() {
    guard let now = clock.now?() else { return }
    let elapsed = min(SessionClock.maxStep, max(0, now - (lastTick ?? now)))
    lastTick = now
    guard !isPaused else { return }
    advance(by: elapsed * speed)
  }

  /// Plays `dt` virtual seconds (and whatever the input script has due).
  public func advance(by dt: Double) {
    guard let host else { return }
    advance(to: host.time + dt)
  }

  /// Plays the clock forward to `time` (and whatever the input script, or
  /// a replay, has due by then), sampling `history` on its grid.
  public func advance(to time: Double) {
    guard let host else { return }
    branch()
    while let event = replaying.first, event.time <= time + 1e-9 {
      sampled(to: max(host.time, event.time))
      replaying.removeFirst()
      apply(event)
    }
    sampled(to: time)
  }

  /// Plays to `time`, stopping at each of the history's grid points on the
  /// way to sample there.
  private func sampled(to time: Double) {
    guard history != nil, !isRewinding, let host else { return play(to: time) }
    var k = (host.time / SessionHistory.interval + 1e-9).rounded(.down) + 1
    while k * SessionHistory.interval <= time + 1e-12 {
      let grid = k * SessionHistory.interval
      play(to: grid)
      // A failed step leaves the clock behind: sample no further.
      guard host.time >= grid - 1e-12, let current = self.host else { return }
      history?.sample(current.component.engine, at: current.time)
      k += 1
    }
    play(to: time)
  }

  private func play(to time: Double) {
    guard var playing = player else {
      return attempt { try $0.advance(to: time) }
    }
    attempt { try playing.play(until: time, on: $0) { try self.onKey?($0) } }
    player = playing
  }

  public func pause() { isPaused = true }
  public func resume() {
    isPaused = false
    branch()
  }

  /// Sets the speed, one of `speeds`.
  public func setSpeed(_ value: Double) throws(SessionError) {
    guard Self.speeds.contains(value) else { throw .speedOutOfRange(value) }
    speed = value
  }

  /// Pauses and plays one display frame.
  public func step() {
    pause()
    advance(by: SessionClock.frameInterval)
  }

  /// Pauses and sets the progress (a component in controlled mode, or the
  /// value a scene's body is drawn at).
  public func seek(progress: Double) {
    pause()
    guard host != nil else {
      sceneProgress = progress
      return
    }
    input(.progress, value: progress) { try $0.component.setProgress(progress) }
  }

  /// Moves the progress by `fraction` of the declared range (scrubbing).
  public func scrub(by fraction: Double) {
    guard let document else { return }
    let range = document.progressRange
    let current = progress ?? range.lowerBound
    seek(progress: current + fraction * (range.upperBound - range.lowerBound))
  }

  public var reduceMotion: Bool { options.reduceMotion }

  public func setReduceMotion(_ on: Bool) {
    options.reduceMotion = on
    host?.component.setReduceMotion(on)
  }

  // MARK: Input

  /// Plays `script` on the session's clock: each event is due at its time.
  public func play(_ script: InputScript) {
    player = ScriptPlayer(script)
  }

  /// A tap at a canvas point (default: the centre).
  public func tap(at point: Point? = nil) { input(.tap, at: point) { try $0.tap(at: point) } }
  public func pointerDown(at point: Point) {
    input(.down, at: point) { try $0.pointerDown(at: point) }
  }
  public func pointerMoved(to point: Point) {
    input(.move, at: point) { try $0.pointerMoved(to: point) }
  }
  public func pointerUp(at point: Point) { input(.up, at: point) { try $0.pointerUp(at: point) } }
  public func hover(at point: Point) { input(.hover, at: point) { try $0.hover(at: point) } }
  public func endHover() { input(.leave) { try $0.endHover() } }

  /// Runs an input event, first noting it in the history and the take.
  private func input(
    _ kind: SessionInput.Kind, at point: Point? = nil, value: Double? = nil,
    _ body: (ComponentHost) throws -> Void
  ) {
    guard let host else { return }
    if history != nil, !isRewinding {
      branch()
      let marker = SessionHistory.Marker(
        time: host.time, kind: kind.rawValue, x: point?.x, y: point?.y, value: value)
      history?.mark(marker)
      if take.count == SessionHistory.markerCapacity {
        take.removeFirst(SessionHistory.markerCapacity / 4)
      }
      take.append(marker)
    }
    attempt(body)
  }

  /// Plays a recorded event again, as it was first played.
  private func apply(_ event: SessionHistory.Marker) {
    let point = event.x.map { Point($0, event.y ?? 0) }
    guard let kind = SessionInput.Kind(rawValue: event.kind),
      let input = SessionInput(kind: kind, point: point, value: event.value ?? 0)
    else { return }
    if case .progress(let value) = input {
      // Not `seek`: a replay plays on; it does not pause.
      return self.input(.progress, value: value) { try $0.component.setProgress(value) }
    }
    apply(input)
  }

  // MARK: History

  /// Records from now on: every `SessionHistory.interval` of the
  /// component's clock, input events and reloads. The terminal's live view
  /// does not ask, and pays nothing.
  public func startRecording() {
    guard history == nil else { return }
    history = SessionHistory()
    startTake()
  }

  /// A fresh instance (at load, replay or rewind): a new history and take.
  private func startTake() {
    guard history != nil, !isRewinding, let host else { return }
    history?.clear()
    take = []
    replaying = []
    history?.sample(host.component.engine, at: host.time)
  }

  private func mark(_ kind: String) {
    guard let host, !isRewinding else { return }
    history?.mark(SessionHistory.Marker(time: host.time, kind: kind))
  }

  /// Playing on from a moment before the newest sample (after `rewind`):
  /// what was recorded after it goes.
  private func branch() {
    guard !isRewinding, let time = host?.time, let last = history?.lastTime, last > time + 1e-9
    else { return }
    history?.truncate(after: time)
    take.removeAll { $0.time > time }
  }

  /// Every numeric state key now: presented value, model value, velocity.
  public var readings: [String: SessionHistory.Reading] {
    guard let host else { return [:] }
    let engine = host.component.engine
    return engine.channels.mapValues {
      SessionHistory.Reading(
        value: $0.presented(at: host.time), target: $0.target, velocity: $0.velocity(at: host.time))
    }
  }

  /// The animations running now, with their curves.
  public var animations: [RunningAnimation] {
    host.map { RunningAnimation.running(in: $0.component.engine) } ?? []
  }

  /// Starts the instance again as it loaded (the props now, the code now)
  /// and plays the take's input events at their times: the same gesture,
  /// judged against an edit. Needs `startRecording()`.
  public func replay() {
    guard history != nil else { return }
    let events = take + replaying
    guard load() else { return }
    replaying = events
    resume()
  }

  /// Pauses at `time` of the take: a fresh instance plays the take's events
  /// up to it (nothing recorded; the history stays). Playing on from there
  /// plays the rest of the take, recorded anew.
  public func rewind(to time: Double) {
    guard let kept = history else { return }
    let events = take + replaying
    pause()
    isRewinding = true
    defer { isRewinding = false }
    guard load() else { return }
    replaying = events
    advance(to: max(0, time))
    take = Array(events.prefix(events.count - replaying.count))
    history = kept
  }

  // MARK: Frames

  /// The size the front end's view has for the component's frame (a resized
  /// window or canvas; nil: none), offered to a body that reads `self.size`
  /// from its next frame on. A body that does not read it keeps its declared
  /// size, and its picture as designed. A size that is not positive offers
  /// nothing; one past the largest canvas offers the largest.
  public func offer(_ size: Size?) {
    viewSize = size.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
  }

  /// The canvas the next frame has (the view's size and the margin, for a
  /// body that reads `self.size`), or nil before the file loads.
  public var canvas: Size? { document?.canvas }

  /// The declared canvas, before any offer: what a view fits at its zoom.
  public var declaredCanvas: Size? {
    guard let document else { return nil }
    guard let component = document.component?.component else { return document.canvas }
    let margin = document.margin
    return Size(component.size.width + 2 * margin, component.size.height + 2 * margin)
  }

  /// The frame now, or nil (and `error` says why) when there is none.
  public func frame() -> ComponentHost.Frame? {
    guard let document else { return nil }
    do {
      return try viewFrame(document)
    } catch {
      record(error)
      return nil
    }
  }

  /// The frame now as PNG bytes at `scale`, on white.
  public func png(scale: Double) throws -> [UInt8] {
    guard let document else { throw SessionError.notLoaded }
    let frame = try viewFrame(document)
    return try CairoRenderer().render(frame.list, scale: scale, background: .white).pngData()
  }

  /// The frame laid out in the view's size when its body reads `self.size`
  /// (a body that read it for the first time is built again in the offer).
  private func viewFrame(_ document: DocumentHost) throws -> ComponentHost.Frame {
    let frame = try documentFrame(document)
    guard let component = document.component?.component else { return frame }
    let before = component.offeredSize
    // The largest frame whose canvas (with the margin) a display list takes.
    let largest = SceneError.maxCanvasSide - 2 * document.margin
    let wanted = viewSize.map { Size(min($0.width, largest), min($0.height, largest)) }
    try component.offer(component.readsSize ? wanted : nil)
    return component.offeredSize == before ? frame : try documentFrame(document)
  }

  /// A component as it is now, a scene at its progress.
  private func documentFrame(_ document: DocumentHost) throws -> ComponentHost.Frame {
    try document.frame(progress: document.component == nil ? sceneProgress : nil)
  }

  // MARK: Errors

  /// Runs a step on the plugin; what fails becomes `error`, the state stays.
  private func attempt(_ body: (ComponentHost) throws -> Void) {
    guard let host else { return }
    do { try body(host) } catch { record(error) }
  }

  /// A front end's own failure (writing a file, drawing) shown as the
  /// plugin's are, until the next load or reload that works.
  public func report(_ failure: any Error) {
    record(failure)
  }

  private func record(_ failure: any Error) {
    error = SessionDiagnostic(failure)
  }
}
