import MorphCore
import MorphRender
import MorphScript

/// Runs one component: owns its clock, turns pointer input into taps and
/// drags (hit-testing the last frame), and builds frames.
///
/// Coordinates given to the host are canvas points (the component's frame
/// centred with `margin` around it); handlers receive component points.
public final class ComponentHost {
  public private(set) var component: ComponentInstance
  public let margin: Double
  public var canvas: Size {
    Size(component.offeredSize.width + 2 * margin, component.offeredSize.height + 2 * margin)
  }
  /// The virtual clock's step: how far apart a scripted press and release are,
  /// and a scripted drag's moves. Completions never wait for it.
  public let tick: Double
  /// Lays text out; `morph.measureText` in the component measures with it too.
  public var textMeasure: TextMeasuring {
    didSet { component.state.textMeasure = textMeasure }
  }
  private var gesture: GestureTracker?
  /// The last tap, for telling a double tap.
  private var lastTap: Double?
  /// Where the pointer hovers over the component (component points), if it does.
  private var hoverLocation: Point?

  /// One rendered moment.
  public struct Frame {
    public var list: DisplayList
    public var view: SceneView
    public var summary: SceneSummary
  }

  public private(set) var lastFrame: Frame?

  public init(
    component: ComponentInstance, margin: Double = DocumentHost.defaultMargin,
    tickRate: Double = 120,
    textMeasure: TextMeasuring = PangoTextMeasure()
  ) {
    self.component = component
    self.margin = margin
    self.tick = 1 / tickRate
    self.textMeasure = textMeasure
    component.state.textMeasure = textMeasure
    component.attachLayout { [weak self] view in self?.layOut(view) }
  }

  public var time: Double { component.time }

  /// The plugin file and every file it imported: what hot reload watches (a
  /// bundled plugin has no file, so nothing).
  public var watchedFiles: [String] {
    guard BundledPlugins.plugin(atPath: component.path) == nil else { return [] }
    return [component.path] + component.state.importedFiles
  }

  /// Canvas point → the component's own coordinates.
  public func componentPoint(_ p: Point) -> Point { p - Point(margin, margin) }

  /// The component's centre in canvas points.
  public var center: Point { Point(canvas.width / 2, canvas.height / 2) }

  // MARK: Time

  /// Advances the virtual clock to `time`. The component stops at every moment
  /// something ends on the way and runs its completions there
  /// (`ComponentInstance.advance`), and a press held still becomes a long press at
  /// the moment it has been held long enough, so the result never depends on how
  /// the way to `time` was cut.
  /// A step longer than `VirtualTime.maxSeconds` (or not finite) is refused:
  /// past ~1e14 s a tick no longer moves the clock.
  public func advance(to time: Double) throws(ScriptError) {
    let t = component.time
    guard time.isFinite, time - t <= VirtualTime.maxSeconds else {
      throw ScriptError(
        kind: .value,
        message:
          "cannot advance the clock from \(t) s to \(time) s (at most \(Int(VirtualTime.maxSeconds)) s at once)"
      )
    }
    if let g = gesture, !g.didLongPress {
      let due = g.startTime + GestureTracker.longPressMinimumDuration
      if due > t, due <= time {
        try component.advance(to: due)
        try checkLongPress()
      }
    }
    try component.advance(to: time)
    try checkLongPress()
  }

  public func advance(by dt: Double) throws(ScriptError) {
    try advance(to: component.time + dt)
  }

  /// Advances until nothing that will end is moving (or `limit` seconds
  /// pass); returns the time it settled at, or nil if it never did.
  /// Deliberately endless motion (`repeatForever`, the clock) does not count.
  @discardableResult
  /// The limit is at most `VirtualTime.maxSeconds`.
  public func settle(limit: Double = 30) throws(ScriptError) -> Double? {
    let end = component.time + (limit.isFinite ? min(limit, VirtualTime.maxSeconds) : 0)
    while component.isSettling {
      guard component.time < end else { return nil }
      try advance(by: tick)
    }
    return component.time
  }

  // MARK: Frames

  /// The frame at the current time.
  public func frame() throws -> Frame {
    let (view, accessibility) = try component.frameContent()
    let list = try SceneError.placed(
      at: { component.bodyLocation },
      { () throws(SceneError) in
        let list = try build(view)
        try FrameBudget.standard.checkGroups(list.commands)
        return list
      })
    let summary = SceneSummary(
      name: component.name, progress: component.progress,
      accessibility: accessibility)
    let frame = Frame(list: list, view: view, summary: summary)
    lastFrame = frame
    return frame
  }

  /// Lays `view` out at the current time, moving matched geometry.
  private func build(_ view: SceneView) throws(SceneError) -> DisplayList {
    var builder = DisplayListBuilder(textMeasure: textMeasure)
    builder.layoutSeconds = component.state.limits.hostWorkSeconds
    return try component.layingOut { (geometry: inout MatchedGeometry) throws(SceneError) in
      try builder.build(
        view.root, canvas: canvas, frame: component.offeredSize, geometry: &geometry,
        at: component.time)
    }
  }

  /// The layout of a change, at the moment it happens (`ComponentInstance.attachLayout`).
  /// A layout that fails fails again, and is reported, at the next frame.
  private func layOut(_ view: SceneView) {
    _ = try? build(view)
  }

  // MARK: Hot reload

  /// Swaps in new code keeping state (see `ComponentInstance.reload`). The
  /// new code must also draw a frame; if anything fails, the old code and
  /// state stay exactly as they were and the error is thrown.
  public func reload(source: String) throws {
    try reload(source: Array(source.utf8))
  }

