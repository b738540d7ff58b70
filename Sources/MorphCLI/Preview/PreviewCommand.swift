import Foundation
import MorphCore
import MorphHost
import MorphScript
import MorphSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `morphhost preview PLUGIN`: the component in a browser, with a timeline,
/// its props and hot reload; a folder (or nothing: the bundled plugins)
/// gives an index of plugins with a thumbnail each.
enum PreviewCommand {
  static let usage = """
    Usage: morphhost preview [PLUGIN | FOLDER] [options]

    Serves a page on 127.0.0.1 that shows the plugin at the screen's full
    resolution and prints its URL as the first line of output. Click and drag
    the picture; scrub progress, play, pause, step and change speed; edit the
    plugin's props; toggle reduce motion; save the frame as PNG. Every save of
    the plugin reloads it, keeping its state (a broken save shows its error and
    keeps the last good version running). Several tabs share one component.
    A FOLDER (or no argument: the bundled plugins) lists its plugins with a
    thumbnail each. Ctrl-C stops the server.

    Options:
      --port N           the port (default 0: any free port)
      --open             open the page in the default browser (the default on a terminal)
      --no-open          do not (the default when output is not a terminal)
      --set KEY=VALUE    override a prop (one plugin only; repeatable)
      --reduce-motion    changes apply at once (also MORPH_REDUCE_MOTION=1)
      --input none       the one input rule: \(InputScript.defaultText); the page
                         plays only what you do in it (no script here)
    \(ScriptLimits.optionsUsage(column: 21))
    """

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    let play = try PlayOptions(&options)
    guard play.time == nil else { throw UsageError("preview takes no --time: play it in the page") }
    // The same default as every command (nothing); a script or a tap is played in the page.
    if let input = play.inputPath, input != InputScript.noneName {
      throw UsageError(
        "preview takes only --input \(InputScript.noneName): tap and drag in the page, and its timeline replays them"
      )
    }
    let port = try options.int("--port", in: 0...65535) ?? 0
    let open = options.flag("--open")
    let noOpen = options.flag("--no-open")
    let given = try options.remaining()
    guard given.count <= 1 else { throw UsageError("expected one plugin or folder") }
    let catalog = try PreviewCatalog(given.first, options: play.component, output: output)
    let server = try PreviewServer(catalog: catalog, port: port)
    // Listening before the URL is printed: whoever reads the URL may stop
    // the server at once, and a signal that came before the sources
    // resumed would be ignored for good.
    StopSignals.catchThem()
    let url = "http://127.0.0.1:\(server.port)/"
    output.write(url)
    output.error("morphhost: previewing \(catalog.title) at \(url) (Ctrl-C stops)")
    if open || (!noOpen && isatty(STDOUT_FILENO) == 1) { openBrowser(url, output: output) }
    StopSignals.waitForOne()
    if !stop(server, within: Self.stopDeadline) {
      output.error(
        "morphhost: the server did not stop within \(Int(Self.stopDeadline)) s; leaving anyway")
    }
    return .success
  }

  /// How long stopping may take before the command returns anyway: a
  /// frame a plugin is still drawing, or a browser that holds a stream
  /// open, must not keep a stopped server alive (a second Ctrl-C ends it
  /// at once: `wait` put the default handlers back).
  static let stopDeadline: Double = 3

  /// Closes the sessions and the server on a thread of its own; true when
  /// it finished within `seconds`.
  static func stop(_ server: PreviewServer, within seconds: Double) -> Bool {
    let stopped = DispatchSemaphore(value: 0)
    let stopping = UncheckedSendable(server)
    Thread.detachNewThread {
      stopping.value.stop()
      stopped.signal()
    }
    return stopped.wait(timeout: .now() + seconds) == .success
  }

  static func openBrowser(_ url: String, output: some TextOutput) {
    #if os(macOS)
      let opener = "/usr/bin/open"
    #else
      let opener = "/usr/bin/xdg-open"
    #endif
    let process = Process()
    process.executableURL = URL(fileURLWithPath: opener)
    process.arguments = [url]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch {
      output.error("morphhost: cannot open a browser (\(opener)): open \(url) yourself")
    }
  }
}

