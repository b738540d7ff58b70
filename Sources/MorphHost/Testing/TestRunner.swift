import Foundation
import MorphCore
import MorphRender
import MorphScript

/// Runs the cases of `*.test.lua` files: each case loads its plugin afresh with its props,
/// plays its input on the virtual clock and checks its expectations in time order.
/// Deterministic by construction: the clock is virtual, text uses the host's own fonts
/// (`PangoTextMeasure`), and nothing reads the wall clock.
public struct TestRunner: Sendable {
  /// The limits test files and the plugins they load run under.
  public var limits: ScriptLimits
  /// Record missing goldens and refresh those that differ.
  public var update: Bool

  public init(limits: ScriptLimits = .standard, update: Bool = false) {
    self.limits = limits
    self.update = update
  }

  /// Runs every case of the test file at `path`.
  public func run(file path: String) -> TestFileResult {
    let file: TestFile
    do {
      file = try TestFile(path: path, limits: limits)
    } catch {
      return TestFileResult(path: path, cases: [], error: error)
    }
    if let excess = Self.excess(file) {
      return TestFileResult(
        path: path, cases: [],
        error: ScriptError(kind: .value, chunk: path, line: excess.line, message: excess.message))
    }
    var snapshots = SnapshotNames()
    return TestFileResult(
      path: path, cases: file.cases.map { run($0, in: path, snapshots: &snapshots) })
  }

  /// The most cases and checks a file may hold: each case loads its plugin afresh.
  public static let maxCases = 1000
  public static let maxChecks = 10_000

  /// What makes a file too much to run, if anything: more cases or checks than the caps,
  /// or more than an hour of virtual time in all, so a hostile file cannot keep a runner
  /// busy for hours.
  static func excess(_ file: TestFile) -> (line: Int?, message: String)? {
    let checks = file.cases.reduce(0) { $0 + $1.checks.count }
    // Each moment in range on its own too: a negative one must not offset a long one.
    let moments = file.cases.lazy.flatMap(\.checks)
    if let wild = moments.first(where: { !(0...VirtualTime.maxSeconds).contains($0.time) }) {
      return (
        wild.line,
        "a moment at \(TestNumber.text(wild.time)) s; moments are 0 to "
          + "\(Int(VirtualTime.maxSeconds)) s"
      )
    }
    let seconds = file.cases.reduce(0) { $0 + ($1.checks.map(\.time).max() ?? 0) }
    if file.cases.count > maxCases {
      return (nil, "\(file.cases.count) cases; at most \(maxCases) a file")
    }
    if checks > maxChecks { return (nil, "\(checks) checks; at most \(maxChecks) a file") }
    guard seconds <= VirtualTime.maxSeconds else {
      return (
        nil,
        "the cases play \(TestNumber.text(seconds)) s of virtual time in all; "
          + "at most \(Int(VirtualTime.maxSeconds)) s a file"
      )
    }
    return nil
  }

  private func run(_ test: TestCase, in path: String, snapshots: inout SnapshotNames)
    -> CaseResult
  {
    var run = CaseRun(test: test, testFile: path, update: update)
    do {
      try run.start(limits: limits)
      try run.check(snapshots: &snapshots)
    } catch {
      run.fail(error, at: run.currentLine)
    }
    // The case is over: the component unloads, and a `disappear` that fails fails the case.
    do {
      try run.host?.component.unload()
    } catch {
      run.fail(error, at: run.currentLine)
    }
    return run.result
  }
}

/// Snapshot names must be unique within a test file: each names one golden.
struct SnapshotNames {
  var lines: [String: Int] = [:]
}

/// One case as it runs.
struct CaseRun {
  let test: TestCase
  let testFile: String
  let update: Bool
  var result: CaseResult
  var host: ComponentHost?
  var player: ScriptPlayer?
  /// The line whose expectation is being checked, for errors raised meanwhile.
  var currentLine: Int
  /// Settle checks that failed, to be told when the component did settle.
  var unsettled: [Int] = []
  /// Whether the clock has started: an error from now on happened at a time.
  var checking = false

  init(test: TestCase, testFile: String, update: Bool) {
    self.test = test
    self.testFile = testFile
    self.update = update
    currentLine = test.line
    result = CaseResult(
      name: test.name, line: test.line, failures: [], recorded: [], missingGoldens: [])
  }

