import CMorphEncode
import Foundation
import MorphCore
import MorphRender

/// An export to Lottie: every frame's display list (no rasters) as one vector
/// animation, in JSON or a dotLottie archive, and the fidelity report.
struct LottieExport {
  let format: ExportFormat
  let path: String
  /// Where the fidelity report's JSON goes, if anywhere.
  let reportPath: String?
  let fps: Double
  let count: Int
  let background: Color?

  /// Writes the animation (and the report); returns the summary line and the report.
  func write(_ source: FrameSource, observer: ExportObserver) throws -> (
    summary: String, report: LottieFidelityReport
  ) {
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    // A long export's runs of layers (`LottieStream.windowBytes`) are made and freed
    // one after another: their buffers mapped and unmapped on their own, so the heap
    // does not grow by each run's leftovers.
    morph_map_large_buffers(256 << 10)
    var stream = LottieStream(
      LottieWriter(
        fps: fps, name: name, background: background, textOutline: PangoTextMeasure.outline))
    for i in 0..<count {
      if observer.isCancelled() { throw ExportError.cancelled }
      try stream.add(try source.next(i))
      observer.frameDone(i + 1, count)
    }
    // The animation goes to a temporary file beside `path` in pieces (spooled layers
    // copied as they are read), renamed into place only when complete. The report is
    // written first, once known: if it cannot be written, no animation is left behind
    // either (a failed export leaves nothing); if the animation then fails, the report
    // goes too.
    let file = try OutputFile(path)
    var reportWritten = false
    func writeReport(_ report: LottieFidelityReport) throws {
      guard let reportPath else { return }
      try OutputFile.write(Array(report.json.utf8), to: reportPath)
      reportWritten = true
    }
    func write(_ bytes: UnsafeRawBufferPointer) throws {
      if observer.isCancelled() { throw ExportError.cancelled }
      try file.write(bytes)
    }
    let report: LottieFidelityReport
    let size: Int
    do {
      if format == .dotLottie {
        let id = Self.animationID(name)
        let zip = ZipArchive(output: write, patch: { try file.patch($0, at: $1) })
        try zip.add("manifest.json", DotLottie.manifest(id: id, generator: "morphhost"))
        var made: LottieFidelityReport?
        try zip.add(DotLottie.entryName(id)) { entry in
          try withoutActuallyEscaping(entry) { entry in
            made = try stream.finish(ready: writeReport, to: entry).report
          }
        }
        try zip.finish()
        (report, size) = (made!, zip.size)
      } else {
        (report, size) = try stream.finish(ready: writeReport, to: write)
      }
      try file.commit()
    } catch {
      file.abandon()
      if reportWritten, let reportPath { try? FileManager.default.removeItem(atPath: reportPath) }
      throw error
    }
    let kind = format == .dotLottie ? "dotLottie" : "Lottie"
    return ("wrote \(path) (\(kind), \(count) frames, \(size) bytes)", report)
  }

  /// A dotLottie animation id: the file name's letters, digits, - and _.
  static func animationID(_ name: String) -> String {
    let id = String(
      name.unicodeScalars.filter {
        CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_"
      }.map(Character.init))
    return id.isEmpty ? "animation" : id
  }
}
