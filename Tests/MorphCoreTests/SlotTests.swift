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

  @Test func aStepIsTheIdElseTheOrdinalAmongChildrenWithNoID() {
    let children = [
      Self.box("a", 10), Self.box(nil, 10), Self.box("b", 10, transition: true),
      Self.box(nil, 10), Self.box(nil, 10, transition: true), Self.box(nil, 10),
    ]
    // A transition without an id takes an ordinal too: no two children share a slot.
    #expect(Slot.steps(children) == ["#a", "0", "#b", "1", "2", "3"])
    // Without the node that came and went, the others keep their steps.
    var without = children
    without.remove(at: 2)
    #expect(Slot.steps(without) == ["#a", "0", "1", "2", "3"])
  }

  @Test func anAttachedViewsStepIsItsIdElseItsOrdinalAmongItsKind() {
    let modifiers: [Modifier] = [
      .overlay(Self.box(nil, 10), .center), .background(Self.box(nil, 10), .center),
      .padding(EdgeInsets(top: 1, leading: 1, bottom: 1, trailing: 1)),
      .overlay(Self.box("x", 10), .center),
      .overlay(Self.box(nil, 10), .top), .background(Self.box(nil, 10), .center),
    ]
    #expect(Slot.attachedSteps(modifiers) == ["ov0", "bg0", nil, "ov#x", "ov1", "bg1"])
  }

  @Test func aBodysKeyNeverNamesASlotsFrameOrChannels() {
    #expect(MatchedGeometryKey(slot: "/0") != MatchedGeometryKey(id: "/0", namespace: "\u{1F}slot"))
    let slot = MatchedGeometry.channels(MatchedGeometryKey(slot: "/0"))
    let forged = MatchedGeometry.channels(MatchedGeometryKey(id: "/0", namespace: "\u{1F}slot"))
    #expect(Set(slot).isDisjoint(with: forged))
    // A separator in a namespace or an id cannot make two keys' channels meet.
    let one = MatchedGeometry.channels(MatchedGeometryKey(id: "c", namespace: "a\u{1F}b"))
    let two = MatchedGeometry.channels(MatchedGeometryKey(id: "b\u{1F}c", namespace: "a"))
    #expect(Set(one).isDisjoint(with: two))
  }

  @Test func aNodeRemovedBeforeItWasEverLaidOutDrawsWhereItsStackWouldPutIt() throws {
    let linear = AnimationCurve.timing(TimingCurve(bezier: .linear, duration: 1))
    func column(_ shown: Bool) -> ViewNode {
      let children =
        [Self.box("a", 20)] + (shown ? [Self.box("x", 40, transition: true)] : [])
        + [Self.box("c", 20)]
      return ViewNode(.stack(.vertical, spacing: 0, alignment: .center, children: children))
    }
    var tracker = TransitionTracker()
    let canvas = Size(100, 200)
    _ = try DisplayListBuilder().build(
      try tracker.resolve(column(false), transaction: nil, at: 0), canvas: canvas,
      geometry: &tracker.geometry, at: 0)
    // Inserted and removed by two changes with no layout between them.
    _ = try tracker.resolve(
      column(true), transaction: Transaction(animation: linear, time: 0), at: 0)
    let tree = try tracker.resolve(
      column(false), transaction: Transaction(animation: linear, time: 0), at: 0)
    #expect(tracker.leavingIDs == ["x"])
    let list = try DisplayListBuilder().build(
      tree, canvas: canvas, geometry: &tracker.geometry, at: 0.5)
    let top = { (id: String) in list.items.first { $0.id == id }?.quad[0] }
    // The column is 40 high without it, from y 80; with it in flow, x would follow a.
    #expect(top("a") == Point(0, 80))
    #expect(top("c") == Point(0, 100))
    #expect(top("x") == Point(0, 100), "below a, not at the column's origin")
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
