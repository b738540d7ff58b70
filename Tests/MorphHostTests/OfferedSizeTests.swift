import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// `self.size`: the size offered to the body (SwiftUI's `GeometryReader`), the declared
/// `size` until a host offers another, with the body laid out in the offer.
@Suite struct OfferedSizeTests {
  static let source = """
    local m = morph
    return m.component {
      name = "Adaptive",
      size = { 200, 100 },
      state = { p = 0 },
      body = function(self)
        local s = self.size
        local wide = s.width > s.height
        return m.rect():fill(wide and "#0000FF" or "#FF0000")
          :frame(s.width / 2, s.height / 2):id("box")
      end,
    }
    """

  func makeHost(_ text: String = source) throws -> ComponentHost {
    ComponentHost(component: try ComponentInstance(path: "adaptive.lua", source: text))
  }

  @Test func theBodyReadsTheDeclaredSizeFirst() throws {
    let h = try makeHost()
    let box = try item(try h.frame(), "box")
    #expect(box.frame.size == Size(100, 50))
    #expect(box.fill == .color(try Color.parse("#0000FF")))
    #expect(h.component.readsSize)
  }

  @Test func aNewOfferRelaysTheBody() throws {
    let h = try makeHost()
    _ = try h.frame()
    #expect(try h.component.offer(Size(120, 300)))
    #expect(h.canvas == Size(120 + 2 * h.margin, 300 + 2 * h.margin))
    let box = try item(try h.frame(), "box")
    #expect(box.frame.size == Size(60, 150))
    #expect(box.fill == .color(try Color.parse("#FF0000")))
    // Centred in the new canvas.
    #expect(close(box.quad[0], Point(h.margin + 30, h.margin + 75)))
    // The same offer again changes nothing; nil goes back to the declared size.
    #expect(try !h.component.offer(Size(120, 300)))
    #expect(try h.component.offer(nil))
    #expect(try item(try h.frame(), "box").frame.size == Size(100, 50))
  }

  @Test func aBodyThatDoesNotReadItNeedsNoNewBody() throws {
    let h = try makeHost(
      Self.source.replacingOccurrences(
        of: "local s = self.size", with: "local s = { width = 200, height = 100 }"))
    _ = try h.frame()
    #expect(!h.component.readsSize)
    #expect(try !h.component.offer(Size(50, 50)))
  }

  @Test func anOfferKeepsAcrossAHotReload() throws {
    let h = try makeHost()
    try h.component.offer(Size(300, 100))
    try h.reload(source: Self.source.replacingOccurrences(of: "#0000FF", with: "#00FF00"))
    let box = try item(try h.frame(), "box")
    #expect(box.frame.size == Size(150, 50))
    #expect(box.fill == .color(try Color.parse("#00FF00")))
  }

  @Test func aBadOfferIsRefused() throws {
    let h = try makeHost()
    for bad in [Size(0, 10), Size(10, .nan), Size(10, 1e9)] {
      #expect(throws: ScriptError.self) { try h.component.offer(bad) }
    }
    #expect(h.component.offeredSize == Size(200, 100))
  }

  /// A prop or state key named `size` is the component's own and wins.
  @Test func aDeclaredKeyNamedSizeWins() throws {
    let h = try makeHost(
      Self.source.replacingOccurrences(
        of: "state = { p = 0 }",
        with: "state = { p = 0 }, props = { size = { width = 10, height = 40 } }"))
    #expect(try item(try h.frame(), "box").frame.size == Size(5, 20))
  }
}
