import Foundation

/// Penner easing curves (formulas from easings.net), named like Playdate's and
/// Solar2D's so Lua authors recognise them. Each maps `x ∈ [0, 1]` to progress.
public enum Easing: String, CaseIterable, Sendable {
  /// Constant speed.
  case linear
  /// Power 2.
  case inQuad, outQuad, inOutQuad, outInQuad
  /// Power 3.
  case inCubic, outCubic, inOutCubic, outInCubic
  /// Power 4.
  case inQuart, outQuart, inOutQuart, outInQuart
  /// Power 5.
  case inQuint, outQuint, inOutQuint, outInQuint
  /// Quarter sine wave.
  case inSine, outSine, inOutSine, outInSine
  /// Powers of 2; the formula jumps ~0.001 at each end, so the ends are pinned.
  case inExpo, outExpo, inOutExpo, outInExpo
  /// Quarter circle.
  case inCirc, outCirc, inOutCirc, outInCirc
  /// Overshoots by about 10% (c1 = 1.70158).
  case inBack, outBack, inOutBack, outInBack
  /// Damped sine; rings past the end.
  case inElastic, outElastic, inOutElastic, outInElastic
  /// Ball dropping on the floor.
  case inBounce, outBounce, inOutBounce, outInBounce

  /// The eased progress at `x`; exactly 0 at `x = 0` and 1 at `x = 1`.
  public func callAsFunction(_ x: Double) -> Double {
    // Pin the endpoints: several formulas miss them by one ulp (e.g. 1 − cos(π/2)),
    // and an animation's last frame must land exactly on its target.
    if x == 0 { return 0 }
    if x == 1 { return 1 }
    guard let (family, shape) = parts else { return x }
    switch shape {
    case .easeIn: return family.easeIn(x)
    case .easeOut: return family.easeOut(x)
    case .inOut: return family.inOut(x)
    case .outIn:
      return x < 0.5 ? family.easeOut(2 * x) / 2 : family.easeIn(2 * x - 1) / 2 + 0.5
    }
  }

  /// Playdate/Penner signature: start `b`, change `c`, time `t` of duration `d`.
  public func value(t: Double, b: Double, c: Double, d: Double) -> Double {
    guard d != 0 else { return b + c }
    return b + c * self(t / d)
  }

  /// The case whose name matches `s`, ignoring letter case; `nil` if none does.
  public static func named(_ s: String) -> Easing? {
    if let exact = Easing(rawValue: s) { return exact }
    let lower = s.lowercased()
    return allCases.first { $0.rawValue.lowercased() == lower }
  }

  private var parts: (EasingFamily, EasingShape)? {
    switch self {
    case .linear: return nil
    case .inQuad, .outQuad, .inOutQuad, .outInQuad: return (.quad, shape)
    case .inCubic, .outCubic, .inOutCubic, .outInCubic: return (.cubic, shape)
    case .inQuart, .outQuart, .inOutQuart, .outInQuart: return (.quart, shape)
    case .inQuint, .outQuint, .inOutQuint, .outInQuint: return (.quint, shape)
    case .inSine, .outSine, .inOutSine, .outInSine: return (.sine, shape)
    case .inExpo, .outExpo, .inOutExpo, .outInExpo: return (.expo, shape)
    case .inCirc, .outCirc, .inOutCirc, .outInCirc: return (.circ, shape)
    case .inBack, .outBack, .inOutBack, .outInBack: return (.back, shape)
    case .inElastic, .outElastic, .inOutElastic, .outInElastic: return (.elastic, shape)
    case .inBounce, .outBounce, .inOutBounce, .outInBounce: return (.bounce, shape)
    }
  }

  // Cheap enough per frame: raw values are small inline strings, no allocation.
  private var shape: EasingShape {
    let name = rawValue
    if name.hasPrefix("inOut") { return .inOut }
    if name.hasPrefix("outIn") { return .outIn }
    return name.hasPrefix("in") ? .easeIn : .easeOut
  }
}

private enum EasingShape {
  case easeIn, easeOut, inOut, outIn
}

// Penner's constants, as easings.net names them.
private let c1 = 1.70158
private let c2 = c1 * 1.525
private let c3 = c1 + 1
private let c4 = 2 * Double.pi / 3
private let c5 = 2 * Double.pi / 4.5
private let n1 = 7.5625
private let d1 = 2.75

