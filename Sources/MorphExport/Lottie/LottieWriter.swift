import Foundation
import MorphCore

/// A finished Lottie export: the animation's JSON and how faithfully each item mapped.
public struct LottieAnimation: Sendable {
  public var json: String
  public var report: LottieFidelityReport
}

/// Writes Bodymovin/Lottie 5 JSON from display lists sampled one per frame: every drawn
/// item a shape layer that keeps its identity across frames, its properties reduced to
/// the fewest keyframes within the tolerances of `PropertyPrecision`; every compositing
/// group a precomposition. docs/lottie.md says what maps how.
public struct LottieWriter {
  public var fps: Double
  public var name: String
  /// A solid layer under everything, or nil for a transparent animation.
  public var background: Color?
  /// Glyph outlines of a text in its frame (the host's text engine), so the file needs no
  /// fonts; without it texts are left out.
  public var textOutline: TextOutline?

  public typealias TextOutline = @Sendable (TextRun, Rect) -> Path?

  public init(
    fps: Double, name: String, background: Color? = nil, textOutline: TextOutline? = nil
  ) {
    self.fps = fps
    self.name = name
    self.background = background
    self.textOutline = textOutline
  }

  public func write(_ lists: [DisplayList]) -> LottieAnimation {
    precondition(!lists.isEmpty, "a Lottie animation needs at least one frame")
    // Lists already in memory: no budget to keep.
    var stream = LottieStream(self, limit: .max)
    for list in lists { try? stream.add(list) }
    return stream.finish()
  }
}

/// A Lottie export fed one frame at a time, so no frame's display list outlives its
/// turn: each item's samples are folded into its track as the frame arrives.
public struct LottieStream {
  let writer: LottieWriter
  private var timeline: LottieTimeline
  private var canvas: Size?

  /// The export budget: the bytes of outlines, clips and what the writer makes of them
  /// that an export may hold (see `cost(of:)`). Outlines that change every frame are
  /// held for every frame (the keyframes are chosen only once all are in), so this,
  /// not the frame count, bounds the writer's memory: a frame of the deck fan holds
  /// about 50 kB; a 90 000-point path that moves point by point, 23 MB.
  public static let maxHeldBytes = 1 << 30

  /// `limit`: the bytes of outlines the export may hold (`maxHeldBytes`).
  public init(_ writer: LottieWriter, limit: Int = maxHeldBytes) {
    self.writer = writer
    let outline = writer.textOutline
    timeline = LottieTimeline(
      limit: limit,
      prepare: { item in
        guard item.kind == .text, let outline else { return item }
        return LayerContext.outlined(item, outline)
      })
  }

  /// The next frame; past the export budget, an error that ends the export.
  public mutating func add(_ list: DisplayList) throws(SceneError) {
    if canvas == nil { canvas = list.canvas }
    try timeline.add(list)
  }

  /// The animation of the frames added (at least one).
  public func finish() -> LottieAnimation {
    guard let canvas else { preconditionFailure("a Lottie animation needs at least one frame") }
    timeline.finish()
    var context = LayerContext(canvas: canvas, frameCount: timeline.frameCount)
    context.textOutline = writer.textOutline
    var layers = context.layers(timeline.root)
    if let background = writer.background {
      layers.append(context.backgroundLayer(background))
    }
    let root: LottieJSON = [
      "v": "5.7.0", "nm": .string(writer.name), "ddd": 0, "fr": .number(writer.fps), "ip": 0,
      "op": .number(Double(timeline.frameCount)), "w": .number(canvas.width.rounded()),
      "h": .number(canvas.height.rounded()), "assets": .array(context.assets),
      "layers": .array(layers),
    ]
    return LottieAnimation(json: root.text, report: context.report)
  }
}

/// What building the layers gathers: precomposition assets and the report.
struct LayerContext {
  let canvas: Size
  let frameCount: Int
  var assets: [LottieJSON] = []
  private var assetIDs: [ObjectIdentifier: String] = [:]
  private var imageIDs: [ImageSource: String] = [:]
  var report = LottieFidelityReport()
  var textOutline: LottieWriter.TextOutline?

  init(canvas: Size, frameCount: Int) {
    self.canvas = canvas
    self.frameCount = frameCount
  }

