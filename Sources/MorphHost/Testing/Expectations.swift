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

  /// The first item with `id` in paint order, or what is wrong with finding it.
  private static func item(_ id: String, in frame: ComponentHost.Frame?)
    -> Result<DisplayItem, NodeMissing>
  {
    let items = frame?.list.items ?? []
    guard let item = items.first(where: { $0.id == id }) else {
      let ids = Set(items.compactMap(\.id)).sorted().joined(separator: ", ")
      return .failure(
        NodeMissing(text: "no node with id '\(id)' (ids: \(ids.isEmpty ? "none" : ids))"))
    }
    return .success(item)
  }

  /// The node's corners in component points, or what is wrong with finding it.
  private static func corners(_ id: String, in frame: ComponentHost.Frame?, host: ComponentHost)
    -> Result<[Point], NodeMissing>
  {
    item(id, in: frame).map { $0.quad.map(host.componentPoint) }
  }

  /// The node's drawn opacity: its own (every `opacity` up to its group) times that of
  /// every compositing group it is drawn in.
  static func opacity(
    _ id: String, _ want: Double, _ tolerance: Double, in frame: ComponentHost.Frame?
  ) -> String? {
    var groups: [Double] = []
    for command in frame?.list.commands ?? [] {
      switch command {
      case .beginGroup(let style): groups.append(style.opacity)
      case .endGroup: _ = groups.popLast()
      case .item(let item) where item.id == id:
        return compare(
          "node '\(id)' opacity", [want], [groups.reduce(item.opacity, *)], tolerance,
          names: ["opacity"])
      case .item: continue
      }
    }
    if case .failure(let missing) = item(id, in: frame) { return missing.text }
    return nil
  }

  /// The node's gradient fill against what the test wrote of it: ends or centre in
  /// component points (through the item's transform), stops as straight sRGB 0…1.
  static func gradient(
    _ id: String, _ want: TestCheck.GradientExpectation, _ tolerance: Double,
    in frame: ComponentHost.Frame?, host: ComponentHost
  ) -> String? {
    let found: DisplayItem
    switch item(id, in: frame) {
    case .failure(let missing): return missing.text
    case .success(let item): found = item
    }
    // A fill's gradient is in unit points of the item's frame (as the renderer reads it).
    let point = { (unit: Point) in
      host.componentPoint(found.transform.apply(found.frame.point(atUnit: unit)))
    }
    let kind: String
    var ends: [String: Point] = [:]
    let stops: [GradientStop]
    switch found.fill {
    case .linearGradient(let g):
      (kind, stops) = ("linear", g.stops)
      ends = ["from": point(g.start), "to": point(g.end)]
    case .radialGradient(let g):
      (kind, stops) = ("radial", g.stops)
      ends = ["center": point(g.center)]
    case .angularGradient(let g):
      (kind, stops) = ("angular", g.stops)
      ends = ["center": point(g.center)]
    default:
      return "node '\(id)' is not filled with a gradient"
    }
    var names: [String] = []
    var expected: [Double] = []
    var actual: [Double] = []
    for (name, written) in [("from", want.from), ("to", want.to), ("center", want.center)] {
      guard let written else { continue }
      guard let got = ends[name] else {
        return "node '\(id)': a \(kind) gradient has no '\(name)' (it has "
          + ends.keys.sorted().joined(separator: ", ") + ")"
      }
      names += ["\(name) x", "\(name) y"]
      expected += [written.x, written.y]
      actual += [got.x, got.y]
    }
    if let written = want.stops {
      guard written.count == stops.count else {
        return "node '\(id)' gradient: expected \(written.count) stops, it has \(stops.count)"
      }
      for (i, (w, g)) in zip(written, stops).enumerated() {
        names += ["red", "green", "blue", "alpha", "location"].map { "stop \(i + 1) \($0)" }
        expected += [w.color.red, w.color.green, w.color.blue, w.color.alpha, w.location]
        actual += [g.color.red, g.color.green, g.color.blue, g.color.alpha, g.location]
      }
    }
    return compare("node '\(id)' gradient", expected, actual, tolerance, names: names)
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

  /// Numbers against numbers: the one furthest out of tolerance is named (a NaN is
  /// furthest of all), with how many others are out too.
  static func compare(
    _ what: String, _ expected: [Double], _ actual: [Double], _ tolerance: Double,
    names: [String]
  ) -> String? {
    let offs = zip(expected, actual).map { abs($0 - $1) }
    let out = offs.indices.filter { !(offs[$0] <= tolerance) }
    func badness(_ i: Int) -> Double { offs[i].isNaN ? .infinity : offs[i] }
    guard let worst = out.max(by: { badness($0) < badness($1) }) else { return nil }
    let others = out.count > 1 ? "; \(out.count) of \(offs.count) out of tolerance" : ""
    return "\(what): expected \(TestNumber.list(expected)) ± \(TestNumber.text(tolerance)), "
      + "got \(TestNumber.list(actual)) (worst: \(names[worst]) off by "
      + "\(TestNumber.text(offs[worst]))\(others))"
  }
}

