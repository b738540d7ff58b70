import Foundation
import MorphCore

/// A `*.test.lua` file, run once in the plugins' sandbox under the same limits, with
/// `morph.test` (`Lua/testing.lua`) added to its `morph`. What it returned is read as
/// plain values: the cases to run (docs/testing.md).
public struct TestFile: Sendable {
  public let path: String
  public let cases: [TestCase]

  /// Runs the file at `path`; any error (syntax, a wrong argument, a limit) names its line.
  public init(path: String, limits: ScriptLimits = .standard) throws(ScriptError) {
    self.path = path
    let json: [LuaValue]
    do {
      let source = try SourceFile.read(path, limits: limits)
      let state = try LuaState(limits: limits)
      // A test file's `print` is noise in a runner's report.
      state.output = { _ in }
      let encode = try state.installTestVocabulary()
      state.moduleDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      let result = try state.call(try state.load(source, chunkName: path)).first ?? .nil
      json = try state.call(encode, [result])
    } catch var error {
      // The list's own shape and the memory cap are checked where no line of the file is
      // running: the file itself is the place.
      if error.chunk == nil { error.chunk = path }
      // The limits' messages speak of plugins; here a test file ran into them.
      if error.message.hasPrefix("plugin ") {
        error.message = "test file " + error.message.dropFirst("plugin ".count)
      }
      throw error
    }
    guard case .string(let text)? = json.first else {
      throw ScriptError(kind: .runtime, chunk: path, message: "the test vocabulary gave no cases")
    }
    do {
      cases = try JSONDecoder().decode([TestCase].self, from: Data(text.utf8))
    } catch let invalid as InvalidTestValue {
      throw ScriptError(kind: .value, chunk: path, line: invalid.line, message: invalid.message)
    } catch {
      // The vocabulary only writes what this reader reads: a mismatch is the host's bug,
      // told in one line rather than as Foundation's dump of the decoding path.
      throw ScriptError(
        kind: .value, chunk: path,
        message: "cannot read the cases (the host's test vocabulary "
          + "and reader disagree)")
    }
  }
}

/// A value the reader refuses: the vocabulary checked it where it was written, and the
/// reader checks what it uses again, so nothing the runner trusts rests on the Lua side
/// alone. `line` is the test file's line that wrote it.
struct InvalidTestValue: Error {
  var line: Int?
  var message: String
}

/// One `test.case "name" {…}`: a plugin, its props and input, and what must hold when.
public struct TestCase: Sendable, Decodable {
  public var name: String
  /// The line of the test file that declares the case.
  public var line: Int
  /// The plugin's path, relative to the test file.
  public var plugin: String
  /// Prop overrides (key, value) pairs: each value a Lua literal.
  public var props: [(key: String, value: String)]
  /// An input script written in the test file.
  public var input: String?
  /// An input script's file, relative to the test file.
  public var inputFile: String?
  public var reduceMotion: Bool
  /// In the order written; the runner takes them in time order.
  public var checks: [TestCheck]

  private enum CodingKeys: String, CodingKey {
    case name, line, plugin, props, input, inputFile, reduceMotion, checks
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decode(String.self, forKey: .name)
    line = try c.decode(Int.self, forKey: .line)
    plugin = try c.decode(String.self, forKey: .plugin)
    let pairs = try c.decode([[String]].self, forKey: .props)
    guard pairs.allSatisfy({ $0.count == 2 }) else {
      throw InvalidTestValue(line: line, message: "a prop is not a (name, value) pair")
    }
    props = pairs.map { ($0[0], $0[1]) }
    input = try c.decodeIfPresent(String.self, forKey: .input)
    inputFile = try c.decodeIfPresent(String.self, forKey: .inputFile)
    reduceMotion = try c.decodeIfPresent(Bool.self, forKey: .reduceMotion) ?? false
    checks = try c.decode([TestCheck].self, forKey: .checks)
  }
}

