import Foundation
import Testing

@testable import MorphCore

private func build(_ root: ViewNode, canvas: Size = Size(400, 300)) throws -> DisplayList {
  try DisplayListBuilder().build(root, canvas: canvas)
}

private func shape(_ modifiers: [Modifier], _ s: ShapeSpec = .rect) -> ViewNode {
  ViewNode(.shape(s), modifiers: modifiers)
}

private func approx(_ a: Point, _ b: Point, _ tolerance: Double = 1e-3) -> Bool {
  abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

private let fixed96x132 = Modifier.frame(FrameSpec(width: 96, height: 132))

@Suite struct TransformTests {
  @Test func designRotation3DCheck() throws {
    // docs/design.md, 3D rotation: 96×132, 45° about y, centre anchor, perspective 1
    // → (0,0) ↦ (2.311, −22.845).
    let node = shape([
      fixed96x132,
      .rotate3D(degrees: 45, axis: Vector3(0, 1, 0), anchor: .center, perspective: 1),
    ])
    let item = try #require(try build(node).items.first)
    let origin = Point((400 - 96) / 2, (300 - 132) / 2)
    #expect(approx(item.quad[0] - origin, Point(2.311, -22.845)))
  }

  @Test func offsetBeforeRotateIsRotated() throws {
    let offsetFirst = shape([
      .frame(FrameSpec(width: 10, height: 10)), .offset(Point(20, 0)),
      .rotate(degrees: 90, anchor: .center),
    ])
    let rotateFirst = shape([
      .frame(FrameSpec(width: 10, height: 10)), .rotate(degrees: 90, anchor: .center),
      .offset(Point(20, 0)),
    ])
    let a = try #require(try build(offsetFirst).items.first)
    let b = try #require(try build(rotateFirst).items.first)
    let centre = Point(200, 150)
    // Rotating the offset view about its own centre moves the offset down (clockwise).
    let aCentre = Point((a.quad[0].x + a.quad[2].x) / 2, (a.quad[0].y + a.quad[2].y) / 2)
    let bCentre = Point((b.quad[0].x + b.quad[2].x) / 2, (b.quad[0].y + b.quad[2].y) / 2)
    #expect(approx(aCentre, centre + Point(0, 20)))
    #expect(approx(bCentre, centre + Point(20, 0)))
  }

  @Test func positiveDegreesTurnClockwise() throws {
    let node = shape([
      .frame(FrameSpec(width: 10, height: 10)), .rotate(degrees: 90, anchor: .topLeading),
    ])
    let item = try #require(try build(node).items.first)
    // The top-right corner swings down under the anchor.
    #expect(approx(item.quad[1], item.quad[0] + Point(0, 10)))
  }

  @Test func rotationAnchorIsTheUnscaledLayoutFrame() throws {
    let node = shape([
      fixed96x132, .scale(x: 0.5, y: 0.5, anchor: .center), .rotate(degrees: 180, anchor: .bottom),
    ])
    let item = try #require(try build(node).items.first)
    let frameBottom = Point(200, 150 + 66)
    // Scaled about the centre, the card spans y 117…183; turned 180° about the
    // frame's bottom (y = 216) it spans 249…315.
    let ys = item.quad.map { $0.y }
    #expect(abs((ys.min() ?? 0) - (2 * frameBottom.y - 183)) < 1e-9)
    #expect(abs((ys.max() ?? 0) - (2 * frameBottom.y - 117)) < 1e-9)
  }

  @Test func zIndexOrdersSiblingsAndTiesKeepOrder() throws {
    let stack = ViewNode(
      .stack(
        .z, spacing: nil, alignment: .center,
        children: [
          shape([.id("a"), .zIndex(1)]), shape([.id("b")]), shape([.id("c"), .zIndex(1)]),
          shape([.id("d"), .zIndex(-1)]),
        ]))
    #expect(try build(stack).items.map(\.id) == ["d", "b", "a", "c"])
  }
}

@Suite struct LayoutTests {
  @Test func vstackWithSpacingStacksFixedPieces() throws {
    let stack = ViewNode(
      .stack(
        .vertical, spacing: 10, alignment: .center,
        children: [
          shape([.frame(FrameSpec(width: 240, height: 118)), .id("main")]),
          shape([.frame(FrameSpec(width: 240, height: 54)), .id("stub")]),
        ]))
    let items = try build(stack, canvas: Size(428, 288)).items
    let total = 118.0 + 10 + 54
    let top = (288 - total) / 2
    #expect(approx(items[0].quad[0], Point(94, top)))
    #expect(approx(items[1].quad[0], Point(94, top + 128)))
  }

  @Test func flexibleFrameTakesTheOffer() throws {
    let node = shape([
      .frame(FrameSpec(width: 50, height: 20)), .frame(FrameSpec(maxWidth: .infinity)),
    ])
    let list = try build(ViewNode(.stack(.z, spacing: nil, alignment: .center, children: [node])))
    #expect(approx(list.items[0].quad[0], Point(175, 140)))
  }

  @Test func paddingAndOverlayAlignment() throws {
    let badge = shape([.frame(FrameSpec(width: 10, height: 10)), .id("badge")])
    let node = shape([
      .frame(FrameSpec(width: 100, height: 50)),
      .padding(EdgeInsets(top: 5, leading: 5, bottom: 5, trailing: 5)),
      .overlay(badge, Alignment(x: 1, y: 0)),
    ])
    let items = try build(node).items
    // 110×60 centred in 400×300: origin (145, 120); badge at the top-right corner.
    #expect(approx(items[0].quad[0], Point(150, 125)))
    #expect(approx(items[1].quad[0], Point(245, 120)))
  }

  @Test func positionCentresTheView() throws {
    let dot = shape([.frame(FrameSpec(width: 18, height: 18)), .position(Point(0, 118))], .circle)
    let piece = ViewNode(
      .stack(.z, spacing: nil, alignment: .center, children: [dot]),
      modifiers: [.frame(FrameSpec(width: 240, height: 118))])
    let item = try #require(try build(piece).items.first)
    let origin = Point(80, 91)
    #expect(approx(item.quad[0], origin + Point(-9, 109)))
  }

  @Test func hitTestingThroughPerspective() throws {
    let card = shape([
      fixed96x132, .rotate3D(degrees: 60, axis: Vector3(0, 1, 0), anchor: .center, perspective: 1),
      .handlers(Handlers(tap: 7)),
    ])
    let list = try build(card)
    #expect(list.hitTest(Point(200, 150))?.handlers?.tap == 7)
    // At 60° the card is narrower than 96: a point 40 pt right of centre misses.
    #expect(list.hitTest(Point(240, 150)) == nil)
    #expect(list.hitTest(Point(170, 150)) != nil)
  }

  @Test func badCanvasesAreClearErrors() throws {
    #expect(throws: SceneError("canvas width 100000.0 is too large (at most 16384 points a side)"))
    {
      try DisplayListBuilder().build(shape([]), canvas: Size(100_000, 100_000))
    }
    #expect(throws: SceneError.self) {
      try DisplayListBuilder().build(shape([]), canvas: Size(.nan, 10))
    }
  }

  @Test func fiftyThousandNodesBuild() throws {
    let children = (0..<50_000).map { i in
      shape([
        .frame(FrameSpec(width: 2, height: 2)), .offset(Point(Double(i % 200), Double(i / 200))),
      ])
    }
    // Layout scales past what one drawn frame may hold: lift the frame budget to see it.
    var builder = DisplayListBuilder()
    builder.budget = FrameBudget(maxItems: 50_000, maxPathElements: 250_000)
    let list = try builder.build(
      ViewNode(.stack(.z, spacing: nil, alignment: .topLeading, children: children)),
      canvas: Size(400, 300))
    #expect(list.items.count == 50_000)
  }
}
