/// Lays out a view tree in a canvas and flattens it into a display list in
/// canvas space and paint order.
public struct DisplayListBuilder {
  public var textMeasure: TextMeasuring
  /// What one frame may hold (items, path points, text), so a runaway body fails clearly.
  public var budget = FrameBudget.standard
  /// Seconds the host may spend laying the frame out on the plugin's behalf (text shaping
  /// in C, where Lua's limits cannot reach); a host running a plugin passes the sandbox's
  /// wall-clock limit. Nil: no time limit (the frame budget still refuses costly texts).
  public var layoutSeconds: Double?

  public init(textMeasure: TextMeasuring = ApproximateTextMeasure()) {
    self.textMeasure = textMeasure
  }

  /// The root view is offered `frame` (default: the whole canvas) and
  /// centred in the canvas, like a SwiftUI preview with padding around it.
  public func build(_ root: ViewNode, canvas: Size, frame: Size? = nil) throws(SceneError)
    -> DisplayList
  {
    var geometry = MatchedGeometry()
    return try build(root, canvas: canvas, frame: frame, geometry: &geometry, at: 0)
  }

  /// `build`, with each `matchedGeometry` node drawn at the frame `geometry` presents at
  /// `time` for it; the layout is `geometry`'s last.
  public func build(
    _ root: ViewNode, canvas: Size, frame: Size? = nil, geometry: inout MatchedGeometry,
    at time: Double
  ) throws(SceneError) -> DisplayList {
    try SceneError.checkCanvas(canvas)
    try budget.checkTexts(in: root)
    let work = HostWork(seconds: layoutSeconds ?? .infinity)
    let start = geometry
    let (commands, laidOut) = try work.run {
      () throws(SceneError) -> ([DisplayCommand], MatchedGeometry) in
      let element = LayoutElement.build(root)
      element.slotStep = Slot.root(root)
      let size = element.size(for: ProposedSize(frame ?? canvas), textMeasure)
      let origin = Point((canvas.width - size.width) / 2, (canvas.height - size.height) / 2)
      var emitter = Emitter(text: textMeasure, budget: budget, geometry: start, time: time)
      var context = Context()
      context.slot = ""
      try emitter.emit(
        element, size: size,
        transform: ProjectiveTransform(.translation(origin.x, origin.y)), context: context)
      emitter.geometry.finishLayout()
      return (emitter.commands, emitter.geometry)
    }
    geometry = laidOut
    // Text the work stopped laying out measured empty: the frame is not what the body said.
    if let error = work.frameError("laying out text") { throw error }
    return DisplayList(canvas: canvas, commands: commands)
  }
}

/// A scene that cannot be drawn: the message says what and where.
public struct SceneError: Diagnostic, Equatable, Sendable {
  public var message: String
  /// The plugin's line, for errors a plugin's own function raised while laying out.
  public var location: FilePosition?

  public init(_ message: String, at location: FilePosition? = nil) {
    self.message = message
    self.location = location
  }

  public var description: String { location.map { "\($0): \(message)" } ?? message }

  /// Runs `body`, naming `file` in an error that has no place of its own (a frame the
  /// budget refuses is the plugin's, though no one line made it).
  public static func placed<T>(in file: String, _ body: () throws(SceneError) -> T)
    throws(SceneError) -> T
  {
    try placed(at: { FilePosition(file: file) }, body)
  }

  /// Runs `body`, placing an error that has no place of its own at `location` (asked only
  /// then): the line of the plugin's body function, for a frame the budget refuses.
  public static func placed<T>(
    at location: () -> FilePosition, _ body: () throws(SceneError) -> T
  ) throws(SceneError) -> T {
    do {
      return try body()
    } catch {
      var placed = error
      if placed.location == nil { placed.location = location() }
      throw placed
    }
  }

  /// The largest canvas side accepted, in points.
  public static let maxCanvasSide = 16384.0

  static func checkCanvas(_ canvas: Size) throws(SceneError) {
    for (name, v) in [("width", canvas.width), ("height", canvas.height)] {
      guard v.isFinite, v > 0 else { throw SceneError("canvas \(name) must be > 0, got \(v)") }
      guard v <= maxCanvasSide else {
        throw SceneError(
          "canvas \(name) \(v) is too large (at most \(Int(maxCanvasSide)) points a side)")
      }
    }
  }
}