  /// A composition's layers, front first as Lottie lists them.
  mutating func layers(_ composition: LottieTimeline.Composition, inGroup: Bool = false)
    -> [LottieJSON]
  {
    var out: [LottieJSON] = []
    let layersPerIdentity = Dictionary(
      composition.slots.map { ($0.identity, 1) }, uniquingKeysWith: +)
    for slot in composition.slots {
      let identity = slot.identity
      if layersPerIdentity[identity, default: 0] > 1 {
        report.note(identity, .baked, "paint order changes: a layer per run of frames in place")
      }
      switch composition.tracks[identity]! {
      case .item(let samples):
        let inSlot = samples.filter { slot.frames.contains($0.key) }
        for run in itemRuns(identity, inSlot) {
          out += shadowLayers(identity, Self.shadowFrames(run))
          if let layer = itemLayer(identity, run) { out.append(layer) }
        }
      case .group(let styles, let inner):
        // An eraser inside a group becomes subtracting masks on that group's layer.
        if inGroup && Self.isEraser(styles) { continue }
        let inSlot = styles.filter { slot.frames.contains($0.key) }
        out += shadowLayers(identity, Self.shadowFrames(inSlot, inner))
        var layer = groupLayer(identity, inSlot, inner)
        if let mask = inner.mask, case .object(var fields) = layer {
          // An alpha track matte: the layer in front of the group's (Lottie reads the
          // matte from the layer listed just before) keeps it where the mask is opaque.
          fields["tt"] = 1
          layer = .object(fields)
          out.append(layer)
          out.append(matteLayer(identity, mask, frames: slot.frames))
        } else {
          out.append(layer)
        }
      }
    }
    // Indices number layers in the order drawn, back to front; Lottie lists the front first.
    for n in out.indices {
      if case .object(var fields) = out[n] {
        fields["ind"] = .number(Double(n + 1))
        out[n] = .object(fields)
      }
    }
    return out.reversed()
  }

  func backgroundLayer(_ color: Color) -> LottieJSON {
    let rect = BezierShape.subpaths(of: .rect(Rect(origin: .zero, size: canvas)))[0]
    var shape = SampledProperty()
    shape.append(0, BezierShape.shapeNumbers(rect))
    let content: [LottieJSON] = [
      ["ty": "sh", "ks": shape.lottie(.points, layout: .shape)],
      Self.solidFill(
        color: constant([color.red, color.green, color.blue], .unitColor),
        opacity: constant([color.alpha * 100], .percentOpacity, layout: .scalar)),
    ]
    return Self.shapeLayer(
      name: "background", ip: 0, op: frameCount, transform: Self.identityTransform(),
      shapes: [Self.group(content)], ind: 0)
  }

  // MARK: Items

  /// The frames from the animation's first to an item's last, each with the sample drawn
  /// there (or, where it is missing, the nearest earlier one, hidden; before its first,
  /// its first). Every layer starts at frame 0: lottie-web builds a layer's elements on
  /// the first frame inside its range and draws that frame with stale values, so a layer
  /// that started later came out wrong on its first visit. A layer that ends before the
  /// animation does runs one frame longer, hidden in that frame: `op` is the first frame
  /// a layer no longer shows (ThorVG, lottie-web), but rlottie still draws it there.
  static func span<T>(_ samples: [Int: T], frameCount: Int) -> (
    ip: Int, op: Int, at: [(Int, T, Bool)]
  ) {
    let frames = samples.keys.sorted()
    var out: [(Int, T, Bool)] = []
    var last = samples[frames[0]]!
    let end = min(frames[frames.count - 1] + 1, frameCount - 1)
    for f in 0...end {
      if let s = samples[f] {
        last = s
        out.append((f, s, true))
      } else {
        out.append((f, last, false))
      }
    }
    return (0, end + 1, out)
  }

