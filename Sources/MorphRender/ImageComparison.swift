/// How far an image may stray from its golden. Anti-aliasing moves from one
/// Cairo or pixman version to the next, so pixels next to an edge of the
/// expected image may differ more; everywhere else the bar is tight, so a
/// shape that moves fails even when it is small.
public struct ImageTolerance: Hashable, Sendable {
  /// How much a channel may differ away from edges, 0…255.
  public var channelDelta: Int
  /// How much a channel may differ near an edge.
  public var edgeChannelDelta: Int
  /// Neighbouring pixels whose channels differ by more than this make an edge.
  public var edgeContrast: Int
  /// How many pixels either side of an edge count as near it.
  public var edgeRadius: Int
  /// The fraction of a frame's pixels that may break their bar (stray
  /// pixels of text and blur).
  public var maxDifferingFraction: Double
  /// The most pixels breaking their bar that may touch one another: stray
  /// pixels scatter, while a changed glyph or a moved detail is a blob that
  /// a fraction of a large frame would let through.
  public var maxClusterPixels: Int

  public init(
    channelDelta: Int = 16, edgeChannelDelta: Int = 128, edgeContrast: Int = 24,
    edgeRadius: Int = 1, maxDifferingFraction: Double = 0.0002, maxClusterPixels: Int = 8
  ) {
    self.channelDelta = channelDelta
    self.edgeChannelDelta = edgeChannelDelta
    self.edgeContrast = edgeContrast
    self.edgeRadius = edgeRadius
    self.maxDifferingFraction = maxDifferingFraction
    self.maxClusterPixels = maxClusterPixels
  }

  /// Whether `difference` is within this tolerance.
  public func allows(_ difference: ImageDifference) -> Bool {
    difference.differingFraction <= maxDifferingFraction
      && difference.largestCluster <= maxClusterPixels
  }

  public static let standard = ImageTolerance()
}

/// How far two images of the same size are apart.
public struct ImageDifference: Hashable, Sendable, CustomStringConvertible {
  /// The largest difference of one channel (R, G, B or A) anywhere, 0…255.
  public var maxChannelDelta: Int
  /// The mean absolute channel difference over every channel of every pixel.
  public var meanDelta: Double
  /// Pixels that break their bar (tight away from edges, looser near them).
  public var differingPixels: Int
  public var pixelCount: Int
  /// The most differing pixels that touch one another (8-connected).
  public var largestCluster: Int

  public init(
    maxChannelDelta: Int, meanDelta: Double, differingPixels: Int, pixelCount: Int,
    largestCluster: Int = 0
  ) {
    self.maxChannelDelta = maxChannelDelta
    self.meanDelta = meanDelta
    self.differingPixels = differingPixels
    self.pixelCount = pixelCount
    self.largestCluster = largestCluster
  }

  public static let identical = ImageDifference(
    maxChannelDelta: 0, meanDelta: 0, differingPixels: 0, pixelCount: 0)

  /// `differingPixels` as a fraction of all pixels (0 for an empty image).
  public var differingFraction: Double {
    pixelCount == 0 ? 0 : Double(differingPixels) / Double(pixelCount)
  }

  public var description: String {
    let percent = (differingFraction * 100_000).rounded() / 1000
    let mean = (meanDelta * 1000).rounded() / 1000
    return "\(differingPixels) of \(pixelCount) pixels differ (\(percent)%), "
      + "\(largestCluster) of them touching, "
      + "max channel delta \(maxChannelDelta), mean delta \(mean)"
  }
}

public enum ImageComparison {
  /// Compares `actual` with `expected` pixel by pixel, each pixel against the
  /// bar for where it sits in `expected`; nil when their sizes differ.
  public static func compare(
    expected: RasterImage, actual: RasterImage, tolerance: ImageTolerance = .standard
  ) -> ImageDifference? {
    guard let d = measure(expected: expected, actual: actual, tolerance: tolerance) else {
      return nil
    }
    return ImageDifference(
      maxChannelDelta: d.maxDelta,
      meanDelta: expected.pixels.isEmpty ? 0 : Double(d.total) / Double(expected.pixels.count),
      differingPixels: d.differs.count { $0 }, pixelCount: expected.width * expected.height,
      largestCluster: largestCluster(d.differs, width: expected.width))
  }

  /// A picture of where `actual` breaks its bar: `expected` faded to light grey, with every
  /// differing pixel in solid red, so a moved shape shows as a red outline of where it
  /// went wrong; nil when the sizes differ.
  public static func differenceImage(
    expected: RasterImage, actual: RasterImage, tolerance: ImageTolerance = .standard
  ) -> RasterImage? {
    guard let d = measure(expected: expected, actual: actual, tolerance: tolerance) else {
      return nil
    }
    var pixels = [UInt8](repeating: 255, count: expected.pixels.count)
    for pixel in 0..<(expected.width * expected.height) {
      let i = pixel * 4
      if d.differs[pixel] {
        (pixels[i], pixels[i + 1], pixels[i + 2]) = (255, 0, 0)
        continue
      }
      // Luma over white, pressed into the top quarter of the range.
      let e = expected.pixels
      let alpha = Int(e[i + 3])
      let luma = (299 * Int(e[i]) + 587 * Int(e[i + 1]) + 114 * Int(e[i + 2])) / 1000
      let grey = UInt8(191 + (luma * alpha / 255 + (255 - alpha)) / 4)
      (pixels[i], pixels[i + 1], pixels[i + 2]) = (grey, grey, grey)
    }
    return RasterImage(width: expected.width, height: expected.height, pixels: pixels)
  }

