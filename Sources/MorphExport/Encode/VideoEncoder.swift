import Foundation
import MorphCore
import MorphRender

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// MP4 (H.264) and WebM (VP9, alpha kept as yuva420p) through the `ffmpeg`
/// program: raw RGBA frames go down a pipe to it, and it writes the output
/// file's temporary, which `OutputFile` renames into place. Odd sizes are
/// padded to even ones (4:2:0 needs them). ffmpeg runs in a process group of
/// its own, so Ctrl-C reaches only this process, which then stops it (SIGTERM,
/// then SIGKILL after a short grace).
public final class VideoEncoder: AnimationEncoder {
  enum Codec {
    case h264, vp9

    /// The codec a video format uses; nil for the formats that are not video.
    init?(_ format: ExportFormat) {
      switch format {
      case .mp4: self = .h264
      case .webm: self = .vp9
      default: return nil
      }
    }

    var defaultCRF: Int { self == .h264 ? 23 : 32 }
    var maxCRF: Int { self == .h264 ? 51 : 63 }
  }

  static let missing =
    "needs the ffmpeg program, which was not found; install it: apt-get install ffmpeg (macOS: brew install ffmpeg)"

  private let file: OutputFile
  private let timing: FrameTiming
  private var pid: pid_t = 0
  private var input: Int32 = -1
  private let log: String
  private var last: RasterImage?

  init(
    file: OutputFile, codec: Codec, width: Int, height: Int, timing: FrameTiming, crf: Int?,
    background: Color?, program: String?
  ) throws {
    let crf = crf ?? codec.defaultCRF
    guard (0...codec.maxCRF).contains(crf) else {
      throw ExportError.invalidSetting(
        "crf must be in 0…\(codec.maxCRF) for this codec, got \(crf)")
    }
    guard let program else {
      throw ExportError.unwritable(path: file.path, reason: Self.missing)
    }
    self.file = file
    self.timing = timing
    log = NSTemporaryDirectory() + "morph-ffmpeg-\(getpid())-\(UUID().uuidString).log"
    let arguments = Self.arguments(
      codec: codec, width: width, height: height, fps: timing.fps, crf: crf,
      background: background, output: file.temporaryPath)
    try spawn(program, arguments)
  }

  deinit {
    // Stopped early (an error, Ctrl-C, SIGTERM): end ffmpeg; OutputFile drops its file.
    if input >= 0 { close(input) }
    if pid > 0 { Self.stop(pid) }
    unlink(log)
  }

  /// How long ffmpeg may take to exit after SIGTERM before it is killed.
  static let terminateGrace = 0.5

  /// Asks `pid` to terminate, kills it if it has not within `terminateGrace`, and reaps
  /// it: no ffmpeg outlives an export, nor keeps writing its file.
  static func stop(_ pid: pid_t) {
    var status: Int32 = 0
    kill(pid, SIGTERM)
    let deadline = Date().addingTimeInterval(terminateGrace)
    while Date() < deadline {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid || (reaped < 0 && errno != EINTR) { return }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }

  static func arguments(
    codec: Codec, width: Int, height: Int, fps: Double, crf: Int, background: Color?,
    output: String
  ) -> [String] {
    let padColor =
      codec == .vp9 ? "black@0" : "0x" + (background ?? Color(white: 0)).hex.dropFirst().prefix(6)
    var arguments = [
      "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
      "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
      "-framerate", String(format: "%.6g", fps), "-i", "pipe:0",
      "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=\(padColor)",
    ]
    switch codec {
    case .h264:
      arguments += [
        "-c:v", "libx264", "-crf", "\(crf)", "-pix_fmt", "yuv420p", "-movflags", "+faststart",
        "-f", "mp4",
      ]
    case .vp9:
      arguments += [
        "-c:v", "libvpx-vp9", "-crf", "\(crf)", "-b:v", "0", "-pix_fmt", "yuva420p",
        "-auto-alt-ref", "0", "-deadline", "good", "-cpu-used", "4", "-f", "webm",
      ]
    }
    return arguments + [output]
  }

  /// The ffmpeg in the first folder of `searchPath` (a `PATH` value: folders joined by `:`)
  /// that has one, if any. The caller reads its own environment: a library never does.
  public static func locate(searchPath: String) -> String? {
    for folder in searchPath.split(separator: ":") where !folder.isEmpty {
      let candidate = "\(folder)/ffmpeg"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  private func spawn(_ program: String, _ arguments: [String]) throws {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw ExportError.unwritable(file.path, errno: errno) }
    // The write end stays in this process only; the child gets the read end as stdin.
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    defer { close(fds[0]) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    let code = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
    guard code == 0 else {
      close(fds[1])
      pid = 0
      throw ExportError.unwritable(
        path: file.path, reason: "cannot start ffmpeg: \(String(cString: strerror(code)))")
    }
    input = fds[1]
  }

  public func add(_ frame: RasterImage) throws {
    try send(frame)
    last = frame
  }

  private func send(_ frame: RasterImage) throws {
    guard input >= 0 else {
      throw ExportError.unwritable(path: file.path, reason: "ffmpeg has already finished")
    }
    if writeAll(frame.pixels, to: input) != nil {
      try wait()
      throw ExportError.unwritable(path: file.path, reason: "ffmpeg stopped reading frames")
    }
  }

  /// The hold repeats the last frame; then ffmpeg finishes the file.
  public func finish() throws {
    if let last {
      for _ in 0..<Int((timing.hold * timing.fps).rounded()) { try send(last) }
    }
    try wait()
  }

  /// Closes the pipe and waits for ffmpeg; a failure carries its last line.
  private func wait() throws {
    close(input)
    input = -1
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    pid = 0
    guard status == 0 else {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      let line = text.split(separator: "\n").last.map(String.init) ?? "exit status \(status)"
      throw ExportError.unwritable(path: file.path, reason: "ffmpeg failed: \(line)")
    }
  }
}
