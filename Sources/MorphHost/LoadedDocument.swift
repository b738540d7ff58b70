import MorphCore
import MorphScript

/// What a Lua file turned out to be: a component (behaviour, state, input)
/// or a static scene (a node, or `{ size, body }`).
public enum LoadedDocument {
  case component(ComponentHost)
  case scene(SceneFile)

  public static func load(path: String, options: ComponentOptions, margin: Double) throws
    -> LoadedDocument
  {
    do {
      let instance = try ComponentInstance(path: path, options: options)
      return .component(ComponentHost(component: instance, margin: margin))
    } catch  where error.message.hasPrefix("the plugin must return") {
      return .scene(
        try SceneFile(path: path, limits: options.limits, output: options.output))
    }
  }
}
