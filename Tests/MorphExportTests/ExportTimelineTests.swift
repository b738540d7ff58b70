import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphExport

/// Every animated format shows frame i at the moment it was sampled.
@Suite struct ExportTimelineTests {
  @Test(arguments: [
    ExportTimeline.progress(frames: 24),
    .time(duration: 2, fps: 30),
    .time(duration: 0.5, fps: 12),
    // Exactly 5 frames over 2 s (a filmstrip's): 0.5 s apart, whatever fps says.
    .time(duration: 2, fps: 30, frames: 5),
    .time(duration: 3, fps: 24, frames: 7),
  ])
  func framesShowWhenTheyWereSampled(_ timeline: ExportTimeline) {
    let timing = FrameTiming(fps: timeline.fps)
    let count = timeline.frameCount
    for index in 0..<count {
      let shown = timing.start(of: index, count: count)
      if case .time = timeline {
        #expect(abs(shown - timeline.seconds(index)) < 1e-9, "frame \(index)")
      } else {
        #expect(abs(shown - Double(index) / ExportTimeline.defaultFPS) < 1e-9)
      }
    }
  }

  /// 5 frames over 2 s last 2 s in a GIF (centiseconds), not 4/30 s.
  @Test func exactFramesOverADurationPlayForTheDuration() {
    let timeline = ExportTimeline.time(duration: 2, fps: 30, frames: 5)
    #expect(timeline.fps == 2)
    let timing = FrameTiming(fps: timeline.fps)
    #expect(timing.duration(0, 4, count: 5, unitsPerSecond: 100) == 200)
    // One frame has no spacing: it keeps the rate asked for.
    #expect(ExportTimeline.time(duration: 2, fps: 30, frames: 1).fps == 30)
  }

  @Test func ffmpegIsFoundOnTheSearchPathGiven() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("path-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let program = dir.appendingPathComponent("ffmpeg").path
    #expect(VideoEncoder.locate(searchPath: "/nonexistent:\(dir.path)") == nil)
    try "#!/bin/sh\n".write(toFile: program, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
    #expect(VideoEncoder.locate(searchPath: "/nonexistent::\(dir.path)") == program)
    #expect(VideoEncoder.locate(searchPath: "") == nil)
  }

  /// Without an ffmpeg the video export says so, and leaves nothing behind.
  @Test func aVideoWithoutFFmpegIsRefused() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("noff-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var exporter = ExporterTests.exporter
    exporter.ffmpeg = nil
    #expect {
      try exporter.write(to: dir.appendingPathComponent("a.mp4"))
    } throws: { error in
      "\(error)".contains("needs the ffmpeg program")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// An export error that wraps a script's passes its traceback on.
  @Test func aWrappedScriptErrorKeepsItsTraceback() {
    let script = ScriptError(kind: .runtime, message: "boom", traceback: "stack traceback:")
    let wrapped: any Diagnostic = ExportError.failed(script)
    #expect(wrapped.traceback == "stack traceback:")
  }
}