private enum EasingFamily {
  case quad, cubic, quart, quint, sine, expo, circ, back, elastic, bounce

  func easeIn(_ x: Double) -> Double {
    switch self {
    case .quad: return x * x
    case .cubic: return x * x * x
    case .quart: return x * x * x * x
    case .quint: return x * x * x * x * x
    case .sine: return 1 - cos(x * .pi / 2)
    case .expo: return x == 0 ? 0 : pow(2, 10 * x - 10)
    case .circ: return 1 - (1 - x * x).squareRoot()
    case .back: return c3 * x * x * x - c1 * x * x
    case .elastic:
      if x == 0 || x == 1 { return x }
      return -pow(2, 10 * x - 10) * sin((x * 10 - 10.75) * c4)
    case .bounce: return 1 - bounceOut(1 - x)
    }
  }

  func easeOut(_ x: Double) -> Double {
    switch self {
    case .quad: return 1 - (1 - x) * (1 - x)
    case .cubic: return 1 - pow(1 - x, 3)
    case .quart: return 1 - pow(1 - x, 4)
    case .quint: return 1 - pow(1 - x, 5)
    case .sine: return sin(x * .pi / 2)
    case .expo: return x == 1 ? 1 : 1 - pow(2, -10 * x)
    case .circ: return (1 - (x - 1) * (x - 1)).squareRoot()
    case .back: return 1 + c3 * pow(x - 1, 3) + c1 * pow(x - 1, 2)
    case .elastic:
      if x == 0 || x == 1 { return x }
      return pow(2, -10 * x) * sin((x * 10 - 0.75) * c4) + 1
    case .bounce: return bounceOut(x)
    }
  }

  func inOut(_ x: Double) -> Double {
    let low = x < 0.5
    switch self {
    case .quad: return low ? 2 * x * x : 1 - pow(-2 * x + 2, 2) / 2
    case .cubic: return low ? 4 * x * x * x : 1 - pow(-2 * x + 2, 3) / 2
    case .quart: return low ? 8 * pow(x, 4) : 1 - pow(-2 * x + 2, 4) / 2
    case .quint: return low ? 16 * pow(x, 5) : 1 - pow(-2 * x + 2, 5) / 2
    case .sine: return -(cos(.pi * x) - 1) / 2
    case .expo: return expoInOut(x)
    case .circ: return circInOut(x)
    case .back: return backInOut(x)
    case .elastic: return elasticInOut(x)
    case .bounce: return low ? (1 - bounceOut(1 - 2 * x)) / 2 : (1 + bounceOut(2 * x - 1)) / 2
    }
  }
}

private func bounceOut(_ x: Double) -> Double {
  if x < 1 / d1 { return n1 * x * x }
  if x < 2 / d1 {
    let u = x - 1.5 / d1
    return n1 * u * u + 0.75
  }
  if x < 2.5 / d1 {
    let u = x - 2.25 / d1
    return n1 * u * u + 0.9375
  }
  let u = x - 2.625 / d1
  return n1 * u * u + 0.984375
}

private func expoInOut(_ x: Double) -> Double {
  if x == 0 || x == 1 { return x }
  return x < 0.5 ? pow(2, 20 * x - 10) / 2 : (2 - pow(2, -20 * x + 10)) / 2
}

private func circInOut(_ x: Double) -> Double {
  x < 0.5
    ? (1 - (1 - pow(2 * x, 2)).squareRoot()) / 2
    : ((1 - pow(-2 * x + 2, 2)).squareRoot() + 1) / 2
}

private func backInOut(_ x: Double) -> Double {
  x < 0.5
    ? (pow(2 * x, 2) * ((c2 + 1) * 2 * x - c2)) / 2
    : (pow(2 * x - 2, 2) * ((c2 + 1) * (x * 2 - 2) + c2) + 2) / 2
}

private func elasticInOut(_ x: Double) -> Double {
  if x == 0 || x == 1 { return x }
  let s = sin((20 * x - 11.125) * c5)
  return x < 0.5 ? -(pow(2, 20 * x - 10) * s) / 2 : (pow(2, -20 * x + 10) * s) / 2 + 1
}
