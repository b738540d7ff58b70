import Foundation
import MorphCore
import MorphRender
import Testing

/// The JSON dump is the display list's whole model: every stored field of every command,
/// deterministic, and JSON that parses.
@Suite struct SceneJSONTests {
  static let square = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
  static let frame = Rect(x: 0, y: 0, width: 10, height: 10)
  static let stops = [
    GradientStop(color: .black, location: 0), GradientStop(color: .white, location: 1),
  ]

  static func text(_ commands: [DisplayCommand], summary: SceneSummary? = nil) -> String {
    SceneJSON.encode(
      DisplayList(canvas: Size(100, 100), commands: commands),
      summary: summary ?? SceneSummary(name: "t", progress: nil))
  }

  static func dump(_ commands: [DisplayCommand], summary: SceneSummary? = nil) throws
    -> [String: Any]
  {
    let text = text(commands, summary: summary)
    return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// The item of each `{"item": …}` command, in order.
  static func items(_ json: [String: Any]) throws -> [[String: Any]] {
    let commands = try #require(json["commands"] as? [Any])
    return commands.compactMap { ($0 as? [String: Any])?["item"] as? [String: Any] }
  }

  /// The names of a value's stored properties: what its encoding must carry.
  static func fields(_ value: Any) -> Set<String> {
    Set(Mirror(reflecting: value).children.compactMap(\.label))
  }

  /// An item with every field away from its default.
  static var everything: DisplayItem {
    var text = TextRun(string: "Hi", size: 12, weight: .bold, color: .black)
    text.italic = true
    text.monospacedDigit = true
    text.tracking = 1
    text.lineLimit = 2
    text.truncation = .middle
    text.alignment = .center
    text.lineSpacing = 3
    return DisplayItem(
      id: "a", kind: .path, path: square, frame: frame,
      transform: ProjectiveTransform(.translation(5, 6)), opacity: 0.5,
      fill: .linearGradient(LinearGradient(stops: stops, start: .zero, end: Point(1, 1))),
      stroke: Stroke(paint: .color(.black), width: 2, dash: [3, 1], dashPhase: 1, cap: .round),
      trim: Trim(from: 0, to: 0.5), shadow: Shadow(radius: 4, offset: Point(0, 2)),
      clips: [Clip(path: square, transform: .identity)], blend: .multiply, z: 2, text: text,
      handlers: Handlers(tap: 1, drag: 2), identity: "/0#a", untrimmedPath: square)
  }

  @Test func everyStoredFieldIsInTheDump() throws {
    let item = Self.everything
    let group = GroupStyle(
      opacity: 0.5, blend: .screen, shadow: Shadow(radius: 2),
      clips: [Clip(path: Self.square, transform: .identity)], blur: 3,
      masks: [[.item(DisplayItem(kind: .rect, path: Self.square, frame: .zero))]])
    let json = try Self.dump([.beginGroup(group), .item(item), .endGroup])
    let commands = try #require(json["commands"] as? [Any])
    #expect(commands.count == 3)
    #expect(commands[2] as? String == "endGroup")
    let begin = try #require((commands[0] as? [String: Any])?["beginGroup"] as? [String: Any])
    #expect(Set(begin.keys) == Self.fields(group))
    let a = try #require(try Self.items(json).first)
    #expect(Set(a.keys) == Self.fields(item))
    #expect(a["identity"] as? String == "/0#a")
    let textRun = try #require(a["text"] as? [String: Any])
    #expect(Set(textRun.keys) == Self.fields(try #require(item.text)))
    let stroke = try #require(a["stroke"] as? [String: Any])
    #expect(Set(stroke.keys) == Self.fields(try #require(item.stroke)))
    #expect(stroke["dash"] as? [Double] == [3, 1] && stroke["cap"] as? String == "round")
    let linear = try #require((a["fill"] as? [String: Any])?["linearGradient"] as? [String: Any])
    #expect((linear["stops"] as? [[Any]])?.first?.first as? String == "#000000FF")
    #expect(a["transform"] as? [Double] == [1, 0, 0, 0, 1, 0, 5, 6, 1])
    #expect(a["trim"] as? [Double] == [0, 0.5])
    #expect(a["handlers"] as? [String] == ["tap", "drag"])
    #expect((a["shadow"] as? [String: Any])?["color"] as? String == "#00000054")
    #expect((begin["masks"] as? [[Any]])?.first?.count == 1)
  }

  @Test func everyPaintHasItsForm() throws {
    let paints: [Paint] = [
      .color(.white),
      .radialGradient(
        RadialGradient(stops: Self.stops, center: Point(0.5, 0.5), startRadius: 0, endRadius: 5)),
      .angularGradient(
        AngularGradient(stops: Self.stops, center: .zero, startAngle: 0, endAngle: 90)),
      .image(
        ImagePaint(
          source: ImageSource(
            path: "/some/where/dot.png", pixelWidth: 4, pixelHeight: 2,
            stamp: "machine specific"),
          interpolation: .none)),
    ]
    let json = try Self.dump(
      paints.map { .item(DisplayItem(kind: .rect, path: Self.square, frame: Self.frame, fill: $0)) }
    )
    let fills = try Self.items(json).map { $0["fill"] }
    #expect(fills[0] as? String == "#FFFFFFFF")
    #expect((fills[1] as? [String: Any])?["radialGradient"] != nil)
    #expect((fills[2] as? [String: Any])?["angularGradient"] != nil)
    let image = try #require((fills[3] as? [String: Any])?["image"] as? [String: Any])
    let source = try #require(image["source"] as? [String: Any])
    // The file's name, not this machine's folder or stamp.
    #expect(source["file"] as? String == "dot.png" && source.count == 3)
    #expect(image["interpolation"] as? String == "none")
  }

  /// Defaults are left out: a plain rectangle carries its kind, outline, frame and fill.
  @Test func aPlainItemHasOnlyTheCoreFields() throws {
    let json = try Self.dump([
      .item(DisplayItem(kind: .rect, path: Self.square, frame: Self.frame, fill: .color(.black)))
    ])
    let node = try #require(try Self.items(json).first)
    #expect(Set(node.keys) == ["kind", "path", "frame", "fill"])
    #expect(Set(json.keys) == ["name", "canvas", "commands"])
  }

  /// Numbers past a Double's thousandths (a hostile `:offset(5e307, 0)`) stay valid JSON
  /// numbers: no `inf` from the rounding, no trailing dot; NaN and inf are null.
  @Test(arguments: [
    (5e307, "5e+307"), (-5e307, "-5e+307"), (1e300, "1e+300"), (1e15, "1000000000000000.0"),
    (2.5, "2.5"), (-0.0001, "0"),
    (Double.infinity, "null"), (Double.nan, "null"),
  ])
  func hugeNumbersAreJSONNumbers(value: Double, written: String) throws {
    #expect(SceneJSON.number(value) == written)
    if abs(value) >= 1e15, value.isFinite {
      let parsed =
        try JSONSerialization.jsonObject(
          with: Data("[\(written)]".utf8)) as? [Double]
      #expect(parsed?.first.map { $0 == value } == true)
    }
  }

  /// Keys sorted, numbers to 3 decimals without -0, one command a line.
  @Test func theTextIsDeterministic() {
    let item = DisplayItem(
      kind: .rect, path: Path(), frame: Rect(x: -0.0001, y: 1 / 3, width: 2, height: 1e-9))
    let summary = SceneSummary(
      name: "q\"\n", progress: 0.5, accessibility: Accessibility(label: "L", traits: ["button"]))
    let text = Self.text([.item(item), .item(item)], summary: summary)
    #expect(
      text == """
        {
          "accessibility": {"label": "L", "traits": ["button"]},
          "canvas": {"height": 100, "width": 100},
          "commands": [
            {"item": {"frame": {"height": 0, "width": 2, "x": 0, "y": 0.333}, "kind": "rect"}},
            {"item": {"frame": {"height": 0, "width": 2, "x": 0, "y": 0.333}, "kind": "rect"}}
          ],
          "name": "q\\"\\n",
          "progress": 0.5
        }

        """)
  }