/// A snapshot's golden: `NAME.png` in the `BASE.snapshots` folder beside `BASE.test.lua`.
/// A mismatch writes `NAME.actual.png` and `NAME.diff.png` (the differing pixels in red)
/// beside it; a match removes them. Compared with `ImageComparison`, edge-tolerant as the
/// host's own goldens are.
///
/// Everything stays inside the test file's folder: the snapshots folder must be a folder
/// there (a link leading out is refused), a golden must be a regular file (not a link, a
/// FIFO or a device), read without blocking and no larger than a PNG of the picture's
/// size can be, its header checked against the picture's size before anything is
/// inflated and its data checked by `PNGCheck`, as `morph.image` checks a plugin's
/// images. Every file is written by `SafeFile`: a temporary file renamed into place,
/// never through a link.
struct Snapshot {
  let path: String
  /// The snapshots folder, as written.
  let folder: String
  /// The test file's folder: nothing is read or written outside it.
  let root: String
  /// Where errors point: the test file's line that wrote the snapshot.
  let location: FilePosition

  init(testFile: String, name: String, line: Int) throws(TestSetupError) {
    location = FilePosition(file: testFile, line: line)
    // The reader checked the name; the path's safety rests on it, so it is checked here.
    guard TestCheck.isFileName(name) else {
      throw TestSetupError(
        location: location, message: "snapshot name '\(name)' is not a file name")
    }
    var base = String(testFile.split(separator: "/").last ?? "")
    for suffix in [".lua", ".test"] where base.hasSuffix(suffix) { base.removeLast(suffix.count) }
    folder = TestPaths.beside(testFile, base + ".snapshots")
    path = folder + "/" + name + ".png"
    root = TestPaths.folder(of: testFile)
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
    /// The golden is not a PNG the host will decode (corrupt, too large): why, as a
    /// predicate ("is not a PNG file").
    case unreadable(path: String, reason: String)
  }

  /// What the golden holds: nothing yet, a picture of another size (not decoded), the
  /// picture, or why it cannot be read.
  private enum Golden {
    case missing
    case size(width: Int, height: Int)
    case image(RasterImage)
    case unreadable(String)
  }

  /// The host's standard image tolerance with what a snapshot changes of it.
  static func tolerance(_ written: TestCheck.SnapshotTolerance) -> ImageTolerance {
    var t = ImageTolerance.standard
    if let v = written.channel { t.channelDelta = v }
    if let v = written.edgeChannel { t.edgeChannelDelta = v }
    if let v = written.fraction { t.maxDifferingFraction = v }
    if let v = written.cluster { t.maxClusterPixels = v }
    return t
  }

  /// What a snapshot's tolerance sets, as written: `channel 40, cluster 50`.
  static func describe(_ written: TestCheck.SnapshotTolerance) -> String {
    let parts: [(String, String?)] = [
      ("channel", written.channel.map(String.init)),
      ("edgeChannel", written.edgeChannel.map(String.init)),
      ("fraction", written.fraction.map(TestNumber.text)),
      ("cluster", written.cluster.map(String.init)),
    ]
    return parts.compactMap { name, value in value.map { "\(name) \($0)" } }
      .joined(separator: ", ")
  }