/// What flows from a view to the views inside it.
struct Context {
  var opacity = 1.0
  var fill: Paint?
  var stroke: Stroke?
  /// How far the stroked outline is inset (`strokeBorder`: half its width; 0 for `stroke`).
  var strokeInset = 0.0
  /// Whether texts and images draw as placeholders (`redacted`).
  var redacted = false
  /// The trim of the shape at the end of the chain (only shapes take one).
  var trim: Trim?
  var shadow: Shadow?
  var clips: [Clip] = []
  var blend = BlendMode.normal
  var z = 0.0
  var id: String?
  var handlers: Handlers?
  /// The element's position in the tree ("/0/2/ov"): child indices and overlay or
  /// background marks from the root, stable while the tree keeps its shape.
  var treePath = ""
  /// The slot path (`Slot`) of the view drawing, whose frames are compared between layouts;
  /// nil where none are (a mask's drawing).
  var slot: String?

  /// The identity of an item drawn in this context.
  var identity: String { id.map { treePath + "#" + $0 } ?? treePath }

  func child(_ step: String) -> Context {
    var inner = self
    inner.treePath += "/" + step
    return inner
  }
}

/// Walks laid-out elements from the outside in, composing transforms.
struct Emitter {
  let text: TextMeasuring
  var commands: [DisplayCommand] = []
  private var tally: FrameBudget.Tally
  var geometry: MatchedGeometry
  let time: Double

  init(
    text: TextMeasuring, budget: FrameBudget, geometry: MatchedGeometry = MatchedGeometry(),
    time: Double = 0
  ) {
    self.text = text
    tally = FrameBudget.Tally(budget)
    self.geometry = geometry
    self.time = time
  }

  mutating func emit(
    _ element: LayoutElement, size laidOut: Size, transform: ProjectiveTransform,
    context: Context
  ) throws(SceneError) {
    var ctx = context
    var (size, t) = placed(element, size: laidOut, transform: transform, context: &ctx)
    if let z = element.explicitZIndex { ctx.z = z }
    let leaf = Self.isLeaf(element)
    var groups: [GroupStyle] = []
    // Outermost effect first: each composes to the right of what is above it.
    for effect in element.effects.reversed() {
      try apply(effect, size: size, leaf: leaf, transform: &t, context: &ctx, groups: &groups)
    }
    if !leaf, ctx.id != nil || ctx.handlers != nil {
      try append(
        DisplayItem(
          id: ctx.id, kind: .node, path: Path(), frame: Self.frame(size), transform: t,
          opacity: ctx.opacity, z: ctx.z, handlers: ctx.handlers, identity: ctx.identity))
      ctx.id = nil
      ctx.handlers = nil
    }
    for style in groups { commands.append(.beginGroup(style)) }
    try emitBody(element, size: size, transform: t, context: ctx)
    for _ in groups { commands.append(.endGroup) }
  }

  static func frame(_ size: Size) -> Rect { Rect(origin: .zero, size: size) }

  /// The size and transform an element draws with: a removed view's at the frame it was
  /// last shown at (where it is laid out, if no frame was drawn with it); a matched one's
  /// (its own key, else its slot's) at the frame `geometry` presents for its laid-out one.
  /// Extends `ctx`'s slot path by the element's step.
  private mutating func placed(
    _ element: LayoutElement, size: Size, transform t: ProjectiveTransform,
    context ctx: inout Context
  ) -> (Size, ProjectiveTransform) {
    let parent = ctx.slot
    if let step = element.slotStep, let parent { ctx.slot = Slot.path(parent, step) }
    if let key = element.detachedKey {
      guard let held = geometry.held(key, at: time) else { return (size, t) }
      return Self.moved(size, t, from: Self.canvasBox(size, t), to: held)
    }
    let box = Self.canvasBox(size, t)
    let shown: Rect
    if let key = element.matchedKey {
      shown = geometry.frame(for: key, laidOut: box, at: time)
      // Its slot holds the frame it is shown at, for it to leave from.
      if element.slotStep != nil, let slot = ctx.slot {
        _ = geometry.frame(
          for: MatchedGeometryKey(slot: slot), laidOut: shown, at: time, animates: false)
      }
    } else if element.slotStep != nil, let parent, let slot = ctx.slot {
      // Siblings glide only when their stack's children came or went under the change.
      shown = geometry.frame(
        for: MatchedGeometryKey(slot: slot), laidOut: box, at: time,
        animates: geometry.moved.contains(parent))
    } else {
      return (size, t)
    }
    return Self.moved(size, t, from: box, to: shown)
  }

