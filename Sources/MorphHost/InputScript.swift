import MorphCore

/// A timed list of input events, written one per line:
///
///     # comments start with '#'
///     0.0 tap                          # at the component's centre
///     1.5 tap 190,120                  # at a point (component points)
///     0.8 drag 0,0 -> 120,0 over 0.3   # press, move every tick, release
///     1.0 doubletap 190,120            # two taps, 0.1 s apart
///     1.2 longpress 190,120            # press, hold past 0.5 s, release
///     1.9 hover 40,60                  # the pointer over a point, no button down
///     2.0 key r                        # a key, as the live view reads it
///     2.5 progress 0.5                 # controlled mode: set the progress value
///
/// Times are seconds on the component's clock and must not decrease.
public struct InputScript: Equatable, Sendable {
  public enum Action: Equatable, Sendable {
    case tap(Point?)
    case doubleTap(Point?)
    case longPress(Point?)
    case hover(Point)
    case drag(from: Point, to: Point, duration: Double)
    case key(String)
    case progress(Double)
  }

  public struct Event: Equatable, Sendable {
    public var time: Double
    public var action: Action
    public var line: Int

    /// `line` is where the script said it (0: made by a program).
    public init(time: Double, action: Action, line: Int = 0) {
      self.time = time
      self.action = action
      self.line = line
    }
  }

  public var events: [Event]

  public init(events: [Event]) {
    self.events = events
  }

  // MARK: The one input rule

  // Every command plays the same input when none is given: nothing. What a component shows
  // then depends only on its props and the time asked for — `render --time`, `run`,
  // `export --duration`, `check`, a `test` case and the preview agree, and a component whose
  // rest state is the point (a toggle, a card face) is never shown mid-tap by default. A tap
  // is one word away (`--input tap`); the live view and the preview take taps by hand.

  /// The `--input` word for no input at all (a file of that name is `./none`).
  public static let noneName = "none"
  /// No input: the component as it starts, moved only by its own `appear`.
  public static let none = InputScript(events: [])

  /// The `--input` word for one tap at 0 s at the centre (a file of that name is `./tap`).
  public static let tapName = "tap"
  /// One tap at time 0 at the centre: `--input tap`; the same as a script `0 tap`.
  public static let tap = InputScript(events: [Event(time: 0, action: .tap(nil), line: 0)])

  /// What every command plays when no input is given.
  public static let `default` = none
  /// The rule in words, for help texts and docs.
  public static let defaultText = "no input unless one is given"

  /// The script a word names (`none`, `tap`), or nil for any other text.
  public static func word(_ text: String) -> InputScript? {
    switch text {
    case noneName: return InputScript.none
    case tapName: return tap
    default: return nil
    }
  }

  /// The script an `--input` argument names: `none`, `tap`, or a file that `read` returns
  /// the bytes of (parse errors name `argument` as the file); `nil` (not given) is `default`.
  public static func named(
    _ argument: String?, read: (String) throws -> [UInt8]
  ) throws -> InputScript {
    guard let argument else { return .default }
    if argument == noneName || argument == tapName { return word(argument) ?? .default }
    return try parse(String(decoding: try read(argument), as: UTF8.self), file: argument)
  }

  /// The `--input` option's lines for a command's `--help`, descriptions at `column`.
  public static func optionUsage(column: Int) -> String {
    let option = "  --input SCRIPT"
    let lines = [
      "an input script file (docs/commands.md), '\(tapName)' (one tap at 0 s",
      "at the centre) or '\(noneName)' (the default of every command: \(defaultText))",
    ]
    return option + String(repeating: " ", count: max(1, column - option.count))
      + lines.joined(separator: "\n" + String(repeating: " ", count: column))
  }

  /// How long a scripted double tap takes from its first press to its second.
  public static let doubleTapGap = 0.1
  /// How long a scripted long press holds: just past SwiftUI's minimum duration.
  public static let longPressHold = 0.55

