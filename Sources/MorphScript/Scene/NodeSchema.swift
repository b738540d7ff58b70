import MorphCore

/// The node format, declared once. `Lua/nodes.lua` builds records with these
/// fields (`{ op = "frame", width = 10, alignment = "top" }`), `SceneReader`
/// reads them by key, and the tests check the LuaLS meta file against this
/// table. Enum names come from the MorphCore types that own them and reach
/// Lua at start-up (`push`), so no Lua file lists one.
enum NodeSchema {
  /// A set of names Lua accepts for a Swift enum; `name` is its LuaLS alias
  /// (`morph.BlendMode`).
  struct Enumeration: Equatable, Sendable {
    let name: String
    let cases: [String]

    init<T: CaseIterable & RawRepresentable>(_ name: String, _ type: T.Type)
    where T.RawValue == String {
      self.init(name, cases: type.allCases.map(\.rawValue))
    }

    init(_ name: String, cases: [String]) {
      self.name = name
      self.cases = cases
    }
  }

  static let anchor = Enumeration("Anchor", cases: Alignment.named.map(\.0))
  static let blendMode = Enumeration("BlendMode", BlendMode.self)
  static let fontWeight = Enumeration("FontWeight", FontWeight.self)
  static let lineCap = Enumeration("LineCap", LineCap.self)
  static let lineJoin = Enumeration("LineJoin", LineJoin.self)
  static let cornerStyle = Enumeration("CornerStyle", CornerStyle.self)
  static let textStyle = Enumeration("TextStyle", TextStyle.self)
  static let textTruncation = Enumeration("TextTruncation", TextTruncation.self)
  static let textAlignment = Enumeration("TextAlignment", TextAlignment.self)
  static let contentMode = Enumeration("ContentMode", ContentMode.self)
  static let interpolation = Enumeration("Interpolation", ImageInterpolation.self)
  static let edge = Enumeration("Edge", Edge.self)
  static let redactionReason = Enumeration("RedactionReason", RedactionReason.self)
  static let enumerations = [
    anchor, blendMode, fontWeight, lineCap, lineJoin, cornerStyle, textStyle, textTruncation,
    textAlignment, contentMode, interpolation, edge, redactionReason,
  ]

  /// What a field holds. The reader reads by it; the meta test maps it to a
  /// LuaLS type.
  enum Kind: Equatable, Sendable {
    /// A finite number.
    case number
    /// A finite number >= 0.
    case length
    /// A number >= 0 that may be `math.huge` (a frame's min and max sizes).
    case extent
    /// An anchor name or a unit point `{x, y}`.
    case anchor
    /// A `morph.Color` or a `morph.Gradient`.
    case paint
    case color
    case node
    /// A node whose op is a shape.
    case shape
    case path
    case string
    case boolean
    /// A function (a handler, or a shape's path function).
    case handler
    /// A `morph.Image` handle made by `morph.image`.
    case image
    /// An array of lengths (a dash pattern).
    case lengths
    /// A non-zero `{x, y, z}` of finite numbers.
    case vector
    /// An array of nodes.
    case children
    /// An array of `{colour, location}` pairs.
    case stops
    /// Colours or gradient stops given to `linearGradient`.
    case paints
    /// One name of an enumeration.
    case choice(Enumeration)
    /// `true` or `false`.
    case flag
    /// A whole number >= 1.
    case count
    /// A font size in points: finite, >= 0 and at most the frame budget's largest.
    case fontSize
    /// One side of a transition: an array of effects, each
    /// `{kind = "opacity" | "scale" | "offset" | "move", …}` (`ViewTransition`).
    case effects
    /// `count` finite numbers in a row (an affine or a projective matrix).
    case matrix(Int)

    /// The same kind, choices of any enumeration alike: cheaper than `==`,
    /// which the reader would pay for on every field of every frame.
    func matches(_ other: Kind) -> Bool {
      switch (self, other) {
      case (.choice, .choice): return true
      case (.choice, _), (_, .choice): return false
      default: return self == other
      }
    }