  /// `size` and `t` moved so that what `t` put at canvas box `box` lands at `shown`
  /// (the layout's own scale kept).
  private static func moved(
    _ size: Size, _ t: ProjectiveTransform, from box: Rect, to shown: Rect
  ) -> (Size, ProjectiveTransform) {
    guard shown != box else { return (size, t) }
    let sx = box.size.width > 0 ? size.width / box.size.width : 1
    let sy = box.size.height > 0 ? size.height / box.size.height : 1
    let local = Size(shown.size.width * sx, shown.size.height * sy)
    let at = canvasBox(local, t)
    let shift = ProjectiveTransform(
      .translation(shown.origin.x - at.origin.x, shown.origin.y - at.origin.y))
    return (local, shift.concatenating(after: t))
  }

  /// The canvas-space bounding box of a `size` view drawn through `t`.
  static func canvasBox(_ size: Size, _ t: ProjectiveTransform) -> Rect {
    let corners = [
      Point(0, 0), Point(size.width, 0), Point(0, size.height), Point(size.width, size.height),
    ].map(t.apply)
    let xs = corners.map(\.x)
    let ys = corners.map(\.y)
    let x = xs.min() ?? 0
    let y = ys.min() ?? 0
    return Rect(x: x, y: y, width: (xs.max() ?? x) - x, height: (ys.max() ?? y) - y)
  }

  /// A chain that ends in one shape or text with nothing layered on it.
  static func isLeaf(_ element: LayoutElement) -> Bool {
    switch element.kind {
    case .content(let content, _):
      switch content {
      case .shape, .text, .image: return true
      default: return false
      }
    case .frame(_, let child), .padding(_, let child), .position(_, let child):
      return isLeaf(child)
    case .overlay, .background: return false
    }
  }

  private func anchor(_ a: Alignment, _ size: Size) -> Point {
    Point(a.x * size.width, a.y * size.height)
  }

  private mutating func apply(
    _ effect: Modifier, size: Size, leaf: Bool, transform t: inout ProjectiveTransform,
    context ctx: inout Context, groups: inout [GroupStyle]
  ) throws(SceneError) {
    switch effect {
    case .offset(let p):
      t = t.concatenating(after: ProjectiveTransform(.translation(p.x, p.y)))
    case .relativeOffset(let p):
      t = t.concatenating(
        after: ProjectiveTransform(.translation(p.x * size.width, p.y * size.height)))
    case .scale(let sx, let sy, let a):
      t = t.concatenating(
        after: ProjectiveTransform(.about(anchor(a, size), .scale(sx, sy))))
    case .rotate(let degrees, let a):
      t = t.concatenating(
        after: ProjectiveTransform(.about(anchor(a, size), .rotation(degrees: degrees))))
    case .rotate3D(let degrees, let axis, let a, let perspective):
      t = t.concatenating(
        after: .rotation3D(
          degrees: degrees, axis: (axis.x, axis.y, axis.z), anchor: anchor(a, size),
          perspective: perspective, extent: max(size.width, size.height)))
    case .transform(let m):
      t = t.concatenating(after: m)
    case .opacity(let a):
      ctx.opacity *= a
    case .fill(let paint):
      ctx.fill = paint
    case .stroke(let stroke):
      ctx.stroke = stroke
      ctx.strokeInset = 0
    case .strokeBorder(let stroke):
      ctx.stroke = stroke
      ctx.strokeInset = stroke.width / 2
    case .redacted:
      ctx.redacted = true
    case .trim(let trim):
      // Met outside in: a trim written earlier trims the outline first.
      ctx.trim = ctx.trim.map { $0.applied(after: trim) } ?? trim
    case .shadow(let shadow):
      let canvasShadow = Self.toCanvas(shadow, t, size)
      if leaf {
        ctx.shadow = canvasShadow
      } else {
        openGroup(&groups, &ctx) { $0.shadow = canvasShadow }
      }
    case .clip(let shape):
      ctx.clips.append(Clip(path: try shape.resolvedPath(in: size), transform: t))
    case .blur(let radius):
      let sigma = Self.toCanvas(Shadow(radius: radius), t, size).radius
      openGroup(&groups, &ctx) { $0.blur = sigma }
    case .mask(let node, let alignment):
      let mask = try emitted { (e: inout Emitter) throws(SceneError) in
        try e.emitAligned(
          LayoutElement.build(node), in: size, alignment, transform: t, context: Context())
      }
      openGroup(&groups, &ctx) { $0.masks = [mask] }
    case .blend(let mode):
      if leaf {
        ctx.blend = mode
      } else {
        openGroup(&groups, &ctx) { $0.blend = mode }
      }
    case .compositingGroup:
      openGroup(&groups, &ctx) { _ in }
    case .id(let name):
      ctx.id = ctx.id ?? name
    case .handlers(let h):
      var merged = ctx.handlers ?? Handlers()
      merged.tap = merged.tap ?? h.tap
      merged.drag = merged.drag ?? h.drag
      merged.longPress = merged.longPress ?? h.longPress
      merged.doubleTap = merged.doubleTap ?? h.doubleTap
      ctx.handlers = merged
    case .zIndex, .frame, .padding, .overlay, .background, .position, .transition,
      .matchedGeometry, .lifecycle, .detached:
      break
    }
  }

