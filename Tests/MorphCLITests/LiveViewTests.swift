import Foundation
import MorphRender
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Drives `morphhost run` in a real pseudo-terminal through tmux: it must
/// start, draw, react to keys and a file save, and hand the terminal back.
@Suite(.serialized) struct LiveViewTests {
  static let binary = Subprocess.binary
  static let repository = Subprocess.repository

  /// A private tmux server for one test.
  final class Tmux {
    let socket = "morph-\(UUID().uuidString.prefix(8))"

    /// Runs a tmux command through posix_spawn and waitpid (Foundation's
    /// Process can miss a child's exit inside a test). Only `capture` reads
    /// output: a server started by `new-session` would hold a pipe open.
    @discardableResult
    func run(_ arguments: [String], capture: Bool = false) throws -> String {
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
      var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      if capture {
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
      } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      }
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addclose(&actions, fds[0])
      posix_spawn_file_actions_addclose(&actions, fds[1])
      let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
      defer { for arg in argv { free(arg) } }
      // The environment as KEY=VALUE strings (portable; `environ` is not on every platform).
      let envp =
        ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer { for entry in envp { free(entry) } }
      var pid: pid_t = 0
      let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, envp)
      close(fds[1])
      defer { close(fds[0]) }
      guard spawned == 0 else { throw POSIXError(.ENOENT) }
      var output = [UInt8]()
      var buffer = [UInt8](repeating: 0, count: 65536)
      while capture {
        let n = read(fds[0], &buffer, buffer.count)
        if n <= 0 { break }
        output += buffer[0..<n]
      }
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      return String(decoding: output, as: UTF8.self)
    }

    func screen() throws -> String { try run(["capture-pane", "-t", "live", "-p"], capture: true) }

    /// A `width × height` window named `live` running the shell line
    /// `command` (`config`: tmux's configuration file, e.g. /dev/null for none).
    func start(_ command: String, width: Int = 80, height: Int = 26, config: String? = nil) throws {
      let options = config.map { ["-f", $0] } ?? []
      try run(
        options + [
          "new-session", "-d", "-s", "live", "-x", "\(width)", "-y", "\(height)", command,
        ])
    }

    /// `morphhost run PLUGIN` in the window with `environment` (after the
    /// shell line `before`); the shell then shows `exit=STATUS` and waits.
    func startRun(
      _ plugin: String, environment: String = "TERM=xterm-256color", before: String = "",
      width: Int = 80, config: String? = nil
    ) throws {
      let line =
        "\(environment) '\(LiveViewTests.binary)' run '\(plugin)'; echo \"exit=$?\"; sleep 30"
      try start(before + line, width: width, config: config)
    }

    /// Presses `key` (q by default) and waits for the shell's `exit=0`.
    func quit(with key: String = "q") throws {
      try run(["send-keys", "-t", "live", key])
      _ = try waitFor("a clean exit") { $0.contains("exit=0") }
    }

    /// Polls the screen until `predicate` holds (or 60 s pass: a debug
    /// build on a loaded machine can take seconds to start).
    func waitFor(_ what: String, _ predicate: (String) -> Bool) throws -> String {
      let deadline = Date().addingTimeInterval(60)
      var last = ""
      while Date() < deadline {
        last = try screen()
        if predicate(last) { return last }
        Thread.sleep(forTimeInterval: 0.1)
      }
      Issue.record("timed out waiting for \(what); screen:\n\(last)")
      return last
    }

    deinit { _ = try? run(["kill-server"]) }
  }

  static var tmuxAvailable: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
      || FileManager.default.isExecutableFile(atPath: "/opt/homebrew/bin/tmux")
      || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
  }

  @Test(.enabled(if: tmuxAvailable, "needs tmux (installed by scripts/install-deps.sh)"))
  func startsRendersTapsAndRestoresTheTerminal() throws {
    let tmux = Tmux()
    let marker = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID())")
    let command =
      "cd '\(Self.repository.path)' && TERM=xterm-256color '\(Self.binary)' run flip; "
      + "echo \"exit=$?\" > '\(marker.path)'; tput rmcup 2>/dev/null; printf 'SHELL-BACK\\n'; sleep 30"
    try tmux.start(command)
    _ = try tmux.waitFor("the status line") {
      $0.contains("Flip Card") && $0.contains("Showing front")
    }
    try tmux.run(["send-keys", "-t", "live", "space"])
    _ = try tmux.waitFor("the flip to finish") {
      $0.contains("Showing back") && $0.contains("progress 0.500")
    }
    try tmux.run(["send-keys", "-t", "live", "q"])
    _ = try tmux.waitFor("the shell to come back") { $0.contains("SHELL-BACK") }
    let status = try String(contentsOf: marker, encoding: .utf8)
    #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "exit=0")
    // The alternate screen is gone: the frame's half blocks are no longer shown.
    #expect(!(try tmux.screen()).contains("▀"))
  }

  @Test(.enabled(if: tmuxAvailable, "needs tmux (installed by scripts/install-deps.sh)"))
  func reloadsOnSaveAndReportsErrors() throws {
    let tmux = Tmux()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("card.lua")
    let original = try String(
      contentsOf: Self.repository.appendingPathComponent("Plugins/flip.lua"), encoding: .utf8)
    try original.write(to: file, atomically: true, encoding: .utf8)
    try tmux.startRun(file.path)
    _ = try tmux.waitFor("the first frame") { $0.contains("Flip Card") }
    try tmux.run(["send-keys", "-t", "live", "space"])
    _ = try tmux.waitFor("the flip") { $0.contains("Showing back") }
    // A broken save: the error shows, the last good version keeps running.
    try (original + "\n)))").write(to: file, atomically: true, encoding: .utf8)
    _ = try tmux.waitFor("the error") { $0.contains("error:") && $0.contains("card.lua:") }
    // A good save (written in place, like most editors): state survives.
    try original.replacingOccurrences(of: "name = \"Flip Card\"", with: "name = \"Edited Card\"")
      .write(to: file, atomically: false, encoding: .utf8)
    // The whole redraw: a capture taken halfway through it can show the new
    // name before the rest of the status line (seen at load 5).
    let screen = try tmux.waitFor("the reload, still showing the back, the error gone") {
      $0.contains("Edited Card") && $0.contains("Showing back") && !$0.contains("error:")
    }
    #expect(screen.contains("Showing back"))
    // The view follows the window's size.
    try tmux.run(["resize-window", "-t", "live", "-x", "60", "-y", "20"])
    _ = try tmux.waitFor("the resized status line") { screen in
      screen.split(separator: "\n").contains { $0.contains("Edited Card") && $0.count <= 60 }
    }
    // Ctrl-C (a key in raw mode) quits cleanly too.
    try tmux.quit(with: "C-c")
  }

  @Test(.enabled(if: tmuxAvailable, "needs tmux (installed by scripts/install-deps.sh)"))
  func showsAnErrorAtADeepPathWhole() throws {
    let tmux = Tmux()
    let dir = try deepScratchFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("plugin_with_error.lua")
    let original = try String(
      contentsOf: Self.repository.appendingPathComponent("Plugins/flip.lua"), encoding: .utf8)
    try original.write(to: file, atomically: true, encoding: .utf8)
    try tmux.startRun(file.path)
    _ = try tmux.waitFor("the first frame") { $0.contains("Flip Card") }
    try ("error('deep trouble')\n" + original).write(to: file, atomically: true, encoding: .utf8)
    let expected = "error: \(file.path):1: deep trouble"
    _ = try tmux.waitFor("the whole error") { Self.unwrapped($0).contains(expected) }
    try tmux.quit()
  }

  /// The screen with each full-width row joined to the next, as wrapped text reads.
  static func unwrapped(_ screen: String, width: Int = 80) -> String {
    var text = ""
    for line in screen.split(separator: "\n", omittingEmptySubsequences: false) {
      text += line
      if line.count < width { text += "\n" }
    }
    return text
  }

  /// `render` in a real 50×20 window sizes its text from the window
  /// (`TIOCGWINSZ` on standard output), not from a default.
  @Test(.enabled(if: tmuxAvailable, "needs tmux (installed by scripts/install-deps.sh)"))
  func renderFitsTheWindowItRunsIn() throws {
    let tmux = Tmux()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("window-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let text = dir.appendingPathComponent("frame.txt")
    let command =
      "cd '\(dir.path)' && '\(Self.binary)' render flip --format ascii -o frame.txt; "
      + "echo \"exit=$?\"; sleep 30"
    try tmux.start(command, width: 50, height: 20)
    _ = try tmux.waitFor("render to finish") { $0.contains("exit=0") }
    let lines = try String(contentsOf: text, encoding: .utf8).split(separator: "\n")
    // One row is kept for the prompt: 50×19 cells, fitted to the 428×288 canvas.
    let grid = TerminalLayout.fit(canvas: (428, 288), cols: 50, rows: 19)
    #expect(grid.cols == 50 && grid.rows == 17)
    #expect(lines.count == grid.rows)
    #expect(Set(lines.map(\.count)) == [grid.cols])
  }

  /// Issue 8, item 11: a plugin's name, value, prints and errors show escaped in the
  /// status line; none of their escapes reaches the terminal (OSC 52 would set tmux's
  /// paste buffer when set-clipboard is on).
  @Test(.enabled(if: tmuxAvailable, "needs tmux (installed by scripts/install-deps.sh)"))
  func pluginTextCannotReachTheTerminal() throws {
    let tmux = Tmux()
    let plugin = Self.repository.appendingPathComponent("Tests/MorphCLITests/Fixtures/noisy.lua")
    try tmux.startRun(plugin.path, before: "sleep 1; ", width: 200)
    try tmux.run(["set-option", "-g", "set-clipboard", "on"])
    _ = try tmux.waitFor("the escaped name, value and print") {
      $0.contains("noisy\\x1b]52;c;aGVsbG8=\\x07") && $0.contains("v\\x1b]52")
        && $0.contains("print: body says\\x1b]52")
    }
    try tmux.run(["send-keys", "-t", "live", "space"])
    _ = try tmux.waitFor("the escaped error") { $0.contains("tapped\\x1b]52") }
    #expect(!(try tmux.run(["list-buffers"], capture: true)).contains("buffer"))
    try tmux.quit()
  }

  /// A save whose body spins inside `pcall` cannot swallow the budget: the
  /// old picture stays with the budget error under it; and `q` pressed while
  /// a plugin spins quits at once (the keyboard thread cancels the call).
  @Test(.enabled(if: tmuxAvailable, "needs tmux (installed by scripts/install-deps.sh)"))
  func aSpinningSaveKeepsTheOldPictureAndQStillQuits() throws {
    let tmux = Tmux()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spin-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("card.lua")
    let marker = dir.appendingPathComponent("exit")
    let original = try String(
      contentsOf: Self.repository.appendingPathComponent("Plugins/flip.lua"), encoding: .utf8)
    try original.write(to: file, atomically: true, encoding: .utf8)
    let command =
      "TERM=xterm-256color '\(Self.binary)' run '\(file.path)' --budget 1000000000000 --timeout 6; "
      + "echo \"exit=$?\" > '\(marker.path)'; "
      + "echo done; sleep 30"
    try tmux.start(command, width: 100, height: 30)
    _ = try tmux.waitFor("the first frame") { $0.contains("Flip Card") }
    let spin = original.replacingOccurrences(
      of: "body = function(self)",
      with: "body = function(self)\n    while true do pcall(function() while true do end end) end")
    #expect(spin != original)
    try spin.write(to: file, atomically: true, encoding: .utf8)
    // The old picture is still drawn above the error (in whatever colour
    // mode); the whole redraw, not a capture taken halfway through it.
    func drawnRows(_ screen: String) -> Int {
      let picture = screen.components(separatedBy: "error:").first ?? ""
      return picture.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.count
    }
    let screen = try tmux.waitFor("the budget error under the old picture") {
      Self.unwrapped($0, width: 100).contains("time budget") && $0.contains("Flip Card")
        && drawnRows($0) >= 10
    }
    #expect(drawnRows(screen) >= 10, "the old picture is still drawn")
    // Now a save that spins forever in `reload`, and q in the middle of it.
    try spin.replacingOccurrences(of: "name = \"Flip Card\"", with: "name = \"Spin\"")
      .write(to: file, atomically: true, encoding: .utf8)
    Thread.sleep(forTimeInterval: 0.1)
    let pressed = Date()
    try tmux.run(["send-keys", "-t", "live", "q"])
    _ = try tmux.waitFor("a clean exit") { $0.contains("done") }
    let status = try String(contentsOf: marker, encoding: .utf8)
    #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "exit=0")
    // Uncancelled, the spin would run to its 6 s wall-clock budget (the
    // instruction budget is out of reach); the keyboard thread's cancel ends
    // it within a tick: 0.1 s on a quiet machine, under 1 s at load 16.
    #expect(Date().timeIntervalSince(pressed) < 3)
  }

  /// Pointer motion with no button down (SGR any-event reports, as tmux
  /// forwards them) hovers: the cell under it maps to a canvas point as a
  /// click does, and moving off the component ends the hover.
  @Test(.enabled(if: tmuxAvailable, "needs tmux (installed by scripts/install-deps.sh)"))
  func pointerMotionHoversAndLeavingEndsIt() throws {
    let tmux = Tmux()
    let plugin = Self.repository.appendingPathComponent("Tests/MorphCLITests/Fixtures/hover.lua")
    try tmux.startRun(plugin.path)
    _ = try tmux.waitFor("the first frame") {
      $0.contains("Hover Probe") && $0.contains("not hovered")
    }
    // Button bits 35: motion (32) with no button (3), at column 40, row 12.
    let move = { (column: Int, row: Int) in
      _ = try tmux.run(["send-keys", "-t", "live", "-l", "\u{1B}[<35;\(column);\(row)M"])
    }
    try move(40, 12)
    let screen = try tmux.waitFor("the hover") {
      $0.contains("hovered at") && !$0.contains("not hovered")
    }
    // The picture is 80 columns for a 248-point canvas (24 pt margins): the
    // middle column is near the component's middle, x = 100.
    let x = screen.firstMatch(of: /hovered at (\d+),/).flatMap { Int($0.1) } ?? -1
    #expect((85...115).contains(x), "column 40 hovers at x = \(x)")
    try move(60, 12)
    _ = try tmux.waitFor("the hover to follow") {
      ($0.firstMatch(of: /hovered at (\d+),/).flatMap { Int($0.1) } ?? 0) > x + 40
    }
    try move(1, 1)  // the margin's corner: off the component
    _ = try tmux.waitFor("the hover to end") { $0.contains("not hovered") }
    try tmux.quit()
  }

  /// Issue 27: a body that reads `self.size` is offered the window (at the
  /// zoom its declared size shows at), and a resize offers the new one.
  @Test(.enabled(if: tmuxAvailable, "needs tmux (installed by scripts/install-deps.sh)"))
  func aBodyThatReadsItsSizeFollowsTheWindow() throws {
    let tmux = Tmux()
    let plugin = Self.repository.appendingPathComponent(
      "Tests/MorphCLITests/Fixtures/adaptive.lua")
    try tmux.startRun(plugin.path)
    // 80 × 25 cells show the declared 248 × 148 canvas 80 columns wide: the
    // window's rows below it are offered too.
    let first = try tmux.waitFor("the window's size offered") {
      (Self.offered(in: $0)?.height ?? 0) > 100
    }
    let before = Self.offered(in: first)
    #expect(before?.width == 200, "offered \(String(describing: before))")
    // A lower window fits the declared canvas by its height: the same zoom
    // leaves room for a wider frame.
    try tmux.run(["resize-window", "-t", "live", "-x", "80", "-y", "14"])
    let wider = try tmux.waitFor("a wider size offered after the resize") {
      (Self.offered(in: $0)?.width ?? 0) > 300
    }
    #expect(
      (Self.offered(in: wider)?.height ?? 0) > 90,
      "about 13 rows × 2 at that zoom, less the margins")
    try tmux.quit()
  }

  /// The size the adaptive fixture says it was offered, from its status line.
  static func offered(in screen: String) -> (width: Int, height: Int)? {
    guard let match = screen.firstMatch(of: /offered (\d+)x(\d+)/),
      let width = Int(match.1), let height = Int(match.2)
    else { return nil }
    return (width, height)
  }
}
