import Foundation
import Testing

/// Facts about the checkout itself, as a user's machine sees it.
@Suite struct RepositoryLayoutTests {
  /// macOS (and Windows) check out on a case-insensitive file system, where two paths that
  /// differ only in case are one file: the second would overwrite the first.
  @Test func noTwoPathsDifferOnlyInCase() throws {
    let listing = try Subprocess.run(
      ["-C", Subprocess.repository.path, "ls-files"], executable: "/usr/bin/git")
    #expect(listing.status == 0, Comment(rawValue: listing.err))
    var paths = Set<String>()
    for file in listing.out.split(separator: "\n") {
      // Every folder on the way counts too (`Sources/MorphHost` against `Sources/morphhost`).
      let parts = file.split(separator: "/")
      for end in 1...parts.count { paths.insert(parts[0..<end].joined(separator: "/")) }
    }
    #expect(paths.count > 100)
    let byFolded = Dictionary(grouping: paths) { $0.lowercased() }
    let clashes = byFolded.values.filter { $0.count > 1 }.map { $0.sorted() }
    #expect(clashes.isEmpty, "paths that differ only in case: \(clashes)")
  }

  /// The README is the user's page and links every reference page in `docs/`; every relative
  /// link of the README and of those pages resolves from the page's own folder.
  @Test func readmeAndDocsPagesLinkWhatExists() throws {
    let root = Subprocess.repository
    let docs = root.appendingPathComponent("docs")
    let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
      .filter { $0.hasSuffix(".md") }.sorted()
    #expect(pages.count >= 7)
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
    for page in pages {
      #expect(readme.contains("](docs/\(page))"), "the README does not link docs/\(page)")
    }
    let files =
      [root.appendingPathComponent("README.md")] + pages.map { docs.appendingPathComponent($0) }
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for match in text.matches(of: /\]\(([^)\s]+)\)/) {
        let target = String(match.output.1)
        if target.hasPrefix("http") || target.hasPrefix("#") { continue }
        let path = String(target.split(separator: "#", maxSplits: 1)[0])
        let resolved = file.deletingLastPathComponent().appendingPathComponent(path)
        #expect(
          FileManager.default.fileExists(atPath: resolved.path),
          "\(file.lastPathComponent) links \(target), which does not exist")
      }
    }
  }
}
