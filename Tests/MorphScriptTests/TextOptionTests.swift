import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// `morph.text`'s options reach the reader as `TextRun` fields, and bad ones are refused at
/// the plugin's line with the valid names listed.
@Suite struct TextOptionTests {
  static func error(_ code: String) -> String? {
    do {
      _ = try LuaState().evaluate(code, chunkName: "text.lua")
      return nil
    } catch {
      return error.description
    }
  }

  @Test func everyOptionArrivesInTheRun() throws {
    let state = try LuaState()
    let value = try state.evaluate(
      """
      return morph.text("Hi", { style = "headline", italic = true, monospacedDigit = true,
        kerning = 1, tracking = 2, lineSpacing = 3, lineLimit = 2, truncation = "middle",
        alignment = "center" })
      """, chunkName: "text.lua"
    ).first!
    guard case .text(let run) = try state.readView(value, path: "text.lua").root.content else {
      Issue.record("not a text")
      return
    }
    var expected = TextRun(string: "Hi", size: 17, weight: .semibold, color: .black)
    expected.italic = true
    expected.monospacedDigit = true
    expected.tracking = 2  // tracking wins over kerning
    expected.lineSpacing = 3
    expected.lineLimit = 2
    expected.truncation = .middle
    expected.alignment = .center
    #expect(run == expected)
  }

  @Test(arguments: [
    (
      "morph.text('x', { style = 'huge' })",
      "option 'style': invalid option 'huge'; expected one of 'largeTitle', 'title', 'title2'"
    ),
    (
      "morph.text('x', { weight = 'semi' })",
      "option 'weight': invalid option 'semi'; expected one of 'ultraLight', 'thin', 'light'"
    ),
    ("morph.measureText('x', { weight = 'semi' })", "bad argument #2 to 'measureText'"),
    ("morph.text('x', { size = 0/0 })", "bad argument #2 to 'text' (option 'size'"),
    ("morph.text('x', { size = -3 })", "option 'size' must be >= 0, got -3"),
    ("morph.text('x', { lineLimit = 0 })", "option 'lineLimit': whole number >= 1 expected"),
    ("morph.text('x', { lineLimit = 1.5 })", "whole number >= 1 expected, got 1.5"),
    ("morph.text('x', { italic = 1 })", "option 'italic': boolean expected, got number"),
    ("morph.measureText('x', { width = -1 })", "option 'width' must be >= 0"),
    ("morph.text('x', { font = 'SF' })", "unknown option 'font'; valid options: size, weight"),
    (
      "morph.text(string.rep('a', 100000))",
      "text of 100000 characters is over the 10000-character limit of one text"
    ),
    ("morph.measureText(string.rep('é', 20000))", "text of 20000 characters is over"),
  ])
  func badOptionsAreRefusedAtThePluginsLine(_ code: String, _ message: String) {
    let description = Self.error("local a = 1\n" + code) ?? "no error"
    #expect(description.hasPrefix("text.lua:2: "), "\(description)")
    #expect(description.contains(message), "\(description)")
  }
}
