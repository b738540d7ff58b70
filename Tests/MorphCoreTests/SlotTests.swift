import Foundation
import Testing

@testable import MorphCore

/// Slots (frames compared between layouts by a path that survives siblings coming and
/// going) and detached views (a removed view that takes no space).
@Suite struct SlotTests {
  static func box(_ id: String?, _ height: Double, transition: Bool = false) -> ViewNode {
    var modifiers: [Modifier] = [.frame(FrameSpec(width: 100, height: height))]
    if let id { modifiers.append(.id(id)) }
    if transition { modifiers.append(.transition(.opacity)) }
    return ViewNode(.shape(.rect), modifiers: modifiers)
  }

  @Test func aStepIsTheIdElseTheOrdinalAmongChildrenWithNoTransition() {
    let children = [
      Self.box("a", 10), Self.box(nil, 10), Self.box("b", 10, transition: true),
      Self.box(nil, 10), Self.box(nil, 10, transition: true), Self.box(nil, 10),
    ]
    #expect(Slot.steps(children) == ["#a", "0", "#b", "1", "2", "2"])
    // Without the node that came and went, the others keep their steps.
    var without = children
    without.remove(at: 2)
    #expect(Slot.steps(without) == ["#a", "0", "1", "2", "2"])
  }

  @Test func aDetachedChildTakesNoSpaceAndDrawsAtTheFrameHeldForIt() throws {
    var ghost = Self.box("gone", 40)
    ghost.modifiers.append(.detached(MatchedGeometryKey(slot: "/0/#gone")))
    let stack = ViewNode(
      .stack(
        .vertical, spacing: 10, alignment: .center,
        children: [
          Self.box("a", 20), ghost, Self.box("c", 20),
        ]))
    var geometry = MatchedGeometry()
    // The layout with it in flow records its frame under its slot.
    var flowing = stack
    flowing.content = .stack(
      .vertical, spacing: 10, alignment: .center,
      children: [Self.box("a", 20), Self.box("gone", 40), Self.box("c", 20)])
    let canvas = Size(100, 200)
    _ = try DisplayListBuilder().build(flowing, canvas: canvas, geometry: &geometry, at: 0)
    let list = try DisplayListBuilder().build(stack, canvas: canvas, geometry: &geometry, at: 0)
    let top = { (id: String) in list.items.first { $0.id == id }?.quad[0].y }
    // In flow: 20 + 10 + 40 + 10 + 20 = 100 high, from y 50. Without it: 50 high, from 75.
    #expect(top("a") == 75)
    #expect(top("c") == 105)
    #expect(top("gone") == 80, "where it was: 50 + 20 + 10")
  }
}
