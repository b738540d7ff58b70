import MorphCore
import MorphRender
import MorphScript

/// Any document a command can show — a component or a scene — behind one
/// frame path: it owns the margin around the frame, text measurement and the
/// frames at a progress value. `render`, `export`, `bench` and `run` all use
/// it; components add a clock and input through `component`.
public final class DocumentHost {
  /// Points around the document's frame, as SwiftUI previews pad them.
  public static let defaultMargin = 24.0

  public enum Content {
    case component(ComponentHost)
    case scene(SceneFile)
  }

  public let content: Content
  public let margin: Double
  public let textMeasure: TextMeasuring

  /// Runs the file once; what it returns decides whether it is a component.
  public init(
    path: String, options: ComponentOptions = ComponentOptions(),
    margin: Double = DocumentHost.defaultMargin,
    textMeasure: TextMeasuring = PangoTextMeasure()
  ) throws(ScriptError) {
    self.margin = margin
    self.textMeasure = textMeasure
    var options = options
    options.textMeasure = textMeasure
    switch try ScriptDocument.load(path: path, options: options) {
    case .component(let instance):
      content = .component(
        ComponentHost(component: instance, margin: margin, textMeasure: textMeasure))
    case .scene(let scene):
      content = .scene(scene)
    }
  }

  /// The files it was read from: the plugin and every file it imported (a bundled plugin
  /// has no file). A command never writes its output onto one of them.
  public var sourceFiles: [String] {
    switch content {
    case .component(let host): return host.watchedFiles
    case .scene(let scene):
      guard BundledPlugins.plugin(atPath: scene.path) == nil else { return [] }
      return [scene.path] + scene.state.importedFiles
    }
  }

  /// The component, for commands that play input on its clock.
  public var component: ComponentHost? {
    if case .component(let host) = content { return host }
    return nil
  }

  public var name: String {
    switch content {
    case .component(let host): return host.component.name
    case .scene(let scene): return scene.name
    }
  }

  /// The document's own frame, without the margin.
  public var frameSize: Size {
    switch content {
    case .component(let host): return host.component.offeredSize
    case .scene(let scene): return scene.size
    }
  }

  /// The whole canvas: the frame centred with `margin` around it.
  public var canvas: Size {
    Size(frameSize.width + 2 * margin, frameSize.height + 2 * margin)
  }

  /// The progress values the document declares (a scene's body takes 0…1).
  public var progressRange: ClosedRange<Double> {
    component?.component.progressRange ?? DocumentDefaults.progressRange
  }

  /// The frame now (a scene: at progress 0).
  public func frame() throws -> ComponentHost.Frame {
    try frame(progress: nil)
  }

  /// The frame at `progress`: a component in controlled mode, or what a
  /// scene's body gives for it; nil leaves a component as it is.
  public func frame(progress: Double?) throws -> ComponentHost.Frame {
    switch content {
    case .component(let host):
      if let progress { try host.component.setProgress(progress) }
      return try host.frame()
    case .scene(let scene):
      let view = try scene.view(progress: progress ?? 0)
      var builder = DisplayListBuilder(textMeasure: textMeasure)
      builder.layoutSeconds = scene.state.limits.hostWorkSeconds
      let list = try SceneError.placed(
        at: { scene.bodyLocation },
        { () throws(SceneError) in
          let list = try builder.build(view.root, canvas: canvas, frame: scene.size)
          try FrameBudget.standard.checkGroups(list.commands)
          return list
        })
      return ComponentHost.Frame(
        list: list, view: view, summary: SceneSummary(name: scene.name, progress: progress))
    }
  }

  /// The component, or an error saying that `purpose` (what the caller wants the clock or
  /// input for, e.g. "playing input") needs one and a scene has none.
  public func componentHost(for purpose: String) throws(ScriptError) -> ComponentHost {
    guard let component else {
      throw ScriptError(
        kind: .value, message: "a scene file has no clock or input: \(purpose) needs a component")
    }
    return component
  }
}
