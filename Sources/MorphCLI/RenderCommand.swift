import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphRender
import MorphScript

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `morphhost render`: one frame of a scene as PNG, terminal text or JSON.
/// The frame comes from an `Exporter` (MorphExport); this command chooses the
/// format and draws text for the terminal.
enum RenderCommand {
  static let usage = """
    Usage: morphhost render PLUGIN [options]

    Renders one frame of a plugin (a component) or a scene file (a node or a
    scene table). PLUGIN is a path, or a bundled plugin's name (flip, deck_fan…).

    Options:
      --progress P          controlled mode: the progress value (default: the initial state)
      --time T              play the input and show time T (<= 3600)
      --input SCRIPT        an input script to play (see docs/commands.md; default:
                            \(InputScript.defaultTapText); 'none' plays nothing)
      --set KEY=VALUE       override a prop (Lua literal or JSON; repeatable)
      --reduce-motion       changes apply at once (also MORPH_REDUCE_MOTION=1)
      --format F            png | svg | pdf | ansi | ansi256 | ascii | json
                            (default: from -o's extension; else ansi on a terminal, json in a pipe)
      -o, --output FILE     write here instead of standard output (png, svg, pdf need one)
      --scale S             pixels per point for png (default 1; 2 for retina); svg and
                            pdf are vector, one unit per pixel of that png
      --background C        canvas colour: #RRGGBB[AA], a name, or 'none' (default white)
      --margin M            points around the scene's frame (default 24, like the previews)
      --cols N, --rows N    terminal cells for ansi/ascii (default: the terminal, or 80x24)
      --ascii               same as --format ascii
    \(ScriptLimits.optionsUsage(column: 24))
    """

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    let play = try PlayOptions(&options)
    let request = try RenderRequest(&options)
    if let out = request.outputPath { try OutputFile.checkReplaceable(out) }
    var exporter = Exporter(
      plugin: try resolvePlugin(request.file, output: output), scale: request.scale,
      background: request.background, input: try play.script())
    exporter.component = play.component
    exporter.reads = play.reads
    exporter.margin = request.margin
    // --progress wins over --time; neither is the first frame.
    let moment =
      request.progress.map(FrameMoment.progress) ?? play.time.map(FrameMoment.time) ?? .initial
    if request.format == .png {
      try exporter.writeFrame(
        to: URL(fileURLWithPath: request.outputPath ?? "frame.png"), at: moment)
    } else if let vector = request.format.vector, let out = request.outputPath {
      try exporter.writeVectorFrame(to: URL(fileURLWithPath: out), at: moment, format: vector)
    } else {
      let (list, summary) = try exporter.frame(at: moment, output: request.outputPath)
      try FrameOutput(request: request, output: output).write(list, summary: summary)
    }
    return .success
  }
}

/// The options every frame-producing command shares.
struct RenderRequest {
  enum Format: String, CaseIterable {
    case png, svg, pdf, ansi, ansi256, ascii, json

    /// The vector document this format is, if it is one.
    var vector: VectorFormat? { VectorFormat(rawValue: rawValue) }

    /// Whether it is written only to a file (-o), never to standard output.
    var needsFile: Bool { self == .png || vector != nil }
  }

  var file: String
  var progress: Double?
  var format: Format
  var outputPath: String?
  var scale: Double
  var background: Color?
  var margin: Double
  var cols: Int?
  var rows: Int?

  /// `--margin M`: points around the scene's frame (render's and export's).
  static func readMargin(_ options: inout CommandLineOptions) throws -> Double {
    try options.double("--margin", in: .within(0...1000)) ?? DocumentHost.defaultMargin
  }

  init(_ options: inout CommandLineOptions) throws {
    progress = try options.double("--progress", in: Self.progressBounds)
    outputPath = try options.value("-o") ?? options.value("--output")
    scale = try options.scale()
    margin = try Self.readMargin(&options)
    (cols, rows) = try options.cells()
    background = try Self.parseBackground(try options.value("--background"))
    let forceASCII = options.flag("--ascii")
    let formatName = try options.value("--format")
    file = try options.positional(name: "plugin")
    format = try Self.chooseFormat(formatName, forceASCII: forceASCII, output: outputPath)
    if format.needsFile && outputPath == nil {
      throw UsageError("\(format.rawValue) output needs -o FILE.\(format.rawValue)")
    }
  }

  /// Progress values a command line may set (flip's turns are unbounded, but
  /// a million is past any use and keeps every angle exact enough).
  static let progressBounds = Bounds.within(-1e6...1e6)

  static func parseBackground(_ text: String?) throws -> Color? {
    guard let text else { return .white }
    if text == "none" || text == "transparent" { return nil }
    do {
      return try Color.parse(text)
    } catch {
      throw UsageError("--background: \(error)")
    }
  }

  /// An explicit format wins; then the output file's extension; then the
  /// terminal (ansi, or ascii where colour is off) or, in a pipe, JSON.
  static func chooseFormat(_ name: String?, forceASCII: Bool, output: String?) throws -> Format {
    if forceASCII { return .ascii }
    if let name {
      guard let format = Format(rawValue: name) else {
        let valid = Format.allCases.map(\.rawValue).joined(separator: ", ")
        throw UsageError("--format must be one of \(valid); got '\(name)'")
      }
      return format
    }
    if let output {
      switch URL(fileURLWithPath: output).pathExtension.lowercased() {
      case "png": return .png
      case "svg": return .svg
      case "pdf": return .pdf
      case "json": return .json
      case "txt": return .ascii
      case "ans", "ansi": return .ansi
      default: break
      }
    }
    guard ProcessEnvironment.terminal().isTTY else { return .json }
    switch textColorMode(ascii: false, plainInPipe: false) {
    case .trueColor: return .ansi
    case .palette256: return .ansi256
    case .ascii: return .ascii
    }
  }
}

