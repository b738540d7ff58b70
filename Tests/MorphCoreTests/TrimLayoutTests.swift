import Testing

@testable import MorphCore

/// `trim` reaches the display list as the item's trimmed outline, so every backend draws it.
@Suite struct TrimLayoutTests {
  static func items(_ node: ViewNode) throws -> [DisplayItem] {
    try DisplayListBuilder().build(node, canvas: Size(100, 100), frame: Size(40, 40)).items
  }

  static let stroke = Modifier.stroke(Stroke(paint: .color(.black), width: 2))

  @Test func aTrimmedCircleDrawsTheTrimmedOutline() throws {
    let node = ViewNode(.shape(.circle), modifiers: [.trim(Trim(from: 0, to: 0.7)), Self.stroke])
    let item = try #require(try Self.items(node).first)
    let outline = Path.circle(in: Rect(x: 0, y: 0, width: 40, height: 40))
    #expect(item.path == outline.trimmed(from: 0, to: 0.7))
    #expect(item.trim == Trim(from: 0, to: 0.7))
    #expect(abs(item.path.arcLength - 0.7 * outline.arcLength) < 1e-6)
  }

  @Test func twoTrimsAreTheSecondOfTheFirst() throws {
    let node = ViewNode(
      .shape(.rect),
      modifiers: [
        .trim(Trim(from: 0.5, to: 1)), .frame(FrameSpec()), .trim(Trim(from: 0, to: 0.5)),
      ]
    )
    let item = try #require(try Self.items(node).first)
    #expect(item.trim == Trim(from: 0.5, to: 0.75))
    #expect(
      item.path
        == Path.rect(Rect(x: 0, y: 0, width: 40, height: 40)).trimmed(
          from: 0.5, to: 0.75))
  }

  @Test func anEmptyTrimDrawsNoOutline() throws {
    let node = ViewNode(.shape(.capsule), modifiers: [.trim(Trim(from: 0.8, to: 0.2))])
    #expect(try Self.items(node).first?.path.isEmpty == true)
  }

  /// An overlay is another view: the base shape's trim does not reach it.
  @Test func aTrimStaysWithItsShape() throws {
    let node = ViewNode(
      .shape(.circle),
      modifiers: [.trim(Trim(from: 0, to: 0.5)), .overlay(ViewNode(.shape(.rect)), .center)])
    let items = try Self.items(node)
    #expect(items.count == 2)
    #expect(items[1].trim == nil)
    #expect(items[1].path == Path.rect(Rect(x: 0, y: 0, width: 40, height: 40)))
  }

  @Test func fractionsAreClampedAsSwiftUIClampsThem() {
    #expect(Trim(from: -1, to: 2) == Trim(from: 0, to: 1))
    #expect(Trim(from: .nan, to: 0.5) == Trim(from: 0, to: 0.5))
  }
}
