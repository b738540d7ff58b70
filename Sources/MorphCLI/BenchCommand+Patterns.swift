import Foundation
import MorphScript

extension BenchCommand {
  /// Typical pattern calls (`Bench/patterns.lua`: find, match, gmatch, gsub on a line of
  /// props and prose) with the sandbox's bounded string functions against Lua's own, in
  /// two states of this process. Runs alternate and the fastest of each counts, so
  /// the ratio holds on a busy machine. Goal: within 1.5x.
  static func patternCost(frames: Int) throws -> String {
    let comparison = try LibraryComparison()
    let chunk = String(decoding: PackageResources.patterns_lua, as: UTF8.self)
    let rounds: [LibraryComparison.Argument] = [.integer(Int64(max(20, frames * 4)))]
    var best: [LibraryComparison.Library: Double] = [:]
    var answers: [LibraryComparison.Library: [UInt8]] = [:]
    for _ in 0..<max(5, min(frames / 4, 15)) {
      for library in LibraryComparison.Library.allCases {
        let start = now()
        answers[library] = comparison.run(chunk, with: library, arguments: rounds)
        best[library] = min(best[library] ?? .infinity, now() - start)
      }
    }
    guard answers[.bounded] == answers[.stock] else {
      throw BenchFailure("Bench/patterns.lua gave different answers with the bounded library")
    }
    let bounded = best[.bounded] ?? 0
    let stock = best[.stock] ?? 1
    return String(
      format: "patterns (find/match/gmatch/gsub, %d rounds): bounded %.2f ms, Lua's own %.2f ms, "
        + "ratio %.2fx (goal: within 1.5x)", max(20, frames * 4), bounded * 1000, stock * 1000,
      bounded / stock)
  }
}
