import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// docs/lua-api.md shows two tables the code owns: SwiftUI's names (`SwiftUINames`) and
/// the colour names (`Color.named`). `MORPH_REFRESH_DOCS=1` rewrites them.
@Suite struct DocsTablesTests {
  static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/lua-api.md")

  static var colourNames: String {
    var lines = ["| name | sRGB |", "| --- | --- |"]
    for (name, color) in Color.named.sorted(by: { $0.key < $1.key }) {
      lines.append("| `\(name)` | `\(color.hex)` |")
    }
    return lines.joined(separator: "\n")
  }

  /// `text` with what lies between `<!-- marker -->` and `<!-- /marker -->` replaced.
  static func replacing(_ marker: String, with table: String, in text: String) throws -> String {
    let open = "<!-- \(marker) -->"
    let close = "<!-- /\(marker) -->"
    let start = try #require(text.range(of: open))
    let end = try #require(text.range(of: close))
    return text.replacingCharacters(
      in: start.upperBound..<end.lowerBound, with: "\n" + table + "\n")
  }

  @Test func theDocsTablesAreTheCodes() throws {
    let text = try String(contentsOf: Self.page, encoding: .utf8)
    var expected = try Self.replacing("swiftui-names", with: SwiftUINames.markdown, in: text)
    expected = try Self.replacing("colour-names", with: Self.colourNames, in: expected)
    if ProcessInfo.processInfo.environment["MORPH_REFRESH_DOCS"] == "1", expected != text {
      try expected.write(to: Self.page, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      text == expected, "docs/lua-api.md's tables are stale: MORPH_REFRESH_DOCS=1 rewrites them")
  }
}
