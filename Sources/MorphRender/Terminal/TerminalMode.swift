import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a frame is encoded as text.
public enum TerminalColorMode: String, CaseIterable, Sendable {
  /// 24-bit colour escapes (`ESC[38;2;r;g;bm`) with half-block cells.
  case trueColor
  /// The xterm 256-colour palette (`ESC[38;5;Nm`) with half-block cells.
  case palette256
  /// Plain characters from a density ramp; no escapes at all.
  case ascii
}

/// The parts of the process environment that decide how to draw in a terminal.
public struct TerminalEnvironment: Hashable, Sendable {
  /// `TERM`, e.g. `xterm-256color`; nil when unset.
  public var term: String?
  /// `COLORTERM`, e.g. `truecolor`; nil when unset.
  public var colorTerm: String?
  /// `TERM_PROGRAM`, e.g. `iTerm.app`; some terminals announce themselves only here.
  public var termProgram: String?
  /// Whether `NO_COLOR` is set to a non-empty value (https://no-color.org).
  public var noColor: Bool
  /// Whether standard output is a terminal. Informational: `preferredMode` ignores it so that
  /// piping a rendered frame to a file keeps its colours; callers decide what to do with it.
  public var isTTY: Bool
  /// Whether a terminal multiplexer between us and the terminal (tmux) says it passes
  /// 24-bit colour on (its `RGB` feature); nil when there is none or it was not asked.
  public var multiplexerHasRGB: Bool?

  public init(
    term: String?, colorTerm: String?, termProgram: String? = nil, noColor: Bool, isTTY: Bool
  ) {
    self.term = term
    self.colorTerm = colorTerm
    self.termProgram = termProgram
    self.noColor = noColor
    self.isTTY = isTTY
  }

  /// Reads `TERM`, `COLORTERM`, `TERM_PROGRAM` and `NO_COLOR` from `environment`.
  public init(environment: [String: String], isTTY: Bool) {
    self.init(
      term: environment["TERM"], colorTerm: environment["COLORTERM"],
      termProgram: environment["TERM_PROGRAM"],
      noColor: !(environment["NO_COLOR"] ?? "").isEmpty, isTTY: isTTY)
  }

  /// `TERM` values of terminals known to support 24-bit colour without saying so in `COLORTERM`.
  static let trueColorTerms: Set<String> = ["xterm-kitty", "wezterm", "alacritty"]
  /// `TERM_PROGRAM` values of terminals known to support 24-bit colour.
  static let trueColorPrograms: Set<String> = ["iTerm.app", "WezTerm"]

  /// The richest mode this environment is likely to display correctly.
  ///
  /// ASCII when forced, when `NO_COLOR` is set, or when `TERM` is unset or `dumb`; true colour
  /// when `COLORTERM` says so, the terminal is known to support it, or the multiplexer says
  /// it passes it on; otherwise 256 colours,
  /// which practically every colour terminal understands.
  public func preferredMode(forceASCII: Bool = false) -> TerminalColorMode {
    if forceASCII || noColor { return .ascii }
    guard let term, !term.isEmpty, term != "dumb" else { return .ascii }
    return supportsTrueColor(term: term) ? .trueColor : .palette256
  }

  private func supportsTrueColor(term: String) -> Bool {
    let announced = colorTerm.map { ["truecolor", "24bit"].contains($0.lowercased()) } ?? false
    if announced || term.contains("direct") || Self.trueColorTerms.contains(term) { return true }
    if multiplexerHasRGB == true { return true }
    return termProgram.map { Self.trueColorPrograms.contains($0) } ?? false
  }
}
