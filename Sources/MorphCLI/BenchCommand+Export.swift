import Foundation
import MorphCore
import MorphExport
import MorphRender

#if REFERENCE_BENCHMARKS
  import MorphBench
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `morphhost bench --export`: export sizes and speed against the obvious
/// alternatives, measured side by side in one run (child processes, wall
/// clock), so the ratios hold whatever the machine. Printed, never asserted.
/// The comparisons that compile a C program and run ffmpeg are `MorphBench`'s,
/// a development-only target: an installed binary has only the memory figures.
extension BenchCommand {
  static func runExport(output: some TextOutput) throws -> ExitStatus {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-export-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // Memory first: a child's peak RSS starts from this process's own, which
    // the size comparison below raises by decoding every frame.
    let memory = try exportMemory(short: 120, long: 2000)
    let largeMemory = try BenchCommand.largeExportMemory(frames: 60)
    let lottieMemory = try lottieMemory()
    #if REFERENCE_BENCHMARKS
      guard let ffmpeg = ProcessEnvironment.ffmpeg() else {
        throw BenchFailure(
          "bench --export compares with ffmpeg, which is not on PATH (apt-get install ffmpeg)")
      }
      let bench = ExportReferenceBench(dir: dir.path, ffmpeg: ffmpeg)
      for line in try bench.sizes() { output.write(line) }
      for line in try bench.pngSpeed() { output.write(line) }
    #else
      output.write(
        "export sizes against ffmpeg and speed against a C + Cairo program: not in this build "
          + "(a development build has them: make bench)")
    #endif
    for line in try lottieExport(frames: 120) { output.write(line) }
    output.write(memory)
    output.write(largeMemory)
    output.write(lottieMemory)
    return .success
  }
}