  mutating func fail(_ message: String, line: Int, time: Double?) {
    result.failures.append(
      TestFailure(location: FilePosition(file: testFile, line: line), time: time, message: message))
  }

  /// An error: where it happened when it knows (the plugin's line), else the test's line.
  mutating func fail(_ error: any Error, at line: Int) {
    let diagnostic = error as? any Diagnostic
    let message = diagnostic?.message ?? "\(error)"
    let location = diagnostic?.location ?? FilePosition(file: testFile, line: line)
    result.failures.append(
      TestFailure(location: location, time: checking ? host?.time : nil, message: message))
  }

  /// Loads the plugin with the case's props and parses its input.
  mutating func start(limits: ScriptLimits) throws {
    let plugin = try TestPaths.confined(
      test.plugin, what: "plugin", testFile: testFile, line: test.line)
    let options = ComponentOptions(
      props: test.props, reduceMotion: test.reduceMotion, limits: limits, output: { _ in })
    let document = try DocumentHost(path: plugin, options: options)
    guard let component = document.component else {
      throw TestSetupError(
        location: FilePosition(file: testFile, line: test.line),
        message: "'\(test.plugin)' is a scene, not a component: it has no clock or input")
    }
    host = component
    result.inputs += component.watchedFiles
    player = ScriptPlayer(try inputScript(limits: limits))
  }

  private mutating func inputScript(limits: ScriptLimits) throws -> InputScript {
    if let text = test.input {
      if let named = InputScript.word(text) { return named }
      do {
        return try InputScript.parse(text, file: testFile)
      } catch {
        // The script's lines count from its own first line, inside the case.
        throw TestSetupError(
          location: FilePosition(file: testFile, line: test.line),
          message: "input line \(error.line): \(error.message)")
      }
    }
    if let name = test.inputFile {
      let path = try TestPaths.confined(
        name, what: "inputFile", testFile: testFile, line: test.line)
      result.inputs.append(path)
      let cap = limits.memoryCapMiB > 0 ? Int(limits.memoryCapMiB * 1024 * 1024) : Int.max
      let bytes: [UInt8]
      do {
        bytes = try RegularFile.contents(path, maxBytes: cap)
      } catch {
        throw TestSetupError(
          location: FilePosition(file: testFile, line: test.line),
          message: "inputFile '\(name)' \(error.reason)")
      }
      return try InputScript.parse(String(decoding: bytes, as: UTF8.self), file: path)
    }
    return .default
  }

  /// Plays the input up to each moment in turn and checks what must hold there.
  mutating func check(snapshots: inout SnapshotNames) throws {
    guard let host else { return }
    checking = true
    // Stable: checks at one moment keep the order they were written in.
    let ordered = test.checks.enumerated().sorted {
      ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
    }
    var frame: ComponentHost.Frame?
    let renderer = CairoRenderer()
    for (_, check) in ordered {
      currentLine = check.line
      // No time is past `VirtualTime.maxSeconds`: `TestRunner.excess` caps each moment and
      // the file's total.
      if check.time > host.time || frame == nil {
        try play(until: check.time)
        // Every moment is drawn, whatever it checks: a body or an `onAppear` that raises
        // fails the case, as it fails `render` and `check`, and state is what a viewer's
        // frame would leave it.
        frame = try host.frame()
      }
      try evaluate(check, frame: frame, renderer: renderer, snapshots: &snapshots)
    }
    try reportSettling()
  }