    /// What a tampered tree's message says a field must hold.
    var expectation: String {
      switch self {
      case .number: return "finite number"
      case .length: return "finite number >= 0"
      case .extent: return "number >= 0"
      case .anchor: return "anchor name or unit point {x, y}"
      case .paint: return "colour or gradient"
      case .color: return "colour"
      case .node: return "node"
      case .shape: return "shape node"
      case .path: return "morph.Path with finite points"
      case .string: return "string"
      case .boolean: return "boolean"
      case .handler: return "function"
      case .image: return "image from morph.image"
      case .lengths: return "array of lengths >= 0"
      case .vector: return "non-zero {x, y, z}"
      case .children: return "array of nodes"
      case .stops: return "array of {colour, location}"
      case .paints: return "array of colours"
      case .choice(let e): return "one of '" + e.cases.joined(separator: "', '") + "'"
      case .flag: return "boolean"
      case .count: return "whole number >= 1"
      case .fontSize: return "font size in [0, \(Int(FrameBudget.standard.maxFontSize))] pt"
      case .effects: return "array of transition effects"
      case .matrix(let n): return "array of \(n) finite numbers"
      }
    }

    /// How the meta file types a value of the kind.
    var luaType: String {
      switch self {
      case .number, .length, .extent, .fontSize: return "number"
      case .anchor: return "morph.Anchor"
      case .paint: return "morph.Paint"
      case .color: return "morph.Color|string"
      case .node, .shape: return "morph.Node"
      case .path: return "morph.Path"
      case .string: return "string"
      case .boolean: return "boolean"
      case .handler: return "function"
      case .image: return "morph.Image"
      case .lengths, .vector: return "number[]"
      case .children: return "morph.Node[]"
      case .stops: return "table[]"
      case .paints: return "morph.Paint[]"
      case .choice(let e): return "morph." + e.name
      case .flag: return "boolean"
      case .count: return "integer"
      case .effects: return "table[]"
      case .matrix: return "number[]"
      }
    }
  }

  /// What an absent optional field means: the value the reader uses (of the
  /// Swift type the field's accessor returns) and how the meta file writes it.
  /// The one place a modifier's default is stated; where a MorphCore type owns
  /// the value (`Stroke`, `Shadow`), this reads it from there.
  struct Default: @unchecked Sendable {
    let value: Any
    let text: String

    static func number(_ v: Double) -> Default { Default(value: v, text: MetaFile.format(v)) }
    static func anchor(_ name: String) -> Default {
      Default(value: Alignment.named.first { $0.0 == name }!.1, text: "\"\(name)\"")
    }
    static func choice<T: RawRepresentable>(_ v: T) -> Default where T.RawValue == String {
      Default(value: v, text: "\"\(v.rawValue)\"")
    }
    static func flag(_ v: Bool) -> Default { Default(value: v, text: String(v)) }
    static func color(_ v: Color) -> Default { Default(value: v, text: v.name) }
    static func paint(_ v: Color) -> Default { Default(value: Paint.color(v), text: v.name) }
    static func vector(_ v: Vector3) -> Default {
      Default(
        value: v,
        text: "{\(MetaFile.format(v.x)), \(MetaFile.format(v.y)), \(MetaFile.format(v.z))}")
    }
  }

  /// Unchecked: `key` is immutable and never freed.
  struct Field: @unchecked Sendable {
    let name: String
    let kind: Kind
    let optional: Bool
    /// What the reader returns when the field is absent (nil: absent stays nil).
    let defaultValue: Default?
    /// `name` as a C string made once: the reader looks fields up with it on
    /// every frame, and Lua's string cache knows a pointer it has seen.
    let key: UnsafePointer<CChar>

    init(_ name: String, _ kind: Kind, optional: Bool = false, default defaultValue: Default? = nil)
    {
      self.name = name
      self.kind = kind
      self.optional = optional || defaultValue != nil
      self.defaultValue = defaultValue
      let utf8 = Array(name.utf8CString)
      let key = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
      key.initialize(from: utf8, count: utf8.count)
      self.key = UnsafePointer(key)
    }
  }

