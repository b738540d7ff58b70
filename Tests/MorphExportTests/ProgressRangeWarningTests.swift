import Foundation
import MorphCore
import Testing

@testable import MorphExport

/// A frame at a progress outside the plugin's `progressRange` is drawn, with one warning
/// naming the range (a plugin that clamps would otherwise do so silently).
@Suite struct ProgressRangeWarningTests {
  final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
  }

  @Test func aProgressOutsideTheRangeWarnsOnceAndOneInsideDoesNot() throws {
    let lines = Lines()
    var exporter = Exporter(plugin: ExporterTests.flip)
    exporter.warn = { lines.append($0) }
    _ = try exporter.frame(at: .progress(0.5))
    #expect(lines.all.isEmpty)
    _ = try exporter.frame(at: .progress(9))
    #expect(
      lines.all == [
        "--progress 9 is outside the plugin's progressRange 0…1; the plugin may clamp it"
      ])
  }
}
