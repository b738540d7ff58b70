import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphRender
import MorphScript
import MorphSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Options of `morphhost run` beyond the shared play options.
struct RunSettings {
  var pngPath: String?
  var scale: Double
  var ascii: Bool
  var cols: Int?
  var rows: Int?
  var fps: Double
  var maxTime: Double
  /// A pipe run's fixed length, settled or not (nil: until it settles).
  var duration: Double? = nil
  var graphics: GraphicsChoice
  var color: ColorChoice?
}

/// `--graphics`: how `run` draws frames on a terminal.
enum GraphicsChoice: String, CaseIterable {
  /// Real images where the terminal answers that it shows them, else blocks.
  case auto
  case kitty, iterm, sixel
  /// Half blocks in colour (two pixels a cell).
  case blocks
  /// Plain characters.
  case ascii

  /// The image protocol this choice names, if it names one.
  var imageProtocol: GraphicsProtocol? { GraphicsProtocol(rawValue: rawValue) }
}

/// `morphhost run PLUGIN`: the main job. Live on a terminal; in a pipe it
/// plays the input and prints text frames until the component settles.
enum RunCommand {
  static let usage = """
    Usage: morphhost run PLUGIN [options]

    Runs a plugin live in the terminal and reloads it on every save, keeping
    its state. PLUGIN is a path (matched case-insensitively if it does not
    exist as typed) or a bundled plugin's name: see `morphhost list`.
    Without a terminal (a pipe, CI) it plays the input on the virtual clock and
    prints text frames (or with --graphics kitty|iterm|sixel, one image each)
    until the animation settles, then exits.

    Options:
    \(InputScript.optionUsage(column: 21))
      --set KEY=VALUE    override a prop (Lua literal or JSON; repeatable)
      --reduce-motion    changes apply at once (also MORPH_REDUCE_MOTION=1)
      --png FILE         also write the latest frame to FILE on every change
      --scale S          pixels per point of PNGs and of images in a pipe (default 1)
      --graphics G       auto, kitty, iterm, sixel, blocks or ascii (default auto:
                         images where the terminal answers that it shows them)
      --color C          truecolor, 256 or none (default: what the terminal says)
      --ascii            plain characters, no colour (--graphics ascii)
      --cols N --rows N  the text size (default: the terminal, or 64x22 in a pipe)
      --fps F            frames printed per second of virtual time in a pipe, 0.1…240
                         (default 10; --max-time × --fps at most 36000)
      --max-time S       stop a pipe run that has not settled after S seconds
                         (default 30, at most 3600)
      --duration S       in a pipe, print S seconds of frames and stop, settled or
                         not (endless motion: repeatForever, the clock); at most 3600
    \(ScriptLimits.optionsUsage(column: 21))

    Keys (live): space tap · ←/→ drag · r reload · p pause · [ ] scrub · m reduce motion
                 s save PNG · e the whole error · ? help · q quit
    """

