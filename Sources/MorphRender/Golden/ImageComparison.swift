import Foundation

/// How far two images of the same size are apart.
public struct ImageDifference: Hashable, Sendable, CustomStringConvertible {
  /// The largest difference of one channel (R, G, B or A) anywhere, 0…255.
  public var maxChannelDelta: Int
  /// The mean absolute channel difference over every channel of every pixel.
  public var meanDelta: Double
  /// Pixels with some channel differing by more than the threshold.
  public var differingPixels: Int
  public var pixelCount: Int

  public init(maxChannelDelta: Int, meanDelta: Double, differingPixels: Int, pixelCount: Int) {
    self.maxChannelDelta = maxChannelDelta
    self.meanDelta = meanDelta
    self.differingPixels = differingPixels
    self.pixelCount = pixelCount
  }

  /// `differingPixels` as a fraction of all pixels (0 for an empty image).
  public var differingFraction: Double {
    pixelCount == 0 ? 0 : Double(differingPixels) / Double(pixelCount)
  }

  public var description: String {
    let percent = (differingFraction * 100_000).rounded() / 1000
    let mean = (meanDelta * 1000).rounded() / 1000
    return "\(differingPixels) of \(pixelCount) pixels differ (\(percent)%), "
      + "max channel delta \(maxChannelDelta), mean delta \(mean)"
  }
}

/// Compares two images channel by channel; nil when their sizes differ. A pixel differs
/// when one of its channels is more than `channelThreshold` apart.
public func compare(_ a: RasterImage, _ b: RasterImage, channelThreshold: Int = 8)
  -> ImageDifference?
{
  guard a.width == b.width, a.height == b.height else { return nil }
  var maxDelta = 0
  var total = 0
  var differing = 0
  a.pixels.withUnsafeBufferPointer { pa in
    b.pixels.withUnsafeBufferPointer { pb in
      for pixel in 0..<(a.width * a.height) {
        var worst = 0
        for channel in 0..<4 {
          let i = pixel * 4 + channel
          let delta = abs(Int(pa[i]) - Int(pb[i]))
          total += delta
          worst = max(worst, delta)
        }
        maxDelta = max(maxDelta, worst)
        if worst > channelThreshold { differing += 1 }
      }
    }
  }
  let channels = a.pixels.count
  return ImageDifference(
    maxChannelDelta: maxDelta, meanDelta: channels == 0 ? 0 : Double(total) / Double(channels),
    differingPixels: differing, pixelCount: a.width * a.height)
}