  mutating func itemLayer(_ identity: String, _ samples: [Int: DisplayItem]) -> LottieJSON? {
    // Texts arrive as their glyph outlines (LottieStream), when there is an outliner.
    if samples.values.first?.kind == .text && textOutline == nil {
      report.note(identity, .dropped, "text left out (no glyph outlines given)")
      return nil
    }
    let span = Self.span(samples, frameCount: frameCount)
    let first = span.at[0].1
    if first.kind == .image { return imageLayer(identity, span) }
    guard let blend = LottieStyle.blendMode(first.blend) else {
      report.note(identity, .dropped, "blend mode \(first.blend.rawValue) has no Lottie form")
      return nil
    }
    let affine = span.at.allSatisfy { LottieStyle.decompose($0.1.transform) != nil }
    report.note(identity, .native)
    if !affine {
      report.note(identity, .baked, "perspective or skew: vertices projected every frame")
    }
    let transform =
      affine ? affineTransform(span.at) : Self.opacityOnlyTransform(span.at)
    var style = LottieStyle(identity: identity, frames: span.at.map { ($0.0, $0.1) })
    let shapes = style.content(affine: affine)
    for (mapping, note) in style.notes { report.note(identity, mapping, note) }
    var layer = Self.shapeLayer(
      name: identity, ip: span.ip, op: span.op, transform: transform, shapes: shapes, ind: 0)
    guard case .object(var fields) = layer else { return layer }
    if blend != 0 { fields["bm"] = .number(Double(blend)) }
    if let masks = style.masks(affine: affine) {
      fields["masksProperties"] = masks
      fields["hasMask"] = true
    }
    for (mapping, note) in style.notes { report.note(identity, mapping, note) }
    layer = .object(fields)
    return layer
  }

  // MARK: Images

  /// An image node as an image layer over an embedded PNG asset (one per file): the
  /// layer's transform stretches the image's pixels over the item's frame, its clips
  /// become masks. Under perspective or skew Lottie has no form for it: left out.
  private mutating func imageLayer(
    _ identity: String, _ span: (ip: Int, op: Int, at: [(Int, DisplayItem, Bool)])
  ) -> LottieJSON? {
    guard case .image(let paint)? = span.at[0].1.fill else { return nil }
    let source = paint.source
    if span.at.contains(where: { $0.1.fill != .image(paint) }) {
      report.note(identity, .approximated, "the image changes: its first file kept")
    }
    // Each frame's item in the image's pixel space, so the layer's transform is the
    // item's composed with the stretch of pixels over the frame.
    let pixels = span.at.map { (f, item, present) -> (Int, DisplayItem, Bool) in
      var item = item
      let stretch = AffineTransform.translation(item.frame.origin.x, item.frame.origin.y)
        .concatenating(
          after: .scale(
            item.frame.size.width / Double(max(source.pixelWidth, 1)),
            item.frame.size.height / Double(max(source.pixelHeight, 1))))
      item.transform = item.transform.concatenating(after: ProjectiveTransform(stretch))
      item.path = .rect(
        Rect(origin: .zero, size: Size(Double(source.pixelWidth), Double(source.pixelHeight))))
      return (f, item, present)
    }
    guard pixels.allSatisfy({ LottieStyle.decompose($0.1.transform) != nil }) else {
      report.note(identity, .dropped, "an image under perspective or skew has no Lottie form")
      return nil
    }
    guard let id = imageAsset(source) else {
      report.note(identity, .dropped, "image \(source.path) could not be read")
      return nil
    }
    report.note(identity, .native)
    if paint.interpolation == .none {
      report.note(
        identity, .approximated, "interpolation none: players sample the image smoothly")
    }
    var fields: [String: LottieJSON] = [
      "ty": 2, "nm": .string(identity), "refId": .string(id), "ind": 0,
      "ip": .number(Double(span.ip)), "op": .number(Double(span.op)), "st": 0, "sr": 1,
      "ddd": 0, "ao": 0, "bm": 0, "ks": affineTransform(pixels),
    ]
    if let bm = LottieStyle.blendMode(span.at[0].1.blend) {
      fields["bm"] = .number(Double(bm))
    } else {
      report.note(
        identity, .approximated, "blend mode \(span.at[0].1.blend.rawValue) drawn as normal")
    }
    if let effect = LottieStyle.shadowEffect(span.at.map { ($0.0, $0.1.shadow) }) {
      fields["ef"] = [effect]
    }
    let style = LottieStyle(identity: identity, frames: pixels.map { ($0.0, $0.1) })
    if let masks = style.masks(affine: true) {
      fields["masksProperties"] = masks
      fields["hasMask"] = true
    }
    return .object(fields)
  }

