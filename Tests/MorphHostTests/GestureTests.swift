import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

@Suite struct GestureTests {
  @Test func aPointerThatStopsBeforeLiftingHasNoVelocityLeft() {
    var g = GestureTracker(
      start: Point(0, 0), startTime: 0, target: .component, minimumDistance: 10)
    for i in 1...10 { _ = g.move(to: Point(Double(i) * 15, 0), time: Double(i) * 0.01) }
    #expect(g.velocity.x > 1000)
    // Held still for 0.2 s (a terminal sends nothing meanwhile), then lifted.
    _ = g.move(to: Point(150, 0), time: 0.3)
    #expect(g.velocity.x == 0)
  }

  @Test func velocityIsPointsPerSecondOverTheLastTenthOfASecond() {
    var g = GestureTracker(
      start: Point(0, 0), startTime: 0, target: .component, minimumDistance: 10)
    for i in 1...30 { _ = g.move(to: Point(Double(i) * 4, 0), time: Double(i) / 120) }
    #expect(abs(g.velocity.x - 480) < 1e-6)
    #expect(g.isDragging)
  }

  @Test func aSmallWobbleIsStillATapButAFarMoveIsNot() {
    var wobble = GestureTracker(start: .zero, startTime: 0, target: .none, minimumDistance: 10)
    _ = wobble.move(to: Point(4, 3), time: 0.05)
    #expect(wobble.isTap)
    var far = GestureTracker(start: .zero, startTime: 0, target: .none, minimumDistance: 10)
    _ = far.move(to: Point(40, 0), time: 0.05)
    _ = far.move(to: Point(0, 0), time: 0.1)
    #expect(!far.isTap)
  }

  @Test func aDragInProgressEndsInTheReloadedCode() throws {
    let source = { (tag: String) in
      """
      return morph.component {
        state = { ended = false, p = 0 },
        body = function(self) return morph.rect() end,
        drag = function(self, e) if e.phase == "ended" then self.ended = "\(tag)" end end,
      }
      """
    }
    let host = ComponentHost(
      component: try ComponentInstance(path: "drag.lua", source: source("old")))
    try host.pointerDown(at: host.center)
    try host.advance(by: 0.05)
    try host.pointerMoved(to: host.center + Point(40, 0))
    try host.reload(source: source("new"))
    try host.pointerUp(at: host.center + Point(40, 0))
    guard case .string("new") = host.component.stateValue("ended") else {
      Issue.record("the drag's end was lost across the reload")
      return
    }
  }
}
