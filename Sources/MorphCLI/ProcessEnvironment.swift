import Foundation
import MorphExport
import MorphRender

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the command line reads from the process environment and its terminal and hands to
/// the libraries below, which never read it themselves. (Commands still ask `isatty` and
/// read their own switches, such as `MORPH_REDUCE_MOTION`, where they decide things.)
enum ProcessEnvironment {
  /// The ffmpeg on `PATH`, for video exports and the export bench.
  static func ffmpeg() -> String? {
    VideoEncoder.locate(searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "")
  }

  /// `TERM`, `COLORTERM`, `TERM_PROGRAM`, `NO_COLOR`, with `isTTY` from `isatty(1)`.
  static func terminal() -> TerminalEnvironment {
    TerminalEnvironment(
      environment: ProcessInfo.processInfo.environment, isTTY: isatty(STDOUT_FILENO) != 0)
  }

  /// The size of the terminal on standard output: `TIOCGWINSZ`, else the `COLUMNS` and `LINES`
  /// environment variables; nil when neither is known.
  static func terminalSize() -> (cols: Int, rows: Int)? {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
      return (Int(size.ws_col), Int(size.ws_row))
    }
    let env = ProcessInfo.processInfo.environment
    guard let cols = env["COLUMNS"].flatMap({ Int($0) }), cols > 0,
      let rows = env["LINES"].flatMap({ Int($0) }), rows > 0
    else { return nil }
    return (cols, rows)
  }

  /// `MORPH_FONT_DIRS` (colon-separated): font folders searched before the standard ones.
  static func applyFontFolders() {
    let extra = ProcessInfo.processInfo.environment["MORPH_FONT_DIRS"] ?? ""
    PangoTextMeasure.extraFontFolders = extra.split(separator: ":").map(String.init)
  }
}