  /// The asset id of an image file embedded as a base64 PNG, each file once.
  private mutating func imageAsset(_ source: ImageSource) -> String? {
    if let id = imageIDs[source] { return id }
    guard let data = FileManager.default.contents(atPath: source.path) else { return nil }
    let id = "image\(imageIDs.count)"
    imageIDs[source] = id
    assets.append([
      "id": .string(id), "w": .number(Double(source.pixelWidth)),
      "h": .number(Double(source.pixelHeight)), "u": "", "e": 1,
      "p": .string("data:image/png;base64," + data.base64EncodedString()),
    ])
    return id
  }

  /// A text item as its glyph outlines filled with its colour.
  static func outlined(_ item: DisplayItem, _ outline: LottieWriter.TextOutline) -> DisplayItem {
    var shape = item
    guard let run = item.text else { return shape }
    shape.path = outline(run, item.frame) ?? Path()
    shape.fill = .color(run.color)
    return shape
  }

  /// Position, scale, rotation and opacity per frame, from affine transforms without skew.
  private func affineTransform(_ frames: [(Int, DisplayItem, Bool)]) -> LottieJSON {
    var position = SampledProperty()
    var scale = SampledProperty()
    var rotation = SampledProperty()
    var opacity = SampledProperty()
    var previousAngle: Double?
    var extent = 1.0
    for (f, item, present) in frames {
      let d = LottieStyle.decompose(item.transform)!
      var angle = d.rotation
      // Unwrapped, so a turn through ±180° interpolates the short way it went.
      if let p = previousAngle { angle += 360 * ((p - angle) / 360).rounded() }
      previousAngle = angle
      position.append(f, [d.tx, d.ty])
      scale.append(f, [d.sx * 100, d.sy * 100])
      rotation.append(f, [angle])
      opacity.append(f, [present ? item.opacity * 100 : 0])
      if let b = item.path.controlBounds {
        extent = max(
          extent, abs(b.origin.x), abs(b.origin.y), abs(b.origin.x + b.size.width),
          abs(b.origin.y + b.size.height))
      }
    }
    return [
      "a": constant([0, 0], .points), "p": position.lottie(.points),
      "s": scale.lottie(.percentScale(extent: extent)),
      "r": rotation.lottie(.degrees, layout: .scalar),
      "o": opacity.lottie(.percentOpacity, layout: .scalar),
    ]
  }

  static func opacityOnlyTransform(_ frames: [(Int, DisplayItem, Bool)]) -> LottieJSON {
    var opacity = SampledProperty()
    for (f, item, present) in frames { opacity.append(f, [present ? item.opacity * 100 : 0]) }
    var t = identityTransform()
    if case .object(var fields) = t {
      fields["o"] = opacity.lottie(.percentOpacity, layout: .scalar)
      t = .object(fields)
    }
    return t
  }

  static func identityTransform() -> LottieJSON {
    [
      "a": constant([0, 0], .points), "p": constant([0, 0], .points),
      "s": constant([100, 100], .points), "r": constant([0], .degrees, layout: .scalar),
      "o": constant([100], .percentOpacity, layout: .scalar),
    ]
  }

  static func shapeLayer(
    name: String, ip: Int, op: Int, transform: LottieJSON, shapes: [LottieJSON], ind: Int
  ) -> LottieJSON {
    [
      "ty": 4, "nm": .string(name), "ind": .number(Double(ind)), "ip": .number(Double(ip)),
      "op": .number(Double(op)), "st": 0, "sr": 1, "ddd": 0, "ao": 0, "bm": 0, "ks": transform,
      "shapes": .array(shapes),
    ]
  }

  static func group(_ items: [LottieJSON]) -> LottieJSON {
    [
      "ty": "gr", "it": .array(items + [groupTransform()]), "nm": "item",
      "np": .number(Double(items.count)),
    ]
  }

