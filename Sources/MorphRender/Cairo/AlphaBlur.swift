import Foundation

/// A Gaussian blur of an 8-bit plane, in place, with buffers kept between calls: an alpha
/// surface, or one channel of premultiplied ARGB pixels (`step` 4).
///
/// For σ < 2 it convolves with a true (separable) Gaussian kernel. From σ = 2 it runs three
/// box blurs per axis, SVG `feGaussianBlur`'s recipe: box size d = ⌊σ·3·√(2π)/4 + 0.5⌋,
/// within a few percent of the Gaussian and at a cost independent of σ. From σ = 10 it
/// blurs a reduced plane (`reduction(sigma:)`).
struct AlphaBlur {
  private var a: [Float] = []
  private var b: [Float] = []
  private var kernel: [Float] = []

  mutating func blur(
    _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double,
    step: Int = 1, reduced: Bool = true
  ) {
    guard sigma > 0, width > 0, height > 0 else { return }
    let factor = reduced ? Self.reduction(sigma: sigma) : 1
    let (w, h) = ((width + factor - 1) / factor, (height + factor - 1) / factor)
    if a.count < w * h {
      a = [Float](repeating: 0, count: w * h)
      b = [Float](repeating: 0, count: w * h)
    }
    if sigma < 2 { makeKernel(sigma) }
    let kernel = self.kernel
    a.withUnsafeMutableBufferPointer { pa in
      b.withUnsafeMutableBufferPointer { pb in
        let (x, y) = (pa.baseAddress!, pb.baseAddress!)
        if factor == 1 {
          for row in 0..<height {
            for col in 0..<width {
              x[row * width + col] = Float(data[row * stride + col * step])
            }
          }
        } else {
          Self.reduce(
            data, width: width, height: height, stride: stride, step: step, factor: factor,
            into: x)
        }
        let rows = Axis(length: w, step: 1, lines: h, lineStep: w)
        let cols = Axis(length: h, step: w, lines: w, lineStep: 1)
        if factor > 1 {
          let box = Self.reducedBox(sigma, factor: factor)
          Self.fractionalBoxes(x, y, rows, box)
          Self.fractionalBoxes(y, x, cols, box)
        } else if sigma < 2 {
          Self.convolve(x, y, rows, kernel)
          Self.convolve(y, x, cols, kernel)
        } else {
          Self.boxes(x, y, rows, sigma)
          Self.boxes(y, x, cols, sigma)
        }
        if factor == 1 {
          for row in 0..<height {
            for col in 0..<width {
              data[row * stride + col * step] = Self.byte(x[row * width + col])
            }
          }
        } else {
          Self.enlarge(
            x, width: w, height: h, factor: factor,
            into: data, outWidth: width, outHeight: height, stride: stride, step: step)
        }
      }
    }
  }

  /// A blurred sample as a byte, rounded to nearest (ties to even). Adding
  /// 1.5 × 2²³ leaves round(v) in the low bits of the float's pattern: no
  /// `rounded()` (a libm call per pixel on baseline x86-64) and no checked
  /// conversion, which together were most of a shadow's cost.
  @inline(__always)
  static func byte(_ v: Float) -> UInt8 {
    UInt8(truncatingIfNeeded: (min(max(v, 0), 255) + 12_582_912).bitPattern)
  }

  /// How much a blur of `sigma` device pixels shrinks the plane first. A wide
  /// blur leaves nothing finer than σ/5 pixels, so blurring a plane reduced by
  /// that much and enlarging it bilinearly differs from the full-size blur by a
  /// fraction of a level (measured in AlphaBlurTests), at a fraction of the cost:
  /// wide shadows were most of an export frame.
  static func reduction(sigma: Double) -> Int {
    sigma < 10 ? 1 : min(Int(sigma / 5), 16)
  }

  /// A box of whole `radius` plus `edge` weight on the sample either side.
  struct FractionalBox {
    var radius: Int
    var edge: Float
  }

  /// The box that, run three times each way on the plane reduced by `factor`,
  /// spreads alpha as far (the same variance) as the full-size boxes for
  /// `sigma`, and with nearly the same shape. Reducing adds a box of `factor`
  /// pixels and enlarging a triangle of half-width `factor`: (k² − 1)/4 together.
  static func reducedBox(_ sigma: Double, factor: Int) -> FractionalBox {
    let k = Double(factor)
    let v = max(boxVariance(sigma) - (k * k - 1) / 4, 0) / (3 * k * k)
    // Whole radius r has variance r(r + 1)/3; the edge weight α makes up the rest:
    // v = (2·S + 2α(r + 1)²) / (2r + 1 + 2α), S = r(r + 1)(2r + 1)/6.
    var r = 0
    while Double((r + 1) * (r + 2)) / 3 <= v { r += 1 }
    let (rr, s) = (Double(r), Double(r * (r + 1) * (2 * r + 1)) / 6)
    let alpha = (v * (2 * rr + 1) - 2 * s) / (2 * (rr + 1) * (rr + 1) - 2 * v)
    return FractionalBox(radius: r, edge: Float(min(max(alpha, 0), 1)))
  }

