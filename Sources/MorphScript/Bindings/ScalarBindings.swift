import MorphCore

/// `morph.lerp`, `morph.clamp`, … — scalar helpers plugins use on every frame.
enum ScalarBindings {
  static func open(_ lua: OpaquePointer) { register(lua, functions) }

  /// A host function of one number (`finite` rejects ±inf as well as NaN).
  static func unary(_ lua: OpaquePointer?, _ name: String, finite: Bool, _ f: (Double) -> Double)
    -> Int32
  {
    hostCall(lua, name) { a in
      a.push(f(finite ? try a.finite(1) : try a.number(1)))
      return 1
    }
  }

  /// A host function of three numbers.
  static func ternary(
    _ lua: OpaquePointer?, _ name: String, _ f: (Double, Double, Double) -> Double
  ) -> Int32 {
    hostCall(lua, name) { a in
      a.push(f(try a.number(1), try a.number(2), try a.number(3)))
      return 1
    }
  }

  static let functions: [HostFunction] = [
    HostFunction(name: "lerp") { ternary($0, "lerp", Scalar.lerp) },
    HostFunction(name: "mix") { ternary($0, "mix", Scalar.mix) },
    HostFunction(name: "smoothstep") { ternary($0, "smoothstep", Scalar.smoothstep) },
    HostFunction(name: "fract") { unary($0, "fract", finite: true, Scalar.fract) },
    HostFunction(name: "hash") { unary($0, "hash", finite: true, Scalar.hash) },
    HostFunction(name: "rad") { unary($0, "rad", finite: false, Scalar.radians) },
    HostFunction(name: "deg") { unary($0, "deg", finite: false, Scalar.degrees) },
    HostFunction(name: "wrapDegrees") {
      unary($0, "wrapDegrees", finite: true, Scalar.wrapDegrees)
    },
    HostFunction(name: "clamp") { lua in
      hostCall(lua, "clamp") { a in
        let x = try a.number(1)
        let lo = try a.number(2, default: 0)
        let hi = try a.number(3, default: 1)
        guard lo <= hi else { throw a.error(3, "upper bound \(hi) is below lower bound \(lo)") }
        a.push(Scalar.clamp(x, lo, hi))
        return 1
      }
    },
    HostFunction(name: "remap") { lua in
      hostCall(lua, "remap") { a in
        a.push(
          Scalar.remap(
            try a.number(1), inMin: try a.number(2), inMax: try a.number(3),
            outMin: try a.number(4), outMax: try a.number(5)))
        return 1
      }
    },
    HostFunction(name: "hashInt") { lua in
      hostCall(lua, "hashInt") { a in
        let seed = a.isNoneOrNil(2) ? 0 : try a.integer(2)
        a.push(Scalar.hashInt(Int64(try a.integer(1)), seed: UInt64(bitPattern: Int64(seed))))
        return 1
      }
    },
    HostFunction(name: "angleDelta") { lua in
      hostCall(lua, "angleDelta") { a in
        a.push(Scalar.shortestAngleDelta(from: try a.finite(1), to: try a.finite(2)))
        return 1
      }
    },
  ]
}
