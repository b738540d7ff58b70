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
    var stream = LottieStream(
      LottieWriter(
        fps: fps, name: name, background: background, textOutline: PangoTextMeasure.outline))
    for i in 0..<count {
      if observer.isCancelled() { throw ExportError.cancelled }
      try stream.add(try source.next(i))
      observer.frameDone(i + 1, count)
    }
    let animation = stream.finish()
    let bytes: [UInt8] =
      format == .dotLottie
      ? DotLottie.archive(json: animation.json, id: Self.animationID(name), generator: "morphhost")
      : Array(animation.json.utf8)
    // The report first: if it cannot be written, no animation is left behind
    // either (a failed export leaves nothing); if the animation then fails, the
    // report goes too.
    if let reportPath {
      try OutputFile.write(Array(animation.report.json.utf8), to: reportPath)
    }
    do {
      try OutputFile.write(bytes, to: path)
    } catch {
      if let reportPath { try? FileManager.default.removeItem(atPath: reportPath) }
      throw error
    }
    let kind = format == .dotLottie ? "dotLottie" : "Lottie"
    return ("wrote \(path) (\(kind), \(count) frames, \(bytes.count) bytes)", animation.report)
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
