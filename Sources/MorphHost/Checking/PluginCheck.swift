import Foundation
import MorphCore
import MorphScript

/// What `check` does to a plugin: loads it, renders it at five points of its progress
/// range and after each kind of input from a fresh start, and reports every distinct
/// problem once with the occasions it was met at. The command line prints the findings.
public enum PluginCheck {
  /// Seconds an input may keep animating before `check` calls it a problem.
  public static let defaultSettleLimit = 10.0

  public struct Finding: Sendable {
    public var error: Bool
    public var text: String
  }

  /// Where a finding was met: `at progress` 0.250, `after a` tap.
  struct Occasion: Equatable {
    var label: String
    var value: String
  }

  /// The findings in the order first met, each distinct one once with every occasion it
  /// was met at (an error at four progress points is one line naming the four).
  struct Report {
    private var found: [(finding: Finding, occasions: [Occasion])] = []

    mutating func add(_ finding: Finding, at occasion: Occasion? = nil) {
      guard let i = found.firstIndex(where: { $0.finding.text == finding.text }) else {
        found.append((finding, occasion.map { [$0] } ?? []))
        return
      }
      if let occasion, !found[i].occasions.contains(occasion) {
        found[i].occasions.append(occasion)
      }
    }

    /// `text (at progress 0.750, 1.000; after a tap)`.
    var findings: [Finding] {
      found.map { entry in
        var labels: [String] = []
        for o in entry.occasions where !labels.contains(o.label) { labels.append(o.label) }
        guard !labels.isEmpty else { return entry.finding }
        let groups = labels.map { label in
          label + " "
            + entry.occasions.filter { $0.label == label }.map(\.value)
            .joined(separator: ", ")
        }
        var finding = entry.finding
        finding.text += " (" + groups.joined(separator: "; ") + ")"
        return finding
      }
    }
  }

