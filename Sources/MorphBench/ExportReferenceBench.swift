import Foundation
import MorphCore
import MorphRender

/// A reference program failed to build or run.
public struct BenchError: Diagnostic {
  public var message: String
  public var description: String { message }
}

/// The figures of `bench --export`, for deck_fan at scale 2.
public struct ExportReferenceBench {
  let dir: String
  let ffmpeg: String
  /// The morphhost program whose `export` is measured: this process's own.
  let binary = Bundle.main.executablePath ?? CommandLine.arguments[0]

  public init(dir: String, ffmpeg: String) {
    self.dir = dir
    self.ffmpeg = ffmpeg
  }

  static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  /// Runs a program to completion with its output discarded; its wall time in seconds.
  @discardableResult
  func time(_ program: String, _ arguments: [String]) throws -> Double {
    let start = Self.now()
    let result = try ChildProcess.run(program, arguments)
    guard result == 0 else {
      throw BenchError(
        message:
          "\((program as NSString).lastPathComponent) failed: \(arguments.joined(separator: " "))")
    }
    return Self.now() - start
  }

  @discardableResult
  func export(_ out: String, frames: Int, _ options: [String] = []) throws -> Double {
    try time(
      binary, ["export", "deck_fan", "--scale", "2", "--frames", "\(frames)", "-o", out] + options)
  }

  func size(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }

  /// APNG and GIF against what ffmpeg makes from the same 60 PNG frames.
  public func sizes() throws -> [String] {
    let frames = "\(dir)/frames60"
    try export(frames, frames: 60)
    let pattern = "\(frames)/frame-%04d.png"
    let input = ["-v", "error", "-y", "-framerate", "30", "-i", pattern]
    let apngTime = try export("\(dir)/fan.apng", frames: 60)
    let optimizedTime = try export("\(dir)/fan-optimized.apng", frames: 60, ["--optimize"])
    let ffmpegTime = try time(ffmpeg, input + ["-plays", "0", "-f", "apng", "\(dir)/ff.apng"])
    try time(
      ffmpeg, input + ["-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse", "\(dir)/ff.gif"])
    let reference = try (1...60).map { i in
      try RasterImage.decodePNG(
        [UInt8](
          try Data(contentsOf: URL(fileURLWithPath: String(format: "\(frames)/frame-%04d.png", i))))
      )
    }
    let apng = (size("\(dir)/fan.apng"), size("\(dir)/ff.apng"))
    let optimized = size("\(dir)/fan-optimized.apng")
    let theirs = size("\(dir)/ff.gif")
    let (theirError, theirFrames) = try meanError("\(dir)/ff.gif", reference)
    let indexed = "\(dir)/fan-indexed.apng"
    try export(indexed, frames: 60, ["--colors", "255"])
    let (indexedError, indexedFrames) = try meanError(indexed, reference)
    var lines = [
      "export deck_fan, 60 frames at scale 2 (856×576):",
      String(
        format:
          "  APNG: morphhost %d KiB in %.1f s (lossless), ffmpeg -f apng %d KiB in %.1f s "
          + "(from the PNGs), ratio %.3f (goal ≤ 0.6, not reached losslessly: "
          + "see docs/performance.md)",
        apng.0 / 1024, apngTime, apng.1 / 1024, ffmpegTime, Double(apng.0) / Double(apng.1)),
      String(
        format: "  APNG --optimize: morphhost %d KiB in %.1f s, ratio %.3f to ffmpeg's, "
          + "%.3f to the default (goal ≤ 0.78 to ffmpeg's)",
        optimized / 1024, optimizedTime, Double(optimized) / Double(apng.1),
        Double(optimized) / Double(apng.0)),
      String(
        format: "  APNG --colors 255: morphhost %d KiB, mean error %.3f levels over %d frames, "
          + "ratio %.3f (goal ≤ 0.6)",
        size(indexed) / 1024, indexedError, indexedFrames,
        Double(size(indexed)) / Double(apng.1)),
      String(
        format: "  GIF: ffmpeg palettegen/paletteuse %d KiB, mean error %.3f levels over %d frames",
        theirs / 1024, theirError, theirFrames),
    ]
    // The default first: the goal is ≤ 0.8 at equal or better error.
    let variants: [(String, [String])] = [
      ("", []), (" --colors 255", ["--colors", "255"]), (" --lossy 1", ["--lossy", "1"]),
    ]
    for (k, (name, options)) in variants.enumerated() {
      let path = "\(dir)/fan-\(k).gif"
      try export(path, frames: 60, options)
      let (error, count) = try meanError(path, reference)
      lines.append(
        String(
          format: "  GIF%@: morphhost %d KiB, mean error %.3f levels over %d frames, ratio %.3f%@",
          name, size(path) / 1024, error, count, Double(size(path)) / Double(theirs),
          k == 0 ? " (goal ≤ 0.8 at equal or better error)" : ""))
    }
    return lines
  }

