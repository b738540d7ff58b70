import Foundation
import MorphCore

/// A plugin or scene file that has run once in its own sandboxed state: what
/// it returned decides what it is (a `morph.component` definition, or a
/// scene), never an error message, and its top level never runs twice.
public struct ScriptFile {
  public let path: String
  public let state: LuaState
  /// The file's first result.
  public let result: LuaValue

  /// Reads `path` (or takes `source`, named `path`) and runs it once;
  /// its `print` goes to `output`.
  public init(
    path: String, source: String? = nil, limits: ScriptLimits = .standard,
    output: ((String) -> Void)? = nil, textMeasure: TextMeasuring = ApproximateTextMeasure()
  ) throws(ScriptError) {
    let text: [UInt8]
    if let source {
      text = Array(source.utf8)
    } else {
      text = try BundledPlugins.source(atPath: path, limits: limits)
    }
    self.path = path
    state = try LuaState(limits: limits, textMeasure: textMeasure)
    if let output { state.output = output }
    // Only a plugin read from a file has a folder to import from.
    if source == nil, BundledPlugins.plugin(atPath: path) == nil {
      state.moduleDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    }
    do {
      result = try state.call(try state.load(text, chunkName: path)).first ?? .nil
    } catch {
      // A stop with no position of its own (the memory cap refused before any line was
      // seen near it) is still this file's.
      var placed = error
      if placed.chunk == nil { placed.chunk = path }
      throw placed
    }
  }

  /// Whether the file returned a `morph.component{…}` definition.
  public var isComponent: Bool { state.isComponentDefinition(result) }
}

/// What a file turned out to be, decided by what it returned.
public enum ScriptDocument {
  case component(ComponentInstance)
  case scene(SceneFile)

  /// Runs the file once and wraps what it returned.
  public static func load(path: String, options: ComponentOptions = ComponentOptions())
    throws(ScriptError) -> ScriptDocument
  {
    let file = try ScriptFile(
      path: path, limits: options.limits, output: options.output,
      textMeasure: options.textMeasure)
    if file.isComponent, case .table(let def) = file.result {
      return .component(try ComponentInstance(file: file, definition: def, options: options))
    }
    return .scene(try SceneFile(file: file))
  }
}