/// The plugins a preview serves: one, or a folder's (or the bundled ones),
/// each loaded into a session the first time its page or thumbnail is asked.
final class PreviewCatalog: @unchecked Sendable {
  /// Name in the URL → plugin path; a single plugin is served at the root.
  let plugins: [(name: String, path: String)]
  let single: Bool
  let title: String
  let options: ComponentOptions
  /// Exports started from the pages.
  let exports = PreviewExports()
  private let lock = NSLock()
  /// The shared session of each plugin (thumbnails, and requests that name no tab).
  private var sessions: [String: PreviewSession] = [:]
  /// Each tab's own session, by plugin and tab, with when it was last used:
  /// at most `PreviewLimits.tabSessions`, the least recently used going first.
  private var tabs: [TabKey: (session: PreviewSession, used: Int)] = [:]
  private var uses = 0

  private struct TabKey: Hashable {
    var plugin: String
    var tab: String
  }

  init(_ given: String?, options: ComponentOptions, output: some TextOutput) throws {
    self.options = options
    var isFolder: ObjCBool = false
    if let given, !FileManager.default.fileExists(atPath: given, isDirectory: &isFolder) {
      isFolder = false
    }
    if let given, !isFolder.boolValue {
      let path = try resolvePlugin(given, output: output)
      plugins = [(BundledPlugins.baseName(ofPath: path), path)]
      single = true
      title = path
      return
    }
    guard options.props.isEmpty else { throw UsageError("--set needs a single plugin") }
    single = false
    if let folder = given {
      // A folder's plugins, not their tests.
      let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        .filter { $0.hasSuffix(".lua") && !$0.hasSuffix(TestDiscovery.suffix) }.sorted()
      guard !names.isEmpty else { throw UsageError("\(folder): no .lua files") }
      plugins = names.map { (String($0.dropLast(4)), folder + "/" + $0) }
      title = folder
    } else {
      plugins = PluginLocator.bundled().map { ($0.name, $0.path) }
      title = "the bundled plugins"
    }
  }

  /// The session for a plugin, started on first use: the tab's own when a tab
  /// is named (`PreviewRoutes.tab`), so a tap in one tab leaves another alone.
  func session(_ name: String, tab: String? = nil) -> PreviewSession? {
    guard let path = plugins.first(where: { $0.name == name })?.path else { return nil }
    lock.lock()
    guard let tab else {
      defer { lock.unlock() }
      if let session = sessions[name] { return session }
      let session = PreviewSession(path: path, options: options)
      sessions[name] = session
      return session
    }
    let key = TabKey(plugin: name, tab: tab)
    uses += 1
    if let known = tabs[key] {
      tabs[key]?.used = uses
      lock.unlock()
      return known.session
    }
    var evicted: [PreviewSession] = []
    while tabs.count >= PreviewLimits.tabSessions,
      let oldest = tabs.min(by: { $0.value.used < $1.value.used })
    {
      evicted.append(oldest.value.session)
      tabs[oldest.key] = nil
    }
    let session = PreviewSession(path: path, options: options)
    tabs[key] = (session, uses)
    lock.unlock()
    // Its streams end; the page that comes back gets a fresh session.
    for old in evicted { DispatchQueue.global().async { old.close() } }
    return session
  }

  /// Closes a tab's own session, if it has one.
  func closeTab(_ name: String, tab: String) {
    lock.lock()
    let session = tabs.removeValue(forKey: TabKey(plugin: name, tab: tab))?.session
    lock.unlock()
    session?.close()
  }

  func closeAll() {
    lock.lock()
    let all = Array(sessions.values) + tabs.values.map(\.session)
    lock.unlock()
    exports.stop()
    for session in all { session.close() }
  }
}