/// One expectation at a moment of the component's clock.
public struct TestCheck: Sendable, Decodable {
  public enum Expectation: Sendable, Equatable {
    /// A numeric state key's on-screen value within a tolerance.
    case number(key: String, value: Double, tolerance: Double)
    /// A string state value, exactly.
    case text(key: String, value: String)
    case boolean(key: String, value: Bool)
    /// Fields of the accessibility description (`label`, `value`, `hint`), exactly.
    case accessibility([String: String])
    /// The box around the node with this id, in component points.
    case frame(id: String, Rect, tolerance: Double)
    /// The node's four corners, in component points.
    case quad(id: String, [Point], tolerance: Double)
    /// The node's drawn opacity: its own times that of every group around it.
    case opacity(id: String, value: Double, tolerance: Double)
    /// What was written of the gradient the node is filled with.
    case gradient(id: String, GradientExpectation, tolerance: Double)
    /// The picture at `scale` pixels a point, against the golden of this name, compared
    /// within the host's image tolerance with what `tolerance` changes of it.
    case snapshot(String, scale: Double, tolerance: SnapshotTolerance)
    /// Nothing that will end is moving.
    case settled
  }

  /// A gradient's parts a test checks; nil ones are not checked. Points are the
  /// component's; stop colours and locations are 0…1.
  public struct GradientExpectation: Sendable, Equatable {
    public var from: Point?
    public var to: Point?
    public var center: Point?
    public var stops: [GradientStop]?
  }

  /// What a snapshot changes of the host's image tolerance (`ImageTolerance` in
  /// MorphRender): a nil field keeps the host's default.
  public struct SnapshotTolerance: Sendable, Equatable {
    /// How much a channel may differ away from edges, 0…255.
    public var channel: Int?
    /// How much a channel may differ near an edge, 0…255.
    public var edgeChannel: Int?
    /// The fraction of pixels that may break their bar, 0…1.
    public var fraction: Double?
    /// The most differing pixels that may touch one another.
    public var cluster: Int?

    public init(
      channel: Int? = nil, edgeChannel: Int? = nil, fraction: Double? = nil, cluster: Int? = nil
    ) {
      self.channel = channel
      self.edgeChannel = edgeChannel
      self.fraction = fraction
      self.cluster = cluster
    }

    /// Whether it changes nothing.
    public var isDefault: Bool { self == SnapshotTolerance() }
  }

  /// The scales a snapshot may be drawn at, in pixels a point.
  public static let scales = 0.25...4.0
  /// The largest `cluster` a snapshot's tolerance may allow (a 16-megapixel picture).
  public static let maxSnapshotCluster = 1 << 24
  /// The longest snapshot name, in bytes.
  public static let maxNameLength = 100

  /// Seconds on the component's clock.
  public var time: Double
  /// The test file's line that wrote it.
  public var line: Int
  public var expectation: Expectation

  private enum CodingKeys: String, CodingKey {
    case kind, time, line, key, number, tolerance, text, boolean, fields, id, values, name, scale
    case from, to, center, stops, within
  }

