import Foundation

/// Exported files read back by programs that are not ours: ffprobe and
/// ffmpeg (APNG, MP4, WebM) and libwebp's webpinfo (animated WebP, which
/// Debian's ffmpeg does not decode).
enum Probe {
  struct Failure: Error, CustomStringConvertible { let description: String }

  /// Runs `/usr/bin/NAME ARGUMENTS`; its standard output. A tool that fails is an error.
  static func run(_ name: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(name)")
    process.arguments = arguments
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "probe-\(UUID()).txt")
    FileManager.default.createFile(atPath: output.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: output) }
    let handle = try FileHandle(forWritingTo: output)
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try handle.close()
    let text = try String(contentsOf: output, encoding: .utf8)
    guard process.terminationStatus == 0 else {
      throw Failure(description: "\(name) \(arguments.joined(separator: " ")): \(text)")
    }
    return text
  }

  /// The first video stream as ffprobe decodes it: codec, size and the frames it read.
  static func video(_ path: String) throws -> (codec: String, width: Int, height: Int, frames: Int)
  {
    let text = try run(
      "ffprobe",
      [
        "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "stream=codec_name,width,height,nb_read_frames", "-of", "default=noprint_wrappers=1",
        path,
      ])
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { fields[parts[0]] = parts[1] }
    }
    return (
      fields["codec_name"] ?? "", Int(fields["width"] ?? "") ?? 0,
      Int(fields["height"] ?? "") ?? 0, Int(fields["nb_read_frames"] ?? "") ?? 0
    )
  }

  /// Every frame ffmpeg decodes from `path`, as straight RGBA bytes of `width`×`height`.
  static func rgbaFrames(_ path: String, width: Int, height: Int) throws -> [[UInt8]] {
    let raw = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID()).rgba")
    defer { try? FileManager.default.removeItem(at: raw) }
    _ = try run(
      "ffmpeg",
      [
        "-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt",
        "rgba", "-y", raw.path,
      ])
    let bytes = [UInt8](try Data(contentsOf: raw))
    let size = width * height * 4
    return stride(from: 0, to: bytes.count - size + 1, by: size).map {
      Array(bytes[$0..<($0 + size)])
    }
  }

  /// An animated WebP's canvas and stored frames, as webpinfo reads them (it checks the file).
  static func webp(_ path: String) throws -> (width: Int, height: Int, frames: Int) {
    let text = try run("webpinfo", [path])
    guard !text.contains("Errors detected") else { throw Failure(description: text) }
    let canvas = text.split(separator: "\n").first { $0.contains("Canvas size") }
    let size = canvas?.split(separator: " ").compactMap { Int($0) } ?? []
    let frames = text.split(separator: "\n").filter { $0.contains("Chunk ANMF") }.count
    return (size.first ?? 0, size.dropFirst().first ?? 0, frames)
  }
}
