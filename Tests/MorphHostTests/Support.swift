import Foundation
import MorphCore
import MorphRender
import MorphScript
import MorphTestSupport
import Testing

@testable import MorphHost

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

func plugin(_ name: String) -> String {
  repository.appendingPathComponent("Plugins/\(name).lua").path
}

func host(_ name: String, reduceMotion: Bool = false, props: [(String, String)] = []) throws
  -> ComponentHost
{
  let options = ComponentOptions(
    props: props.map { (key: $0.0, value: $0.1) }, reduceMotion: reduceMotion)
  return ComponentHost(component: try ComponentInstance(path: plugin(name), options: options))
}

/// The golden file `Goldens/NAME` beside these tests.
func goldenPath(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Goldens/\(name)").path
}

/// Compares text with its golden byte for byte.
func expectGoldenText(
  _ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let result = try Golden.assertText(text, matches: goldenPath(name))
  #expect(result.passed, Comment(rawValue: result.description), sourceLocation: sourceLocation)
}

/// The display item with `id` in a frame.
func item(_ frame: ComponentHost.Frame, _ id: String) throws -> DisplayItem {
  try #require(frame.list.items.first { $0.id == id }, "no item with id \(id)")
}

/// Whether two points are within `tolerance` (0.25 pt: the geometry tests' bar).
func close(_ a: Point, _ b: Point, _ tolerance: Double = 0.25) -> Bool {
  abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

/// The five progress points every plugin is checked and filmed at.
let progressPoints: [Double] = [0, 0.25, 0.5, 0.75, 1]

/// A frame's JSON dump without its accessibility description: what must be
/// identical between controlled and interactive mode. (Accessibility values
/// follow the model value, as SwiftUI's do, so mid-animation they differ.)
func sceneGeometry(_ frame: ComponentHost.Frame) -> String {
  SceneJSON.encode(
    frame.list, summary: SceneSummary(name: frame.summary.name, progress: frame.summary.progress))
}
