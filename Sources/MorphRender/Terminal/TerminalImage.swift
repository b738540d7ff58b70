import CSixel
import Foundation

/// A terminal graphics protocol: how a frame reaches the screen as real pixels.
public enum GraphicsProtocol: String, CaseIterable, Sendable {
  /// kitty's graphics protocol (kitty, WezTerm, Ghostty, Konsole): base64 PNG in APC `G`.
  case kitty
  /// iTerm2's inline images (iTerm2, WezTerm, VS Code): base64 PNG in OSC 1337.
  case iterm
  /// DEC sixel (foot, xterm -ti vt340, mlterm, WezTerm, Windows Terminal, Contour).
  case sixel
}

/// Frames as one graphics protocol's escape sequences, drawn at the cursor.
///
/// kitty and iTerm2 images leave the cursor where it was; a sixel image moves it below the
/// image, so a caller keeps a sixel at least one row above the last. kitty keeps images in a
/// store of its own: frames alternate between two image ids, each new one placed before the
/// previous is deleted, so one replaces the other with no blank in between.
public struct TerminalImageEncoder: Sendable {
  public let graphics: GraphicsProtocol
  /// Wraps every sequence in tmux's passthrough (`ESC Ptmux; … ESC \`), so it reaches the
  /// terminal tmux runs in (tmux's `allow-passthrough` must be on).
  public let tmuxPassthrough: Bool
  private var frames = 0

  /// The two kitty image ids frames alternate between (arbitrary, unlikely to collide).
  static let kittyImageIDs: [UInt32] = [0x6D_6F72, 0x6D_6F73]
  /// The largest base64 chunk in one kitty escape, as the protocol requires.
  static let kittyChunk = 4096

  public init(graphics: GraphicsProtocol, tmuxPassthrough: Bool = false) {
    self.graphics = graphics
    self.tmuxPassthrough = tmuxPassthrough
  }

  /// The escapes that draw `image` (opaque: a renderer's output over a background) at the
  /// cursor, at its own pixel size.
  public mutating func encode(_ image: RasterImage) throws(RenderError) -> String {
    defer { frames += 1 }
    switch graphics {
    case .kitty: return try kitty(image)
    case .iterm: return wrap(try Self.iterm(image))
    case .sixel: return wrap(try Self.sixel(image))
    }
  }

  /// What removes every image this encoder drew (only kitty's outlive the text under them).
  public var erase: String {
    guard graphics == .kitty else { return "" }
    return Self.kittyImageIDs.map { wrap("\u{1B}_Ga=d,d=I,i=\($0),q=2\u{1B}\\") }.joined()
  }

  private func kitty(_ image: RasterImage) throws(RenderError) -> String {
    let id = Self.kittyImageIDs[frames % 2]
    let previous = Self.kittyImageIDs[(frames + 1) % 2]
    let payload = Array(Data(try image.pngData()).base64EncodedString().utf8)
    var out = ""
    var start = 0
    repeat {
      let end = min(start + Self.kittyChunk, payload.count)
      let more = end < payload.count ? 1 : 0
      // The first chunk carries the keys: PNG, transmit and place, no reply, cursor kept.
      let keys = start == 0 ? "a=T,f=100,i=\(id),q=2,C=1,m=\(more)" : "m=\(more)"
      out += wrap(
        "\u{1B}_G\(keys);" + String(decoding: payload[start..<end], as: UTF8.self) + "\u{1B}\\")
      start = end
    } while start < payload.count
    // The new image is on screen before the old one goes.
    return out + wrap("\u{1B}_Ga=d,d=I,i=\(previous),q=2\u{1B}\\")
  }

  private static func iterm(_ image: RasterImage) throws(RenderError) -> String {
    let png = try image.pngData()
    return "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(image.width)px;"
      + "height=\(image.height)px;preserveAspectRatio=0;doNotMoveCursor=1:"
      + Data(png).base64EncodedString() + "\u{07}"
  }

  /// libsixel's quantiser (256 colours from the image) and encoder.
  private static func sixel(_ image: RasterImage) throws(RenderError) -> String {
    var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
    for i in 0..<(image.width * image.height) {
      rgb[3 * i] = image.pixels[4 * i]
      rgb[3 * i + 1] = image.pixels[4 * i + 1]
      rgb[3 * i + 2] = image.pixels[4 * i + 2]
    }
    var dither: OpaquePointer?
    guard sixel_dither_new(&dither, 256, nil) == SIXEL_OK, let dither else {
      throw .encoder("libsixel: cannot make a palette")
    }
    defer { sixel_dither_unref(dither) }
    let width = Int32(image.width)
    let height = Int32(image.height)
    let initialized = sixel_dither_initialize(
      dither, &rgb, width, height, SIXEL_PIXELFORMAT_RGB888, SIXEL_LARGE_AUTO, SIXEL_REP_AUTO,
      SIXEL_QUALITY_AUTO)
    guard initialized == SIXEL_OK else { throw .encoder("libsixel: cannot quantise the frame") }
    let sink = SixelSink()
    var output: OpaquePointer?
    let made = sixel_output_new(
      &output,
      { data, size, priv in
        guard let data, let priv, size > 0 else { return 0 }
        let sink = Unmanaged<SixelSink>.fromOpaque(priv).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) {
          sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(size)))
        }
        return size
      }, Unmanaged.passUnretained(sink).toOpaque(), nil)
    guard made == SIXEL_OK, let output else { throw .encoder("libsixel: cannot start the output") }
    defer { sixel_output_unref(output) }
    let encoded = withExtendedLifetime(sink) {
      sixel_encode(&rgb, width, height, 0, dither, output)
    }
    guard encoded == SIXEL_OK else { throw .encoder("libsixel: cannot encode the frame") }
    return String(decoding: sink.bytes, as: UTF8.self)
  }

  /// `sequence` for tmux's passthrough when asked: every ESC inside doubled.
  private func wrap(_ sequence: String) -> String {
    guard tmuxPassthrough else { return sequence }
    return "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}")
      + "\u{1B}\\"
  }
}

/// Collects the bytes libsixel writes.
private final class SixelSink {
  var bytes: [UInt8] = []
}
