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

/// A bench that could not measure (a tool missing or failing, a child process that
/// misbehaved): the run failed, the command line was not wrong.
struct BenchFailure: Diagnostic {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

/// `morphhost bench`: where a frame's time goes, measured side by side in one
/// run so the ratios hold whatever the machine. Never asserted in tests.
enum BenchCommand {
  static let usage = """
    Usage: morphhost bench [SCENE.lua ...] [--frames N]
           morphhost bench --export
           morphhost bench --text [--frames N]
           morphhost bench --preview [--frames N]
           morphhost bench --patterns [--frames N]

    Prints ms/frame for each stage of a frame (Lua body, reading the tree,
    layout, raster at scale 1 and 2, PNG encoding) and their shares, for each
    scene (default: Examples/scenes/*.lua), plus the cost of building nodes in
    Lua against plain tables, a 1 000-node scene with text, gradients and a blur
    against the same nodes in flat colours, hot-reload latency, the browser preview's
    figures, 1 000 running animations ticked by the engine, the peak memory
    of exporting deck_fan with 120 and 2000 frames and as an APNG at scale 8
    (child processes; fewer with a small --frames), and the live view's kitty frame rate and idle
    CPU on a pseudo-terminal.
    With --export: deck_fan's APNG and GIF sizes against ffmpeg's from the same
    frames, a 120-frame PNG sequence against a plain C + Cairo program the bench
    compiles itself (cc, cairo), and export's peak memory.
    With --text: only the card stack's frame time and the texts shaped and
    outlines traced per unchanged frame (also printed by the full run).
    With --preview: only the browser preview's figures (also printed by the
    full run).
    With --patterns: only typical pattern calls with the sandbox's bounded string
    functions against Lua's own, and their ratio (also printed by the full run).
    """

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    if options.flag("--export") { return try runExport(output: output) }
    if options.flag("--text") {
      output.write(try textCost(frames: try options.int("--frames", in: 1...100_000) ?? 200))
      return .success
    }
    if options.flag("--patterns") {
      output.write(try patternCost(frames: try options.int("--frames", in: 1...100_000) ?? 60))
      return .success
    }
    if options.flag("--preview") {
      let frames = try options.int("--frames", in: 1...100_000) ?? 60
      for line in try PreviewBench.figures(saves: max(5, min(frames, 20))) { output.write(line) }
      return .success
    }
    let frames = try options.int("--frames", in: 1...100_000) ?? 60
    var scenes = try options.remaining()
    if scenes.isEmpty { scenes = defaultScenes() }
    guard !scenes.isEmpty else { throw UsageError("no scenes given and Examples/scenes not found") }
    output.write("frames per measurement: \(frames)")
    output.write(
      pad("scene", 14) + pad("lua", 9) + pad("read", 9) + pad("layout", 9) + pad("raster@1", 10)
        + pad("raster@2", 10) + pad("png@1", 9) + pad("png@2", 9) + "@2/@1  png share@1")
    for path in scenes {
      output.write(try measure(path, frames: frames))
    }
    output.write(try nodeBuildCost(frames: frames))
    output.write(try drawingCost(frames: frames))
    output.write(try componentFrameCost(plugin: "deck_fan", frames: frames))
    output.write(try textCost(frames: frames))
    output.write(try motionCost(frames: frames))
    output.write(try patternCost(frames: frames))
    if let flip = PluginLocator.bundled().first(where: { $0.name == "flip" }) {
      output.write(try reloadLatency(source: flip.source, saves: max(5, min(frames, 40))))
    }
    // 120 and 2 000 frames by default; a quick run (`--frames 1`) exports 2 and 33.
    let shortExport = min(120, 2 * frames)
    output.write(try exportMemory(short: shortExport, long: shortExport * 50 / 3))
    output.write(try largeExportMemory(frames: min(60, 2 * frames)))
    for line in try PreviewBench.figures(saves: max(5, min(frames, 20))) { output.write(line) }
    for line in try terminalFigures() { output.write(line) }
    return .success
  }