  /// What a record makes.
  enum Role: Sendable {
    /// `morph.NAME(…)` returning a node.
    case node
    /// `morph.NAME(…)` returning a shape node (usable with `clip`).
    case shape
    /// `node:NAME(…)` appending to the node's `mods`.
    case modifier
    /// `morph.NAME(…)` returning a paint.
    case paint
  }

  /// A class, so a record being read holds one reference, not four arrays.
  final class Op: Sendable {
    /// The Lua function's name, also the record's `op`.
    let name: String
    let role: Role
    /// The Lua function's LuaLS annotation lines without `---` (prose, then
    /// `@param` and `@return`): its doc and signature, from which `MetaFile`
    /// writes its declaration. Nil fails the meta test, naming the op.
    let doc: String?
    /// The keys of its option table, in the order messages list them.
    let options: [Field]
    /// The record's fields, read by key.
    let fields: [Field]

    init(
      _ name: String, _ role: Role, doc: String? = nil, options: [Field] = [],
      fields: [Field] = []
    ) {
      self.name = name
      self.role = role
      self.doc = doc
      self.options = options
      self.fields = fields
    }

    func field(_ name: String) -> Field? { fields.first { $0.name == name } }
  }

  private static func opt(_ name: String, _ kind: Kind, default value: Default? = nil) -> Field {
    Field(name, kind, optional: true, default: value)
  }

  private static let center = Default.anchor("center")

  private static let stackOptions = [
    opt("alignment", .anchor, default: center), opt("spacing", .length),
  ]
  private static let stackFields = [Field("children", .children)] + stackOptions
  /// SwiftUI's text modifiers, as options of `text` (and `measureText`).
  private static let textOptions = [
    opt("size", .fontSize), opt("weight", .choice(fontWeight)),
    opt("color", .paint, default: .paint(.black)),
    opt("style", .choice(textStyle)), opt("italic", .flag, default: .flag(false)),
    opt("monospacedDigit", .flag, default: .flag(false)),
    // No default: an absent tracking falls back to kerning (UIKit's rule), then 0.
    opt("tracking", .number), opt("kerning", .number),
    opt("lineSpacing", .length, default: .number(0)), opt("lineLimit", .count),
    opt("truncation", .choice(textTruncation), default: .choice(TextTruncation.tail)),
    opt("alignment", .choice(textAlignment), default: .choice(TextAlignment.leading)),
  ]
  private static let placed = [Field("node", .node), opt("alignment", .anchor, default: center)]
  private static let stopOptions = [opt("colors", .paints), opt("stops", .stops)]

