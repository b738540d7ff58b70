import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// The folder of the drawing fixtures (`tile.png`, 8 × 4 pixels).
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("MorphHostTests/Fixtures/drawing").path

/// Builds the node `code` returns and reads it into Swift. An image's version stamp
/// (the file's time) is left out.
private func readNode(_ code: String) throws -> SceneView {
  let state = try LuaState()
  state.moduleDirectory = fixtures
  let value = try state.evaluate(code, chunkName: "parity.lua").first ?? .nil
  var view = try state.readView(value, path: "parity.lua")
  if case .image(var spec) = view.root.content {
    spec.source.stamp = ""
    view.root.content = .image(spec)
  }
  return view
}

private func shape(_ spec: ShapeSpec, _ modifiers: [Modifier] = []) -> ViewNode {
  ViewNode(.shape(spec), modifiers: modifiers)
}

private func hex(_ s: String) -> Color { (try? Color.parse(s)) ?? .clear }

/// Every op of `NodeSchema` goes Lua → reader → display list once, with
/// values unlike the defaults, and arrives with each field where it belongs.
@Suite struct NodeParityTests {
  /// op → (Lua returning a node that uses it, the node the reader must make).
  static let cases: [String: (String, ViewNode)] = {
    var path = Path()
    path.move(to: Point(0, 0))
    path.line(to: Point(4, 2))
    let rect = "return morph.rect()"
    return [
      "rect": (rect, shape(.rect)),
      "circle": ("return morph.circle()", shape(.circle)),
      "ellipse": ("return morph.ellipse()", shape(.ellipse)),
      "capsule": ("return morph.capsule()", shape(.capsule)),
      "roundedRect": (
        "return morph.roundedRect{ radius = 7, style = 'circular' }",
        shape(.roundedRect(radius: 7, style: .circular))
      ),
      "shape": (
        "return morph.shape(morph.path(function(p) p:move(0, 0):line(4, 2) end))",
        shape(.path(path))
      ),
      "text": (
        "return morph.text('Hi', { size = 21, weight = 'bold', color = '#FF0000' })",
        ViewNode(.text(TextRun(string: "Hi", size: 21, weight: .bold, color: hex("#FF0000"))))
      ),
      "empty": ("return morph.empty()", ViewNode(.empty)),
      "spacer": ("return morph.spacer(8)", ViewNode(.spacer(minLength: 8))),
      "zstack": (
        "return morph.zstack{ alignment = 'top', morph.rect() }",
        ViewNode(.stack(.z, spacing: nil, alignment: .top, children: [shape(.rect)]))
      ),
      "vstack": (
        "return morph.vstack{ spacing = 3, morph.rect(), { morph.circle() } }",
        ViewNode(
          .stack(
            .vertical, spacing: 3, alignment: .center, children: [shape(.rect), shape(.circle)]))
      ),
      "hstack": (
        "return morph.hstack{ spacing = 4, alignment = 'bottomTrailing', morph.capsule() }",
        ViewNode(
          .stack(.horizontal, spacing: 4, alignment: .bottomTrailing, children: [shape(.capsule)]))
      ),
      "linearGradient": (
        "return morph.rect():fill(morph.linearGradient{ stops = {{'#000000', 0.2}, {'#FFFFFF', 0.9}}, "
          + "from = 'leading', to = {1, 0.25} })",
        shape(
          .rect,
          [
            .fill(
              .linearGradient(
                LinearGradient(
                  stops: [
                    .init(color: .black, location: 0.2), .init(color: .white, location: 0.9),
                  ],
                  start: Point(0, 0.5), end: Point(1, 0.25))))
          ])
      ),
    ].merging(modifierCases.mapValues { (rect + $0.0, shape(.rect, [$0.1])) }) { a, _ in a }
      .merging(drawingCases) { a, _ in a }
  }()