  /// Compares `image` with the golden within `tolerance`; with `update`, a missing,
  /// differing or unreadable golden is (re)written instead.
  func compare(
    _ image: RasterImage, update: Bool, tolerance: ImageTolerance = .standard
  ) throws -> Outcome {
    guard try checkFolder(creating: false) else {
      guard update else { return .missing(path: path) }
      return try record(image)
    }
    switch try golden(for: image) {
    case .missing:
      guard update else { return .missing(path: path) }
      return try record(image)
    case .unreadable(let reason):
      guard update else { return .unreadable(path: path, reason: reason) }
      return try record(image)
    case .size(let width, let height):
      if update { return try record(image) }
      try write(image, to: actualPath)
      return .sizeMismatch(
        expected: "\(width)×\(height)", actual: "\(image.width)×\(image.height)",
        actualPath: actualPath)
    case .image(let golden):
      if let d = ImageComparison.compare(expected: golden, actual: image, tolerance: tolerance),
        !tolerance.allows(d)
      {
        if update { return try record(image) }
        try write(image, to: actualPath)
        if let diff = ImageComparison.differenceImage(
          expected: golden, actual: image, tolerance: tolerance)
        {
          try write(diff, to: diffPath)
        }
        return .differs(d, actualPath: actualPath, diffPath: diffPath)
      }
      removeStale()
      return .matched
    }
  }

  /// The golden, read and checked within bounds (see the type's comment).
  private func golden(for image: RasterImage) throws -> Golden {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      guard errno == ENOENT else { throw refusal("\(path) cannot be read") }
      return .missing
    }
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFREG else {
      throw refusal(
        "golden \(path) is \(CheckedFile.describe(kind)); a golden must be a regular file")
    }
    // The largest PNG a picture of this size can honestly be: every row stored
    // uncompressed at 16 bits a channel, twice over, and room for ancillary chunks.
    let rows = (8 * image.width + 1) * image.height
    let maxBytes = 2 * rows + (1 << 20)
    let bytes: [UInt8]
    do {
      bytes = try RegularFile.contents(path, maxBytes: maxBytes, followingLinks: false)
    } catch {
      return .unreadable(error.reason)
    }
    let png: PNGCheck
    do {
      png = try PNGCheck(bytes)
    } catch {
      return .unreadable(error.notPNG ? "is not a PNG file" : "is not a valid PNG: \(error)")
    }
    // A golden of another size is a mismatch whatever it holds: never inflated.
    guard png.width == image.width, png.height == image.height else {
      return .size(width: png.width, height: png.height)
    }
    do {
      try png.checkImageData()
    } catch {
      return .unreadable("is not a valid PNG: \(error)")
    }
    return .image(try RasterImage.decodePNG(bytes))
  }

  /// Whether the snapshots folder exists (made when `creating`): a folder inside the test
  /// file's folder, else an error.
  @discardableResult
  private func checkFolder(creating: Bool) throws -> Bool {
    var info = stat()
    if lstat(folder, &info) != 0 {
      guard errno == ENOENT else { throw refusal("\(folder) cannot be read") }
      guard creating else { return false }
      guard mkdir(folder, 0o777) == 0 || errno == EEXIST else {
        throw FileWriteError(folder, errno: errno)
      }
    }
    var resolved = stat()
    guard stat(folder, &resolved) == 0, resolved.st_mode & S_IFMT == S_IFDIR else {
      throw refusal("\(folder) is not a folder; goldens go in a folder of that name")
    }
    guard let real = SafeFile.realPath(folder), let top = SafeFile.realPath(root),
      TestPaths.contains(top, real)
    else {
      throw refusal("\(folder) leads outside the test file's folder; refusing to use it")
    }
    return true
  }

  private func record(_ image: RasterImage) throws -> Outcome {
    try write(image, to: path)
    removeStale()
    return .recorded(path: path)
  }

  private func write(_ image: RasterImage, to target: String) throws {
    try checkFolder(creating: true)
    try SafeFile.write(try image.pngData(), to: target, within: root, refusingLinks: true)
  }

  /// Images from an earlier failure would only mislead. Only files (or links) go: never
  /// a folder, never what a link points at.
  private func removeStale() {
    for stale in [actualPath, diffPath] {
      var info = stat()
      if lstat(stale, &info) == 0, info.st_mode & S_IFMT != S_IFDIR { unlink(stale) }
    }
  }

  private func refusal(_ message: String) -> TestSetupError {
    TestSetupError(location: location, message: message)
  }
}
