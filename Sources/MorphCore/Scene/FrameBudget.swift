/// What one frame may cost. A body that would take seconds or minutes to
/// draw (200 shadows of radius 1e300, a million-point path) is refused at
/// once with an error naming the cause, instead of stalling the host. The one
/// owner of these limits: the display-list builder checks what it emits, the
/// renderer checks the blur it would do, before drawing anything.
///
/// The figures come from measuring a release build: a frame at the limits
/// draws in about a second or less on one core.
public struct FrameBudget: Hashable, Sendable {
  /// Items (shapes, text runs, recorded nodes) in one frame: 20 000 rectangles
  /// draw in about 0.4 s.
  public var maxItems: Int
  /// Path elements (moves, lines, curves) drawn in one frame, clip outlines
  /// included (a rectangle is 5). Cairo's stroker is superlinear in the points
  /// of one path: 100 000 take about 1 s, a million a minute.
  public var maxPathElements: Int
  /// Characters of text in one frame.
  public var maxTextCharacters: Int
  /// Characters of one text: shaping and breaking a paragraph grows faster than its length
  /// (10 000 characters wrap in 0.07 s, 100 000 in 1.5 s), so a longer one is refused before
  /// it is laid out.
  public var maxTextRunCharacters: Int
  /// The largest font size, in points (FreeType fails on far larger ones).
  public var maxFontSize: Double
  /// Work of wrapping one text, in characters × lines (`TextEngine`'s estimate before it
  /// asks Pango). Pango breaks a word longer than the width offered a character at a time,
  /// measuring the rest of the word for each line: 4 000 W's one to a line take 7 s, about
  /// 0.45 µs a unit, so this bound keeps one layout near half a second.
  public var maxTextLayoutWork: Int
  /// Device pixels blurred for shadows and `blur` in one frame. A blur's cost is its
  /// area (three box passes per axis, whatever σ), and the area grows with σ²:
  /// content plus 3σ on each side; a `blur` counts four planes (colour and alpha) and
  /// is not limited to the canvas, so an absurd radius fails at once. 32 Mpx is about
  /// 2 s; deck_fan at scale 8 (the most the CLI allows) blurs about 13 Mpx.
  public var maxBlurPixels: Int
  /// Removed nodes kept drawing while their removal transitions run (`TransitionTracker`);
  /// the nodes their trees hold count against `maxItems` too. Past either, the oldest
  /// removal ends at once. Each ghost is carried into every frame's tree until it ends,
  /// so without a bound a node removed every tick under a long transition makes each
  /// frame slower than the last.
  public var maxLeavingNodes: Int

  public init(
    maxItems: Int = 20_000, maxPathElements: Int = 100_000, maxTextCharacters: Int = 100_000,
    maxTextRunCharacters: Int = 10_000, maxFontSize: Double = 4096,
    maxTextLayoutWork: Int = 1 << 20, maxBlurPixels: Int = 32 << 20, maxLeavingNodes: Int = 256
  ) {
    self.maxItems = maxItems
    self.maxPathElements = maxPathElements
    self.maxTextCharacters = maxTextCharacters
    self.maxTextRunCharacters = maxTextRunCharacters
    self.maxFontSize = maxFontSize
    self.maxTextLayoutWork = maxTextLayoutWork
    self.maxBlurPixels = maxBlurPixels
    self.maxLeavingNodes = maxLeavingNodes
  }

  public static let standard = FrameBudget()

  /// Refuses a text longer than `maxTextRunCharacters`, before anything measures it.
  public func checkText(_ string: String) throws(SceneError) {
    guard string.utf8.count > maxTextRunCharacters,
      string.unicodeScalars.count > maxTextRunCharacters
    else { return }
    throw SceneError(
      "text of \(string.unicodeScalars.count) characters is over the \(maxTextRunCharacters)-character limit "
        + "of one text (the frame budget); split it into several texts")
  }