  private enum ToleranceKeys: String, CodingKey {
    case channel, edgeChannel, fraction, cluster
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let line = try c.decode(Int.self, forKey: .line)
    func refuse(_ message: String) -> InvalidTestValue {
      InvalidTestValue(line: line, message: message)
    }
    time = try c.decode(Double.self, forKey: .time)
    self.line = line
    guard time.isFinite, time >= 0 else {
      throw refuse("a moment must be a finite time >= 0 s, got \(time)")
    }
    let tolerance = try c.decodeIfPresent(Double.self, forKey: .tolerance) ?? 0
    guard tolerance.isFinite, tolerance >= 0 else {
      throw refuse("a tolerance must be finite and >= 0, got \(tolerance)")
    }
    /// `count` finite numbers.
    func numbers(_ count: Int, _ what: String) throws -> [Double] {
      let v = try c.decode([Double].self, forKey: .values)
      guard v.count == count, v.allSatisfy(\.isFinite) else {
        throw refuse("\(what) expected (\(count) finite numbers), got \(v.count) numbers")
      }
      return v
    }
    switch try c.decode(String.self, forKey: .kind) {
    case "state":
      let key = try c.decode(String.self, forKey: .key)
      if let n = try c.decodeIfPresent(Double.self, forKey: .number) {
        guard n.isFinite else { throw refuse("state '\(key)': a finite number expected") }
        expectation = .number(key: key, value: n, tolerance: tolerance)
      } else if let s = try c.decodeIfPresent(String.self, forKey: .text) {
        expectation = .text(key: key, value: s)
      } else {
        expectation = .boolean(key: key, value: try c.decode(Bool.self, forKey: .boolean))
      }
    case "accessibility":
      expectation = .accessibility(try c.decode([String: String].self, forKey: .fields))
    case "frame":
      let v = try numbers(4, "{x, y, width, height}")
      expectation = .frame(
        id: try c.decode(String.self, forKey: .id),
        Rect(x: v[0], y: v[1], width: v[2], height: v[3]),
        tolerance: tolerance)
    case "quad":
      let v = try numbers(8, "four corners {x, y}")
      let points = stride(from: 0, to: 8, by: 2).map { Point(v[$0], v[$0 + 1]) }
      expectation = .quad(
        id: try c.decode(String.self, forKey: .id), points, tolerance: tolerance)
    case "opacity":
      expectation = .opacity(
        id: try c.decode(String.self, forKey: .id), value: try numbers(1, "an opacity")[0],
        tolerance: tolerance)
    case "gradient":
      func point(_ key: CodingKeys) throws -> Point? {
        guard let v = try c.decodeIfPresent([Double].self, forKey: key) else { return nil }
        guard v.count == 2, v.allSatisfy(\.isFinite) else {
          throw refuse("gradient \(key.rawValue): {x, y} expected (2 finite numbers)")
        }
        return Point(v[0], v[1])
      }
      var stops: [GradientStop]?
      if let written = try c.decodeIfPresent([[StopPart]].self, forKey: .stops) {
        stops = try written.enumerated().map { i, parts in
          guard parts.count == 2, case .text(let name) = parts[0], case .number(let at) = parts[1],
            at.isFinite
          else { throw refuse("gradient stop \(i + 1): {\"#RRGGBB\", location} expected") }
          do {
            return GradientStop(color: try Color.parse(name), location: at)
          } catch {
            throw refuse("gradient stop \(i + 1): \(error)")
          }
        }
      }
      let want = GradientExpectation(
        from: try point(.from), to: try point(.to), center: try point(.center), stops: stops)
      guard want != GradientExpectation() else {
        throw refuse("gradient: name at least one of from, to, center, stops")
      }
      expectation = .gradient(
        id: try c.decode(String.self, forKey: .id), want, tolerance: tolerance)
    case "snapshot":
      let name = try c.decode(String.self, forKey: .name)
      let scale = try c.decodeIfPresent(Double.self, forKey: .scale) ?? 1
      guard Self.isFileName(name) else {
        throw refuse(
          "a snapshot name must be a file name in its folder (letters, digits, '_', '-')")
      }
      guard Self.scales.contains(scale) else {
        throw refuse(
          "a snapshot's scale must be in [\(Self.scales.lowerBound), \(Self.scales.upperBound)]")
      }
      var within = SnapshotTolerance()
      if c.contains(.within) {
        let t = try c.nestedContainer(keyedBy: ToleranceKeys.self, forKey: .within)
        func whole(_ key: ToleranceKeys, upTo most: Int) throws -> Int? {
          guard let v = try t.decodeIfPresent(Double.self, forKey: key) else { return nil }
          guard v >= 0, v <= Double(most), v == v.rounded() else {
            throw refuse(
              "snapshot tolerance.\(key.rawValue) must be a whole number in [0, \(most)]")
          }
          return Int(v)
        }
        within.channel = try whole(.channel, upTo: 255)
        within.edgeChannel = try whole(.edgeChannel, upTo: 255)
        within.cluster = try whole(.cluster, upTo: Self.maxSnapshotCluster)
        if let f = try t.decodeIfPresent(Double.self, forKey: .fraction) {
          guard f >= 0, f <= 1 else {
            throw refuse("snapshot tolerance.fraction must be in [0, 1]")
          }
          within.fraction = f
        }
      }
      expectation = .snapshot(name, scale: scale, tolerance: within)
    case "settled": expectation = .settled
    case let other: throw refuse("unknown check '\(other.prefix(40))'")
    }
  }

  /// One part of a written gradient stop: its colour's text, then its location.
  private enum StopPart: Decodable {
    case text(String)
    case number(Double)

    init(from decoder: any Decoder) throws {
      let c = try decoder.singleValueContainer()
      if let n = try? c.decode(Double.self) {
        self = .number(n)
      } else {
        self = .text(try c.decode(String.self))
      }
    }
  }

  /// A name that stays a file in its folder: what makes a golden's path safe. The
  /// vocabulary's rule (letters, digits, `_`, `-`, not starting with `-`) is narrower.
  public static func isFileName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= maxNameLength && !name.hasPrefix(".")
      && name.unicodeScalars.allSatisfy {
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
      }
  }
}