  static let ops: [Op] =
    [
      Op(
        "rect", .shape,
        doc: """
          @return morph.Node
          """),
      Op(
        "circle", .shape,
        doc: """
          @return morph.Node
          """),
      Op(
        "ellipse", .shape,
        doc: """
          @return morph.Node
          """),
      Op(
        "capsule", .shape,
        doc: """
          @return morph.Node
          """),
      Op(
        "roundedRect", .shape,
        doc: """
          `roundedRect(r [, style])` or `roundedRect{r =, style =}`; style "continuous" (default) or "circular".
          @param r number|morph.RoundedRectOptions
          @param style? morph.CornerStyle
          @return morph.Node
          """,
        options: [opt("r", .length), opt("radius", .length), cornerStyleField],
        fields: [Field("radius", .length), cornerStyleField]),
      Op(
        "shape", .shape,
        doc: """
          A custom outline: a path drawn in the frame's coordinates as given, or a function
          called with the frame layout gives the shape (`{x = 0, y = 0, width =, height =}`)
          that returns its path (SwiftUI's `Shape.path(in:)`), so the shape fills its frame.
          @param path morph.Path|fun(rect: morph.Rect): morph.Path
          @return morph.Node
          """,
        fields: [opt("path", .path), opt("resolve", .handler)]),
      Op(
        "image", .node,
        doc: """
          A PNG file in the plugin's folder (a relative path, no `..`, no link leading out),
          decoded once and reloaded when the file changes: `image("icon.png", {resizable = true,
          contentMode = "fit"})`.
          @param name string
          @param options? morph.ImageOptions
          @return morph.Node
          """,
        options: imageOptions, fields: [Field("source", .image)] + imageOptions),
      Op(
        "text", .node,
        doc: """
          Text, laid out like SwiftUI's `Text`: its ideal width when it fits, else wrapped at the
          width offered (`"\\n"` breaks a line); as many lines as the height offered and `lineLimit`
          allow. Inter, with Noto Sans CJK and Noto Color Emoji for what Inter lacks:
          `text("Red", {style = "largeTitle", weight = "bold", color = "#FFFFFF"})`.
          @param s string|number
          @param options? morph.TextOptions
          @return morph.Node
          """, options: textOptions,
        fields: [Field("text", .string)] + textOptions),
      Op(
        "empty", .node,
        doc: """
          Draws nothing, takes no space.
          @return morph.Node
          """),
      Op(
        "spacer", .node,
        doc: """
          Takes the space offered.
          @param minLength? number
          @return morph.Node
          """,
        fields: [opt("minLength", .length, default: .number(0))]),
      Op(
        "zstack", .node,
        doc: """
          Children drawn on top of each other; `alignment` (default centre).
          @param children morph.ZstackOptions
          @return morph.Node
          """, options: stackOptions, fields: stackFields),
      Op(
        "vstack", .node,
        doc: """
          @param children morph.VstackOptions
          @return morph.Node
          """, options: stackOptions, fields: stackFields),
      Op(
        "hstack", .node,
        doc: """
          @param children morph.HstackOptions
          @return morph.Node
          """, options: stackOptions, fields: stackFields),
      Op(
        "linearGradient", .paint,
        doc: """
          @param options morph.LinearGradientOptions
          @return morph.Gradient
          """,
        options: stopOptions + linearEnds, fields: [Field("stops", .stops)] + linearEnds),
      Op(
        "radialGradient", .paint,
        doc: """
          Circles about `center` (SwiftUI's `RadialGradient`), padded with the end colours.
          @param options morph.RadialGradientOptions
          @return morph.Gradient
          """,
        options: stopOptions + radialShape + [opt("endRadius", .length)],
        fields: [Field("stops", .stops)] + radialShape + [Field("endRadius", .length)]),
      Op(
        "angularGradient", .paint,
        doc: """
          A conic gradient about `center` (SwiftUI's `AngularGradient`): a span under 360° fills
          the rest with the last and first colours, meeting halfway.
          @param options morph.AngularGradientOptions
          @return morph.Gradient
          """,
        options: stopOptions + angularShape, fields: [Field("stops", .stops)] + angularShape),
    ] + modifiers

  private static let frameOptions = [
    opt("width", .length), opt("height", .length), opt("minWidth", .extent),
    opt("maxWidth", .extent), opt("minHeight", .extent), opt("maxHeight", .extent),
    opt("alignment", .anchor, default: center),
  ]
  private static let edges = ["top", "leading", "bottom", "trailing"]
  private static let cornerStyleField = opt(
    "style", .choice(cornerStyle), default: .choice(CornerStyle.continuous))
  private static let imageOptions = [
    opt("resizable", .boolean, default: .flag(false)), opt("contentMode", .choice(contentMode)),
    opt("interpolation", .choice(interpolation), default: .choice(ImageSpec.defaultInterpolation)),
  ]
  private static let linearEnds = [
    opt("from", .anchor, default: .anchor("top")), opt("to", .anchor, default: .anchor("bottom")),
  ]
  private static let radialShape = [
    opt("center", .anchor, default: center), opt("startRadius", .length, default: .number(0)),
  ]
  /// No default for `endAngle`: it is `startAngle + 360`, which the reader works out.
  private static let angularShape = [
    opt("center", .anchor, default: center), opt("startAngle", .number, default: .number(0)),
    opt("endAngle", .number),
  ]
  private static let rotate3dOptions = [
    opt("axis", .vector, default: .vector(Vector3(0, 1, 0))),
    opt("anchor", .anchor, default: center), opt("perspective", .length, default: .number(1)),
  ]
  /// `Stroke`'s own defaults; `dash` absent is a solid line.
  private static let plainStroke = Stroke(paint: .color(.black))
  private static let strokeOptions = [
    opt("color", .paint, default: .paint(plainStroke.paint.representativeColor)),
    opt("width", .length, default: .number(plainStroke.width)), opt("dash", .lengths),
    opt("dashPhase", .number, default: .number(plainStroke.dashPhase)),
    opt("cap", .choice(lineCap), default: .choice(plainStroke.cap)),
    opt("join", .choice(lineJoin), default: .choice(plainStroke.join)),
  ]
  private static let shadowOptions = [
    opt("color", .color, default: .color(Shadow.defaultColor)),
    opt("radius", .length, default: .number(0)), opt("x", .number, default: .number(0)),
    opt("y", .number, default: .number(0)),
  ]