/// Writes one frame as JSON or terminal text (a PNG is `Exporter.writeFrame`'s).
struct FrameOutput<Output: TextOutput> {
  let request: RenderRequest
  let output: Output
  var renderer = CairoRenderer()

  init(request: RenderRequest, output: Output) {
    self.request = request
    self.output = output
  }

  func write(_ list: DisplayList, summary: SceneSummary) throws {
    switch request.format {
    case .json:
      try emit(SceneJSON.encode(list, summary: summary))
    case .png, .svg, .pdf: return  // the `Exporter` writes them
    case .ansi, .ansi256, .ascii:
      try emit(text(list))
    }
  }

  /// The frame rasterised at cell resolution and drawn with half blocks.
  func text(_ list: DisplayList) throws -> String {
    let size = ProcessEnvironment.terminalSize()
    let mode: TerminalColorMode =
      request.format == .ascii ? .ascii : request.format == .ansi256 ? .palette256 : .trueColor
    return try TerminalFrame.render(
      list, cols: request.cols ?? size?.cols ?? 80,
      rows: request.rows ?? size.map { max(1, $0.rows - 1) } ?? 24, mode: mode,
      background: request.background, renderer: renderer)
  }

  private func emit(_ text: String) throws {
    guard let path = request.outputPath else {
      output.write(text.hasSuffix("\n") ? String(text.dropLast()) : text)
      return
    }
    try OutputFile.write(Array(text.utf8), to: path)
  }
}

/// How a component is started and driven: props, reduce motion, input.
struct PlayOptions {
  var component: ComponentOptions
  var time: Double?
  var inputPath: String?

  init(_ options: inout CommandLineOptions) throws {
    var props: [(key: String, value: String)] = []
    for assignment in try options.values("--set") {
      guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
        throw UsageError("--set expects KEY=VALUE, got '\(assignment)'")
      }
      props.append(
        (String(assignment[..<eq]), String(assignment[assignment.index(after: eq)...])))
    }
    let environment = ProcessInfo.processInfo.environment["MORPH_REDUCE_MOTION"]
    let reduce = options.flag("--reduce-motion") || environment == "1" || environment == "true"
    component = ComponentOptions(
      props: props, reduceMotion: reduce, limits: try ScriptLimits(&options),
      output: printToStandardError)
    time = try options.double("--time", in: .within(0...VirtualTime.maxSeconds))
    inputPath = try options.value("--input")
  }

  /// The files these options read (the input script), which no output may replace.
  var reads: RunInputs {
    var inputs = RunInputs()
    if let inputPath { inputs.add("the input script this run reads", inputPath) }
    return inputs
  }

  /// The input script, parsed before anything runs (nil when none was given).
  func script() throws -> InputScript? {
    guard let path = inputPath else { return nil }
    if path == InputScript.noneName { return InputScript.none }
    let bytes = try Self.readInput(path)
    return try InputScript.parse(String(decoding: bytes, as: UTF8.self), file: path)
  }

  /// The longest input script read, so a runaway pipe cannot fill memory.
  static let maxScriptBytes = 1 << 20
  /// How long a pipe or FIFO (`--input <(…)`) may take to reach its end: a FIFO nobody
  /// writes must not hang the command.
  static let pipeSeconds = 10

  /// Reads a regular file, or a pipe or FIFO (`--input <(…)`) to its end within
  /// `pipeSeconds`; a device, socket or folder is refused. Opened without blocking, so
  /// a FIFO with no writer fails in time instead of waiting for ever.
  static func readInput(_ path: String) throws -> [UInt8] {
    func refuse(_ reason: String) -> UsageError {
      UsageError("cannot read input script \(path): \(reason)")
    }
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw refuse(String(cString: strerror(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw refuse(String(cString: strerror(errno))) }
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFREG || kind == S_IFIFO else {
      throw refuse("is \(CheckedFile.describe(kind)), not a regular file or a pipe")
    }
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(pipeSeconds) * 1_000_000_000
    do {
      return try CheckedFile.readAll(
        fd, maxBytes: maxScriptBytes, deadline: kind == S_IFIFO ? deadline : nil)
    } catch .tooLarge {
      throw refuse("larger than \(maxScriptBytes >> 20) MiB")
    } catch .system(ETIMEDOUT) {
      throw refuse("the pipe did not end within \(pipeSeconds) s")
    } catch {
      throw refuse(error.description)
    }
  }
}

/// Where a plugin's `print` goes: standard error, escaped, so it never lands
/// in standard output that carries JSON, text frames or images.
@Sendable func printToStandardError(_ line: String) {
  _ = writeAll(Array((terminalSafe(line, multiline: true) + "\n").utf8), to: STDERR_FILENO)
}

/// Finds a plugin as `PluginLocator` does, telling the user when the path was
/// not taken as typed.
func resolvePlugin(_ given: String, output: some TextOutput) throws -> String {
  let resolved = try PluginLocator.resolve(given)
  if let note = resolved.note { output.error("morphhost: note: \(note)") }
  return resolved.path
}