  static func groupTransform() -> LottieJSON {
    [
      "ty": "tr", "a": constant([0, 0], .points), "p": constant([0, 0], .points),
      "s": constant([100, 100], .points), "r": constant([0], .degrees, layout: .scalar),
      "o": constant([100], .percentOpacity, layout: .scalar),
      "sk": constant([0], .degrees, layout: .scalar),
      "sa": constant([0], .degrees, layout: .scalar),
    ]
  }

  static func solidFill(color: LottieJSON, opacity: LottieJSON) -> LottieJSON {
    ["ty": "fl", "c": color, "o": opacity, "r": 1]
  }

  // MARK: Groups

  /// The precomposition holding a group's content, written once however many layers
  /// (one per run of frames in one paint order) show it.
  private mutating func asset(for inner: LottieTimeline.Composition, named name: String) -> String {
    if let id = assetIDs[ObjectIdentifier(inner)] { return id }
    let id = "comp\(assetIDs.count)"
    assetIDs[ObjectIdentifier(inner)] = id
    let slot = assets.count
    assets.append([:])
    let layers = layers(inner, inGroup: true)
    assets[slot] = ["id": .string(id), "layers": .array(layers), "nm": .string(name)]
    return id
  }

  /// A compositing group as a precomposition layer: its opacity, blend mode, shadow and
  /// blur apply to the composited content, as in the host.
  mutating func groupLayer(
    _ identity: String, _ styles: [Int: GroupStyle], _ inner: LottieTimeline.Composition
  ) -> LottieJSON {
    let span = Self.span(styles, frameCount: frameCount)
    let assetID = asset(for: inner, named: identity)
    var opacity = SampledProperty()
    for (f, style, present) in span.at { opacity.append(f, [present ? style.opacity * 100 : 0]) }
    var transform = Self.identityTransform()
    if case .object(var t) = transform {
      t["o"] = opacity.lottie(.percentOpacity, layout: .scalar)
      transform = .object(t)
    }
    var fields: [String: LottieJSON] = [
      "ty": 0, "nm": .string(identity), "refId": .string(assetID), "ip": .number(Double(span.ip)),
      "op": .number(Double(span.op)), "st": 0, "sr": 1, "ddd": 0, "ao": 0,
      "w": .number(canvas.width.rounded()), "h": .number(canvas.height.rounded()),
      "ks": transform, "bm": 0,
    ]
    report.note(identity, .native)
    let first = span.at[0].1
    if let bm = LottieStyle.blendMode(first.blend) {
      fields["bm"] = .number(Double(bm))
    } else if Self.isEraser(styles) {
      report.note(identity, .native, "destinationOut: subtracting masks on the enclosing group")
    } else {
      report.note(identity, .approximated, "blend mode \(first.blend.rawValue) drawn as normal")
    }
    var effects: [LottieJSON] = []
    if span.at.contains(where: { $0.1.blur > 0 }) {
      effects.append(LottieStyle.blurEffect(span.at.map { ($0.0, $0.1.blur) }))
    }
    if !effects.isEmpty { fields["ef"] = .array(effects) }
    if span.at.contains(where: { $0.1.masks.count > 1 }) {
      report.note(
        identity, .approximated, "more than one mask: the first a track matte, others left out")
    } else if span.at.contains(where: { !$0.1.masks.isEmpty }) {
      report.note(identity, .native, "mask as an alpha track matte")
    }
    var masks: [LottieJSON] = []
    if case .array(let clips)? = LottieStyle.clipMasks(
      span.at.map { ($0.0, $0.1.clips, ProjectiveTransform.identity) }, affine: false)
    {
      masks += clips
    }
    if masks.isEmpty, let one = eraserMask(inner, frames: span.at.map(\.0)) {
      masks = [one]
    } else {
      masks += eraserMasks(identity, inner, frames: span.at.map(\.0))
      if masks.count > 1 {
        report.note(
          identity, .approximated,
          "several masks on one layer: lottie-web's canvas renderer clips to their union")
      }
    }
    if !masks.isEmpty {
      fields["masksProperties"] = .array(masks)
      fields["hasMask"] = true
    }
    let fades = span.at.contains {
      $0.2 && 100 * $0.1.opacity < 100 - PropertyPrecision.percentOpacity.tolerance
    }
    return .object(fades && !effects.isEmpty ? fadedWhole(fields) : fields)
  }

