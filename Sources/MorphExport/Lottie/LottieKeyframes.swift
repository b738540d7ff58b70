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

/// Greedy keyframe reduction: from each kept sample, the run is extended as far as a
/// straight (linear-in-time) segment to its end reproduces every sample in between
/// within the tolerance; the last sample that still did becomes the next keyframe.
/// Every kept keyframe is an original sample, so each exported frame is within the
/// tolerance of what the host drew.
enum KeyframeReducer {
  /// The most samples one straight segment spans, so a long export reduces in linear time.
  static let maxRun = 240

  /// Indices into `property.values` of the keyframes kept.
  static func reduce(_ property: SampledProperty, tolerance: Double) -> [Int] {
    let values = property.values
    let frames = property.frames
    guard values.count > 2 else { return Array(values.indices) }
    var keys = [0]
    var start = 0
    var end = 1
    while end < values.count {
      if end + 1 < values.count, end + 1 - start <= maxRun,
        fits(values, frames, from: start, to: end + 1, tolerance: tolerance)
      {
        end += 1
        continue
      }
      keys.append(end)
      start = end
      end += 1
    }
    if keys.count == 2, isConstant(values, tolerance: tolerance) { return [0] }
    return keys
  }

  /// Whether every value is within `tolerance` of the first.
  static func isConstant(_ values: [[Double]], tolerance: Double) -> Bool {
    guard let first = values.first else { return true }
    return values.allSatisfy { v in
      v.count == first.count && zip(v, first).allSatisfy { abs($0 - $1) <= tolerance }
    }
  }

  private static func fits(
    _ values: [[Double]], _ frames: [Int], from a: Int, to b: Int, tolerance: Double
  ) -> Bool {
    let (va, vb) = (values[a], values[b])
    guard va.count == vb.count else { return false }
    let span = Double(frames[b] - frames[a])
    for k in (a + 1)..<b {
      let f = Double(frames[k] - frames[a]) / span
      let vk = values[k]
      guard vk.count == va.count else { return false }
      for c in vk.indices where abs(va[c] + (vb[c] - va[c]) * f - vk[c]) > tolerance {
        return false
      }
    }
    return true
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
    let keys =
      hold
      ? values.indices.filter { $0 == 0 || values[$0] != values[$0 - 1] }
      : KeyframeReducer.reduce(self, tolerance: tol)
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
        } else {
          // Linear: Lottie's easing handles at (0, 0) and (1, 1).
          key["o"] = ["x": [0], "y": [0]]
          key["i"] = ["x": [1], "y": [1]]
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
