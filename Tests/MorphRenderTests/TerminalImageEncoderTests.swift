import Foundation
import MorphCore
import Testing

@testable import MorphRender

/// The escapes of each graphics protocol, as terminals expect them.
@Suite struct TerminalImageEncoderTests {
  /// A 300 × 200 image of noise: its PNG is larger than one kitty chunk.
  static let noise: RasterImage = {
    var image = RasterImage(width: 300, height: 200)
    var seed: UInt32 = 12345
    for i in stride(from: 0, to: image.pixels.count, by: 4) {
      for c in 0..<3 {
        seed = seed &* 1_103_515_245 &+ 12345
        image.pixels[i + c] = UInt8(truncatingIfNeeded: seed >> 16)
      }
      image.pixels[i + 3] = 255
    }
    return image
  }()

  @Test func kittySendsChunksAndAlternatesIDsDeletingThePrevious() throws {
    var encoder = TerminalImageEncoder(graphics: .kitty)
    let first = try encoder.encode(Self.noise)
    let second = try encoder.encode(Self.noise)
    let chunks = first.components(separatedBy: "\u{1B}_G").dropFirst()
    #expect(chunks.count > 2, "a PNG this size needs several chunks")
    #expect(
      chunks.first!.hasPrefix("a=T,f=100,i=\(TerminalImageEncoder.kittyImageIDs[0]),q=2,C=1,m=1;"))
    #expect(chunks.dropFirst().dropLast().dropLast().allSatisfy { $0.hasPrefix("m=1;") })
    #expect(chunks.dropLast().last!.hasPrefix("m=0;"))
    #expect(chunks.last! == "a=d,d=I,i=\(TerminalImageEncoder.kittyImageIDs[1]),q=2\u{1B}\\")
    // Every chunk's payload is at most 4096 bytes.
    for chunk in chunks {
      let payload = chunk.split(separator: ";", maxSplits: 1).last ?? ""
      #expect(payload.utf8.count <= TerminalImageEncoder.kittyChunk + 2)
    }
    #expect(second.contains("i=\(TerminalImageEncoder.kittyImageIDs[1]),q=2,C=1"))
    #expect(second.hasSuffix("a=d,d=I,i=\(TerminalImageEncoder.kittyImageIDs[0]),q=2\u{1B}\\"))
  }

  @Test func tmuxPassthroughDoublesEveryEscape() throws {
    var encoder = TerminalImageEncoder(graphics: .iterm, tmuxPassthrough: true)
    let wrapped = try encoder.encode(RasterImage(width: 2, height: 2))
    #expect(wrapped.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}]1337;File=inline=1;"))
    #expect(wrapped.hasSuffix("\u{07}\u{1B}\\"))
    #expect(wrapped.components(separatedBy: "\u{1B}").count - 1 == 4)
    #expect(
      TerminalImageEncoder(graphics: .kitty, tmuxPassthrough: true).erase.hasPrefix("\u{1B}Ptmux;"))
    #expect(TerminalImageEncoder(graphics: .sixel).erase.isEmpty)
  }

  @Test func sixelIsOneDeviceControlString() throws {
    var encoder = TerminalImageEncoder(graphics: .sixel)
    let sixel = try encoder.encode(Self.noise)
    #expect(sixel.hasPrefix("\u{1B}P"))
    #expect(sixel.hasSuffix("\u{1B}\\"))
    #expect(sixel.contains("\"1;1;300;200"), "raster attributes give the size")
  }
}
