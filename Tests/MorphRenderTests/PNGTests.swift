import MorphRender
import Testing

/// PNG, the one still-image writer: exact pixels, framed in checked chunks.
@Suite struct PNGTests {
  @Test func pngEncodesThePixelsExactly() throws {
    var image = RasterImage(width: 6, height: 4)
    // Opaque, so Cairo's premultiplying decoder gives the colours back exactly.
    for i in image.pixels.indices { image.pixels[i] = i % 4 == 3 ? 255 : UInt8((i * 37) % 256) }
    let png = try PNGEncoder.encode(image)
    #expect(try RasterImage.decodePNG(png) == image)
    #expect(try PNGChunks.chunks(png).map(\.type) == ["IHDR", "IDAT", "IEND"])
    #expect(throws: RenderError.self) { try PNGChunks.chunks(Array(png.dropFirst())) }
    #expect(throws: RenderError.self) { try PNGChunks.chunks(Array(png.dropLast(20))) }
  }
}
