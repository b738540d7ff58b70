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
}
