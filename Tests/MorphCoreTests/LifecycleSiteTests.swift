import Testing

@testable import MorphCore

/// Which node a lifecycle hook belongs to from one body to the next.
@Suite struct LifecycleSiteTests {
  static let hooked = Modifier.lifecycle(LifecycleHooks(appear: 0, disappear: 1))

  static func node(_ content: ViewContent, _ modifiers: [Modifier] = [hooked]) -> ViewNode {
    ViewNode(content, modifiers: modifiers)
  }

  static func stack(_ children: [ViewNode], _ modifiers: [Modifier] = []) -> ViewNode {
    ViewNode(
      .stack(.vertical, spacing: nil, alignment: .center, children: children),
      modifiers: modifiers)
  }

  @Test func idsNameNodesAndPlacesCountOnlyChildrenWithoutOne() {
    let tree = Self.stack(
      [
        Self.node(.shape(.rect), [.id("card"), Self.hooked]),
        Self.node(.shape(.circle)),
        Self.stack([Self.node(.text(TextRun(string: "x", size: 12, color: .black)))], [.id("box")]),
        Self.node(.shape(.rect)),
      ], [Self.hooked, .overlay(Self.node(.empty), .center)])
    let sites = tree.lifecycleSites
    #expect(
      sites.map(\.identity) == [
        "root:verticalstack", "#card", "root:verticalstack/0:circle", "#box/0:text",
        "root:verticalstack/1:rect", "root:verticalstack/m1:empty",
      ])
    #expect(sites.map(\.ids) == [[], ["card"], [], ["box"], [], []])
  }

  @Test func theFirstNodeOfAnIdWins() {
    let twice = Self.stack([
      Self.node(.shape(.rect), [.id("a"), Self.hooked]),
      Self.node(.shape(.circle), [.lifecycle(LifecycleHooks(appear: 7)), .id("a")]),
    ])
    #expect(twice.lifecycleSites.map(\.appear) == [[0]])
  }
}