  /// When the last event ends.
  public var duration: Double {
    events.map { e in
      switch e.action {
      case .drag(_, _, let d): return e.time + d
      case .doubleTap: return e.time + Self.doubleTapGap
      case .longPress: return e.time + Self.longPressHold
      default: return e.time
      }
    }.max() ?? 0
  }

  /// The events a script may name, for messages.
  static let verbs = "tap, doubletap, longpress, hover, drag, key or progress"

  /// A script error: `file:line: message`.
  public struct ParseError: Diagnostic, Equatable {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { "\(file):\(line): \(message)" }
    public var location: FilePosition? { FilePosition(file: file, line: line) }
    /// A script is part of the command line.
    public var exitStatus: ExitStatus { .usage }
  }

  /// Parses `text`; `file` names it in errors.
  public static func parse(_ text: String, file: String) throws(ParseError) -> InputScript {
    var events: [Event] = []
    var lastTime = -Double.infinity
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = index + 1
      let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
      let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        .map(String.init)
      guard !words.isEmpty else { continue }
      func fail(_ message: String) -> ParseError {
        ParseError(file: file, line: line, message: message)
      }
      guard let time = Double(words[0]), time.isFinite, time >= 0 else {
        throw fail("expected a time in seconds, got '\(words[0])'")
      }
      guard time <= VirtualTime.maxSeconds else {
        throw fail("time \(words[0]) is past the \(Int(VirtualTime.maxSeconds)) s limit")
      }
      guard time >= lastTime else {
        throw fail("time \(words[0]) is earlier than the line before")
      }
      lastTime = time
      guard words.count >= 2 else {
        throw fail("expected an event after the time: \(verbs)")
      }
      let action = try parseAction(words[1], Array(words.dropFirst(2)), fail: fail)
      events.append(Event(time: time, action: action, line: line))
    }
    return InputScript(events: events)
  }

  private static func parseAction(
    _ verb: String, _ args: [String], fail: (String) -> ParseError
  ) throws(ParseError) -> Action {
    switch verb {
    case "tap": return .tap(try optionalPoint(verb, args, fail: fail))
    case "doubletap": return .doubleTap(try optionalPoint(verb, args, fail: fail))
    case "longpress": return .longPress(try optionalPoint(verb, args, fail: fail))
    case "hover":
      guard args.count == 1, let p = point(args[0]) else {
        throw fail("expected 'hover x,y' (a point outside the component ends the hover)")
      }
      return .hover(p)
    case "drag":
      guard args.count >= 1, let from = point(args[0]) else {
        throw fail("expected 'drag x,y -> x,y over <seconds>'")
      }
      guard args.count >= 3, args[1] == "->", let to = point(args[2]) else {
        throw fail("expected '-> x,y' after the start point")
      }
      guard args.count == 5, args[3] == "over" else { throw fail("expected 'over <seconds>'") }
      guard let d = Double(args[4]), d.isFinite, d > 0, d <= VirtualTime.maxSeconds else {
        throw fail(
          "expected a duration in (0, \(Int(VirtualTime.maxSeconds))] after 'over', got '\(args[4])'"
        )
      }
      return .drag(from: from, to: to, duration: d)
    case "key":
      guard args.count == 1 else {
        throw fail("key takes one key name, e.g. 'key r' or 'key space'")
      }
      return .key(args[0])
    case "progress":
      guard args.count == 1, let p = Double(args[0]), p.isFinite else {
        throw fail("expected 'progress <number>'")
      }
      return .progress(p)
    default:
      throw fail("unknown event '\(verb)'; expected \(verbs)")
    }
  }

  /// The point of a tap-like verb: none (the centre) or one 'x,y'.
  private static func optionalPoint(
    _ verb: String, _ args: [String], fail: (String) -> ParseError
  ) throws(ParseError) -> Point? {
    guard args.count <= 1 else { throw fail("\(verb) takes at most one point 'x,y'") }
    guard let text = args.first else { return nil }
    guard let p = point(text) else { throw fail("expected a point 'x,y', got '\(text)'") }
    return p
  }

  private static func point(_ text: String) -> Point? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite,
      y.isFinite
    else { return nil }
    return Point(x, y)
  }
}
