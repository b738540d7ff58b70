import Foundation
import MorphCore
import MorphRender
import MorphScript
import MorphTestSupport
import Testing

@testable import MorphHost

/// The Lua-only examples that use the motion vocabulary, filmed as their
/// input scripts play (the moments their motion shows best) and compared
/// with goldens frame by frame.
struct ExampleFilm: Sendable, CustomTestStringConvertible {
  var plugin: String
  /// The input script played, if any (a spinner needs none).
  var input: String?
  var times: [Double]

  var testDescription: String { plugin }

  static let all = [
    // Rest; the squash and the ring leaving; the spring's overshoot with the
    // ring wide and faint; the glow breathing; unliked again.
    ExampleFilm(plugin: "like_button", input: "like.txt", times: [0, 0.06, 0.2, 0.9, 1.6]),
    // Rest; mid-drag with the pill swollen and between colours; just after
    // release, carried on by the finger's speed; settled on Month; on the
    // way back to Day.
    ExampleFilm(
      plugin: "segmented_control", input: "segments.txt", times: [0, 0.15, 0.35, 1.1, 1.35]),
    // No input: `appear` starts it. The arc short at 12 o'clock; turning and growing;
    // long; shrinking; into its second turn.
    ExampleFilm(plugin: "spinner", input: nil, times: [0, 0.2, 0.4, 0.7, 1.2]),
    // Sliding in from above the top edge, fading in; nearly in; resting, its text
    // wrapped; leaving by itself two seconds after the tap; shown again and dismissed
    // by a second tap while still sliding in, turning back where it was.
    ExampleFilm(plugin: "toast", input: "toast.txt", times: [0.08, 0.2, 1.2, 2.2, 3.4]),
    // Home; the pill gliding right and stretching on its spring; resting behind Library;
    // heading for Me; turned back home by a tap while still moving.
    ExampleFilm(plugin: "tab_bar", input: "tabs.txt", times: [0, 0.1, 0.9, 1.1, 1.3]),
  ]
}

@Suite struct ExamplePluginTests {
  static let examples = repository.appendingPathComponent("Examples")

  func host(_ film: ExampleFilm) throws -> (ComponentHost, ScriptPlayer) {
    let path = Self.examples.appendingPathComponent("plugins/\(film.plugin).lua").path
    var script = try InputScript.parse("", file: "none")
    if let input = film.input {
      let inputPath = Self.examples.appendingPathComponent("inputs/\(input)").path
      script = try InputScript.parse(
        try String(contentsOfFile: inputPath, encoding: .utf8), file: input)
    }
    return (ComponentHost(component: try ComponentInstance(path: path)), ScriptPlayer(script))
  }

  @Test(arguments: ExampleFilm.all)
  func filmstrip(_ film: ExampleFilm) throws {
    var (host, player) = try host(film)
    let renderer = CairoRenderer()
    var frames: [RasterImage] = []
    for t in film.times {
      try player.play(until: t, on: host)
      frames.append(try host.image(try host.frame(), renderer: renderer))
    }
    let result = try Golden.assertFilmstrip(
      frames, matches: goldenPath("\(film.plugin)-timeline.png"))
    #expect(result.passed, Comment(rawValue: result.description))
  }

  /// The like button's pop and burst are keyframes and its glow repeats
  /// forever: the engine runs them, Lua only draws.
  @Test func theLikeButtonAnimatesWithNoLuaCallPerTick() throws {
    var (host, player) = try host(ExampleFilm.all[0])
    try player.play(until: 0.02, on: host)
    #expect(host.component.engine.animatingKeys.contains("ring"))
    let entries = host.component.state.entryCount
    try host.advance(to: 1.0)
    #expect(host.component.state.entryCount == entries)
    #expect(host.component.isContinuous)  // the glow breathes on
    try host.advance(to: 1.5)
    #expect(host.component.state.entryCount == entries)
    #expect(!host.component.isSettling)  // and nothing else is left moving
  }

  /// A flick hands the finger's speed to the snapping spring: right after
  /// release the pill still moves at the finger's speed (segments per second).
  @Test func theSegmentedControlSnapsWithTheReleaseVelocity() throws {
    var (host, player) = try host(ExampleFilm.all[1])
    try player.play(until: 0.25, on: host)
    #expect(host.component.engine.animatingKeys.contains("pill"))
    let v = host.component.engine.velocity("pill", at: host.time)
    #expect(abs(v - 360 / (320 / 3)) < 0.5)
    try host.settle()
    #expect(host.component.presented("pill") == 2)
  }
}