  /// The commands `body` emits, kept apart from the frame's (a mask's drawing).
  private mutating func emitted(_ body: (inout Emitter) throws(SceneError) -> Void)
    throws(SceneError) -> [DisplayCommand]
  {
    let saved = commands
    commands = []
    defer { commands = saved }
    try body(&self)
    return commands
  }

  /// Starts (or extends) this element's innermost group: opacity and clips above it apply
  /// to the composited group, not to each item inside. A group that blurs or masks
  /// already gets a new group inside it instead, so effects written before the blur or
  /// mask (met later, going outside in) apply before it, in SwiftUI's order.
  private func openGroup(
    _ groups: inout [GroupStyle], _ ctx: inout Context, _ configure: (inout GroupStyle) -> Void
  ) {
    let extend = groups.last.map { $0.blur == 0 && $0.masks.isEmpty } ?? false
    var style = extend ? groups.removeLast() : GroupStyle(opacity: ctx.opacity, clips: ctx.clips)
    configure(&style)
    groups.append(style)
    ctx.opacity = 1
    ctx.clips = []
  }

  /// A shadow's offset and radius are in the view's own space; the renderer
  /// wants canvas points, so map them through the transform at the modifier.
  static func toCanvas(_ shadow: Shadow, _ t: ProjectiveTransform, _ size: Size) -> Shadow {
    let c = Point(size.width / 2, size.height / 2)
    let origin = t.apply(c)
    let moved = t.apply(c + shadow.offset)
    let unit = t.apply(c + Point(1, 0))
    let scale = origin.distance(to: unit)
    var result = shadow
    result.offset = moved - origin
    result.radius = shadow.radius * (scale.isFinite && scale > 0 ? scale : 1)
    return result
  }

  private mutating func emitBody(
    _ element: LayoutElement, size: Size, transform t: ProjectiveTransform, context ctx: Context
  ) throws(SceneError) {
    switch element.kind {
    case .content(let content, let children):
      try emitContent(content, children, size: size, transform: t, context: ctx)
    case .frame(let spec, let child):
      let s = child.size(for: FrameLayout(spec: spec).childProposal(ProposedSize(size)), text)
      let origin = Point(
        (size.width - s.width) * spec.alignment.x, (size.height - s.height) * spec.alignment.y)
      try emitChild(child, size: s, at: origin, transform: t, context: ctx)
    case .padding(let e, let child):
      let s = Size(
        max(0, size.width - e.leading - e.trailing), max(0, size.height - e.top - e.bottom))
      let fitted = child.size(for: ProposedSize(s), text)
      try emitChild(child, size: fitted, at: Point(e.leading, e.top), transform: t, context: ctx)
    case .overlay(let over, let alignment, let base):
      try emit(base, size: size, transform: t, context: ctx)
      try emitAligned(over, in: size, alignment, transform: t, context: ctx.child("ov"))
    case .background(let under, let alignment, let base):
      try emitAligned(under, in: size, alignment, transform: t, context: ctx.child("bg"))
      try emit(base, size: size, transform: t, context: ctx)
    case .position(let p, let child):
      let s = child.size(for: ProposedSize(size), text)
      let origin = Point(p.x - s.width / 2, p.y - s.height / 2)
      try emitChild(child, size: s, at: origin, transform: t, context: ctx)
    }
  }

