/// Lays text out; the render layer provides the real one.
public protocol TextMeasuring: Sendable {
  /// The size `text` takes when offered `proposal`, as SwiftUI's `Text` sizes itself: its ideal
  /// width when that fits, else wrapped at the width offered, as many lines as the height offered
  /// (and `lineLimit`) holds; and its first baseline from the top.
  func measure(_ text: TextRun, in proposal: ProposedSize) -> TextMetrics
}

/// A rough measure for when no font is at hand: 0.6 em per character, 1.2 em a line, wrapped
/// by whole characters at the width offered.
public struct ApproximateTextMeasure: TextMeasuring {
  public init() {}

  public func measure(_ text: TextRun, in proposal: ProposedSize) -> TextMetrics {
    let advance = text.size * 0.6 + text.tracking
    let paragraphs = text.string.split(separator: "\n", omittingEmptySubsequences: false)
    let longestCount = paragraphs.map(\.count).max() ?? 0
    let longest = max(longestCount, 1)
    let ideal = Double(longestCount) * advance
    // Characters a line holds; an unbounded, huge or NaN offer must not trap Int().
    let fit = ((proposal.width ?? ideal) / max(advance, 1e-9)).rounded(.down)
    let perLine = fit.isNaN ? 1 : fit >= Double(longest) ? longest : max(1, Int(max(fit, 0)))
    var lines = paragraphs.map { max(1, ($0.count + perLine - 1) / perLine) }.reduce(0, +)
    if let limit = text.lineLimit { lines = min(lines, max(limit, 1)) }
    let width = min(ideal, Double(perLine) * advance)
    let height = Double(lines) * text.size * 1.2 + Double(lines - 1) * text.lineSpacing
    return TextMetrics(size: Size(width, height), baseline: text.size)
  }
}

/// A size a parent offers; nil in a dimension asks for the ideal size.
public struct ProposedSize: Hashable, Sendable {
  public var width: Double?
  public var height: Double?

  public init(width: Double?, height: Double?) {
    self.width = width
    self.height = height
  }

  public init(_ size: Size) {
    self.init(width: size.width, height: size.height)
  }

  func along(_ axis: StackAxis) -> Double? { axis == .horizontal ? width : height }
}

/// One element of the layout tree: a view's content, or one of its layout
/// modifiers wrapping the element below it. Effects ride along on the element
/// they follow. Sizes are cached per proposal, so stacks can probe children.
final class LayoutElement {
  enum Kind {
    case content(ViewContent, children: [LayoutElement])
    case frame(FrameSpec, LayoutElement)
    case padding(EdgeInsets, LayoutElement)
    case overlay(LayoutElement, Alignment, base: LayoutElement)
    case background(LayoutElement, Alignment, base: LayoutElement)
    case position(Point, LayoutElement)
  }

  let kind: Kind
  /// Effect modifiers applied to this element, in the order written.
  var effects: [Modifier] = []
  /// The step to this view from its parent's slot (`Slot`), on the outermost element of a
  /// root's, a stack child's, an overlay's or a background's chain.
  var slotStep: String?
  private var cache: [ProposedSize: Size] = [:]

  init(_ kind: Kind) {
    self.kind = kind
  }

  /// Builds the element chain of `node`: content first, each layout modifier
  /// wrapping what came before.
  static func build(_ node: ViewNode) -> LayoutElement {
    var element = LayoutElement(.content(node.content, children: children(of: node.content)))
    let steps = Slot.attachedSteps(node.modifiers)
    for (modifier, step) in zip(node.modifiers, steps) {
      switch modifier {
      case .frame(let spec): element = LayoutElement(.frame(spec, element))
      case .padding(let insets): element = LayoutElement(.padding(insets, element))
      case .overlay(let view, let alignment):
        element = LayoutElement(
          .overlay(attached(view, step: step), alignment, base: element))
      case .background(let view, let alignment):
        element = LayoutElement(
          .background(attached(view, step: step), alignment, base: element))
      case .position(let point): element = LayoutElement(.position(point, element))
      default: element.effects.append(modifier)
      }
    }
    return element
  }

  /// The key of the outermost `matchedGeometry` among its effects.
  var matchedKey: MatchedGeometryKey? {
    for case .matchedGeometry(let key) in effects.reversed() { return key }
    return nil
  }

  /// The key of a removed view's frame, which it draws at taking no space.
  var detachedKey: MatchedGeometryKey? {
    for case .detached(let key) in effects.reversed() { return key }
    return nil
  }

  private static func children(of content: ViewContent) -> [LayoutElement] {
    guard case .stack(_, _, _, let children) = content else { return [] }
    return zip(children, Slot.steps(children)).map { child, step in
      let element = build(child)
      element.slotStep = step
      return element
    }
  }

  private static func attached(_ view: ViewNode, step: String?) -> LayoutElement {
    let element = build(view)
    element.slotStep = step
    return element
  }

  /// The zIndex its parent stack sorts by: the outermost one written (SwiftUI
  /// passes the trait up through layout modifiers).
  var zIndex: Double { explicitZIndex ?? wrapped?.zIndex ?? 0 }

  /// The element a layout modifier wraps.
  var wrapped: LayoutElement? {
    switch kind {
    case .content: return nil
    case .frame(_, let c), .padding(_, let c), .position(_, let c): return c
    case .overlay(_, _, let base), .background(_, _, let base): return base
    }
  }

  var explicitZIndex: Double? {
    for case .zIndex(let z) in effects.reversed() { return z }
    return nil
  }

  func size(for proposal: ProposedSize, _ text: TextMeasuring) -> Size {
    if let cached = cache[proposal] { return cached }
    let size = measure(proposal, text)
    cache[proposal] = size
    return size
  }

