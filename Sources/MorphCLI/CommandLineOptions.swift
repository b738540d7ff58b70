import MorphCore
import MorphRender

/// A small command-line reader: `--name value`, `--name=value`, flags, and
/// positional arguments, with errors that say which option was wrong.
struct CommandLineOptions {
  private var arguments: [String]
  private var positional: [String] = []
  /// Every option name the command asked for: what an unknown one is compared with.
  private var known: [String] = []

  init(_ arguments: [String]) {
    self.arguments = arguments
  }

  /// The value of `name`, removed from the list; nil when absent.
  mutating func value(_ name: String) throws(UsageError) -> String? {
    if !known.contains(name) { known.append(name) }
    var i = 0
    while i < arguments.count {
      let argument = arguments[i]
      if argument == "--" { return nil }
      if argument == name {
        guard i + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
        let value = arguments[i + 1]
        arguments.removeSubrange(i...(i + 1))
        return value
      }
      if argument.hasPrefix(name + "=") {
        arguments.remove(at: i)
        return String(argument.dropFirst(name.count + 1))
      }
      i += 1
    }
    return nil
  }

  /// Every value given for a repeatable option, in order.
  mutating func values(_ name: String) throws(UsageError) -> [String] {
    var found: [String] = []
    while let value = try value(name) { found.append(value) }
    return found
  }

  /// `--help` or `-h` anywhere before `--`.
  mutating func helpRequested() -> Bool { flag("--help") || flag("-h") }

  mutating func flag(_ name: String) -> Bool {
    if !known.contains(name) { known.append(name) }
    guard let i = arguments.firstIndex(of: name) else { return false }
    if let end = arguments.firstIndex(of: "--"), end < i { return false }
    arguments.remove(at: i)
    return true
  }

  /// A number option that must lie in `bounds`; nil when absent. Every number
  /// the CLI reads goes through here, so no option can be NaN, infinite or
  /// out of range (and no later conversion to an integer can trap).
  mutating func double(_ name: String, in bounds: Bounds) throws(UsageError) -> Double? {
    guard let text = try value(name) else { return nil }
    guard let number = Double(text), number.isFinite else {
      throw UsageError("\(name) expects a number, got '\(text)'")
    }
    guard bounds.contains(number) else {
      throw UsageError("\(name) must be in \(bounds), got \(text)")
    }
    return number
  }

  /// A whole-number option that must lie in `range`; nil when absent.
  mutating func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = try value(name) else { return nil }
    guard let number = Int(text) else {
      throw UsageError("\(name) expects a whole number, got '\(text)'")
    }
    guard range.contains(number) else {
      throw UsageError("\(name) must be in \(range.lowerBound)…\(range.upperBound), got \(text)")
    }
    return number
  }

  /// `--scale S`: pixels per point, the same rule for every command.
  mutating func scale() throws(UsageError) -> Double {
    try double("--scale", in: Bounds.scale) ?? 1
  }

  /// `--cols N` and `--rows N`: a text frame's size in cells.
  mutating func cells() throws(UsageError) -> (cols: Int?, rows: Int?) {
    (try int("--cols", in: Self.cellRange), try int("--rows", in: Self.cellRange))
  }

  static let cellRange = 1...1000

  /// An option that names one of `Choice`'s cases; nil when absent. A wrong
  /// name lists the valid ones.
  mutating func choice<Choice: RawRepresentable & CaseIterable>(
    _ name: String, _: Choice.Type = Choice.self
  ) throws(UsageError) -> Choice? where Choice.RawValue == String {
    guard let text = try value(name) else { return nil }
    guard let choice = Choice(rawValue: text) else {
      let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError("\(name) must be one of \(names), got '\(text)'")
    }
    return choice
  }

  /// Positional arguments; anything left that looks like an option is an error.
  mutating func remaining() throws(UsageError) -> [String] {
    var result: [String] = []
    var afterDashes = false
    for argument in arguments {
      if afterDashes {
        result.append(argument)
      } else if argument == "--" {
        afterDashes = true
      } else if argument.hasPrefix("-") && argument.count > 1 && Double(argument) == nil {
        let name = String(argument.prefix { $0 != "=" })
        let hint = Suggestion.clause(for: name, in: known.filter { $0.hasPrefix("--") })
        throw UsageError("unknown option '\(argument)'\(hint)")
      } else {
        result.append(argument)
      }
    }
    arguments = []
    positional = result
    return result
  }

  /// The single positional argument (after options are read); `name` is for messages.
  mutating func positional(name: String) throws(UsageError) -> String {
    let positional = try remaining()
    guard positional.count == 1 else {
      throw UsageError(
        positional.isEmpty
          ? "expected a \(name); see --help" : "expected one \(name), got \(positional.count)")
    }
    return positional[0]
  }

  /// Fails on anything not consumed.
  mutating func finish() throws(UsageError) {
    let left = try remaining()
    if !left.isEmpty, positional != left || !left.isEmpty {
      throw UsageError("unexpected argument '\(left[0])'")
    }
  }
}

/// The interval a number option must lie in; `(0, 8]` or `0…3600` in messages.
struct Bounds: CustomStringConvertible {
  var lower: Double
  var upper: Double
  /// Whether `lower` itself is refused (a positive quantity).
  var excludesLower: Bool

  /// (0, upper]
  static func positive(upTo upper: Double) -> Bounds {
    Bounds(lower: 0, upper: upper, excludesLower: true)
  }

  /// `CairoRenderer.scaleRange`.
  static let scale = within(CairoRenderer.scaleRange)

  /// lower…upper
  static func within(_ range: ClosedRange<Double>) -> Bounds {
    Bounds(lower: range.lowerBound, upper: range.upperBound, excludesLower: false)
  }

  func contains(_ x: Double) -> Bool {
    (excludesLower ? x > lower : x >= lower) && x <= upper
  }

  var description: String {
    excludesLower
      ? "(\(format(lower)), \(format(upper))]" : "\(format(lower))…\(format(upper))"
  }

  private func format(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
  }
}

/// `--color`: a colour mode chosen by hand, whatever the terminal says.
enum ColorChoice: String, CaseIterable {
  case truecolor
  case palette256 = "256"
  case none

  var mode: TerminalColorMode {
    switch self {
    case .truecolor: return .trueColor
    case .palette256: return .palette256
    case .none: return .ascii
    }
  }
}

/// The colour mode of text frames, the one rule every command follows: what
/// `--color` forces; else plain ASCII when `--ascii` is given, and for text
/// going to a pipe when `plainInPipe` (a log should not hold escapes); else
/// what the terminal supports (`TerminalEnvironment.preferredMode`:
/// `NO_COLOR`, `TERM`, `COLORTERM`, and inside tmux its `RGB` feature).
func textColorMode(
  ascii: Bool, plainInPipe: Bool, forced: ColorChoice? = nil
) -> TerminalColorMode {
  if let forced { return forced.mode }
  var environment = ProcessEnvironment.terminal()
  if plainInPipe && !environment.isTTY { return .ascii }
  if environment.multiplexerHasRGB == nil { environment.multiplexerHasRGB = Tmux.clientHasRGB() }
  return environment.preferredMode(forceASCII: ascii)
}
