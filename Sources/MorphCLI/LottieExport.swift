import Foundation
import MorphCore
import MorphExport
import MorphRender

/// `export` to Lottie: every frame's display list (no rasters), one vector animation,
/// and the fidelity report.
struct LottieExport {
  let format: ExportFormat
  let path: String
  let report: String?
  let timeline: ExportCommand.Timeline
  let background: Color?

  /// Writes the animation (and the report); returns the summary line for standard error.
  func write(_ source: FrameSource) throws -> String {
    var lists: [DisplayList] = []
    for i in 0..<timeline.frameCount { lists.append(try source.next(i)) }
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    let animation = LottieWriter(
      fps: timeline.fps, name: name, background: background,
      textOutline: PangoTextMeasure.outline
    ).write(lists)
    let bytes: [UInt8] =
      format == .dotLottie
      ? DotLottie.archive(json: animation.json, id: Self.animationID(name), generator: "morphhost")
      : Array(animation.json.utf8)
    try OutputFile.write(bytes, to: path)
    if let report { try OutputFile.write(Array(animation.report.json.utf8), to: report) }
    FileHandle.standardError.write(Data("lottie: \(animation.report.summary)\n".utf8))
    return "wrote \(path): \(lists.count) frames, \(bytes.count) bytes"
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