  /// Three `box` passes along `axis`, src → dst (src is used as scratch), zero past the ends.
  private static func fractionalBoxes(
    _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ axis: Axis,
    _ box: FractionalBox
  ) {
    fractionalBox(src, dst, axis, box)
    fractionalBox(dst, src, axis, box)
    fractionalBox(src, dst, axis, box)
  }

  private static func fractionalBox(
    _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ axis: Axis,
    _ box: FractionalBox
  ) {
    let (r, edge, n) = (box.radius, box.edge, axis.length)
    let scale = 1 / (Float(2 * r + 1) + 2 * edge)
    for line in 0..<axis.lines {
      let base = src + line * axis.lineStep
      let out = dst + line * axis.lineStep
      func at(_ i: Int) -> Float { i >= 0 && i < n ? base[i * axis.step] : 0 }
      var inner: Float = 0
      for k in -r...r { inner += at(k) }
      for i in 0..<n {
        out[i * axis.step] = (inner + edge * (at(i - r - 1) + at(i + r + 1))) * scale
        inner += at(i + r + 1) - at(i - r)
      }
    }
  }

  /// The variance of the three boxes `boxes` runs for `sigma`.
  static func boxVariance(_ sigma: Double) -> Double {
    let d = Double(boxSize(sigma))
    func box(_ size: Double) -> Double { (size * size - 1) / 12 }
    return Int(d) % 2 == 1 ? 3 * box(d) : 2 * box(d) + box(d + 1)
  }

  /// SVG's box size for `sigma`.
  static func boxSize(_ sigma: Double) -> Int {
    Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
  }

  /// The mean of each `factor`×`factor` block of the alpha plane (pixels past
  /// the edge count as 0, as the blur treats them), into `out`.
  private static func reduce(
    _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, step: Int,
    factor: Int, into out: UnsafeMutablePointer<Float>
  ) {
    let w = (width + factor - 1) / factor
    let h = (height + factor - 1) / factor
    out.update(repeating: 0, count: w * h)
    let scale = 1 / Float(factor * factor)
    for row in 0..<height {
      let line = data + row * stride
      let target = out + (row / factor) * w
      // A block's row summed in an integer, then added once: no division
      // and no store-to-load chain per pixel.
      var col = 0
      for block in 0..<w {
        let end = min(col + factor, width)
        var sum = 0
        while col < end {
          sum += Int(line[col * step])
          col += 1
        }
        target[block] += Float(sum)
      }
    }
    for i in 0..<(w * h) { out[i] *= scale }
  }

  /// The reduced plane enlarged bilinearly (sample centres aligned, zero past
  /// the edge) back into the alpha plane.
  private static func enlarge(
    _ plane: UnsafeMutablePointer<Float>, width w: Int, height h: Int, factor: Int,
    into data: UnsafeMutablePointer<UInt8>, outWidth: Int, outHeight: Int, stride: Int,
    step: Int
  ) {
    // Per output column: the left sample and the right sample's weight.
    func taps(_ n: Int) -> [(Int, Float)] {
      (0..<n).map { i in
        let u = (Double(i) + 0.5) / Double(factor) - 0.5
        let lower = u.rounded(.down)
        return (Int(lower), Float(u - lower))
      }
    }
    let columns = taps(outWidth)
    let rows = taps(outHeight)
    // One row of the reduced plane mixed vertically, with a zero either end
    // (entry c + 1 is column c), so the loop over pixels has no branch.
    var mixed = [Float](repeating: 0, count: w + 2)
    let left = columns.map { $0.0 + 1 }
    let weight = columns.map { $0.1 }
    mixed.withUnsafeMutableBufferPointer { mixed in
      let m = mixed.baseAddress!
      for y in 0..<outHeight {
        let (r, fy) = rows[y]
        for c in 0..<w {
          let top: Float = r >= 0 && r < h ? plane[r * w + c] : 0
          let bottom: Float = r + 1 >= 0 && r + 1 < h ? plane[(r + 1) * w + c] : 0
          m[c + 1] = top + (bottom - top) * fy
        }
        let out = data + y * stride
        for x in 0..<outWidth {
          let (a, b) = (m[left[x]], m[left[x] + 1])
          out[x * step] = Self.byte(a + (b - a) * weight[x])
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
    let d = boxSize(sigma)
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
