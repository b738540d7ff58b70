import Foundation
import MorphCore
import MorphRender
import MorphScript

/// Checks one expectation against a running component; each returns nil when it holds,
/// else what went wrong with its numbers (expected, actual, tolerance).
enum Expect {
  /// A numeric state key's on-screen (presented) value.
  static func number(_ key: String, _ value: Double, _ tolerance: Double, in c: ComponentInstance)
    -> String?
  {
    // A number the engine does not own (a key declared non-numeric) lives in Lua.
    let lua: Double?
    switch c.stateValue(key) {
    case .number(let n): lua = n
    case .integer(let i): lua = Double(i)
    default: lua = nil
    }
    guard let actual = c.presented(key) ?? lua else {
      return "state '\(key)' " + notANumber(key, in: c)
    }
    let off = abs(actual - value)
    guard off > tolerance else { return nil }
    return "state '\(key)': expected \(TestNumber.text(value)) ± \(TestNumber.text(tolerance)), "
      + "got \(TestNumber.text(actual)) (off by \(TestNumber.text(off)))"
  }

  private static func notANumber(_ key: String, in c: ComponentInstance) -> String {
    switch c.stateValue(key) {
    case .nil:
      let keys = c.engine.channels.keys.sorted().joined(separator: ", ")
      return "does not exist (numeric keys: \(keys.isEmpty ? "none" : keys))"
    case let other: return "is not a number: \(describe(other))"
    }
  }

  /// A non-numeric state value, by `matches`.
  static func value(
    _ key: String, _ expected: String, in c: ComponentInstance, matches: (LuaValue) -> Bool
  ) -> String? {
    let actual = c.stateValue(key)
    guard !matches(actual) else { return nil }
    return "state '\(key)': expected \(expected), got \(describe(actual))"
  }

  private static func describe(_ v: LuaValue) -> String {
    switch v {
    case .string(let s): return "'\(s)'"
    case .number(let n): return TestNumber.text(n)
    case .integer(let i): return String(i)
    case .boolean(let b): return String(b)
    case .nil: return "nil"
    case .table: return "a table"
    case .function: return "a function"
    case .other: return "a Lua object"
    }
  }

  static func accessibility(_ fields: [String: String], _ a: Accessibility?) -> String? {
    guard let a else { return "expected an accessibility description; the component has none" }
    let actual = ["label": a.label, "value": a.value, "hint": a.hint]
    for (field, want) in fields.sorted(by: { $0.key < $1.key }) where actual[field] != want {
      let got = actual[field].flatMap { $0 }.map { "'\($0)'" } ?? "none"
      return "accessibility \(field): expected '\(want)', got \(got)"
    }
    return nil
  }

  /// The node's corners in component points, or what is wrong with finding it.
  private static func corners(_ id: String, in frame: ComponentHost.Frame?, host: ComponentHost)
    -> Result<[Point], NodeMissing>
  {
    let items = frame?.list.items ?? []
    guard let item = items.first(where: { $0.id == id }) else {
      let ids = Set(items.compactMap(\.id)).sorted().joined(separator: ", ")
      return .failure(
        NodeMissing(text: "no node with id '\(id)' (ids: \(ids.isEmpty ? "none" : ids))"))
    }
    return .success(item.quad.map(host.componentPoint))
  }

  struct NodeMissing: Error { var text: String }

  /// The axis-aligned box around the node, in component points.
  static func frame(
    _ id: String, _ want: Rect, _ tolerance: Double, in frame: ComponentHost.Frame?,
    host: ComponentHost
  ) -> String? {
    switch corners(id, in: frame, host: host) {
    case .failure(let missing): return missing.text
    case .success(let quad):
      let xs = quad.map(\.x)
      let ys = quad.map(\.y)
      let (x0, y0) = (xs.min() ?? 0, ys.min() ?? 0)
      let got = [x0, y0, (xs.max() ?? 0) - x0, (ys.max() ?? 0) - y0]
      let expected = [want.origin.x, want.origin.y, want.size.width, want.size.height]
      return compare(
        "node '\(id)' frame", expected, got, tolerance,
        names: ["x", "y", "width", "height"])
    }
  }

