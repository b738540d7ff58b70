/// "Did you mean": the valid name nearest a mistyped one, for every message that
/// refuses a name (a modifier, a `morph` function, an option, an enum string, a plugin,
/// a command or a command-line option). One rule, used by the Swift and the Lua side.
public enum Suggestion {
  /// The candidate nearest `name`, when it is near enough to be what was meant: the same
  /// name in other case, or one at most a third of its letters away (at least 1, at most
  /// 3) by edits, where swapping two neighbours is one edit. Ties go to the first
  /// candidate.
  public static func nearest(to name: String, in candidates: some Sequence<String>) -> String? {
    let lower = Array(name.lowercased())
    guard !lower.isEmpty else { return nil }
    let allowed = min(3, max(1, lower.count / 3))
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name {
      let other = Array(candidate.lowercased())
      if other == lower { return candidate }
      guard abs(other.count - lower.count) <= allowed else { continue }
      let d = distance(lower, other)
      if d <= allowed, d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best?.name
  }

  /// `"; did you mean 'x'?"` when a candidate is near `name`, else "".
  public static func clause(for name: String, in candidates: some Sequence<String>) -> String {
    nearest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
  }

  /// The optimal-string-alignment distance: insertions, deletions, substitutions and
  /// swaps of neighbours, each one edit.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d = min(d, before[j - 2] + 1)
        }
        current[j] = d
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
