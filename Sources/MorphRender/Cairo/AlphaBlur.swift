import Foundation

/// A Gaussian blur of an 8-bit alpha plane, in place, with buffers kept between calls.
///
/// For σ < 2 it convolves with a true (separable) Gaussian kernel. From σ = 2 it runs three
/// box blurs per axis, SVG `feGaussianBlur`'s recipe: box size d = ⌊σ·3·√(2π)/4 + 0.5⌋,
/// within a few percent of the Gaussian and at a cost independent of σ.
struct AlphaBlur {
  private var a: [Float] = []
  private var b: [Float] = []
  private var kernel: [Float] = []

  mutating func blur(
    _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double
  ) {
    guard sigma > 0, width > 0, height > 0 else { return }
    let count = width * height
    if a.count < count {
      a = [Float](repeating: 0, count: count)
      b = [Float](repeating: 0, count: count)
    }
    if sigma < 2 { makeKernel(sigma) }
    let kernel = self.kernel
    a.withUnsafeMutableBufferPointer { pa in
      b.withUnsafeMutableBufferPointer { pb in
        let (x, y) = (pa.baseAddress!, pb.baseAddress!)
        for row in 0..<height {
          for col in 0..<width { x[row * width + col] = Float(data[row * stride + col]) }
        }
        let rows = Axis(length: width, step: 1, lines: height, lineStep: width)
        let cols = Axis(length: height, step: width, lines: width, lineStep: 1)
        if sigma < 2 {
          Self.convolve(x, y, rows, kernel)
          Self.convolve(y, x, cols, kernel)
        } else {
          Self.boxes(x, y, rows, sigma)
          Self.boxes(y, x, cols, sigma)
        }
        for row in 0..<height {
          for col in 0..<width {
            let v = x[row * width + col].rounded()
            data[row * stride + col] = UInt8(min(max(v, 0), 255))
          }
        }
      }
    }
  }

  /// One direction through a width × height buffer: `lines` runs of `length` samples.
  private struct Axis {
    var length: Int
    var step: Int
    var lines: Int
    var lineStep: Int
  }

  private mutating func makeKernel(_ sigma: Double) {
    let radius = Int((3 * sigma).rounded(.up))
    kernel.removeAll(keepingCapacity: true)
    for i in -radius...radius { kernel.append(Float(exp(-Double(i * i) / (2 * sigma * sigma)))) }
    let total = kernel.reduce(0, +)
    for i in kernel.indices { kernel[i] /= total }
  }

  private static func convolve(
    _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ axis: Axis,
    _ kernel: [Float]
  ) {
    let radius = kernel.count / 2
    for line in 0..<axis.lines {
      let base = line * axis.lineStep
      for i in 0..<axis.length {
        var sum: Float = 0
        for k in max(0, i - radius)...min(axis.length - 1, i + radius) {
          sum += src[base + k * axis.step] * kernel[k - i + radius]
        }
        dst[base + i * axis.step] = sum
      }
    }
  }

  /// Three box blurs along `axis`, src → dst (src is used as scratch).
  private static func boxes(
    _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ axis: Axis,
    _ sigma: Double
  ) {
    let d = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
    if d % 2 == 1 {
      box(src, dst, axis, left: d / 2, right: d / 2)
      box(dst, src, axis, left: d / 2, right: d / 2)
    } else {
      // Two even boxes centred half a pixel either side, then one of size d + 1.
      box(src, dst, axis, left: d / 2, right: d / 2 - 1)
      box(dst, src, axis, left: d / 2 - 1, right: d / 2)
    }
    box(src, dst, axis, left: d / 2, right: d / 2)
  }

  /// A moving average over [i − left, i + right], treating samples outside as 0.
  private static func box(
    _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ axis: Axis,
    left: Int, right: Int
  ) {
    let scale = 1 / Float(left + right + 1)
    if axis.lineStep == 1 {
      return boxAcross(src, dst, axis, left: left, right: right, scale: scale)
    }
    for line in 0..<axis.lines {
      let base = line * axis.lineStep
      var sum: Float = 0
      for k in 0..<min(right, axis.length) { sum += src[base + k * axis.step] }
      for i in 0..<axis.length {
        let entering = i + right
        if entering < axis.length { sum += src[base + entering * axis.step] }
        dst[base + i * axis.step] = sum * scale
        let leaving = i - left
        if leaving >= 0 { sum -= src[base + leaving * axis.step] }
      }
    }
  }

  /// `box` along columns, all columns at once: the same sums in the same order
  /// (so the same result), but reading memory row by row instead of a column at
  /// a time, which kept missing the cache (the blur was a third of an export frame).
  private static func boxAcross(
    _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ axis: Axis,
    left: Int, right: Int, scale: Float
  ) {
    let columns = axis.lines
    let row = axis.step
    var sums = [Float](repeating: 0, count: columns)
    sums.withUnsafeMutableBufferPointer { sums in
      let sum = sums.baseAddress!
      for k in 0..<min(right, axis.length) {
        let line = src + k * row
        for c in 0..<columns { sum[c] += line[c] }
      }
      for i in 0..<axis.length {
        let entering = i + right
        if entering < axis.length {
          let line = src + entering * row
          for c in 0..<columns { sum[c] += line[c] }
        }
        let out = dst + i * row
        for c in 0..<columns { out[c] = sum[c] * scale }
        let leaving = i - left
        if leaving >= 0 {
          let line = src + leaving * row
          for c in 0..<columns { sum[c] -= line[c] }
        }
      }
    }
  }
}