  /// The node's four corners after every transform, in component points.
  static func quad(
    _ id: String, _ want: [Point], _ tolerance: Double, in frame: ComponentHost.Frame?,
    host: ComponentHost
  ) -> String? {
    switch corners(id, in: frame, host: host) {
    case .failure(let missing): return missing.text
    case .success(let quad):
      let corners = ["top-left", "top-right", "bottom-right", "bottom-left"]
      return compare(
        "node '\(id)' quad", want.flatMap { [$0.x, $0.y] }, quad.flatMap { [$0.x, $0.y] },
        tolerance, names: corners.flatMap { ["\($0) x", "\($0) y"] })
    }
  }

  /// Numbers against numbers: the first one out of tolerance is named.
  private static func compare(
    _ what: String, _ expected: [Double], _ actual: [Double], _ tolerance: Double,
    names: [String]
  ) -> String? {
    guard
      let i = expected.indices.first(where: { !(abs(expected[$0] - actual[$0]) <= tolerance) })
    else { return nil }
    let off = abs(expected[i] - actual[i])
    return "\(what): expected \(TestNumber.list(expected)) ± \(TestNumber.text(tolerance)), "
      + "got \(TestNumber.list(actual)) (\(names[i]) off by \(TestNumber.text(off)))"
  }
}

/// A snapshot's golden: `NAME.png` in the `BASE.snapshots` folder beside `BASE.test.lua`.
/// A mismatch writes `NAME.actual.png` and `NAME.diff.png` (the differing pixels in red)
/// beside it; a match removes them. Compared with `ImageComparison`, edge-tolerant as the
/// host's own goldens are.
struct Snapshot {
  let path: String

  init(testFile: String, name: String) {
    var base = String(testFile.split(separator: "/").last ?? "")
    for suffix in [".lua", ".test"] where base.hasSuffix(suffix) { base.removeLast(suffix.count) }
    path = TestPaths.beside(testFile, base + ".snapshots/" + name + ".png")
  }

  var actualPath: String { sibling("actual") }
  var diffPath: String { sibling("diff") }

  private func sibling(_ tag: String) -> String {
    String(path.dropLast(".png".count)) + ".\(tag).png"
  }

  enum Outcome {
    case matched
    case recorded(path: String)
    case missing(path: String)
    case sizeMismatch(expected: String, actual: String, actualPath: String)
    case differs(ImageDifference, actualPath: String, diffPath: String)
  }

  /// Compares `image` with the golden; with `update`, a missing or differing golden is
  /// (re)written instead.
  func compare(_ image: RasterImage, update: Bool) throws -> Outcome {
    guard let data = FileManager.default.contents(atPath: path) else {
      guard update else { return .missing(path: path) }
      return try record(image)
    }
    let golden = try RasterImage.decodePNG([UInt8](data))
    guard golden.width == image.width, golden.height == image.height else {
      if update { return try record(image) }
      try image.writePNG(to: actualPath)
      return .sizeMismatch(
        expected: "\(golden.width)×\(golden.height)", actual: "\(image.width)×\(image.height)",
        actualPath: actualPath)
    }
    let tolerance = ImageTolerance.standard
    if let d = ImageComparison.compare(expected: golden, actual: image, tolerance: tolerance),
      !tolerance.allows(d)
    {
      if update { return try record(image) }
      try image.writePNG(to: actualPath)
      try ImageComparison.differenceImage(expected: golden, actual: image, tolerance: tolerance)?
        .writePNG(to: diffPath)
      return .differs(d, actualPath: actualPath, diffPath: diffPath)
    }
    removeStale()
    return .matched
  }

  private func record(_ image: RasterImage) throws -> Outcome {
    try FileManager.default.createDirectory(
      atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
      withIntermediateDirectories: true)
    try image.writePNG(to: path)
    removeStale()
    return .recorded(path: path)
  }

  /// Images from an earlier failure would only mislead.
  private func removeStale() {
    for stale in [actualPath, diffPath] { try? FileManager.default.removeItem(atPath: stale) }
  }
}
