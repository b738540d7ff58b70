/// How faithfully one exported item reached the Lottie file.
public enum LottieMapping: String, Hashable, Sendable, CaseIterable, Comparable {
  /// Lottie's own shapes, paints, transforms and effects.
  case native
  /// Exact at every exported frame, but as sampled keyframes (perspective as moving
  /// vertices, a shape whose outline changes its points).
  case baked
  /// Drawn, but not as the host draws it (the note says how).
  case approximated
  /// Not in the file (the note says why).
  case dropped

  public static func < (a: LottieMapping, b: LottieMapping) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// The fidelity report: per item (by its identity in the view tree), how it mapped.
public struct LottieFidelityReport: Hashable, Sendable {
  public struct Entry: Hashable, Sendable {
    public var identity: String
    public var mapping: LottieMapping
    public var notes: [String]
  }

  public private(set) var entries: [Entry] = []

  public init() {}

  /// Records `mapping` for `identity`; an item keeps its worst mapping and every note.
  mutating func note(_ identity: String, _ mapping: LottieMapping, _ note: String? = nil) {
    if let i = entries.firstIndex(where: { $0.identity == identity }) {
      entries[i].mapping = max(entries[i].mapping, mapping)
      if let note, !entries[i].notes.contains(note) { entries[i].notes.append(note) }
    } else {
      entries.append(Entry(identity: identity, mapping: mapping, notes: note.map { [$0] } ?? []))
    }
  }

  public func count(_ mapping: LottieMapping) -> Int { entries.count { $0.mapping == mapping } }

  /// One line: how many items mapped each way.
  public var summary: String {
    let parts = LottieMapping.allCases.map { "\(count($0)) \($0.rawValue)" }
    return "\(entries.count) items: " + parts.joined(separator: ", ")
  }

  /// The report as JSON (sorted keys, one object per item).
  public var json: String {
    let items: [LottieJSON] = entries.map {
      [
        "identity": .string($0.identity), "mapping": .string($0.mapping.rawValue),
        "notes": .array($0.notes.map { .string($0) }),
      ]
    }
    let counts = LottieJSON.object(
      Dictionary(
        uniqueKeysWithValues: LottieMapping.allCases.map {
          ($0.rawValue, LottieJSON.number(Double(count($0))))
        }))
    return LottieJSON.object(["items": .array(items), "counts": counts]).text + "\n"
  }
}