  /// The most text frames a pipe run prints: an hour at the default 10 fps.
  static let maxPrintedFrames = 36_000

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    let play = try PlayOptions(&options)
    let cells = try options.cells()
    let ascii = options.flag("--ascii")
    let graphics = try options.choice("--graphics", GraphicsChoice.self) ?? (ascii ? .ascii : .auto)
    var settings = RunSettings(
      pngPath: try options.value("--png"), scale: try options.scale(),
      ascii: ascii || graphics == .ascii, cols: cells.cols, rows: cells.rows,
      fps: try options.double("--fps", in: .within(VirtualTime.frameRates)) ?? 10,
      maxTime: try options.double("--max-time", in: .within(0...VirtualTime.maxSeconds)) ?? 30,
      graphics: graphics, color: try options.choice("--color", ColorChoice.self))
    settings.duration = try options.double("--duration", in: .within(0...VirtualTime.maxSeconds))
    let (limit, limitName) =
      settings.duration.map { ($0, "--duration") } ?? (settings.maxTime, "--max-time")
    let frames = Int(limit * settings.fps)
    guard frames <= maxPrintedFrames else {
      throw UsageError(
        "\(limitName) \(String(format: "%g", limit)) at --fps \(String(format: "%g", settings.fps)) "
          + "could print \(frames) frames; at most \(maxPrintedFrames)")
    }
    let given = try options.positional(name: "plugin")
    let script = try play.script()
    let path = try resolvePlugin(given, output: output)
    if let png = settings.pngPath {
      try OutputFile.checkReplaceable(png)
      var inputs = play.reads
      inputs.add(sources: BundledPlugins.plugin(atPath: path) == nil ? [path] : [])
      try inputs.check(png, as: "--png")
    }
    if isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 {
      let session = PluginSession(path: path, options: play.component, clock: .wall())
      // A file that does not load yet waits on screen for the save that fixes it.
      guard let document = StartupWait.load(session) else {
        RawTerminal.restore()
        return .success
      }
      // A scene has no clock or input to show live.
      do {
        _ = try document.componentHost(for: "run")
      } catch {
        RawTerminal.restore()
        throw error
      }
      if !script.events.isEmpty { session.play(script) }
      try LiveView(session: session, settings: settings).run()
      return .success
    }
    let session = PluginSession(
      path: path, options: play.component, clock: .virtual, watchesFiles: false)
    return try playHeadless(
      session, script: script, settings: settings, output: output)
  }

  /// Plays the script on the session's virtual clock, printing a text frame
  /// every 1/fps seconds until the script is done and nothing animates. The
  /// first error ends the run.
  static func playHeadless(
    _ session: PluginSession, script: InputScript, settings: RunSettings, output: some TextOutput
  ) throws -> ExitStatus {
    _ = try session.document?.componentHost(for: "run")
    session.play(script)
    let renderer = CairoRenderer()
    let mode = textColorMode(ascii: settings.ascii, plainInPipe: true, forced: settings.color)
    // The escapes the live view writes for the same protocol, one image a frame.
    var images = settings.graphics.imageProtocol.map { TerminalImageEncoder(graphics: $0) }
    let step = 1 / settings.fps
    var index = 0
    while true {
      // Counted, not summed: frame n is at n/fps exactly, so `--duration` ends on its moment.
      let t = Double(index) / settings.fps
      session.advance(to: t)
      // The first error ends the run (a frame after it would run the body again).
      guard session.error == nil, let frame = session.frame(), let host = session.host,
        session.error == nil
      else {
        throw session.error ?? SessionError.notLoaded
      }
      let text: String
      if var encoder = images {
        text = try encoder.encode(
          try renderer.render(frame.list, scale: settings.scale, background: .white))
        images = encoder
      } else {
        text = try TerminalFrame.render(
          frame.list, cols: settings.cols ?? 64, rows: settings.rows ?? 22, mode: mode,
          renderer: renderer)
      }
      var header = String(format: "t=%.3f", host.time)
      if let p = host.component.progress { header += String(format: " progress=%.4f", p) }
      if let value = frame.summary.accessibility?.value {
        header += " value=\(terminalSafe(value))"
      }
      output.write(header)
      output.write(text.hasSuffix("\n") ? String(text.dropLast()) : text)
      if let png = settings.pngPath {
        // Its imports are known once it has loaded.
        var inputs = RunInputs()
        inputs.add(sources: session.document?.sourceFiles ?? [])
        try inputs.check(png, as: "--png")
        try OutputFile.write(
          try renderer.render(frame.list, scale: settings.scale, background: .white).pngData(),
          to: png)
      }
      if let duration = settings.duration, t + step / 2 >= duration {
        // A fixed length: the last frame printed is the one at `duration`.
        output.write(String(format: "stopped at t=%.3f (--duration)", host.time))
        session.close()
        if let error = session.error { throw error }
        return .success
      }
      if settings.duration == nil, !session.isPlayingInput, !host.component.isSettling,
        t >= script.duration
      {
        // Endless motion on purpose (repeatForever, the clock) keeps going.
        let endless = host.component.isContinuous ? " (continuous motion goes on)" : ""
        output.write(String(format: "settled at t=%.3f", host.time) + endless)
        // The run is over: the component unloads, and its `disappear` may fail.
        session.close()
        if let error = session.error { throw error }
        return .success
      }
      guard settings.duration != nil || t < settings.maxTime else {
        output.error(String(format: "morphhost: still animating after %.1f s (--max-time)", t))
        session.close()
        return .failure
      }
      index += 1
    }
  }
}
