import Foundation

/// One animated property's values, one sample per exported frame, before reduction.
struct SampledProperty {
  /// Frame numbers, increasing.
  var frames: [Int] = []
  /// A vector of numbers per frame (all of one length within a run of one shape).
  var values: [[Double]] = []

  mutating func append(_ frame: Int, _ value: [Double]) {
    frames.append(frame)
    values.append(value)
  }
}

/// How a property's numbers are judged and written.
struct PropertyPrecision {
  /// The largest error a reduced keyframe track may make at any sampled frame.
  var tolerance: Double
  /// Decimal places written: half a unit of the last place stays well inside the tolerance.
  var decimals: Int

  /// 0.05 pt, for positions and path vertices.
  static let points = PropertyPrecision(tolerance: 0.05, decimals: 2)
  /// 0.1°, for rotations.
  static let degrees = PropertyPrecision(tolerance: 0.1, decimals: 2)
  /// 1/512 of the full range, for colour components in 0…1.
  static let unitColor = PropertyPrecision(tolerance: 1.0 / 512, decimals: 4)
  /// 1/512 of 100 %, for Lottie's opacities in 0…100.
  static let percentOpacity = PropertyPrecision(tolerance: 100.0 / 512, decimals: 2)

  /// A percentage scale whose error moves no point within `extent` of the anchor by more
  /// than the position tolerance.
  static func percentScale(extent: Double) -> PropertyPrecision {
    let tolerance = 100 * PropertyPrecision.points.tolerance / max(extent, 1)
    return PropertyPrecision(tolerance: tolerance, decimals: 4)
  }
}

/// The easing between two keyframes: Lottie's cubic handles at (1/3, y1) and (2/3, y2), so
/// time maps to the curve's parameter linearly and the progress is a cubic in time.
struct Easing: Equatable {
  var y1: Double
  var y2: Double
  /// Decimal places that keep the handles' rounding well inside the tolerance.
  var decimals: Int

  static let linear = Easing(y1: 1.0 / 3, y2: 2.0 / 3, decimals: 0)

  var isLinear: Bool { abs(y1 - 1.0 / 3) < 1e-9 && abs(y2 - 2.0 / 3) < 1e-9 }

  func progress(_ t: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t
  }
}

/// Greedy keyframe reduction: from each kept sample, the run is extended as far as one
/// eased segment (the same cubic easing for every component, fitted by least squares)
/// reproduces every sample in between within the tolerance; the last sample that still
/// did becomes the next keyframe. Every kept keyframe is an original sample, so each
/// exported frame is within the tolerance of what the host drew.
enum KeyframeReducer {
  /// The most samples one segment spans, so a long export reduces in linear time.
  static let maxRun = 240

  struct Reduction {
    /// Indices into the samples of the keyframes kept.
    var keys: [Int]
    /// The easing after each key but the last.
    var easings: [Easing]
  }

  static func reduce(_ property: SampledProperty, tolerance: Double) -> Reduction {
    let values = property.values
    let frames = property.frames
    // First, so two equal samples are one value too: a two-frame export of a text's glyph
    // outline (thousands of shapes) wrote every shape twice.
    if isConstant(values, tolerance: tolerance) { return Reduction(keys: [0], easings: []) }
    guard values.count > 2 else {
      return Reduction(
        keys: Array(values.indices), easings: Array(repeating: .linear, count: values.count - 1))
    }
    var keys = [0]
    var easings: [Easing] = []
    var start = 0
    var end = 1
    var easing = Easing.linear
    while end < values.count {
      if end + 1 < values.count, end + 1 - start <= maxRun,
        let wider = fit(values, frames, from: start, to: end + 1, tolerance: tolerance)
      {
        easing = wider
        end += 1
        continue
      }
      keys.append(end)
      easings.append(easing)
      easing = .linear
      start = end
      end += 1
    }
    return Reduction(keys: keys, easings: easings)
  }

  /// Whether every value is within `tolerance` of the first.
  static func isConstant(_ values: [[Double]], tolerance: Double) -> Bool {
    guard let first = values.first else { return true }
    return values.allSatisfy { v in
      v.count == first.count && zip(v, first).allSatisfy { abs($0 - $1) <= tolerance }
    }
  }

