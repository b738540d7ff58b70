import Foundation
import MorphCore
import MorphRender
import Testing

/// The JSON dump carries every paint and effect of a display list, and parses as JSON.
@Suite struct SceneJSONTests {
  static let square = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))

  static func dump(_ commands: [DisplayCommand]) throws -> [String: Any] {
    let text = SceneJSON.encode(
      DisplayList(canvas: Size(100, 100), commands: commands),
      summary: SceneSummary(name: "t", progress: nil))
    return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func everyPaintAndEffectIsInTheDump() throws {
    let stops = [
      GradientStop(color: .black, location: 0), GradientStop(color: .white, location: 1),
    ]
    var item = DisplayItem(
      id: "a", kind: .path, path: Self.square, frame: Rect(x: 0, y: 0, width: 10, height: 10),
      fill: .linearGradient(LinearGradient(stops: stops, start: .zero, end: Point(1, 1))),
      stroke: Stroke(paint: .color(.black), width: 2, dash: [3, 1], cap: .round, join: .bevel),
      shadow: Shadow(radius: 4, offset: Point(0, 2)),
      clips: [Clip(path: Self.square, transform: .identity)], blend: .multiply)
    item.handlers = Handlers(tap: 1)
    let text = DisplayItem(
      kind: .text, path: Path(), frame: Rect(x: 0, y: 0, width: 10, height: 10),
      fill: .radialGradient(
        RadialGradient(stops: stops, center: Point(0.5, 0.5), startRadius: 0, endRadius: 5)),
      text: TextRun(string: "Hi", size: 12, weight: .bold, color: .black))
    let masked = GroupStyle(
      opacity: 0.5, blend: .screen, blur: 3,
      masks: [[.item(DisplayItem(kind: .rect, path: Self.square, frame: .zero))]])
    let json = try Self.dump([.beginGroup(masked), .item(item), .item(text), .endGroup])

    let nodes = try #require(json["nodes"] as? [[String: Any]])
    #expect(nodes.count == 2)
    let a = nodes[0]
    let paint = try #require(a["paint"] as? [String: Any])
    let linear = try #require(paint["linearGradient"] as? [String: Any])
    #expect((linear["stops"] as? [[Any]])?.count == 2)
    let stroke = try #require(a["stroke"] as? [String: Any])
    #expect(stroke["width"] as? Double == 2 && stroke["cap"] as? String == "round")
    #expect(stroke["dash"] as? [Double] == [3, 1] && stroke["join"] as? String == "bevel")
    #expect((a["shadow"] as? [String: Any])?["radius"] as? Double == 4)
    #expect(a["blend"] as? String == "multiply")
    #expect((a["clips"] as? [Any])?.count == 1)
    #expect((a["path"] as? [[Any]])?.count == 5)
    #expect((a["transform"] as? [Double])?.count == 9)
    #expect(a["handlers"] as? [String] == ["tap"])
    #expect(a["groups"] as? [Int] == [0])
    let font = try #require(nodes[1]["font"] as? [String: Any])
    #expect(font["size"] as? Double == 12 && font["weight"] as? String == "bold")
    #expect((nodes[1]["paint"] as? [String: Any])?["radialGradient"] != nil)

    let groups = try #require(json["groups"] as? [[String: Any]])
    #expect(groups.count == 1)
    #expect(groups[0]["opacity"] as? Double == 0.5 && groups[0]["blend"] as? String == "screen")
    #expect(groups[0]["blur"] as? Double == 3)
    #expect((groups[0]["masks"] as? [[Any]])?.first?.count == 1)
  }

  /// Defaults are left out: a plain rectangle is as short as it always was.
  @Test func aPlainItemHasOnlyTheCoreFields() throws {
    let json = try Self.dump([
      .item(
        DisplayItem(
          kind: .rect, path: Self.square, frame: Rect(x: 0, y: 0, width: 10, height: 10),
          fill: .color(.black)))
    ])
    let node = try #require((json["nodes"] as? [[String: Any]])?.first)
    #expect(Set(node.keys) == ["id", "kind", "quad", "opacity", "fill", "z"])
    #expect(json["groups"] == nil)
  }

  /// A trimmed shape's dump names the trim and carries the trimmed outline.
  @Test func aTrimmedShapeCarriesItsTrimAndPath() throws {
    let trim = Trim(from: 0, to: 0.5)
    let json = try Self.dump([
      .item(
        DisplayItem(
          kind: .rect, path: trim.apply(to: Self.square),
          frame: Rect(x: 0, y: 0, width: 10, height: 10), stroke: Stroke(paint: .color(.black)),
          trim: trim))
    ])
    let node = try #require((json["nodes"] as? [[String: Any]])?.first)
    #expect(node["trim"] as? [Double] == [0, 0.5])
    #expect(node["path"] != nil)
  }
}