  /// Which pixels break their bar, the largest channel delta and the sum of all deltas.
  private static func measure(
    expected: RasterImage, actual: RasterImage, tolerance: ImageTolerance
  ) -> (differs: [Bool], maxDelta: Int, total: Int)? {
    guard expected.width == actual.width, expected.height == actual.height else { return nil }
    let nearEdge = edgeMask(
      expected, contrast: tolerance.edgeContrast, radius: tolerance.edgeRadius)
    var maxDelta = 0
    var total = 0
    var differs = [Bool](repeating: false, count: expected.width * expected.height)
    expected.pixels.withUnsafeBufferPointer { e in
      actual.pixels.withUnsafeBufferPointer { a in
        for pixel in 0..<(expected.width * expected.height) {
          var worst = 0
          var channel = pixel * 4
          while channel < pixel * 4 + 4 {
            let delta = abs(Int(e[channel]) - Int(a[channel]))
            total += delta
            worst = max(worst, delta)
            channel += 1
          }
          maxDelta = max(maxDelta, worst)
          let bar = nearEdge[pixel] ? tolerance.edgeChannelDelta : tolerance.channelDelta
          if worst > bar { differs[pixel] = true }
        }
      }
    }
    return (differs, maxDelta, total)
  }

  /// The size of the largest 8-connected group of marked pixels.
  public static func largestCluster(_ mask: [Bool], width: Int) -> Int {
    var seen = mask.map { !$0 }
    var largest = 0
    var stack: [Int] = []
    for start in mask.indices where !seen[start] {
      seen[start] = true
      stack.append(start)
      var size = 0
      while let i = stack.popLast() {
        size += 1
        let (x, y) = (i % width, i / width)
        for dy in -1...1 {
          for dx in -1...1 {
            let (nx, ny) = (x + dx, y + dy)
            guard nx >= 0, nx < width, ny >= 0 else { continue }
            let n = ny * width + nx
            guard n < mask.count, !seen[n] else { continue }
            seen[n] = true
            stack.append(n)
          }
        }
      }
      largest = max(largest, size)
    }
    return largest
  }

  /// Which pixels lie within `radius` of an edge: a pair of neighbours whose
  /// channels differ by more than `contrast`.
  static func edgeMask(_ image: RasterImage, contrast: Int, radius: Int) -> [Bool] {
    let (w, h) = (image.width, image.height)
    var edge = [Bool](repeating: false, count: w * h)
    image.pixels.withUnsafeBufferPointer { p in
      edge.withUnsafeMutableBufferPointer { e in
        func differs(_ i: Int, _ j: Int) -> Bool {
          var c = 0
          while c < 4 {
            if abs(Int(p[i &* 4 &+ c]) &- Int(p[j &* 4 &+ c])) > contrast { return true }
            c += 1
          }
          return false
        }
        for y in 0..<h {
          for x in 0..<w {
            let i = y * w + x
            if x + 1 < w, differs(i, i + 1) { (e[i], e[i + 1]) = (true, true) }
            if y + 1 < h, differs(i, i + w) { (e[i], e[i + w]) = (true, true) }
          }
        }
      }
    }
    return dilate(edge, width: w, height: h, radius: radius)
  }

  /// Grows the marked pixels by `radius` in each direction (a square): along
  /// rows, then along columns.
  static func dilate(_ mask: [Bool], width: Int, height: Int, radius: Int) -> [Bool] {
    guard radius > 0 else { return mask }
    let rows = spread(mask, count: height, length: width, step: 1, stride: width, radius: radius)
    return spread(rows, count: width, length: height, step: width, stride: 1, radius: radius)
  }

  /// Marks every pixel within `radius` of a marked one along `count` lines of
  /// `length` pixels (`step` apart within a line, lines `stride` apart).
  private static func spread(
    _ mask: [Bool], count: Int, length: Int, step: Int, stride: Int, radius: Int
  ) -> [Bool] {
    var out = [Bool](repeating: false, count: mask.count)
    mask.withUnsafeBufferPointer { m in
      out.withUnsafeMutableBufferPointer { o in
        for line in 0..<count {
          let base = line * stride
          for k in 0..<length where m[base + k * step] {
            for j in max(0, k - radius)...min(length - 1, k + radius) { o[base + j * step] = true }
          }
        }
      }
    }
    return out
  }
}