  /// The easing from sample `a` to `b` that passes within `tolerance` of every sample
  /// between (linear when that does), or nil.
  static func fit(
    _ values: [[Double]], _ frames: [Int], from a: Int, to b: Int, tolerance: Double
  ) -> Easing? {
    let (va, vb) = (values[a], values[b])
    guard va.count == vb.count, values[a...b].allSatisfy({ $0.count == va.count }) else {
      return nil
    }
    let d = zip(vb, va).map { $0 - $1 }
    let length2 = d.reduce(0) { $0 + $1 * $1 }
    let span = Double(frames[b] - frames[a])
    let times = ((a + 1)..<b).map { Double(frames[$0] - frames[a]) / span }
    func within(_ easing: Easing) -> Bool {
      for (k, t) in zip((a + 1)..<b, times) {
        let p = easing.progress(t)
        for c in d.indices where abs(va[c] + d[c] * p - values[k][c]) > tolerance { return false }
      }
      return true
    }
    if within(.linear) { return .linear }
    guard length2 > 0 else { return nil }
    // Least squares for y1, y2: progress − t³ = B1·y1 + B2·y2.
    var (s11, s12, s22, r1, r2) = (0.0, 0.0, 0.0, 0.0, 0.0)
    for (k, t) in zip((a + 1)..<b, times) {
      let p =
        zip(values[k], va).enumerated().reduce(0.0) {
          $0 + ($1.element.0 - $1.element.1) * d[$1.offset]
        } / length2
      let (u, target) = (1 - t, p - t * t * t)
      let (b1, b2) = (3 * u * u * t, 3 * u * t * t)
      s11 += b1 * b1
      s12 += b1 * b2
      s22 += b2 * b2
      r1 += b1 * target
      r2 += b2 * target
    }
    // A light pull towards linear handles, so one or two samples still give one answer.
    let ridge = 1e-6
    (s11, s22) = (s11 + ridge, s22 + ridge)
    (r1, r2) = (r1 + ridge / 3, r2 + ridge * 2 / 3)
    let det = s11 * s22 - s12 * s12
    guard abs(det) > 1e-12 else { return nil }
    let largest = d.map(abs).max() ?? 0
    // Rounding a handle moves a value by at most 4/9 of its change: keep that under a
    // fifth of the tolerance.
    let decimals = min(8, max(2, Int((log10(4.0 / 9 * largest / (0.2 * tolerance))).rounded(.up))))
    let scale = pow(10, Double(decimals))
    let easing = Easing(
      y1: ((s22 * r1 - s12 * r2) / det * scale).rounded() / scale,
      y2: ((s11 * r2 - s12 * r1) / det * scale).rounded() / scale, decimals: decimals)
    return within(easing) ? easing : nil
  }
}

/// How a property's value is laid out in Lottie JSON.
enum PropertyLayout {
  /// One number: `"k": n` when constant, `"s": [n]` in a keyframe.
  case scalar
  /// A vector: `"k": [..]` and `"s": [..]`.
  case vector
  /// A Bézier path (`"k": {c, v, i, o}`, `"s": [{…}]`), its numbers flattened as
  /// `BezierShape.shapeNumbers` lays them out.
  case shape
}

extension SampledProperty {
  /// The property as Lottie writes it: constant once (`"a": 0`), or the fewest linear
  /// keyframes within the tolerance. `hold` keys every sample with hold easing (a
  /// shape whose vertex count changes cannot be interpolated).
  func lottie(
    _ precision: PropertyPrecision, layout: PropertyLayout = .vector, hold: Bool = false
  ) -> LottieJSON {
    let tol = max(precision.tolerance - 0.5 * pow(10, -Double(precision.decimals)), 0)
    // Held values need a key only where they change.
    let reduction =
      hold
      ? KeyframeReducer.Reduction(
        keys: values.indices.filter { $0 == 0 || values[$0] != values[$0 - 1] }, easings: [])
      : KeyframeReducer.reduce(self, tolerance: tol)
    let keys = reduction.keys
    if keys.count == 1 || values.count == 1 {
      return ["a": 0, "k": encode(values[keys[0]], precision.decimals, layout, keyframe: false)]
    }
    var out: [LottieJSON] = []
    for (n, k) in keys.enumerated() {
      var key: [String: LottieJSON] = [
        "t": .number(Double(frames[k])),
        "s": encode(values[k], precision.decimals, layout, keyframe: true),
      ]
      if n + 1 < keys.count {
        if hold {
          key["h"] = 1
        } else if reduction.easings[n].isLinear {
          // Linear: Lottie's easing handles at (0, 0) and (1, 1).
          key["o"] = ["x": [0], "y": [0]]
          key["i"] = ["x": [1], "y": [1]]
        } else {
          let e = reduction.easings[n]
          key["o"] = [
            "x": [LottieJSON.rounded(1.0 / 3, 6)], "y": [LottieJSON.rounded(e.y1, e.decimals)],
          ]
          key["i"] = [
            "x": [LottieJSON.rounded(2.0 / 3, 6)], "y": [LottieJSON.rounded(e.y2, e.decimals)],
          ]
        }
      }
      out.append(.object(key))
    }
    return ["a": 1, "k": .array(out)]
  }

  private func encode(_ v: [Double], _ decimals: Int, _ layout: PropertyLayout, keyframe: Bool)
    -> LottieJSON
  {
    switch layout {
    case .scalar:
      let n = LottieJSON.rounded(v.first ?? 0, decimals)
      return keyframe ? [n] : n
    case .vector:
      return LottieJSON.rounded(v, decimals)
    case .shape:
      let json = BezierShape.decode(v).lottie(decimals)
      return keyframe ? [json] : json
    }
  }
}
