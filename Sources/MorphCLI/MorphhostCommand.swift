import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphScript

/// Entry point: dispatches to a subcommand and turns every failure into one
/// line on stderr and a non-zero exit.
@main
struct MorphhostCommand {
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    ProcessEnvironment.applyFontFolders()
    let output = StandardOutput()
    var status = run(arguments, output: output)
    if let failure = output.failure {
      output.error(
        "morphhost: cannot write to standard output: \(String(cString: strerror(failure)))")
      status = ExitStatus.failure.rawValue
    }
    exit(status)
  }

  static let usage = """
    morphhost — host animated UI components written in Lua

    Usage:
      morphhost run PLUGIN [...]     run a plugin live; reloads on save (run --help)
      morphhost preview [PLUGIN]     the plugin in a browser, with a timeline (preview --help)
      morphhost eval 'CODE'          run Lua with `morph` loaded; print what it prints and returns
      morphhost eval -f FILE         the same for a file ('-' reads standard input)
      morphhost render FILE [...]    one frame as PNG, terminal text or JSON (render --help)
      morphhost export PLUGIN -o OUT PNGs, APNG, GIF, WebP, MP4/WebM or a filmstrip (export --help)
      morphhost check PLUGIN...      load, render and poke plugins; report problems (check --help)
      morphhost test [PATH...]       run *.test.lua files: state, geometry, snapshots (test --help)
      morphhost new NAME             a plugin skeleton with editor support (new --help)
      morphhost list                 the bundled plugins
      morphhost bench [...]          where a frame's time goes (bench --help)
      morphhost help                 this text
      morphhost --version            the version

    Options for eval:
      --memory MIB                   memory cap of the Lua heap, in (0, 4096] (default 64)
      --budget N                     instructions allowed per call, 1…10^12 (default 200000000)
      --timeout SECONDS              wall-clock limit per call, in (0, 3600] (default 2)

    Any command: --traceback prints a failing script's whole stack after its message
    (the live view and the preview fold the host's own frames).

    Exit status: 0 on success, 1 when the Lua code fails or an output cannot be
    written, 2 on a usage error.
    """

  typealias Runner = @Sendable ([String], any TextOutput) throws -> ExitStatus

  /// Each subcommand's usage text and entry point.
  static let subcommands: [String: (usage: String, run: Runner)] = [
    "run": (RunCommand.usage, { try RunCommand.run($0, output: $1) }),
    "render": (RenderCommand.usage, { try RenderCommand.run($0, output: $1) }),
    "export": (ExportCommand.usage, { try ExportCommand.run($0, output: $1) }),
    "check": (CheckCommand.usage, { try CheckCommand.run($0, output: $1) }),
    "test": (TestCommand.usage, { try TestCommand.run($0, output: $1) }),
    "new": (NewCommand.usage, { try NewCommand.run($0, output: $1) }),
    "list": (ListCommand.usage, { try ListCommand.run($0, output: $1) }),
    "eval": (EvalCommand.usage, { try EvalCommand.run($0, output: $1) }),
    "preview": (PreviewCommand.usage, { try PreviewCommand.run($0, output: $1) }),
    "bench": (BenchCommand.usage, { try BenchCommand.run($0, output: $1) }),
  ]

  /// Runs one command line; returns the exit status.
  static func run(_ arguments: [String], output: some TextOutput) -> Int32 {
    guard let command = arguments.first else {
      output.error(usage)
      return ExitStatus.usage.rawValue
    }
    var rest = Array(arguments.dropFirst())
    // `--traceback`, any command: a failing script's whole stack after its line.
    let fullTraceback = rest.prefix { $0 != "--" }.contains("--traceback")
    if fullTraceback, let i = rest.firstIndex(of: "--traceback") { rest.remove(at: i) }
    do {
      if let (usage, run) = subcommands[command] {
        // Every subcommand answers --help the same way, before reading options.
        var options = CommandLineOptions(rest)
        if options.helpRequested() {
          output.write(usage)
          return ExitStatus.success.rawValue
        }
        return try run(rest, output).rawValue
      }
      switch command {
      case "help", "-h", "--help":
        output.write(usage)
        return ExitStatus.success.rawValue
      case "--version", "version":
        output.write(
          "morphhost \(MorphScriptInfo.version) (Lua \(LibraryComparison.luaRelease); "
            + "supports Lua \(LibraryComparison.supportedReleases))")
        return ExitStatus.success.rawValue
      default:
        let commands = Array(subcommands.keys) + ["help", "version"]
        let hint = Suggestion.nearest(to: command, in: commands).map { "did you mean '\($0)'? " }
        throw UsageError("unknown command '\(command)'; \(hint ?? "")try 'morphhost help'")
      }
    } catch {
      let diagnostic = error as? any Diagnostic ?? ForeignError(error)
      // Messages carry plugin text (names, Lua errors): never raw escapes.
      output.error(terminalSafe(diagnostic.commandLine))
      if let frame = diagnostic.codeFrame { output.error(terminalSafe(frame, multiline: true)) }
      if fullTraceback, let traceback = diagnostic.fullTraceback {
        output.error(terminalSafe(traceback, multiline: true))
      }
      return diagnostic.exitStatus.rawValue
    }
  }
}

/// A wrong command line: exit status 2.
struct UsageError: Diagnostic {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
  var exitStatus: ExitStatus { .usage }
}

/// An error from outside morphhost's own types (Foundation's, mostly), as one line:
/// Foundation's errors print as a dump of their dictionary, so the file they name and
/// the system's reason are taken out of it.
struct ForeignError: Diagnostic {
  let message: String
  init(_ error: any Error) { message = Self.line(error) }
  var description: String { message }

  static func line(_ error: any Error) -> String {
    let error = error as NSError
    guard error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain else {
      return "\(error)".split(separator: "\n").first.map(String.init) ?? "unknown error"
    }
    var reason =
      error.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(error.code))) : ""
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      reason = String(cString: strerror(Int32(underlying.code)))
    }
    if reason.isEmpty { reason = "error \(error.code)" }
    let path = error.userInfo[NSFilePathErrorKey] as? String
    return path.map { "\($0): \(reason)" } ?? reason
  }
}

extension Diagnostic {
  /// How the command line shows it: `file:line: message`, or `morphhost: message` where it
  /// has no place.
  var commandLine: String { location == nil ? "morphhost: " + message : locatedMessage }
}

/// Where commands write; tests capture it.
protocol TextOutput {
  func write(_ text: String)
  func error(_ text: String)
}

/// The process's standard output and error, written with write(2): a full
/// disk or a closed descriptor is remembered (and reported once by `main`),
/// never a trap. After a failure, further output is dropped.
final class StandardOutput: TextOutput, @unchecked Sendable {
  private(set) var failure: Int32?

  func write(_ text: String) {
    guard failure == nil else { return }
    failure = writeAll(Array((text + "\n").utf8), to: STDOUT_FILENO)
  }

  func error(_ text: String) {
    _ = writeAll(Array((text + "\n").utf8), to: STDERR_FILENO)
  }
}
