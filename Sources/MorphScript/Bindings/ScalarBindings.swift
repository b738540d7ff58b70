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
    HostFunction(
      name: "lerp",
      doc: """
        Linear interpolation: `a + (b - a) * t` (t is not clamped).
        @param a number
        @param b number
        @param t number
        @return number
        """
    ) { ternary($0, "lerp", Scalar.lerp) },
    HostFunction(
      name: "mix",
      doc: """
        GLSL `mix`: the same as `lerp`.
        @param a number
        @param b number
        @param t number
        @return number
        """
    ) { ternary($0, "mix", Scalar.mix) },
    HostFunction(
      name: "smoothstep",
      doc: """
        GLSL smoothstep: 0 below e0, 1 above e1, a cubic in between.
        @param e0 number
        @param e1 number
        @param x number
        @return number
        """
    ) { ternary($0, "smoothstep", Scalar.smoothstep) },
    HostFunction(
      name: "fract",
      doc: """
        The fractional part `x - floor(x)`.
        @param x number
        @return number
        """
    ) { unary($0, "fract", finite: true, Scalar.fract) },
    HostFunction(
      name: "hash",
      doc: """
        Deterministic pseudo-random in [0, 1): `fract(sin(i * 12.9898) * 43758.5453)`,
        the ticket tear's jitter hash.
        @param i number
        @return number
        """
    ) { unary($0, "hash", finite: true, Scalar.hash) },
    HostFunction(
      name: "rad",
      doc: """
        Degrees to radians.
        @param degrees number
        @return number
        """
    ) { unary($0, "rad", finite: false, Scalar.radians) },
    HostFunction(
      name: "deg",
      doc: """
        Radians to degrees.
        @param radians number
        @return number
        """
    ) { unary($0, "deg", finite: false, Scalar.degrees) },
    HostFunction(
      name: "wrapDegrees",
      doc: """
        Wraps an angle in degrees into [0, 360).
        @param degrees number
        @return number
        """
    ) {
      unary($0, "wrapDegrees", finite: true, Scalar.wrapDegrees)
    },
    HostFunction(
      name: "clamp",
      doc: """
        Clamps `x` to [lo, hi] (default [0, 1]).
        @param x number
        @param lo? number
        @param hi? number
        @return number
        """
    ) { lua in
      hostCall(lua, "clamp") { a in
        let x = try a.number(1)
        let lo = try a.number(2, default: 0)
        let hi = try a.number(3, default: 1)
        guard lo <= hi else { throw a.error(3, "upper bound \(hi) is below lower bound \(lo)") }
        a.push(Scalar.clamp(x, lo, hi))
        return 1
      }
    },
    HostFunction(
      name: "remap",
      doc: """
        Maps `x` from [inMin, inMax] to [outMin, outMax] (not clamped).
        @param x number
        @param inMin number
        @param inMax number
        @param outMin number
        @param outMax number
        @return number
        """
    ) { lua in
      hostCall(lua, "remap") { a in
        a.push(
          Scalar.remap(
            try a.number(1), inMin: try a.number(2), inMax: try a.number(3),
            outMin: try a.number(4), outMax: try a.number(5)))
        return 1
      }
    },
    HostFunction(
      name: "hashInt",
      doc: """
        A well-mixed integer hash (splitmix64) mapped to [0, 1).
        @param i integer
        @param seed? integer
        @return number
        """
    ) { lua in
      hostCall(lua, "hashInt") { a in
        let seed = a.isNoneOrNil(2) ? 0 : try a.integer(2)
        a.push(Scalar.hashInt(Int64(try a.integer(1)), seed: UInt64(bitPattern: Int64(seed))))
        return 1
      }
    },
    HostFunction(
      name: "angleDelta",
      doc: """
        The shortest signed turn in degrees from `from` to `to`, in (-180, 180].
        @param from number
        @param to number
        @return number
        """
    ) { lua in
      hostCall(lua, "angleDelta") { a in
        a.push(Scalar.shortestAngleDelta(from: try a.finite(1), to: try a.finite(2)))
        return 1
      }
    },
  ]
}