  private mutating func evaluate(
    _ check: TestCheck, frame: ComponentHost.Frame?, renderer: CairoRenderer,
    snapshots: inout SnapshotNames
  ) throws {
    guard let host else { return }
    let mismatch: String?
    switch check.expectation {
    case .number(let key, let value, let tolerance):
      mismatch = Expect.number(key, value, tolerance, in: host.component)
    case .text(let key, let value):
      mismatch = Expect.value(key, "'\(value)'", in: host.component) { v in
        if case .string(let s) = v { return s == value }
        return false
      }
    case .boolean(let key, let value):
      mismatch = Expect.value(key, String(value), in: host.component) { v in
        if case .boolean(let b) = v { return b == value }
        return false
      }
    case .accessibility(let fields):
      mismatch = Expect.accessibility(fields, frame?.summary.accessibility)
    case .frame(let id, let rect, let tolerance):
      mismatch = Expect.frame(id, rect, tolerance, in: frame, host: host)
    case .quad(let id, let points, let tolerance):
      mismatch = Expect.quad(id, points, tolerance, in: frame, host: host)
    case .opacity(let id, let value, let tolerance):
      mismatch = Expect.opacity(id, value, tolerance, in: frame)
    case .gradient(let id, let want, let tolerance):
      mismatch = Expect.gradient(id, want, tolerance, in: frame, host: host)
    case .snapshot(let name, let scale, let tolerance):
      mismatch = try snapshot(
        name, scale: scale, tolerance: tolerance, line: check.line, frame: frame,
        renderer: renderer, &snapshots)
    case .settled:
      mismatch =
        host.component.isSettling
        ? "expected to be at rest, still moving (\(host.component.engine.animatingKeys.joined(separator: ", ")))"
        : nil
      if mismatch != nil { unsettled.append(result.failures.count) }
    }
    if let mismatch { fail(mismatch, line: check.line, time: check.time) }
  }

  /// Plays the input to `time`; while a settle check waits to hear when the component
  /// came to rest, tick by tick, to catch that moment.
  private mutating func play(until time: Double) throws {
    guard let host else { return }
    while !unsettled.isEmpty, host.time < time {
      try player?.play(until: min(host.time + host.tick, time), on: host)
      if !host.component.isSettling { noteSettled(at: host.time) }
    }
    try player?.play(until: time, on: host)
  }

  private mutating func noteSettled(at time: Double) {
    for index in unsettled {
      result.failures[index].message += "; it comes to rest at \(TestNumber.text(time)) s"
    }
    unsettled = []
  }

  /// Tells each failed settle check still waiting when the component did come to rest.
  private mutating func reportSettling() throws {
    guard !unsettled.isEmpty, let host else { return }
    let limit = 60.0
    if let settled = try host.settle(limit: limit) {
      noteSettled(at: settled)
      return
    }
    for index in unsettled {
      result.failures[index].message += "; still moving \(TestNumber.text(limit)) s later"
    }
    unsettled = []
  }

  /// Compares the picture with its golden beside the test file (see `Snapshot`).
  private mutating func snapshot(
    _ name: String, scale: Double, tolerance: TestCheck.SnapshotTolerance, line: Int,
    frame: ComponentHost.Frame?, renderer: CairoRenderer, _ names: inout SnapshotNames
  ) throws -> String? {
    if let first = names.lines[name] {
      return "snapshot '\(name)' is already taken at line \(first); each names its own golden"
    }
    names.lines[name] = line
    guard let frame, let host else { return nil }
    let image = try host.image(frame, renderer: renderer, scale: scale)
    let golden = try Snapshot(testFile: testFile, name: name, line: line)
    result.inputs.append(golden.path)
    switch try golden.compare(image, update: update, tolerance: Snapshot.tolerance(tolerance)) {
    case .matched: return nil
    case .recorded(let path):
      result.recorded.append(path)
      return nil
    case .missing(let path):
      result.missingGoldens.append(path)
      return "snapshot '\(name)' has no golden yet (\(path))"
    case .unreadable(let path, let reason):
      return "snapshot '\(name)': its golden \(path) \(reason); --update records it anew"
    case .sizeMismatch(let expected, let actual, let actualPath):
      return "snapshot '\(name)' is \(actual), its golden \(expected); wrote \(actualPath)"
        + Self.fontNote
    case .differs(let difference, let actualPath, let diffPath):
      let within = tolerance.isDefault ? "" : " (its tolerance: \(Snapshot.describe(tolerance)))"
      return "snapshot '\(name)' differs from its golden: \(difference)\(within); "
        + "wrote \(actualPath) and \(diffPath)" + Self.fontNote
    }
  }

  /// Pictures are only comparable where the host's own fonts are installed: a missing one
  /// is the likeliest reason for a snapshot with text to differ.
  static var fontNote: String {
    let missing = PangoTextMeasure.missingFonts
    guard !missing.isEmpty else { return "" }
    return " (\(missing.count) of the host's fonts are missing, e.g. \(missing[0]): "
      + "text draws differently here)"
  }
}

/// A case that cannot start: its plugin or input is missing or wrong.
struct TestSetupError: Diagnostic {
  var location: FilePosition?
  var message: String
  var description: String { locatedMessage }
}