  private mutating func emitChild(
    _ child: LayoutElement, size: Size, at origin: Point, transform t: ProjectiveTransform,
    context ctx: Context
  ) throws(SceneError) {
    let moved = t.concatenating(after: ProjectiveTransform(.translation(origin.x, origin.y)))
    try emit(child, size: size, transform: moved, context: ctx)
  }

  private mutating func emitAligned(
    _ child: LayoutElement, in size: Size, _ alignment: Alignment,
    transform t: ProjectiveTransform, context ctx: Context
  ) throws(SceneError) {
    let s = child.size(for: ProposedSize(size), text)
    let origin = Point((size.width - s.width) * alignment.x, (size.height - s.height) * alignment.y)
    var inner = ctx
    inner.z = 0
    inner.trim = nil
    try emitChild(child, size: s, at: origin, transform: t, context: inner)
  }

  private mutating func emitContent(
    _ content: ViewContent, _ children: [LayoutElement], size: Size,
    transform t: ProjectiveTransform, context ctx: Context
  ) throws(SceneError) {
    switch content {
    case .shape(let shape):
      // SwiftUI fills a shape with the foreground style (black) unless it is stroked.
      let fill = ctx.fill ?? (ctx.stroke == nil ? .color(.black) : nil)
      // A `strokeBorder` strokes (and a fill under it fills) the inset outline: the
      // stroke's outer edge then meets the frame, and fill and stroke together cover
      // the shape as SwiftUI's do.
      let outline =
        ctx.stroke != nil && ctx.strokeInset > 0
        ? try shape.insetPath(in: size, by: ctx.strokeInset) : try shape.resolvedPath(in: size)
      try append(
        DisplayItem(
          id: ctx.id, kind: shape.kind, path: ctx.trim.map { $0.apply(to: outline) } ?? outline,
          frame: Self.frame(size),
          transform: t, opacity: ctx.opacity, fill: fill, stroke: ctx.stroke, trim: ctx.trim,
          shadow: ctx.shadow, clips: ctx.clips, blend: ctx.blend, z: ctx.z,
          handlers: ctx.handlers, identity: ctx.identity,
          untrimmedPath: ctx.trim == nil ? nil : outline))
    case .text(var run):
      if case .color(let c)? = ctx.fill { run.color = c }
      if ctx.redacted {
        try emitPlaceholder(run, size: size, transform: t, context: ctx)
        return
      }
      try append(
        DisplayItem(
          id: ctx.id, kind: .text, path: Path(), frame: Self.frame(size), transform: t,
          opacity: ctx.opacity, shadow: ctx.shadow, clips: ctx.clips, blend: ctx.blend,
          z: ctx.z, text: run, handlers: ctx.handlers, identity: ctx.identity))
    case .image(let image):
      if ctx.redacted {
        let box = Self.frame(size)
        try append(
          DisplayItem(
            id: ctx.id, kind: .roundedRect,
            path: .roundedRect(box, radius: Self.placeholderRadius, style: .continuous),
            frame: box, transform: t, opacity: ctx.opacity,
            fill: .color(Self.placeholderColor(.black)), clips: ctx.clips, blend: ctx.blend,
            z: ctx.z, handlers: ctx.handlers, identity: ctx.identity))
        return
      }
      let paint = ImagePaint(source: image.source, interpolation: image.interpolation)
      try append(
        DisplayItem(
          id: ctx.id, kind: .image, path: .rect(Self.frame(size)), frame: Self.frame(size),
          transform: t, opacity: ctx.opacity, fill: .image(paint), shadow: ctx.shadow,
          clips: ctx.clips, blend: ctx.blend, z: ctx.z, handlers: ctx.handlers,
          identity: ctx.identity))
    case .empty, .spacer:
      break
    case .stack(let axis, let spacing, let alignment, _):
      try emitStack(
        axis, spacing ?? 8, alignment, children, size: size, transform: t, context: ctx)
    }
  }