  private static let modifiers: [Op] = [
    Op(
      "frame", .modifier,
      doc: """
        A fixed frame `frame(w, h [, alignment])` (either side may be nil), or a flexible one
        `frame{width=, height=, minWidth=, maxWidth = math.huge, minHeight=, maxHeight=, alignment=}`.
        @param width number|morph.FrameOptions|nil
        @param height? number
        @param alignment? morph.Anchor
        @return morph.Node
        """, options: frameOptions,
      fields: frameOptions),
    Op(
      "padding", .modifier,
      doc: """
        `padding()` (16), `padding(n)`, or `padding{top=, leading=, bottom=, trailing=, horizontal=, vertical=, all=}`.
        @param insets? number|morph.PaddingOptions
        @return morph.Node
        """,
      options: (edges + ["horizontal", "vertical", "all"]).map { opt($0, .number) },
      fields: edges.map { Field($0, .number) }),
    Op(
      "offset", .modifier,
      doc: """
        Moves the drawing, not the layout.
        @param x? number default 0
        @param y? number default 0
        @return morph.Node
        """,
      fields: [Field("x", .number), Field("y", .number)]),
    Op(
      "position", .modifier,
      doc: """
        Centres the view at (x, y) of its parent's space; it takes the space offered.
        @param x number
        @param y number
        @return morph.Node
        """,
      fields: [Field("x", .number), Field("y", .number)]),
    Op(
      "scale", .modifier,
      doc: """
        `scale(s [, anchor])` or `scale(x, y [, anchor])`; the anchor is a unit point of the layout frame.
        @param x number
        @param y? number|morph.Anchor
        @param anchor? morph.Anchor
        @return morph.Node
        """,
      fields: [Field("x", .number), Field("y", .number), opt("anchor", .anchor, default: center)]),
    Op(
      "rotate", .modifier,
      doc: """
        Clockwise degrees about an anchor of the layout frame (default centre).
        @param degrees number
        @param anchor? morph.Anchor
        @return morph.Node
        """,
      fields: [Field("degrees", .number), opt("anchor", .anchor, default: center)]),
    Op(
      "rotate3d", .modifier,
      doc: """
        SwiftUI `rotation3DEffect`: true perspective, `d = max(w, h) / perspective`.
        @param degrees number
        @param options? morph.Rotate3dOptions
        @return morph.Node
        """,
      options: rotate3dOptions, fields: [Field("degrees", .number)] + rotate3dOptions),
    Op(
      "opacity", .modifier,
      doc: """
        Multiplies opacity (per shape, or for the whole group after `group()`).
        @param alpha number
        @return morph.Node
        """, fields: [Field("alpha", .number)]),
    Op(
      "fill", .modifier,
      doc: """
        @param paint morph.Paint
        @return morph.Node
        """, fields: [Field("paint", .paint)]),
    Op(
      "stroke", .modifier,
      doc: """
        `stroke(color [, width])` or `stroke{color=, width=, dash = {4, 3}, dashPhase=, cap=, join=}`.
        @param color? morph.Paint|morph.StrokeOptions
        @param width? number
        @return morph.Node
        """,
      options: strokeOptions, fields: strokeOptions),
    Op(
      "strokeBorder", .modifier,
      doc: """
        SwiftUI's `strokeBorder`: the stroke inside the shape's frame, its outline inset by
        half the width (rect, roundedRect, circle, ellipse and capsule, SwiftUI's
        `InsettableShape`s; a path shape takes `stroke`). Arguments as `stroke`'s.
        @param color? morph.Paint|morph.StrokeBorderOptions
        @param width? number
        @return morph.Node
        """,
      options: strokeOptions, fields: strokeOptions),
    Op(
      "transformEffect", .modifier,
      doc: """
        SwiftUI's `transformEffect(_:)`: a `CGAffineTransform` `{a, b, c, d, tx, ty}` (or with
        those names) applied to the drawing about the view's origin, its top-leading corner:
        a point (x, y) goes to (a·x + c·y + tx, b·x + d·y + ty). `{1, 0, 0.5, 1, 0, 0}` skews.
        Layout is untouched. With a body that reads animated state it is `GeometryEffect`.
        @param matrix number[]|{a: number, b: number, c: number, d: number, tx: number, ty: number}
        @return morph.Node
        """,
      fields: [Field("matrix", .matrix(6))]),
    Op(
      "projectionEffect", .modifier,
      doc: """
        SwiftUI's `projectionEffect(_:)`: a `ProjectionTransform` `{m11, m12, m13, m21, m22,
        m23, m31, m32, m33}` (or with those names), row vectors as Core Animation's, about the
        view's origin: (x, y) goes to ((m11·x + m21·y + m31) / w, (m12·x + m22·y + m32) / w)
        with w = m13·x + m23·y + m33.
        @param matrix number[]|table
        @return morph.Node
        """,
      fields: [Field("matrix", .matrix(9))]),
    Op(
      "redacted", .modifier,
      doc: """
        SwiftUI's `redacted(reason: .placeholder)`: every text inside draws as a rounded bar
        per line and every image as a rounded box, in their colour faded (black for images).
        @param reason? morph.RedactionReason the only reason, and the default
        @return morph.Node
        """,
      fields: [
        opt("reason", .choice(redactionReason), default: .choice(RedactionReason.placeholder))
      ]),
    Op(
      "shadow", .modifier,
      doc: """
        A Gaussian shadow (σ ≈ radius).
        @param options morph.ShadowOptions
        @return morph.Node
        """,
      options: shadowOptions, fields: shadowOptions),
    Op(
      "clip", .modifier,
      doc: """
        Clips to a shape node (default a rectangle) laid in this frame: any shape, a
        `morph.shape(function(rect) … end)` too.
        @param shape? morph.Node
        @return morph.Node
        """, fields: [Field("shape", .shape)]),
    Op(
      "trim", .modifier,
      doc: """
        Draws only part of a shape's outline (SwiftUI's `trim(from:to:)`): fractions of its
        arc length from the shape's start point (rect: top-left corner; roundedRect, capsule:
        where the top-left corner meets the top edge; circle, ellipse: the rightmost point;
        all clockwise on screen), clamped to 0…1; `from >= to` draws nothing. Shape nodes only.
        @param from? number default 0
        @param to? number default 1
        @return morph.Node
        """,
      fields: [opt("from", .number, default: .number(0)), opt("to", .number, default: .number(1))]),
    Op(
      "blur", .modifier,
      doc: """
        A Gaussian blur of the node as drawn (SwiftUI's `blur(radius:)`): σ = radius points,
        as shadows; it spreads 3σ past the node. Charged to the frame's blur budget.
        @param radius number
        @return morph.Node
        """, fields: [Field("radius", .length)]),
    Op(
      "mask", .modifier,
      doc: """
        Keeps the node only where `node` is opaque (SwiftUI's `mask`): `node` is laid out in
        this node's frame like an overlay, and its alpha multiplies this node's. Modifiers
        written before `mask` are masked; those after apply to the masked result.
        @param node morph.Node|morph.Paint
        @param alignment? morph.Anchor
        @return morph.Node
        """, fields: placed),
    Op(
      "blend", .modifier,
      doc: """
        @param mode morph.BlendMode
        @return morph.Node
        """, fields: [Field("mode", .choice(blendMode))]),
    Op(
      "group", .modifier,
      doc: """
        SwiftUI `compositingGroup()`: draws into its own layer; `destinationOut` inside erases only it.
        @return morph.Node
        """),
    Op(
      "z", .modifier,
      doc: """
        zIndex among siblings (default 0; ties keep written order).
        @param index number
        @return morph.Node
        """, fields: [Field("index", .number)]),
    Op(
      "id", .modifier,
      doc: """
        A stable name for tools, tests and the JSON dump.
        @param name string
        @return morph.Node
        """, fields: [Field("name", .string)]),
    Op(
      "transition", .modifier,
      doc: """
        SwiftUI's `.transition(_:)`: how this node (it needs an `:id`; a stack's child, the
        root, or an overlay's or background's view) enters and leaves the tree when a handler
        changes state under `self:animate`/`self:play` (without an animation, at once). A
        removed node keeps drawing at its last frame, taking no space, until its removal
        ends; its stack's other children glide to make or close its room. docs/design.md,
        Transitions.
        @param t morph.Transition
        @return morph.Node
        """,
      fields: [Field("insertion", .effects), Field("removal", .effects)]),
    Op(
      "matchedGeometry", .modifier,
      doc: """
        SwiftUI's `.matchedGeometryEffect(id:in:)` (`properties: .frame`, the source): when
        the node with this id and namespace is laid out at another frame than in the last
        frame (elsewhere in the tree, or resized) after a handler changes state under
        `self:animate`/`self:play`, it glides from the frame it was shown at to the new one
        on the transaction's curve; without an animation it jumps. The first node of a key
        in a body is matched. docs/design.md, Matched geometry.
        @param id string|number
        @param namespace? string
        @return morph.Node
        """,
      fields: [Field("name", .string), Field("namespace", .string)]),
    Op(
      "overlay", .modifier,
      doc: """
        @param node morph.Node|morph.Paint
        @param alignment? morph.Anchor
        @return morph.Node
        """, fields: placed),
    Op(
      "background", .modifier,
      doc: """
        @param node morph.Node|morph.Paint
        @param alignment? morph.Anchor
        @return morph.Node
        """, fields: placed),
    Op(
      "onTap", .modifier,
      doc: """
        @param handler fun(self: table, event: table)
        @return morph.Node
        """, fields: [Field("handler", .handler)]),
    Op(
      "onDrag", .modifier,
      doc: """
        @param handler fun(self: table, event: table)
        @return morph.Node
        """, fields: [Field("handler", .handler)]),
    Op(
      "onLongPress", .modifier,
      doc: """
        A press held 0.5 s within 10 pt over this node (SwiftUI's `onLongPressGesture`
        defaults), reported while still down; its release is no tap.
        @param handler fun(self: table, event: table)
        @return morph.Node
        """, fields: [Field("handler", .handler)]),
    Op(
      "onDoubleTap", .modifier,
      doc: """
        A second tap within 0.35 s of a first over this node (`onTapGesture(count: 2)`);
        the first was a tap.
        @param handler fun(self: table, event: table)
        @return morph.Node
        """, fields: [Field("handler", .handler)]),
    Op(
      "onAppear", .modifier,
      doc: """
        SwiftUI's `.onAppear`: runs `handler(self)` when this node first shows (the first
        body, or a later body that inserts it), after that body and before the frame is
        drawn, as a handler does (`self:animate` in it animates). A node is the same from
        one body to the next by its `:id`, else by its place. docs/lua-api.md, Appear and
        disappear.
        @param handler fun(self: table)
        @return morph.Node
        """, fields: [Field("handler", .handler)]),
    Op(
      "onDisappear", .modifier,
      doc: """
        SwiftUI's `.onDisappear`: runs `handler(self)` when this node leaves the tree —
        after the body that removed it, or, when a transition removes it, once its removal
        has ended — and when the component is unloaded. docs/lua-api.md, Appear and
        disappear.
        @param handler fun(self: table)
        @return morph.Node
        """, fields: [Field("handler", .handler)]),
  ]

  /// The op at `index` of `ops` (1-based, as the Lua index table holds it).
  static func op(number index: Int) -> Op? {
    index >= 1 && index <= ops.count ? ops[index - 1] : nil
  }
}
