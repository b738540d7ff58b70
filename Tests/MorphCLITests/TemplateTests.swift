import MorphCore
import Testing

@testable import MorphCLI

/// `morphhost new` writes the default frame out so the author sees the field to edit; it is
/// `DocumentDefaults.size`, not a second opinion of it.
@Suite struct TemplateTests {
  @Test func theNewComponentsSizeIsTheDefaultFrame() throws {
    let skeleton = NewCommand.skeleton("demo")
    let match = try #require(skeleton.firstMatch(of: /size = \{ (\d+), (\d+) \}/))
    let size = DocumentDefaults.size
    #expect(Double(match.1) == size.width && Double(match.2) == size.height)
  }
}