  /// The findings for the plugin `given` names (a path or a bundled name); plugins print
  /// through `options.output`, never into the findings. The progress points and the
  /// unload see the plugin with no input played (`InputScript.default`); the gestures are
  /// check's own probes, each from a fresh start; `input` (`check --input`), when it has
  /// events, is played as one more, named by `inputName`.
  public static func check(
    _ given: String, settleLimit: Double = defaultSettleLimit,
    options: ComponentOptions = ComponentOptions(),
    input: InputScript = .default, inputName: String = "input script"
  ) -> [Finding] {
    var report = Report()
    func error(_ e: Error, _ occasion: Occasion? = nil) {
      report.add(Finding(error: true, text: describe(e, given)), at: occasion)
    }
    func problem(_ text: String, _ occasion: Occasion? = nil) {
      report.add(Finding(error: true, text: "\(given): error: \(text)"), at: occasion)
    }
    func warning(_ text: String) {
      report.add(Finding(error: false, text: "\(given): warning: \(text)"))
    }
    let path: String
    let host: ComponentHost
    do {
      path = try PluginLocator.resolve(given).path
      host = ComponentHost(component: try ComponentInstance(path: path, options: options))
    } catch let e {
      error(e)
      return report.findings
    }
    if host.component.progressKey == nil {
      warning("no 'progress' key: controlled mode and filmstrips cannot drive it")
    }
    // Across the progress range, in controlled mode.
    let range = host.component.progressRange
    for i in 0..<5 {
      let p = range.lowerBound + (range.upperBound - range.lowerBound) * Double(i) / 4
      let occasion = Occasion(label: "at progress", value: String(format: "%.3f", p))
      do {
        let frame =
          host.component.progressKey == nil ? try host.frame() : try host.frame(atProgress: p)
        if let bad = frame.list.items.first(where: { !$0.quad.allSatisfy(\.isFinite) }) {
          problem("non-finite geometry in node \(bad.id ?? bad.kind.rawValue)", occasion)
        }
        if i == 0 { checkAccessibility(frame.summary.accessibility, warning: warning) }
        if let text = checkTransitions(frame.view.root) {
          report.add(Finding(error: false, text: "\(given): warning: \(text)"), at: occasion)
        }
      } catch let e {
        error(e, occasion)
      }
    }
    // Unloaded, as a closed file or an ended run is: `disappear` and the nodes' `onDisappear`.
    let unloading = Occasion(label: "on", value: "unload")
    do { try host.component.unload() } catch let e { error(e, unloading) }
    // After each kind of input, from a fresh start.
    var inputs: [(String, (ComponentHost) throws -> Void)] = [
      ("tap", { try $0.tap() }),
      ("drag right", { h in try h.drag(from: h.center, to: h.center + Point(120, 0), over: 0.25) }),
      ("drag left", { h in try h.drag(from: h.center, to: h.center - Point(120, 0), over: 0.25) }),
    ]
    if !input.events.isEmpty { inputs.append((inputName, { try play(input, on: $0) })) }
    // The gestures a plain tap already covers, poked where something takes them.
    let gestures: [(String, String, KeyPath<Handlers, Int?>?, String)] = [
      ("double tap", "doubleTap", \.doubleTap, "0 doubletap\n"),
      ("long press", "longPress", \.longPress, "0 longpress\n"),
      ("hover", "hover", nil, "0 hover 10,10\n0.1 hover -10,-10\n"),
    ]
    let nodeHandlers = host.lastFrame?.list.items.compactMap(\.handlers) ?? []
    for (name, handler, node, script) in gestures
    where host.component.hasHandler(handler)
      || node.map({ key in nodeHandlers.contains { $0[keyPath: key] != nil } }) == true
    {
      inputs.append((name, { try play(script, on: $0) }))
    }
    var hosts: [ComponentHost] = []
    for (name, input) in inputs {
      let occasion = Occasion(label: "after a", value: name)
      let fresh: ComponentHost
      do {
        fresh = ComponentHost(component: try ComponentInstance(path: path, options: options))
      } catch let e {
        error(e, occasion)
        continue
      }
      hosts.append(fresh)
      do {
        try input(fresh)
        if try fresh.settle(limit: settleLimit) == nil {
          problem(
            "after a \(name), still animating after \(String(format: "%g", settleLimit)) s (keys: \(fresh.component.engine.animatingKeys.joined(separator: ", ")))"
          )
        } else {
          _ = try fresh.frame()
        }
      } catch let e {
        error(e, occasion)
      }
      // Unloaded however the input went, as a run that failed is closed too.
      do { try fresh.component.unload() } catch let e {
        error(e, Occasion(label: "on unload after a", value: name))
      }
    }
    // Advice the bindings noted on the way (a modifier order that probably means the
    // other one), from the first instance and each fresh one.
    for note in (hosts + [host]).flatMap(\.component.state.notes) {
      let location = note.location.isEmpty ? "\(given): " : note.location
      report.add(Finding(error: false, text: "\(location)warning: \(note.text)"))
    }
    return report.findings
  }

  /// Plays a one-gesture input script to its end.
  static func play(_ text: String, on host: ComponentHost) throws {
    try play(try InputScript.parse(text, file: "check"), on: host)
  }

  /// Plays `script` to its end (and one tick past it, so its last event is handled).
  static func play(_ script: InputScript, on host: ComponentHost) throws {
    var player = ScriptPlayer(script)
    try player.play(until: script.duration + host.tick, on: host)
  }

  /// A transition that never runs, for want of an id.
  static func checkTransitions(_ root: ViewNode) -> String? {
    guard TransitionTracker.hasTransitionWithoutID(root) else { return nil }
    return "a node has a :transition but no :id, so it comes and goes at once: give it an :id"
  }

  static func checkAccessibility(_ a: Accessibility?, warning: (String) -> Void) {
    guard let a else {
      warning(
        "no accessibility description: add accessibility = function(self) return { label =, value =, hint =, traits = } end"
      )
      return
    }
    if a.label?.isEmpty ?? true { warning("accessibility has no label") }
    if a.value == nil { warning("accessibility has no value") }
  }

  /// An error as `file:line: error: message` (the plugin's position when Lua
  /// knows it, else the plugin's file).
  static func describe(_ e: Error, _ given: String) -> String {
    let diagnostic = e as? any Diagnostic
    let location = diagnostic?.location ?? FilePosition(file: given)
    return "\(location): error: \(diagnostic?.message ?? "\(e)")"
  }
}
