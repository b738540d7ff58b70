import Testing

@testable import MorphCore

/// Gradients' colour rules, image sizing and the groups blur and mask open.
@Suite struct DrawingModelTests {
  @Test func rampsMixStraightSRGBAndPadTheEnds() {
    let ramp = GradientRamp([
      GradientStop(color: Color(red: 1, green: 1, blue: 1, alpha: 1), location: 0.2),
      GradientStop(color: .clear, location: 0.6),
    ])
    // SwiftUI's device space: a fade to clear (black, alpha 0) passes through grey.
    let mid = ramp.color(at: 0.4)
    #expect(abs(mid.red - 0.5) < 1e-9 && abs(mid.alpha - 0.5) < 1e-9)
    #expect(ramp.color(at: 0) == Color(red: 1, green: 1, blue: 1, alpha: 1))
    #expect(ramp.color(at: 1) == .clear)
    // Out of order stops are taken in location order.
    let reversed = GradientRamp([
      GradientStop(color: .black, location: 1), GradientStop(color: .white, location: 0),
    ])
    #expect(reversed.color(at: 0) == .white)
  }

  /// SwiftUI's documented rule: a span under 360° fills the missing sector with the
  /// colours at 1 and 0, meeting halfway; over 360°, only the last turn draws.
  @Test func angularLocationsFollowSwiftUIsRule() {
    let half = AngularGradient(stops: [], center: .zero, startAngle: -90, endAngle: 90)
    #expect(half.location(atAngle: -90) == 0)
    #expect(half.location(atAngle: 0) == 0.5)
    #expect(half.location(atAngle: 90) == 1)
    #expect(half.location(atAngle: 135) == 1)
    #expect(half.location(atAngle: 225) == 0)
    let full = AngularGradient(stops: [], center: .zero, startAngle: 0, endAngle: 360)
    #expect(full.location(atAngle: 90) == 0.25)
    #expect(full.location(atAngle: -90) == 0.75)
    let more = AngularGradient(stops: [], center: .zero, startAngle: 0, endAngle: 450)
    #expect(more.location(atAngle: 90) == 0)
    #expect(more.location(atAngle: 180) == 0.25)
  }

  @Test func radialLocationsRunBetweenTheRadii() {
    let g = RadialGradient(stops: [], center: .zero, startRadius: 10, endRadius: 30)
    #expect(g.location(atDistance: 20) == 0.5)
    #expect(g.location(atDistance: 0) == -0.5)
  }

  @Test func imagesSizeAsSwiftUIs() {
    let source = ImageSource(path: "/x.png", pixelWidth: 80, pixelHeight: 40, stamp: "")
    let offer = ProposedSize(width: 100, height: 100)
    #expect(ImageSpec(source: source).size(for: offer) == Size(80, 40))
    #expect(ImageSpec(source: source, resizable: true).size(for: offer) == Size(100, 100))
    #expect(
      ImageSpec(source: source, resizable: true, contentMode: .fit).size(for: offer)
        == Size(100, 50))
    #expect(
      ImageSpec(source: source, resizable: true, contentMode: .fill).size(for: offer)
        == Size(200, 100))
    #expect(
      ImageSpec(source: source, resizable: true, contentMode: .fit)
        .size(for: ProposedSize(width: nil, height: 20)) == Size(40, 20))
  }

  private func groups(_ list: DisplayList) -> [GroupStyle] {
    list.commands.compactMap { if case .beginGroup(let s) = $0 { return s } else { return nil } }
  }

  /// Written order decides: what is written before the blur or mask applies first, so it
  /// sits in a group inside.
  @Test func blurAndMaskOpenGroupsInSwiftUIsOrder() throws {
    let mask = ViewNode(.shape(.circle))
    let maskedThenBlurred = ViewNode(.shape(.rect), modifiers: [.mask(mask, .center), .blur(3)])
    let outerFirst = groups(try DisplayListBuilder().build(maskedThenBlurred, canvas: Size(50, 50)))
    #expect(outerFirst.count == 2)
    #expect(outerFirst.first?.blur == 3 && outerFirst.first?.masks.isEmpty == true)
    #expect(outerFirst.last?.masks.count == 1 && outerFirst.last?.blur == 0)
    // Opacity after a mask fades the masked group once; before it, the content.
    let faded = ViewNode(.shape(.rect), modifiers: [.mask(mask, .center), .opacity(0.5)])
    let list = try DisplayListBuilder().build(faded, canvas: Size(50, 50))
    #expect(groups(list).map(\.opacity) == [0.5])
    #expect(list.items.map(\.opacity) == [1])
    // The mask's items are laid out in the masked node's frame.
    guard case .item(let circle)? = groups(list).first?.masks.first?.first else {
      Issue.record("no mask item")
      return
    }
    #expect(circle.kind == .circle && circle.frame.size == Size(50, 50))
  }

  @Test func aGroupOpacityIsOneGroup() throws {
    let pair = ViewNode(
      .stack(.z, spacing: nil, alignment: .center, children: [ViewNode(.shape(.rect))]),
      modifiers: [.compositingGroup, .opacity(0.4)])
    let list = try DisplayListBuilder().build(pair, canvas: Size(20, 20))
    #expect(groups(list).map(\.opacity) == [0.4])
    #expect(list.items.map(\.opacity) == [1])
  }
}