  private func measure(_ p: ProposedSize, _ text: TextMeasuring) -> Size {
    switch kind {
    case .content(let content, let children):
      return Self.measure(content, children, p, text)
    case .frame(let spec, let child):
      return FrameLayout(spec: spec).size(child: child, p, text)
    case .padding(let e, let child):
      let inner = ProposedSize(
        width: p.width.map { max(0, $0 - e.leading - e.trailing) },
        height: p.height.map { max(0, $0 - e.top - e.bottom) })
      let s = child.size(for: inner, text)
      return Size(s.width + e.leading + e.trailing, s.height + e.top + e.bottom)
    case .overlay(_, _, let base), .background(_, _, let base):
      return base.size(for: p, text)
    case .position(_, let child):
      let s = child.size(for: p, text)
      return Size(p.width ?? s.width, p.height ?? s.height)
    }
  }

  private static func measure(
    _ content: ViewContent, _ children: [LayoutElement], _ p: ProposedSize,
    _ text: TextMeasuring
  ) -> Size {
    switch content {
    case .shape: return Size(p.width ?? 10, p.height ?? 10)
    case .text(let run): return text.measure(run, in: p).size
    case .image(let image): return image.size(for: p)
    case .empty: return .zero
    case .spacer(let minLength): return Size(p.width ?? minLength, p.height ?? minLength)
    case .stack(.z, _, _, _):
      var size = Size.zero
      for child in children where child.detachedKey == nil {
        let s = child.size(for: p, text)
        size = Size(max(size.width, s.width), max(size.height, s.height))
      }
      return size
    case .stack(let axis, let spacing, _, _):
      return StackLayout(
        axis: axis, spacing: spacing ?? 8, children: children.filter { $0.detachedKey == nil }
      ).size(p, text)
    }
  }
}

/// SwiftUI's `frame(width:height:alignment:)` and flexible frames.
struct FrameLayout {
  let spec: FrameSpec

  func childProposal(_ p: ProposedSize) -> ProposedSize {
    ProposedSize(
      width: spec.width ?? clamp(p.width, spec.minWidth, spec.maxWidth),
      height: spec.height ?? clamp(p.height, spec.minHeight, spec.maxHeight))
  }

  private func clamp(_ value: Double?, _ lo: Double?, _ hi: Double?) -> Double? {
    guard var v = value else { return nil }
    if let hi { v = min(v, hi) }
    if let lo { v = max(v, lo) }
    return v
  }

  func size(child: LayoutElement, _ p: ProposedSize, _ text: TextMeasuring) -> Size {
    let c = child.size(for: childProposal(p), text)
    return Size(
      resolve(spec.width, p.width, c.width, spec.minWidth, spec.maxWidth),
      resolve(spec.height, p.height, c.height, spec.minHeight, spec.maxHeight))
  }

  /// SwiftUI's documented rule for one dimension of a frame.
  private func resolve(
    _ fixed: Double?, _ proposed: Double?, _ child: Double, _ lo: Double?, _ hi: Double?
  ) -> Double {
    if let fixed { return fixed }
    if lo == nil && hi == nil { return child }
    let offer = proposed ?? child
    if let lo, let hi { return max(lo, min(hi, offer)) }
    if let lo, offer < child { return max(lo, offer) }
    if let hi, offer > child { return min(hi, offer) }
    if let lo { return max(lo, child) }
    return child
  }
}

/// SwiftUI's VStack/HStack: offers space to the least flexible children first.
struct StackLayout {
  let axis: StackAxis
  let spacing: Double
  let children: [LayoutElement]

  private func along(_ s: Size) -> Double { axis == .horizontal ? s.width : s.height }
  private func across(_ s: Size) -> Double { axis == .horizontal ? s.height : s.width }

  private func proposal(along a: Double?, across c: Double?) -> ProposedSize {
    axis == .horizontal ? ProposedSize(width: a, height: c) : ProposedSize(width: c, height: a)
  }

  /// Each child's size along the axis, in child order.
  func sizes(_ p: ProposedSize, _ text: TextMeasuring) -> [Size] {
    let cross = axis == .horizontal ? p.height : p.width
    guard let total = p.along(axis) else {
      return children.map { $0.size(for: proposal(along: nil, across: cross), text) }
    }
    let flexibility = children.map { child -> Double in
      let lo = along(child.size(for: proposal(along: 0, across: cross), text))
      let hi = along(child.size(for: proposal(along: .infinity, across: cross), text))
      return hi - lo
    }
    let order = children.indices.sorted { (flexibility[$0], $0) < (flexibility[$1], $1) }
    var remaining = total - spacing * Double(max(children.count - 1, 0))
    var sizes = [Size](repeating: .zero, count: children.count)
    for (k, i) in order.enumerated() {
      let share = max(0, remaining / Double(children.count - k))
      sizes[i] = children[i].size(for: proposal(along: share, across: cross), text)
      remaining -= along(sizes[i])
    }
    return sizes
  }

  func size(_ p: ProposedSize, _ text: TextMeasuring) -> Size {
    let sizes = sizes(p, text)
    let length = sizes.map(along).reduce(0, +) + spacing * Double(max(sizes.count - 1, 0))
    let thickness = sizes.map(across).max() ?? 0
    return axis == .horizontal ? Size(length, thickness) : Size(thickness, length)
  }

  /// Child origins inside a stack of `size`, aligned across the axis.
  func origins(_ sizes: [Size], in size: Size, alignment: Alignment) -> [Point] {
    var cursor = 0.0
    return sizes.map { s in
      defer { cursor += along(s) + spacing }
      if axis == .horizontal {
        return Point(cursor, (size.height - s.height) * alignment.y)
      }
      return Point((size.width - s.width) * alignment.x, cursor)
    }
  }
}