  /// Refuses to wrap a text whose estimated work (see `maxTextLayoutWork`) is over budget.
  public func checkTextLayout(work: Int, characters: Int, width: Double) throws(SceneError) {
    guard work > maxTextLayoutWork else { return }
    throw SceneError(
      "text of \(characters) characters is too costly to wrap at width \(width) "
        + "(about \(work) units of layout work; the frame budget allows \(maxTextLayoutWork)); "
        + "offer it a wider frame or break its long words")
  }

  /// Groups (opacity, blend, blur, mask) nested in one another: Cairo keeps a surface for
  /// each open one, and the renderer refuses a list deeper than this.
  public static let maxGroupDepth = 64

  /// Refuses a frame whose groups nest deeper than `maxGroupDepth` (a mask's commands
  /// count one level inside their group), so the frame fails where it was built, at the
  /// plugin's line, not later in whichever renderer draws it.
  public func checkGroups(_ commands: [DisplayCommand], depth base: Int = 0) throws(SceneError) {
    var depth = base
    for command in commands {
      switch command {
      case .item: continue
      case .beginGroup(let style):
        depth += 1
        guard depth <= Self.maxGroupDepth else {
          throw SceneError(
            "groups (opacity, blend, blur, mask) nest deeper than \(Self.maxGroupDepth) "
              + "(the frame budget); flatten the modifiers or the stacks they wrap")
        }
        for mask in style.masks { try checkGroups(mask, depth: depth + 1) }
      case .endGroup: depth -= 1
      }
    }
  }

  /// `checkText` on every text of a tree.
  public func checkTexts(in node: ViewNode) throws(SceneError) {
    switch node.content {
    case .text(let run): try checkText(run.string)
    case .stack(_, _, _, let children): for child in children { try checkTexts(in: child) }
    case .shape, .image, .empty, .spacer: break
    }
    for modifier in node.modifiers {
      switch modifier {
      case .overlay(let view, _), .background(let view, _), .mask(let view, _):
        try checkTexts(in: view)
      default: break
      }
    }
  }

  /// Running totals of one frame, checked as items are added.
  public struct Tally: Sendable {
    public let budget: FrameBudget
    public private(set) var items = 0
    public private(set) var pathElements = 0
    public private(set) var textCharacters = 0
    public private(set) var blurPixels = 0

    public init(_ budget: FrameBudget) { self.budget = budget }

    /// Counts one item, its outline and clips, and its text.
    public mutating func add(_ item: DisplayItem) throws(SceneError) {
      items += 1
      guard items <= budget.maxItems else {
        throw SceneError(
          "frame has more than \(budget.maxItems) items (the frame budget); is body building an endless tree?"
        )
      }
      pathElements += item.path.elements.count
      for clip in item.clips { pathElements += clip.path.elements.count }
      guard pathElements <= budget.maxPathElements else {
        throw SceneError(
          "frame has more than \(budget.maxPathElements) path points (the frame budget)"
            + Self.naming(item))
      }
      guard let text = item.text else { return }
      guard text.size <= budget.maxFontSize else {
        throw SceneError(
          "font size \(text.size) is over the \(Int(budget.maxFontSize)) pt frame budget"
            + Self.naming(item))
      }
      textCharacters += text.string.count
      guard textCharacters <= budget.maxTextCharacters else {
        throw SceneError(
          "frame has more than \(budget.maxTextCharacters) characters of text (the frame budget)")
      }
    }

    /// Counts the pixels one shadow or blur blurs.
    public mutating func addBlur(pixels: Int, radius: Double) throws(SceneError) {
      blurPixels = blurPixels.addingReportingOverflow(max(pixels, 0)).partialValue
      guard blurPixels >= 0, blurPixels <= budget.maxBlurPixels else {
        blurPixels = Int.max
        throw SceneError(
          "frame's shadows and blurs blur more than \(budget.maxBlurPixels >> 20) Mpx "
            + "(the frame budget); the one that went over has radius \(radius)")
      }
    }

    private static func naming(_ item: DisplayItem) -> String {
      item.id.map { " at node '\($0)'" } ?? ""
    }
  }
}
