import Testing

@testable import MorphCore

/// Issue 8, item 7: what one frame may hold is bounded, and the error names the cause.
@Suite struct FrameBudgetTests {
  static func rects(_ count: Int) -> ViewNode {
    let children = (0..<count).map { _ in
      ViewNode(.shape(.rect), modifiers: [.frame(FrameSpec(width: 4, height: 4))])
    }
    return ViewNode(.stack(.z, spacing: nil, alignment: .center, children: children))
  }

  static func build(_ root: ViewNode, _ budget: FrameBudget = .standard) throws -> DisplayList {
    var builder = DisplayListBuilder()
    builder.budget = budget
    return try builder.build(root, canvas: Size(200, 200))
  }

  @Test func tooManyItemsAreRefused() throws {
    #expect(try Self.build(Self.rects(10), FrameBudget(maxItems: 10)).items.count == 10)
    #expect {
      try Self.build(Self.rects(11), FrameBudget(maxItems: 10))
    } throws: { error in
      "\(error)".hasPrefix("frame has more than 10 items (the frame budget)")
    }
  }

  @Test func theStandardBudgetRefusesARunawayTree() {
    #expect(throws: SceneError.self) {
      try Self.build(Self.rects(FrameBudget.standard.maxItems + 1))
    }
  }

  @Test func pathPointsAreCountedAcrossItemsAndNamed() throws {
    var path = Path()
    path.move(to: Point(0, 0))
    for i in 1...200 { path.line(to: Point(Double(i % 7), Double(i % 5))) }
    let node = ViewNode(.shape(.path(path)), modifiers: [.id("scribble")])
    #expect(try Self.build(node, FrameBudget(maxPathElements: 201)).items.count == 1)
    #expect {
      try Self.build(node, FrameBudget(maxPathElements: 200))
    } throws: { error in
      "\(error)" == "frame has more than 200 path points (the frame budget) at node 'scribble'"
    }
    // Five rectangles are 25 elements (move, four lines... and close).
    #expect(throws: SceneError.self) {
      try Self.build(Self.rects(5), FrameBudget(maxPathElements: 20))
    }
  }

  @Test func textSizeAndLengthAreBounded() throws {
    func text(_ string: String, size: Double) -> ViewNode {
      ViewNode(.text(TextRun(string: string, size: size, color: .black)))
    }
    #expect {
      try Self.build(text("big", size: 1e9))
    } throws: { error in
      "\(error)".hasPrefix("font size 1000000000.0 is over the 4096 pt frame budget")
    }
    let long = String(repeating: "w", count: 101)
    #expect {
      try Self.build(text(long, size: 12), FrameBudget(maxTextCharacters: 100))
    } throws: { error in
      "\(error)" == "frame has more than 100 characters of text (the frame budget)"
    }
    // One text over its own limit is refused before layout measures it, wherever it sits.
    let overlaid = ViewNode(
      .empty, modifiers: [.overlay(text(String(repeating: "é", count: 11), size: 12), .center)])
    #expect {
      try Self.build(overlaid, FrameBudget(maxTextRunCharacters: 10))
    } throws: { error in
      "\(error)".hasPrefix("text of 11 characters is over the 10-character limit of one text")
    }
    #expect(try Self.build(overlaid, FrameBudget(maxTextRunCharacters: 11)).items.count == 1)
  }
}