  /// The gradients and images, apart so the compiler checks the table in time.
  static let drawingCases: [String: (String, ViewNode)] = {
    let tile = ImageSource(
      path: URL(fileURLWithPath: fixtures + "/tile.png").resolvingSymlinksInPath().path,
      pixelWidth: 8, pixelHeight: 4, stamp: "")
    let stops: [GradientStop] = [
      .init(color: .black, location: 0.2), .init(color: .white, location: 0.9),
    ]
    let ends: [GradientStop] = [
      .init(color: .black, location: 0), .init(color: .white, location: 1),
    ]
    let radial = RadialGradient(
      stops: stops, center: Point(0.5, 0), startRadius: 3, endRadius: 30)
    let angular = AngularGradient(
      stops: ends, center: Point(0.25, 0.75), startAngle: -90, endAngle: 45)
    return [
      "image": (
        "return morph.image('tile.png', { resizable = true, contentMode = 'fill', interpolation = 'none' })",
        ViewNode(
          .image(
            ImageSpec(source: tile, resizable: true, contentMode: .fill, interpolation: .none)))
      ),
      "radialGradient": (
        "return morph.rect():fill(morph.radialGradient{ stops = {{'#000000', 0.2}, {'#FFFFFF', 0.9}}, "
          + "center = 'top', startRadius = 3, endRadius = 30 })",
        shape(.rect, [.fill(.radialGradient(radial))])
      ),
      "angularGradient": (
        "return morph.rect():fill(morph.angularGradient{ colors = {'#000000', '#FFFFFF'}, "
          + "center = {0.25, 0.75}, startAngle = -90, endAngle = 45 })",
        shape(.rect, [.fill(.angularGradient(angular))])
      ),
    ]
  }()

