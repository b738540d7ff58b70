import Foundation
import MorphScript
import Testing

/// The sandbox's bounded `string` and `table` functions against Lua's own, in two states
/// of one process: `Differential/cases.lua` makes the same generated calls in both (patterns
/// and subjects with bytes ≥ 0x80 and `\0`, empty strings, unbalanced sets, `%f`, `%b`,
/// back-references, the depth and capture limits, invalid patterns; rep; the table
/// functions on arrays and on proxies that log every access; sort with consistent and
/// inconsistent comparators) and writes each call's results, error message and side
/// effects as a line. Every line must match, byte for byte. 100 000 cases from fixed
/// seeds, and 10 000 more from a seed that changes with each run (printed on failure).
@Suite struct DifferentialTests {
  static let cases = String(decoding: PackageResources.cases_lua, as: UTF8.self)

  @Test(arguments: [1, 2, 3, 4])
  func fixedSeed(_ seed: Int) throws {
    try compare(seed: Int64(seed), count: 25_000)
  }

  @Test func seedOfThisRun() throws {
    let seed = Int64(Date().timeIntervalSince1970 * 1000) % 1_000_000_007
    try compare(seed: seed, count: 10_000)
  }

  /// The sort error for an inconsistent comparator, and the ordinary checks of a
  /// consistent one, as Lua words them.
  @Test func knownOutcomes() throws {
    let comparison = try LibraryComparison()
    let chunk = """
      local t = {5, 1, 4, 2, 3, 9, 8, 7}
      local ok, message = pcall(table.sort, t, function() return true end)
      local sorted = {3, 1, 2}
      table.sort(sorted, function(a, b) return a > b end)
      return tostring(ok) .. " " .. message .. " " .. table.concat(sorted, ",")
        .. " " .. select(2, pcall(string.find, ("a"):rep(200), ("a?"):rep(200)))
        .. " " .. select(2, pcall(string.rep, "x", 2^31))
      """
    for library in LibraryComparison.Library.allCases {
      #expect(
        String(decoding: comparison.run(chunk, with: library), as: UTF8.self)
          == "false invalid order function for sorting 3,2,1 pattern too complex "
          + "resulting string too large")
    }
  }

  func compare(seed: Int64, count: Int) throws {
    let comparison = try LibraryComparison()
    let arguments: [LibraryComparison.Argument] = [.integer(seed), .integer(Int64(count))]
    let bounded = comparison.run(Self.cases, with: .bounded, arguments: arguments)
    let stock = comparison.run(Self.cases, with: .stock, arguments: arguments)
    #expect(!stock.starts(with: Array("error:".utf8)), "\(String(decoding: stock, as: UTF8.self))")
    guard bounded != stock else { return }
    let newline = UInt8(ascii: "\n")
    let ours = bounded.split(separator: newline, omittingEmptySubsequences: false)
    let theirs = stock.split(separator: newline, omittingEmptySubsequences: false)
    let first =
      (0..<min(ours.count, theirs.count)).first { ours[$0] != theirs[$0] }
      ?? min(ours.count, theirs.count)
    func line(_ lines: [ArraySlice<UInt8>]) -> String {
      first < lines.count ? String(decoding: lines[first], as: UTF8.self) : "(no line)"
    }
    let report =
      "seed \(seed): the bounded library differs from Lua's\n  bounded: \(line(ours))\n"
      + "  stock:   \(line(theirs))"
    Issue.record(Comment(rawValue: report))
  }
}
