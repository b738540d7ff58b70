import Foundation
import Testing

@testable import MorphCore

/// Removed nodes kept drawing while their removal runs are bounded by the frame budget
/// (`maxLeavingNodes`, and their trees' nodes against `maxItems`): past it the oldest
/// removal ends at once.
@Suite struct GhostBudgetTests {
  static let hour = AnimationCurve.timing(TimingCurve(bezier: .linear, duration: 3600))

  static func root(_ id: String, children: Int = 0) -> ViewNode {
    let inner = (0..<children).map { _ in ViewNode(.shape(.rect)) }
    let content: ViewContent =
      children == 0
      ? .shape(.rect) : .stack(.vertical, spacing: 0, alignment: .center, children: inner)
    return ViewNode(content, modifiers: [.id(id), .transition(.opacity)])
  }

  /// A root whose id changes every tick under an hour-long transition.
  static func swap(_ tracker: inout TransitionTracker, ticks: Int, children: Int = 0) throws {
    _ = try tracker.resolve(root("r0", children: children), transaction: nil, at: 0)
    for n in 1...ticks {
      let time = Double(n) / 120
      tracker.advance(to: time)
      _ = try tracker.resolve(
        root("r\(n)", children: children), transaction: Transaction(animation: hour, time: time),
        at: time)
    }
  }

  @Test func theOldestRemovalEndsOnceMoreNodesLeaveThanTheBudgetKeeps() throws {
    var tracker = TransitionTracker()
    tracker.budget = FrameBudget(maxLeavingNodes: 8)
    try Self.swap(&tracker, ticks: 50)
    // The newest eight removed roots (r42…r49) still fade; r0…r41 ended at once.
    #expect(tracker.leavingIDs == (42...49).map { "r\($0)" }.sorted())
    // Only the moving ids keep engine channels: the dropped ones' are gone.
    #expect(Set(tracker.engine.channels.keys) == Set((42...50).map { "r\($0)" }))
  }

  @Test func theNodesLeavingTreesHoldCountAgainstTheItemBudget() throws {
    var tracker = TransitionTracker()
    // Each removed root holds 11 nodes: 40 items keep three of them.
    tracker.budget = FrameBudget(maxItems: 40, maxLeavingNodes: 100)
    try Self.swap(&tracker, ticks: 20, children: 10)
    #expect(tracker.leavingIDs == ["r17", "r18", "r19"])
  }

  @Test func theGhostDrawnUnderASwappedRootIsTheNewest() throws {
    var tracker = TransitionTracker()
    try Self.swap(&tracker, ticks: 30)
    let tree = try tracker.resolve(Self.root("r30"), transaction: nil, at: 30.0 / 120)
    let backgrounds = tree.modifiers.compactMap { modifier -> ViewNode? in
      if case .background(let view, _) = modifier { return view }
      return nil
    }
    #expect(backgrounds.count == 1)
    #expect(backgrounds.first?.lastID == "r29")
  }
}
