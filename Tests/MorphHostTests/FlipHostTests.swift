import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

@Suite struct FlipHostTests {
  @Test func tapFlipsAndSettlesWithinTheDuration() throws {
    let h = try host("flip")
    try h.tap()
    #expect(h.component.target("turns") == 0.5)
    let settled = try #require(try h.settle())
    #expect(abs(settled - 0.55) < 0.01)
    #expect(h.component.presented("turns") == 0.5)
    #expect(try h.component.accessibility()?.value == "Showing back")
  }

  @Test func doubleTapMidFlightKeepsRotatingForward() throws {
    let h = try host("flip")
    try h.tap()
    try h.advance(to: 0.2)
    var previous = h.component.presented("turns") ?? 0
    try h.tap()
    #expect(h.component.target("turns") == 1.0)
    while h.component.isAnimating {
      try h.advance(by: h.tick)
      let now = h.component.presented("turns") ?? 0
      #expect(now >= previous - 1e-12)
      previous = now
    }
    #expect(previous == 1.0)
  }

  @Test func reduceMotionJumps() throws {
    let h = try host("flip", reduceMotion: true)
    try h.tap()
    #expect(h.component.presented("turns") == 0.5)
    #expect(!h.component.isAnimating)
  }

  @Test func accessibilityValueFollowsTheModelAtOnce() throws {
    let h = try host("flip")
    try h.tap()
    try h.advance(to: 0.05)
    // Still mostly front on screen, but SwiftUI's value is the model's.
    #expect(try h.component.accessibility()?.value == "Showing back")
  }
}
