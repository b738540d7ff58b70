import CLua
import MorphCore

/// `morph.lerp`, `morph.clamp`, … — scalar helpers plugins use on every frame.
enum ScalarBindings {
  static func open(_ lua: OpaquePointer) { register(lua, functions) }

  static let functions: [HostFunction] = [
    HostFunction(name: "lerp") { lua in
      hostCall(lua, "lerp") { a in
        a.push(Scalar.lerp(try a.number(1), try a.number(2), try a.number(3)))
        return 1
      }
    },
    HostFunction(name: "mix") { lua in
      hostCall(lua, "mix") { a in
        a.push(Scalar.mix(try a.number(1), try a.number(2), try a.number(3)))
        return 1
      }
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
    HostFunction(name: "smoothstep") { lua in
      hostCall(lua, "smoothstep") { a in
        a.push(Scalar.smoothstep(try a.number(1), try a.number(2), try a.number(3)))
        return 1
      }
    },
    HostFunction(name: "fract") { lua in
      hostCall(lua, "fract") { a in
        a.push(Scalar.fract(try a.finite(1)))
        return 1
      }
    },
    HostFunction(name: "hash") { lua in
      hostCall(lua, "hash") { a in
        a.push(Scalar.hash(try a.finite(1)))
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
    HostFunction(name: "rad") { lua in
      hostCall(lua, "rad") { a in
        a.push(Scalar.radians(try a.number(1)))
        return 1
      }
    },
    HostFunction(name: "deg") { lua in
      hostCall(lua, "deg") { a in
        a.push(Scalar.degrees(try a.number(1)))
        return 1
      }
    },
    HostFunction(name: "wrapDegrees") { lua in
      hostCall(lua, "wrapDegrees") { a in
        a.push(Scalar.wrapDegrees(try a.finite(1)))
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