  private mutating func emitStack(
    _ axis: StackAxis, _ spacing: Double, _ alignment: Alignment, _ children: [LayoutElement],
    size: Size, transform t: ProjectiveTransform, context ctx: Context
  ) throws(SceneError) {
    var inner = ctx
    inner.shadow = nil
    inner.z = 0
    inner.trim = nil
    let placed: [(LayoutElement, Size, Point)]
    if axis == .z {
      placed = children.map { child in
        let s = child.size(for: ProposedSize(size), text)
        let o = Point((size.width - s.width) * alignment.x, (size.height - s.height) * alignment.y)
        return (child, s, o)
      }
    } else {
      // A removed view takes no space: it draws at its own frame (`placed`).
      let flowing = children.filter { $0.detachedKey == nil }
      let layout = StackLayout(axis: axis, spacing: spacing, children: flowing)
      let sizes = layout.sizes(ProposedSize(size), text)
      var slots = zip(sizes, layout.origins(sizes, in: size, alignment: alignment)).makeIterator()
      placed = children.map { child in
        if let key = child.detachedKey {
          // Drawn at its held frame (`placed`), or, with none (no frame was drawn with it),
          // where the stack would put it: in flow with the others.
          guard !geometry.holds(key) else {
            return (child, child.size(for: ProposedSize(size), text), .zero)
          }
          let (s, o) = inFlow(
            child, among: children, axis: axis, spacing: spacing, alignment: alignment, in: size)
          return (child, s, o)
        }
        guard let (s, o) = slots.next() else { return (child, .zero, .zero) }
        return (child, s, o)
      }
    }
    // zIndex: higher draws in front; ties keep their written order.
    let order = placed.indices.sorted {
      (placed[$0].0.zIndex, $0) < (placed[$1].0.zIndex, $1)
    }
    for i in order {
      let (child, s, o) = placed[i]
      try emitChild(child, size: s, at: o, transform: t, context: inner.child(String(i)))
    }
  }

  /// The size and origin a stack's removed `child` would have, laid out with the children
  /// in flow.
  private func inFlow(
    _ child: LayoutElement, among children: [LayoutElement], axis: StackAxis, spacing: Double,
    alignment: Alignment, in size: Size
  ) -> (Size, Point) {
    let with = children.filter { $0.detachedKey == nil || $0 === child }
    let layout = StackLayout(axis: axis, spacing: spacing, children: with)
    let sizes = layout.sizes(ProposedSize(size), text)
    let origins = layout.origins(sizes, in: size, alignment: alignment)
    let i = with.firstIndex { $0 === child } ?? 0
    return (sizes[i], origins[i])
  }

  /// A placeholder's corner radius, in points.
  static let placeholderRadius = 4.0

  /// What a placeholder is painted with: its content's colour, faded as SwiftUI's
  /// redaction fades it (an approximation: SwiftUI's exact tint is not documented).
  static func placeholderColor(_ color: Color) -> Color { color.opacity(0.16) }

  /// A redacted text: one rounded bar per line it lays out in, as wide as the frame and
  /// as tall as its capitals, each centred on its line (SwiftUI's placeholder).
  private mutating func emitPlaceholder(
    _ run: TextRun, size: Size, transform t: ProjectiveTransform, context ctx: Context
  ) throws(SceneError) {
    let pitch = run.size * 1.2 + run.lineSpacing
    let lines = max(1, Int(((size.height + run.lineSpacing) / max(pitch, 1e-9)).rounded()))
    let lineHeight = (size.height - Double(lines - 1) * run.lineSpacing) / Double(lines)
    let barHeight = min(lineHeight, run.size * 0.75)
    var bars = Path()
    for line in 0..<lines {
      let top = Double(line) * (lineHeight + run.lineSpacing) + (lineHeight - barHeight) / 2
      bars.append(
        .roundedRect(
          Rect(x: 0, y: top, width: size.width, height: barHeight),
          radius: min(Self.placeholderRadius, barHeight / 2), style: .continuous))
    }
    try append(
      DisplayItem(
        id: ctx.id, kind: .path, path: bars, frame: Self.frame(size), transform: t,
        opacity: ctx.opacity, fill: .color(Self.placeholderColor(run.color)),
        shadow: ctx.shadow, clips: ctx.clips, blend: ctx.blend, z: ctx.z,
        handlers: ctx.handlers, identity: ctx.identity))
  }

  private mutating func append(_ item: DisplayItem) throws(SceneError) {
    try tally.add(item)
    commands.append(.item(item))
  }
}