  /// `reload` with the source bytes as the file holds them.
  public func reload(source: [UInt8]) throws {
    let before = component.snapshot()
    try component.reload(source: source)
    do {
      _ = try frame()
    } catch {
      component.restore(before)
      throw error
    }
    // A drag in progress carries on: its `ended` reaches the new code.
  }

  // MARK: Input

  /// A tap at a canvas point (default: the centre): the frontmost node with
  /// `onTap` under it gets it, else the component's `tap`. A second tap
  /// within `GestureTracker.doubleTapInterval` of the first is a double tap
  /// instead, when a node under it has `onDoubleTap` or the component has
  /// `doubleTap` (the first was a tap).
  public func tap(at point: Point? = nil) throws {
    let p = point ?? center
    let event = InputEvent.tap(at: componentPoint(p), time: time)
    let frame = try frame()
    if let last = lastTap, time - last <= GestureTracker.doubleTapInterval + 1e-9,
      try deliver(.doubleTap, at: p, in: frame, event)
    {
      lastTap = nil
      return
    }
    lastTap = time
    if let item = frame.list.hitTest(p, wants: { $0.tap != nil }), let id = item.handlers?.tap {
      try component.handle(frame.view.handlers[id], event)
    } else {
      try component.handle(component: "tap", event)
    }
  }

  public func pointerDown(at p: Point) throws {
    let frame = try frame()
    var target: GestureTracker.DragTarget = .none
    if let item = frame.list.hitTest(p, wants: { $0.drag != nil }), let id = item.handlers?.drag {
      target = .node(frame.view.handlers[id])
    } else if component.hasHandler("drag") {
      target = .component
    }
    gesture = GestureTracker(
      start: p, startTime: time, target: target,
      minimumDistance: target == .component
        ? component.dragMinimumDistance : ComponentDefinition.defaultDragMinimumDistance)
  }

  public func pointerMoved(to p: Point) throws {
    guard var g = gesture else { return }
    if let phase = g.move(to: p, time: time) {
      try deliver(g, phase: phase)
    }
    gesture = g
  }

  public func pointerUp(at p: Point) throws {
    guard var g = gesture else { return }
    gesture = nil
    if let phase = g.move(to: p, time: time) { try deliver(g, phase: phase) }
    if g.isDragging {
      try deliver(g, phase: .ended)
    } else if g.isTap {
      try tap(at: g.start)
    }
  }

  /// A press held still for SwiftUI's minimum duration is a long press,
  /// reported once, while the pointer is still down; its release is no tap.
  private func checkLongPress() throws(ScriptError) {
    guard var g = gesture, g.isLongPress(at: time), let frame = lastFrame else { return }
    let event = InputEvent(location: componentPoint(g.start), time: time)
    g.didLongPress = try deliver(.longPress, at: g.start, in: frame, event)
    gesture = g
  }

  /// The gestures a node or the component may take beside taps and drags.
  enum Gesture: String {
    case longPress, doubleTap

    func handler(_ h: Handlers) -> Int? {
      switch self {
      case .longPress: return h.longPress
      case .doubleTap: return h.doubleTap
      }
    }
  }

  /// Hands `gesture` to the frontmost node under `p` that takes it, else
  /// to the component's handler; false when neither does.
  private func deliver(_ gesture: Gesture, at p: Point, in frame: Frame, _ event: InputEvent)
    throws(ScriptError) -> Bool
  {
    if let item = frame.list.hitTest(p, wants: { gesture.handler($0) != nil }),
      let id = item.handlers.flatMap(gesture.handler)
    {
      try component.handle(frame.view.handlers[id], event)
      return true
    }
    return try component.handle(component: gesture.rawValue, event)
  }

  /// The pointer over a canvas point with no button down: the component's
  /// `hover` gets `active` with the location while it is inside the
  /// component's frame, and `ended` once when it leaves.
  public func hover(at p: Point) throws {
    let local = componentPoint(p)
    let inside =
      local.x >= 0 && local.y >= 0 && local.x <= component.offeredSize.width
      && local.y <= component.offeredSize.height
    guard inside || hoverLocation != nil else { return }
    hoverLocation = inside ? local : nil
    try component.handle(
      component: "hover", InputEvent(phase: inside ? .active : .ended, location: local, time: time))
  }

  /// The pointer left the view altogether (the browser's `pointerleave`):
  /// a running hover ends where it was last seen.
  public func endHover() throws {
    guard let last = hoverLocation else { return }
    hoverLocation = nil
    try component.handle(
      component: "hover", InputEvent(phase: .ended, location: last, time: time))
  }

  private func deliver(_ g: GestureTracker, phase: InputEvent.Phase) throws {
    let event = InputEvent(
      phase: phase, location: componentPoint(g.current), startLocation: componentPoint(g.start),
      translation: g.current - g.start, velocity: g.velocity, time: time)
    switch g.target {
    case .node(let handler): try component.handle(handler, event)
    case .component: try component.handle(component: "drag", event)
    case .none: break
    }
  }

  /// A whole drag from `a` to `b` over `duration`, moving every tick.
  /// The duration is clamped to 0…`VirtualTime.maxSeconds`: a huge one must
  /// neither trap converting to a step count nor run for hours.
  public func drag(from a: Point, to b: Point, over duration: Double) throws {
    try pointerDown(at: a)
    let span = duration.isFinite ? min(max(duration, 0), VirtualTime.maxSeconds) : 0
    let steps = max(1, Int((span / tick).rounded()))
    for i in 1...steps {
      try advance(by: span / Double(steps))
      let f = Double(i) / Double(steps)
      try pointerMoved(to: a + (b - a) * f)
    }
    try pointerUp(at: b)
  }
}