  /// A group layer that fades with effects, as two layers: the players fade a layer's
  /// content and its effects apart (a shadow then shows through translucent content),
  /// the host fades the composited group. So the effects (and masks) stay on an inner
  /// precomposition layer at full opacity, and the opacity and blend mode go on an outer
  /// layer over it, which composites the inner one first.
  private mutating func fadedWhole(_ fields: [String: LottieJSON]) -> [String: LottieJSON] {
    var inner = fields
    inner["ks"] = Self.identityTransform()
    inner["bm"] = 0
    inner["ind"] = 1
    // Unique: the asset list only grows, and no other asset id starts so.
    let id = "faded\(assets.count)"
    assets.append(["id": .string(id), "layers": [.object(inner)], "nm": fields["nm"] ?? ""])
    var outer = fields
    outer["refId"] = .string(id)
    for key in ["ef", "masksProperties", "hasMask"] { outer[key] = nil }
    return outer
  }

  /// A group's mask content as a precomposition layer used as an alpha track matte.
  private mutating func matteLayer(
    _ identity: String, _ mask: LottieTimeline.Composition, frames: Range<Int>
  ) -> LottieJSON {
    let assetID = asset(for: mask, named: identity + " mask")
    return [
      "ty": 0, "nm": .string(identity + " mask"), "refId": .string(assetID), "td": 1,
      "ip": .number(Double(frames.lowerBound)), "op": .number(Double(frames.upperBound)),
      "st": 0, "sr": 1, "ddd": 0, "ao": 0, "w": .number(canvas.width.rounded()),
      "h": .number(canvas.height.rounded()), "ks": Self.identityTransform(), "bm": 0,
    ]
  }

  /// Whether a group only erases what is under it (`blend("destinationOut")`).
  static func isEraser(_ styles: [Int: GroupStyle]) -> Bool {
    styles.values.first?.blend == .destinationOut
  }

  /// The outlines of the erasers in a group's content as subtracting masks over the
  /// group's frames (exact when the erasers are drawn last and opaque, as notches are).
  private mutating func eraserMasks(
    _ identity: String, _ inner: LottieTimeline.Composition, frames: [Int]
  ) -> [LottieJSON] {
    var masks: [LottieJSON] = []
    for (eraserID, track) in inner.tracks.sorted(by: { $0.key < $1.key }) {
      guard case .group(let styles, let content) = track, Self.isEraser(styles) else { continue }
      if inner.segments.contains(where: { $0.order.last != eraserID }) {
        report.note(
          eraserID, .approximated, "destinationOut not drawn last: later items erased too")
      }
      for (itemID, itemTrack) in content.tracks.sorted(by: { $0.key < $1.key }) {
        guard case .item(let samples) = itemTrack, let any = samples.values.first else {
          report.note(itemID, .dropped, "a nested group inside an eraser is left out")
          continue
        }
        report.note(itemID, .native, "erases as a subtracting mask")
        let count = BezierShape.subpaths(of: any.path).count
        for k in 0..<count {
          var shape = SampledProperty()
          var opacity = SampledProperty()
          var last = any
          for f in frames {
            let item = samples[f] ?? last
            last = item
            let subpaths = BezierShape.subpaths(of: item.path, map: item.transform.apply)
            let s =
              k < subpaths.count
              ? subpaths[k] : BezierShape(closed: true, vertices: [], inPoints: [], outPoints: [])
            shape.append(f, BezierShape.shapeNumbers(s))
            let visible = samples[f] != nil && styles[f] != nil
            opacity.append(f, [visible ? item.opacity * (styles[f]?.opacity ?? 1) * 100 : 0])
          }
          masks.append([
            "mode": "s", "inv": false, "nm": .string("erase \(itemID)"),
            "pt": shape.lottie(.points, layout: .shape),
            "o": opacity.lottie(.percentOpacity, layout: .scalar),
            "x": constant([0], .points, layout: .scalar),
          ])
        }
      }
    }
    return masks
  }
}

/// A property that never changes.
func constant(
  _ value: [Double], _ precision: PropertyPrecision, layout: PropertyLayout = .vector
) -> LottieJSON {
  var p = SampledProperty()
  p.append(0, value)
  return p.lottie(precision, layout: layout)
}