  /// A transform's entries and a gradient's unit points keep every digit: a perspective
  /// term of 0.0005 would round to 0.001 or 0 and move a corner by points.
  @Test func transformsAndGradientPointsReadBackExactly() throws {
    let transform = ProjectiveTransform(
      m11: 0.9793, m12: 0.33127, m13: 0.0005, m21: 1e-7, m22: 0.97412, m23: -0.00049,
      m31: 106.27741, m32: 39.38, m33: 0.74711)
    var item = DisplayItem(
      kind: .rect, path: Path(), frame: Rect(x: 0, y: 0, width: 220, height: 140))
    item.transform = transform
    let start = Point(1 / 3, 0.12345678)
    item.fill = .linearGradient(
      LinearGradient(stops: [], start: start, end: Point(0.9999, 2 / 3)))
    let json = try Self.dump([.item(item)])
    let read = try #require(Self.items(json).first)
    let m = try #require(read["transform"] as? [Double])
    #expect(
      m == [
        transform.m11, transform.m12, transform.m13, transform.m21, transform.m22,
        transform.m23, transform.m31, transform.m32, transform.m33,
      ])
    let fill = try #require(read["fill"] as? [String: Any])
    let gradient = try #require(fill["linearGradient"] as? [String: Any])
    #expect(gradient["start"] as? [Double] == [start.x, start.y])
    #expect(gradient["end"] as? [Double] == [0.9999, 2 / 3])
    // Shortest round-trip text, whole numbers without a fraction, never -0.
    #expect(SceneJSON.exact(0.0005) == "0.0005")
    #expect(SceneJSON.exact(1) == "1")
    #expect(SceneJSON.exact(-0.0) == "0")
    #expect(SceneJSON.exact(1e-7) == "1e-07")
    #expect(SceneJSON.exact(.nan) == "null")
  }
}
