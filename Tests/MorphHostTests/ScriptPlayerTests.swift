import Foundation
import MorphCore
import Testing

@testable import MorphHost

/// Scripted input plays as a hand would: on the virtual clock, tick by tick.
@Suite struct ScriptPlayerTests {
  private func script(_ text: String) throws -> InputScript {
    try InputScript.parse(text, file: "test.txt")
  }

  @Test func aScriptedDragIsInProgressWhileItLasts() throws {
    let drag = try script("0.0 drag 150,200 -> 330,200 over 1.0\n")
    var seen: [Double] = []
    for t in [0.1, 0.3, 0.5] {
      let h = try host("deck_fan")
      var player = ScriptPlayer(drag)
      try player.play(until: t, on: h)
      #expect(!player.isFinished)
      seen.append(try #require(h.component.progress))
    }
    #expect(seen.allSatisfy { $0 > 0 && $0 < 1 }, "\(seen)")
    #expect(seen[0] < seen[1] && seen[1] < seen[2], "\(seen)")
  }

  @Test func aDragReleasesWithTheVelocityOfItsLastMotion() throws {
    // A fast flick on the card stack: one card on, as a live flick would be.
    let flick = try script("0.0 drag 300,250 -> 120,250 over 0.15\n")
    let h = try host("card_stack")
    var player = ScriptPlayer(flick)
    try player.play(until: 0.1, on: h)
    let during = try #require(h.component.presented("currentIndex"))
    #expect(during > 0 && during < 1, "part-way while the finger moves: \(during)")
    try player.play(until: 3, on: h)
    #expect(player.isFinished)
    #expect(h.component.target("currentIndex") == 1)
  }

  @Test func aTapIsAPressAndAReleaseOneTickApart() throws {
    let h = try host("flip")
    var player = ScriptPlayer(try script("0.5 tap\n"))
    try player.play(until: 0.5, on: h)
    // Pressed, not yet released: nothing has happened.
    #expect(!player.isFinished)
    #expect(!h.component.isAnimating)
    try player.play(until: 0.5 + h.tick, on: h)
    #expect(player.isFinished)
    #expect(h.component.isAnimating)
  }
}