  /// op → (the modifier call on a rect, the modifier the reader must make).
  static let modifierCases: [String: (String, Modifier)] = [
    "frame": (
      ":frame{ width = 10, height = 20, minWidth = 1, maxWidth = math.huge, minHeight = 2, "
        + "maxHeight = 30, alignment = 'top' }",
      .frame(
        FrameSpec(
          width: 10, height: 20, minWidth: 1, maxWidth: .infinity, minHeight: 2, maxHeight: 30,
          alignment: .top))
    ),
    "padding": (
      ":padding{ top = 1, leading = 2, bottom = 3, trailing = 4 }",
      .padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))
    ),
    "offset": (":offset(3, -4)", .offset(Point(3, -4))),
    "position": (":position(5, 6)", .position(Point(5, 6))),
    "scale": (":scale(2, 3, 'topLeading')", .scale(x: 2, y: 3, anchor: .topLeading)),
    "rotate": (
      ":rotate(30, {0.25, 0.75})", .rotate(degrees: 30, anchor: Alignment(x: 0.25, y: 0.75))
    ),
    "rotate3d": (
      ":rotate3d(45, { axis = {1, 0, 0}, anchor = 'leading', perspective = 0.5 })",
      .rotate3D(degrees: 45, axis: Vector3(1, 0, 0), anchor: .leading, perspective: 0.5)
    ),
    "opacity": (":opacity(0.25)", .opacity(0.25)),
    "fill": (":fill('#00FF00')", .fill(.color(hex("#00FF00")))),
    "stroke": (
      ":stroke{ color = '#0000FF', width = 3, dash = {4, 2}, dashPhase = 1, cap = 'round', join = 'bevel' }",
      .stroke(
        Stroke(
          paint: .color(hex("#0000FF")), width: 3, dash: [4, 2], dashPhase: 1, cap: .round,
          join: .bevel))
    ),
    "strokeBorder": (
      ":strokeBorder('#0000FF', 3)",
      .strokeBorder(Stroke(paint: .color(hex("#0000FF")), width: 3))
    ),
    "transformEffect": (
      ":transformEffect{1, 0, 0.5, 1, 2, 3}",
      .transform(ProjectiveTransform(AffineTransform(a: 1, b: 0, c: 0.5, d: 1, tx: 2, ty: 3)))
    ),
    "projectionEffect": (
      ":projectionEffect{ m11 = 1, m12 = 2, m13 = 0.001, m21 = 3, m22 = 4, m23 = 0.002, m31 = 5, m32 = 6, m33 = 1 }",
      .transform(
        ProjectiveTransform(
          m11: 1, m12: 2, m13: 0.001, m21: 3, m22: 4, m23: 0.002, m31: 5, m32: 6, m33: 1))
    ),
    "redacted": (":redacted('placeholder')", .redacted),
    "shadow": (
      ":shadow{ color = '#FF000080', radius = 5, x = 1, y = 2 }",
      .shadow(Shadow(color: hex("#FF000080"), radius: 5, offset: Point(1, 2)))
    ),
    "clip": (":clip(morph.capsule())", .clip(.capsule)),
    "blur": (":blur(6)", .blur(6)),
    "trim": (":trim(0.25, 0.75)", .trim(Trim(from: 0.25, to: 0.75))),
    "mask": (":mask(morph.circle(), 'top')", .mask(shape(.circle), .top)),
    "blend": (":blend('multiply')", .blend(.multiply)),
    "group": (":group()", .compositingGroup),
    "z": (":z(3)", .zIndex(3)),
    "id": (":id('card')", .id("card")),
    "transition": (
      ":transition(morph.transition.asymmetric(morph.transition.scale(0.5, 'top'),"
        + " morph.transition.push('leading'):combined(morph.transition.offset(3, 4))))",
      .transition(
        ViewTransition(
          insertion: [.scale(0.5, anchor: .top)],
          removal: [.move(.trailing), .opacity, .offset(Point(3, 4))]))
    ),
    "matchedGeometry": (
      ":matchedGeometry(2, 'tabs')",
      .matchedGeometry(MatchedGeometryKey(id: "2", namespace: "tabs"))
    ),
    "overlay": (":overlay(morph.circle(), 'top')", .overlay(shape(.circle), .top)),
    "background": (
      ":background('#FFFFFF', 'bottom')",
      .background(shape(.rect, [.fill(.color(.white))]), .bottom)
    ),
    "onTap": (":onTap(function() end)", .handlers(Handlers(tap: 0))),
    "onDrag": (":onDrag(function() end)", .handlers(Handlers(drag: 0))),
    "onLongPress": (":onLongPress(function() end)", .handlers(Handlers(longPress: 0))),
    "onDoubleTap": (":onDoubleTap(function() end)", .handlers(Handlers(doubleTap: 0))),
    "onAppear": (":onAppear(function() end)", .lifecycle(LifecycleHooks(appear: 0))),
    "onDisappear": (":onDisappear(function() end)", .lifecycle(LifecycleHooks(disappear: 0))),
  ]

  @Test func everyOpOfTheSchemaHasACase() {
    #expect(Set(Self.cases.keys) == Set(NodeSchema.ops.map(\.name)))
  }

  @Test(arguments: NodeSchema.ops.map(\.name))
  func opArrivesWithItsFields(_ op: String) throws {
    let (code, expected) = try #require(Self.cases[op])
    let view = try readNode(code)
    #expect(view.root == expected, "\(code)")
    let list = try DisplayListBuilder().build(view.root, canvas: Size(100, 100))
    #expect(!list.items.isEmpty || op == "empty" || op == "spacer", "\(op) draws nothing")
  }

  @Test func omittedFieldsTakeTheSwiftDefaults() throws {
    #expect(
      try readNode("return morph.text('x')").root
        == ViewNode(.text(TextRun(string: "x", size: TextRun.defaultSize, color: .black))))
    #expect(
      try readNode("return morph.roundedRect(4)").root
        == shape(.roundedRect(radius: 4, style: .continuous)))
    #expect(
      try readNode("return morph.rect():stroke()").root
        == shape(.rect, [.stroke(Stroke(paint: .color(.black)))]))
    #expect(
      try readNode("return morph.rect():shadow{}").root
        == shape(.rect, [.shadow(Shadow(radius: 0))]))
    #expect(
      try readNode("return morph.rect():rotate3d(10):scale(2):frame(5)").root
        == shape(
          .rect,
          [
            .rotate3D(degrees: 10, axis: Vector3(0, 1, 0), anchor: .center, perspective: 1),
            .scale(x: 2, y: 2, anchor: .center), .frame(FrameSpec(width: 5)),
          ]))
  }

  /// `shape(function(rect))` is called with the frame layout gives it, in an HStack
  /// beside fixed shapes, and its path lands in that frame.
  @Test func shapeFunctionsGetTheirFrame() throws {
    let state = try LuaState()
    let code = """
      return morph.hstack { spacing = 0,
        morph.rect():frame(20, 10),
        morph.shape(function(r)
          return morph.paths.rect(r.x, r.y, r.width, r.height)
        end):id("custom"),
      }:frame(100, 30)
      """
    let view = try state.readView(try state.evaluate(code, chunkName: "s.lua")[0], path: "s.lua")
    let list = try DisplayListBuilder().build(view.root, canvas: Size(100, 30))
    let custom = try #require(list.items.first { $0.id == "custom" })
    #expect(custom.frame == Rect(x: 0, y: 0, width: 80, height: 30))
    #expect(custom.path.bounds == custom.frame)
    #expect(custom.quad.first == Point(20, 0))
  }
}
