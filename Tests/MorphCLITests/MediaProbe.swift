import Foundation
import MorphRender
import Testing

/// Reads exported files back with decoders that are not morphhost's: ffprobe
/// and ffmpeg (Debian's ffmpeg), and for animated WebP, which ffmpeg 5 does not
/// decode, libwebp's own tools (webpinfo, webpmux, dwebp).
enum MediaProbe {
  static let scratch = FileManager.default.temporaryDirectory

  /// Runs a tool under a deadline; its standard output.
  static func tool(_ name: String, _ arguments: [String]) throws -> String {
    let result = try Subprocess.run(
      arguments, executable: "/usr/bin/\(name)", in: scratch, deadline: 120)
    guard result.status == 0 else {
      throw ProbeError(description: "\(name) \(arguments.joined(separator: " ")): \(result.err)")
    }
    return result.out
  }

  struct ProbeError: Error, CustomStringConvertible { let description: String }

  /// The first video stream's fields, e.g. `codec_name`, `width`, `nb_read_frames`.
  static func stream(_ path: String) throws -> [String: String] {
    let text = try tool(
      "ffprobe",
      [
        "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "stream=codec_name,width,height,pix_fmt,nb_read_frames:stream_tags=alpha_mode",
        "-of", "default=noprint_wrappers=1", path,
      ])
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { fields[parts[0].replacingOccurrences(of: "TAG:", with: "")] = parts[1] }
    }
    return fields
  }

  /// Each frame's duration in seconds, as ffprobe reads them.
  static func durations(_ path: String) throws -> [Double] {
    try tool(
      "ffprobe",
      ["-v", "error", "-show_entries", "frame=pkt_duration_time", "-of", "csv=p=0", path]
    ).split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
  }

  /// Every frame ffmpeg decodes, as RGBA images of `width`×`height`.
  static func frames(_ path: String, width: Int, height: Int, decoder: [String] = [])
    throws -> [RasterImage]
  {
    let raw = scratch.appendingPathComponent("probe-\(UUID()).rgba").path
    defer { unlink(raw) }
    _ = try tool(
      "ffmpeg",
      ["-v", "error"] + decoder + [
        "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-y", raw,
      ])
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    let size = width * height * 4
    return stride(from: 0, to: bytes.count - size + 1, by: size).map {
      RasterImage(width: width, height: height, pixels: Array(bytes[$0..<($0 + size)]))
    }
  }

  /// Every frame of an animated WebP as a viewer shows it: each stored frame
  /// decoded by dwebp and composited as webpinfo says (offset, blend, dispose).
  static func webpFrames(_ path: String) throws -> [RasterImage] {
    let info = try tool("webpinfo", [path])
    func values(_ key: String) -> [Int] {
      info.split(separator: "\n").compactMap { line in
        let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
        return parts.count == 2 && parts[0] == key ? Int(parts[1]) : nil
      }
    }
    let canvas = info.split(separator: "\n").first { $0.contains("Canvas size") }
    let size = canvas?.split(separator: " ").compactMap { Int($0) } ?? []
    guard size.count == 2 else { throw ProbeError(description: "no canvas size in webpinfo") }
    let (xs, ys, blends, disposals) = (
      values("Offset_X"), values("Offset_Y"), values("Blend"), values("Dispose")
    )
    var screen = RasterImage(width: size[0], height: size[1])
    var shown: [RasterImage] = []
    for n in 0..<xs.count {
      let part = try webpPart(path, n + 1)
      for y in 0..<part.height {
        for x in 0..<part.width {
          let src = part.pixel(x: x, y: y)
          let i = ((ys[n] + y) * screen.width + xs[n] + x) * 4
          var out = [src.r, src.g, src.b, src.a]
          // webpinfo prints the container's bit as it is: 0 blends, 1 does not.
          if blends[n] == 0 && src.a < 255 {
            // Straight-alpha "over", as the WebP container specifies.
            let sa = Double(src.a) / 255
            let da = Double(screen.pixels[i + 3]) / 255 * (1 - sa)
            let a = sa + da
            out =
              (0..<3).map { c in
                let value = [src.r, src.g, src.b][c]
                return a == 0
                  ? 0
                  : UInt8(((Double(value) * sa + Double(screen.pixels[i + c]) * da) / a).rounded())
              } + [UInt8((a * 255).rounded())]
          }
          screen.pixels.replaceSubrange(i..<(i + 4), with: out)
        }
      }
      shown.append(screen)
      if disposals[n] == 1 {
        for y in 0..<part.height {
          let i = ((ys[n] + y) * screen.width + xs[n]) * 4
          screen.pixels.replaceSubrange(
            i..<(i + part.width * 4), with: [UInt8](repeating: 0, count: part.width * 4))
        }
      }
    }
    return shown
  }

  /// Stored frame `n` (from 1) of an animated WebP, as dwebp decodes it (RGBA).
  static func webpPart(_ path: String, _ n: Int) throws -> RasterImage {
    let single = scratch.appendingPathComponent("probe-\(UUID()).webp").path
    let pam = scratch.appendingPathComponent("probe-\(UUID()).pam").path
    defer {
      unlink(single)
      unlink(pam)
    }
    _ = try tool("webpmux", ["-get", "frame", "\(n)", path, "-o", single])
    _ = try tool("dwebp", [single, "-pam", "-o", pam])
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pam)))
    let marker = Array("ENDHDR\n".utf8)
    guard let end = (0..<bytes.count).first(where: { bytes[$0...].starts(with: marker) }) else {
      throw ProbeError(description: "not a PAM file")
    }
    let header = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n")
    func field(_ name: String) -> Int {
      header.first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
    }
    return RasterImage(
      width: field("WIDTH"), height: field("HEIGHT"), pixels: Array(bytes[(end + marker.count)...]))
  }

  /// `morphhost render` of one frame, the reference exports are compared with.
  static func render(_ arguments: [String]) throws -> RasterImage {
    let png = scratch.appendingPathComponent("probe-\(UUID()).png").path
    defer { unlink(png) }
    let result = try Subprocess.run(["render"] + arguments + ["-o", png])
    guard result.status == 0 else { throw ProbeError(description: result.err) }
    return try RasterImage.decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: png))))
  }

  /// The share of pixels whose every channel is within `levels` of the reference.
  static func shareWithin(_ levels: Int, _ a: RasterImage, _ b: RasterImage) -> Double {
    guard a.width == b.width, a.height == b.height else { return 0 }
    var close = 0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
      if (0..<4).allSatisfy({ abs(Int(a.pixels[i + $0]) - Int(b.pixels[i + $0])) <= levels }) {
        close += 1
      }
    }
    return Double(close) / Double(a.width * a.height)
  }

  /// The mean difference per colour channel, in levels (alpha left out: no alpha in video).
  static func meanDifference(_ a: RasterImage, _ b: RasterImage) -> Double {
    guard a.width == b.width, a.height == b.height else { return 255 }
    var total = 0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
      for c in 0..<3 { total += abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c])) }
    }
    return Double(total) / Double(a.width * a.height * 3)
  }
}