  /// Mean difference per colour channel between an animation's frames (decoded by ffmpeg) and the
  /// true frames (the PNGs), over every pixel of every frame; and how many frames were
  /// decoded (a merged or missing frame would misalign the comparison, so it is printed).
  func meanError(_ animation: String, _ reference: [RasterImage]) throws -> (Double, Int) {
    let raw = "\(dir)/decoded.rgba"
    try time(
      ffmpeg,
      [
        "-v", "error", "-y", "-i", animation, "-fps_mode", "passthrough", "-f", "rawvideo",
        "-pix_fmt",
        "rgba", raw,
      ])
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    var total = 0
    var count = 0
    var frames = 0
    for (n, frame) in reference.enumerated() {
      let base = n * frame.pixels.count
      guard base + frame.pixels.count <= bytes.count else { break }
      frames += 1
      for i in stride(from: 0, to: frame.pixels.count, by: 4) {
        for c in 0..<3 { total += abs(Int(bytes[base + i + c]) - Int(frame.pixels[i + c])) }
        count += 3
      }
    }
    return (Double(total) / Double(max(count, 1)), frames)
  }

  /// 120 frames at scale 2 as a PNG sequence, against a plain C + Cairo program
  /// drawing the same fan (cards, rounded corners, box-blurred shadows) one frame
  /// after another and saving each with cairo_surface_write_to_png.
  public func pngSpeed() throws -> [String] {
    let source = "\(dir)/fan.c"
    let program = "\(dir)/fan-cairo"
    try Self.cairoProgram.write(toFile: source, atomically: true, encoding: .utf8)
    let flags = try ChildProcess.output("/bin/sh", ["-c", "pkg-config --cflags --libs cairo"])
    try time(
      "/bin/sh",
      [
        "-c",
        "cc -O2 -o '\(program)' '\(source)' \(flags.trimmingCharacters(in: .whitespacesAndNewlines)) -lm",
      ])
    try FileManager.default.createDirectory(
      atPath: "\(dir)/c-frames", withIntermediateDirectories: true)
    // Best of three, interleaved, so a burst of load elsewhere lands on both.
    var (ours, theirs) = (Double.infinity, Double.infinity)
    for _ in 0..<3 {
      theirs = min(theirs, try time(program, ["\(dir)/c-frames", "120"]))
      ours = min(ours, try export("\(dir)/frames120", frames: 120))
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let bytes = (folderSize("\(dir)/frames120"), folderSize("\(dir)/c-frames"))
    return [
      String(
        format: "  PNG sequence, 120 frames (best of 3, interleaved): morphhost %.2f s "
          + "(%d cores, %d MiB), plain C + Cairo %.2f s (one thread, %d MiB), ratio %.2f "
          + "(goal ≤ 0.75)",
        ours, cores, bytes.0 >> 20, theirs, bytes.1 >> 20, ours / theirs)
    ]
  }

  func folderSize(_ path: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.reduce(0) { $0 + size("\(path)/\($1)") }
  }

  /// The comparison program: deck_fan's geometry, easing and colours in C.
  static let cairoProgram = """
    #include <cairo.h>
    #include <math.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>

    static double clamp(double v, double a, double b) { return v < a ? a : v > b ? b : v; }
    static double out_back(double t) { double c1 = 1.70158, c3 = c1 + 1; t -= 1; return 1 + c3*t*t*t + c1*t*t; }
    static double lerp(double a, double b, double t) { return a + (b - a) * t; }

    static void rounded(cairo_t *cr, double w, double h, double r) {
      cairo_new_sub_path(cr);
      cairo_arc(cr, w - r, r, r, -M_PI / 2, 0);
      cairo_arc(cr, w - r, h - r, r, 0, M_PI / 2);
      cairo_arc(cr, r, h - r, r, M_PI / 2, M_PI);
      cairo_arc(cr, r, r, r, M_PI, 3 * M_PI / 2);
      cairo_close_path(cr);
    }

    /* Three box passes each way over a region of an A8 surface: a Gaussian-like blur. */
    static void blur(cairo_surface_t *s, int radius, int x0, int y0, int w, int h) {
      cairo_surface_flush(s);
      int stride = cairo_image_surface_get_stride(s);
      unsigned char *d = cairo_image_surface_get_data(s) + y0 * stride + x0;
      unsigned char *tmp = malloc((size_t)(w > h ? w : h));
      int r = radius / 2 > 0 ? radius / 2 : 1;
      for (int pass = 0; pass < 3; pass++) {
        for (int y = 0; y < h; y++) {
          unsigned char *row = d + y * stride; int sum = 0;
          for (int x = -r; x <= r; x++) sum += row[(int)clamp(x, 0, w - 1)];
          for (int x = 0; x < w; x++) {
            tmp[x] = sum / (2 * r + 1);
            sum += row[(int)clamp(x + r + 1, 0, w - 1)] - row[(int)clamp(x - r, 0, w - 1)];
          }
          memcpy(row, tmp, w);
        }
        for (int x = 0; x < w; x++) {
          int sum = 0;
          for (int y = -r; y <= r; y++) sum += d[(int)clamp(y, 0, h - 1) * stride + x];
          for (int y = 0; y < h; y++) {
            tmp[y] = sum / (2 * r + 1);
            sum += d[(int)clamp(y + r + 1, 0, h - 1) * stride + x] - d[(int)clamp(y - r, 0, h - 1) * stride + x];
          }
          for (int y = 0; y < h; y++) d[y * stride + x] = tmp[y];
        }
      }
      free(tmp);
      cairo_surface_mark_dirty(s);
    }

    static void card_path(cairo_t *cr, double cx, double cy, double scale, double angle) {
      cairo_translate(cr, cx, cy + 66 * scale);
      cairo_rotate(cr, angle * M_PI / 180);
      cairo_scale(cr, scale, scale);
      cairo_translate(cr, -48, -132);
      rounded(cr, 96, 132, 16);
    }

    int main(int argc, char **argv) {
      const char *dir = argv[1]; int frames = atoi(argv[2]);
      const double s = 2, W = 428, H = 288;
      const double colors[4][3] = {{0.184,0.435,0.929},{0.486,0.361,1.0},{0.925,0.282,0.6},{0.961,0.62,0.043}};
      cairo_surface_t *canvas = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W * s, H * s);
      cairo_surface_t *shadow = cairo_image_surface_create(CAIRO_FORMAT_A8, W * s, H * s);
      char path[4096];
      for (int f = 0; f < frames; f++) {
        double p = frames > 1 ? (double)f / (frames - 1) : 0;
        cairo_t *cr = cairo_create(canvas);
        cairo_scale(cr, s, s);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
        for (int i = 0; i < 4; i++) {
          double e = out_back(clamp((p - i * 0.09) / 0.73, 0, 1)), t = i / 3.0 * 2 - 1;
          double scale = lerp(1 - i * 0.04, 1, e), angle = lerp(0, t * 14, e);
          double cx = W / 2 + lerp(0, t * 70, e), cy = H / 2 + lerp(i * 8, -18, e);
          cairo_t *sc = cairo_create(shadow);
          cairo_set_operator(sc, CAIRO_OPERATOR_CLEAR); cairo_paint(sc);
          cairo_set_operator(sc, CAIRO_OPERATOR_OVER);
          cairo_scale(sc, s, s); cairo_translate(sc, 0, 4);
          card_path(sc, cx, cy, scale, angle);
          double x1, y1, x2, y2;
          cairo_fill_extents(sc, &x1, &y1, &x2, &y2);
          cairo_user_to_device(sc, &x1, &y1); cairo_user_to_device(sc, &x2, &y2);
          cairo_fill(sc); cairo_destroy(sc);
          int radius = (int)(lerp(6, 18, e) * s), m = 2 * radius;
          int bx = (int)clamp(fmin(x1, x2) - m, 0, W * s), by = (int)clamp(fmin(y1, y2) - m, 0, H * s);
          int bw = (int)clamp(fmax(x1, x2) + m, 0, W * s) - bx, bh = (int)clamp(fmax(y1, y2) + m, 0, H * s) - by;
          blur(shadow, radius, bx, by, bw, bh);
          cairo_save(cr); cairo_identity_matrix(cr);
          cairo_set_source_rgba(cr, 0, 0, 0, 0.24); cairo_mask_surface(cr, shadow, 0, 0);
          cairo_restore(cr);
          cairo_save(cr);
          card_path(cr, cx, cy, scale, angle);
          cairo_set_source_rgb(cr, colors[i][0], colors[i][1], colors[i][2]);
          cairo_fill(cr);
          cairo_restore(cr);
        }
        cairo_destroy(cr);
        snprintf(path, sizeof path, "%s/frame-%04d.png", dir, f + 1);
        if (cairo_surface_write_to_png(canvas, path) != CAIRO_STATUS_SUCCESS) return 1;
      }
      cairo_surface_destroy(shadow);
      cairo_surface_destroy(canvas);
      return 0;
    }
    """
}

/// A child process run to completion, its output discarded or captured.
enum ChildProcess {
  /// The exit status (-1 when it did not exit normally).
  static func run(_ program: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationReason == .exit ? process.terminationStatus : -1
  }

  /// What the program printed.
  static func output(_ program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
