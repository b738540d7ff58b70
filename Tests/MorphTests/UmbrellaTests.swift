import Foundation
import Morph
import Testing

/// `import Morph` alone reaches every layer an embedding app uses: it plays a
/// bundled plugin through a session and exports it, as `Examples/EmbedHost` does.
@Suite struct UmbrellaTests {
  @Test func oneImportPlaysAndExports() throws {
    let flip = try PluginLocator.resolve("flip").path
    let session = PluginSession(path: flip, options: ComponentOptions(), clock: .virtual)
    #expect(session.error == nil, "\(session.error?.locatedMessage ?? "")")
    session.tap()
    session.advance(by: 0.3)
    let frame = try #require(session.frame())
    #expect(!frame.list.items.isEmpty)
    let progress = try #require(session.progress)
    #expect(progress > 0 && progress < 1)

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "umbrella-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // The session host the preview serves, on a virtual clock, as EmbedHost plays it.
    let host = SessionHost(path: flip, clock: .virtual, frameBytes: 32 << 20)
    defer { host.close() }
    let frames = try host.perform { () throws -> Int in
      host.session.apply(.tap(nil))
      var shown = 0
      try host.session.play(every: 0.1, maxFrames: 100) { _ in
        _ = try host.session.png(scale: 1)
        shown += 1
      }
      return shown
    }
    #expect(frames > 3 && frames < 100, "\(frames) frames until the flip settled")

    let written = try Exporter(plugin: flip, timeline: .time(duration: 0.5, fps: 10), input: .tap)
      .write(to: folder.appendingPathComponent("flip.gif"))
    #expect(written.frames == 6)  // 0 to 0.5 s at 10 fps, both ends
    let bytes = try Data(contentsOf: folder.appendingPathComponent("flip.gif"))
    #expect(bytes.starts(with: Array("GIF89a".utf8)))
  }
}
