import Testing

@testable import MorphCore

@Test func parsesHexForms() throws {
  #expect(try Color.parse("#F80") == Color(red: 1, green: 0x88 / 255, blue: 0))
  #expect(try Color.parse("ff8800") == Color(red: 1, green: 0x88 / 255, blue: 0))
  #expect(
    try Color.parse("#FF880080") == Color(red: 1, green: 0x88 / 255, blue: 0, alpha: 0x80 / 255))
  #expect(try Color.parse("  #abcdef ") == Color.parse("#ABCDEF"))
}

@Test func parsesNames() throws {
  #expect(try Color.parse("red").hex == "#FF3B30FF")
  #expect(try Color.parse("Green").hex == "#34C759FF")
  #expect(try Color.parse("blue").hex == "#007AFFFF")
  #expect(try Color.parse("teal").hex == "#30B0C7FF")
  #expect(try Color.parse("clear") == Color.clear)
  #expect(try Color.parse("white") == Color(white: 1))
  for (name, color) in Color.named { #expect(try Color.parse(name) == color) }
}

@Test(arguments: ["", "#", "#12", "#12345", "#GGGGGG", "12345", "#FF8800FF00", "#１２３"])
func rejectsMalformed(text: String) {
  do {
    _ = try Color.parse(text)
    Issue.record("parsed \(text)")
  } catch {
    #expect(error == .malformed(text))
    #expect(error.description.contains("#RRGGBBAA"))
    #expect(error.description.contains("#RGB"))
  }
}

@Test func unknownNameListsValidNames() {
  do {
    _ = try Color.parse("fuchsia")
    Issue.record("parsed fuchsia")
  } catch {
    #expect(error == .unknownName("fuchsia"))
    #expect(error.description.contains("#RRGGBB"))
    #expect(error.description.contains("indigo"))
    #expect(error.description.contains("fuchsia"))
  }
}

@Test func hexRoundTrips() throws {
  for text in ["#00000000", "#FFFFFFFF", "#12AB9C7F", "#FF3B30FF"] {
    #expect(try Color.parse(text).hex == text)
  }
  let c = Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8)
  #expect(c.hex == "#336699CC")
  #expect(try Color.parse(c.hex) == c)
}

@Test func clampsOnInit() {
  let c = Color(red: 2, green: -1, blue: .nan, alpha: .infinity)
  #expect(c == Color(red: 1, green: 0, blue: 0, alpha: 1))
  #expect(c.isFinite)
}

@Test func opacityMixAndPremultiply() {
  let c = Color(red: 1, green: 0.5, blue: 0, alpha: 0.8)
  #expect(abs(c.opacity(0.5).alpha - 0.4) < 1e-12)
  #expect(c.opacity(2).alpha == 1)
  let m = Color.black.mix(with: .white, amount: 0.25)
  #expect(m == Color(white: 0.25))
  #expect(Color.black.mix(with: .white, amount: 0) == .black)
  let pm = c.premultiplied
  #expect(pm.red == 0.8 && pm.green == 0.4 && pm.blue == 0 && pm.alpha == 0.8)
}