  /// Peak resident memory of `morphhost export deck_fan --scale 2` with a short and a long
  /// timeline, each in its own child process: streaming export should not grow with length.
  /// A PNG sequence, the fast path (APNG compresses at libdeflate's slowest level: 2000
  /// frames would take most of an hour; its memory is checked by ExportStreamingTests).
  static func exportMemory(short: Int, long: Int) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let peaks = try [short, long].map { frames in
      try peakMemory([
        "export", "deck_fan", "--scale", "2", "--frames", "\(frames)", "-o",
        dir.appendingPathComponent("fan-\(frames)").path,
      ])
    }
    let mib = peaks.map { Double($0) / 1_048_576 }
    return String(
      format:
        "export deck_fan --scale 2 (PNG sequence), peak RSS: %d frames %.1f MiB, %d frames %.1f MiB, "
        + "ratio %.2f (goal: within 10 %%)", short, mib[0], long, mib[1], mib[1] / mib[0])
  }

  /// Peak resident memory of `morphhost export deck_fan` as an APNG at scale 8
  /// (3424×2304: 31.6 MB a raster) beside the same export at scale 2, each in
  /// its own child process: what is in flight is bounded by bytes
  /// (`Exporter.bytesInFlight`), not by a count of frames of any size.
  static func largeExportMemory(frames: Int) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let peaks = try [2, 8].map { scale in
      try peakMemory([
        "export", "deck_fan", "--scale", "\(scale)", "--frames", "\(frames)", "-o",
        dir.appendingPathComponent("fan-\(scale).apng").path,
      ])
    }
    let mb = peaks.map { Double($0) / 1e6 }
    let raster = Double(3424 * 2304 * 4) / 1e6
    return String(
      format:
        "export deck_fan --scale 8 (APNG, %d frames), peak RSS %.0f MB (goal < 400 MB), "
        + "%.1f× the scale-2 export's %.0f MB; %.1f rasters of %.1f MB (budget in flight %d MiB)",
      frames, mb[1], mb[1] / mb[0], mb[0], mb[1] / raster, raster, Exporter.bytesInFlight >> 20)
  }

  /// Runs this binary with `arguments` (output discarded); its peak RSS in bytes.
  static func peakMemory(_ arguments: [String]) throws -> Int {
    let binary = morphhostBinary
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else {
      throw BenchFailure("cannot start \(binary)")
    }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid, status == 0 else {
      throw BenchFailure("the export child failed: morphhost \(arguments.joined(separator: " "))")
    }
    #if canImport(Darwin)
      return Int(usage.ru_maxrss)  // bytes on macOS
    #else
      return Int(usage.ru_maxrss) * 1024  // KiB on Linux
    #endif
  }

  /// Save → first terminal frame drawn by the new code: the file watcher, a host
  /// reload and the terminal text rendering, the parts under the live view's session.
  static func reloadLatency(source original: String, saves: Int) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("flip.lua")
    try original.write(to: file, atomically: true, encoding: .utf8)
    let host = ComponentHost(component: try ComponentInstance(path: file.path))
    let watcher = FileWatcher(paths: [file.path])
    let renderer = CairoRenderer()
    var total: [Double] = []
    var work: [Double] = []
    for i in 0..<saves {
      let source = original + "\n-- save \(i)\n"
      let saved = now()
      try source.write(to: file, atomically: true, encoding: .utf8)
      while !watcher.changed(now: now()) {
        guard now() - saved < 2 else { throw BenchFailure("the watcher missed a save") }
        usleep(500)
      }
      let seen = now()
      try host.reload(source: try String(contentsOf: file, encoding: .utf8))
      let frame = try host.frame()
      _ = try TerminalFrame.render(
        frame.list, cols: 80, rows: 23, mode: .trueColor, renderer: renderer)
      total.append(now() - saved)
      work.append(now() - seen)
    }
    total.sort()
    work.sort()
    return String(
      format: "hot reload, save → first new frame (%d saves): median %.1f ms, max %.1f ms "
        + "(of which reload + frame: median %.1f ms; the rest is the %.0f ms debounce); goal < 50 ms",
      saves, total[saves / 2] * 1000, total[saves - 1] * 1000, work[saves / 2] * 1000,
      watcher.quietPeriod * 1000)
  }

  /// This `morphhost`, to run in a child process; beside the test runner
  /// when the tests run the bench in-process.
  static var morphhostBinary: String {
    let own = Bundle.main.executablePath ?? CommandLine.arguments[0]
    let url = URL(fileURLWithPath: own)
    guard url.lastPathComponent != "morphhost" else { return own }
    let sibling = url.deletingLastPathComponent().appendingPathComponent("morphhost").path
    return FileManager.default.isExecutableFile(atPath: sibling) ? sibling : own
  }

  static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  static func defaultScenes() -> [String] {
    let folder = "Examples/scenes"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".lua") }.sorted().map { "\(folder)/\($0)" }
  }

  static func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
  }

  static func ms(_ seconds: Double) -> String { String(format: "%.3f", seconds * 1000) }

  /// Mean seconds per call of `body` over `frames` calls.
  static func time(_ frames: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<frames { try body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(frames)
  }

  static func measure(_ path: String, frames: Int) throws -> String {
    let document = try DocumentHost(path: path)
    guard case .scene(let scene) = document.content else {
      throw UsageError("\(path): bench stages time scene files; this is a component")
    }
    let canvas = document.canvas
    let builder = DisplayListBuilder(textMeasure: document.textMeasure)
    let renderer = CairoRenderer()
    var view = try scene.view(progress: 0.5)
    // Stage by stage; each input is made once so a stage is timed alone.
    var value = try scene.bodyValue(progress: 0.5)
    let lua = try time(frames) { value = try scene.bodyValue(progress: 0.5) }
    let read = try time(frames) { view = try scene.state.readView(value, path: path) }
    var list = try builder.build(view.root, canvas: canvas, frame: scene.size)
    let layout = try time(frames) {
      list = try builder.build(view.root, canvas: canvas, frame: scene.size)
    }
    var image1 = try renderer.render(list, scale: 1, background: .white)
    let raster1 = try time(frames) {
      image1 = try renderer.render(list, scale: 1, background: .white)
    }
    var image2 = try renderer.render(list, scale: 2, background: .white)
    let raster2 = try time(frames) {
      image2 = try renderer.render(list, scale: 2, background: .white)
    }
    let png1 = try time(frames) { _ = try image1.pngData() }
    let png2 = try time(frames) { _ = try image2.pngData() }
    let total1 = lua + read + layout + raster1 + png1
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    return pad(name, 14) + pad(ms(lua), 9) + pad(ms(read), 9) + pad(ms(layout), 9)
      + pad(ms(raster1), 10) + pad(ms(raster2), 10) + pad(ms(png1), 9) + pad(ms(png2), 9)
      + String(format: "%5.2fx  %5.1f%%", raster2 / raster1, png1 / total1 * 100)
  }

  /// The two builders of `Bench/node_build.lua`: through `morph`, and the
  /// same records as plain tables.
  static func nodeBuilders(_ state: LuaState) throws -> (morph: LuaRef, plain: LuaRef) {
    let source = String(decoding: PackageResources.node_build_lua, as: UTF8.self)
    let chunk = try state.load(source, chunkName: "Bench/node_build.lua")
    let results = try state.call(chunk)
    guard results.count == 2, let morph = results[0].functionRef,
      let plain = results[1].functionRef
    else { throw BenchFailure("Bench/node_build.lua must return two builder functions") }
    return (morph, plain)
  }

  /// Building 1000 nodes with three modifiers each through `morph`, against
  /// the floor: the same number of plain tables with no checks.
  static func nodeBuildCost(frames: Int) throws -> String {
    let state = try LuaState()
    let builders = try nodeBuilders(state)
    let viaMorph = try time(frames) { _ = try state.call(builders.morph) }
    let plain = try time(frames) { _ = try state.call(builders.plain) }
    return "1000 nodes x 3 modifiers: morph \(ms(viaMorph)) ms, plain tables \(ms(plain)) ms, "
      + String(format: "ratio %.2fx", viaMorph / plain)
  }
}
