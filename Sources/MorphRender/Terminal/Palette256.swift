/// Nearest-colour lookup in the xterm 256-colour palette.
///
/// Only indices 16–255 are used: 0–15 are the theme colours every user redefines, so their
/// actual values are unknown.
enum Palette256 {
  /// Channel levels of the 6×6×6 cube at indices 16–231.
  static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

  /// The palette index nearest to (r, g, b) by squared distance in sRGB; ties go to the cube.
  static func index(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
    let cube = [Int(r), Int(g), Int(b)].map(nearestCubeLevel)
    let cubeColor = cube.map { cubeLevels[$0] }
    let cubeIndex = 16 + 36 * cube[0] + 6 * cube[1] + cube[2]
    let grayStep = nearestGrayStep(r: r, g: g, b: b)
    let gray = 8 + 10 * grayStep
    let rgb = [Int(r), Int(g), Int(b)]
    let cubeDistance = squaredDistance(rgb, cubeColor)
    let grayDistance = squaredDistance(rgb, [gray, gray, gray])
    return UInt8(grayDistance < cubeDistance ? 232 + grayStep : cubeIndex)
  }

  /// The sRGB value of palette index 16–255.
  static func color(of index: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
    let i = Int(index)
    if i >= 232 {
      let v = UInt8(8 + 10 * (i - 232))
      return (v, v, v)
    }
    let c = max(i - 16, 0)
    let levels = [c / 36, c / 6 % 6, c % 6].map { UInt8(cubeLevels[$0]) }
    return (levels[0], levels[1], levels[2])
  }

  // The squared distance is a sum over channels, so the nearest cube colour is the nearest
  // level in each channel independently.
  private static func nearestCubeLevel(_ v: Int) -> Int {
    var best = 0
    for i in 1..<cubeLevels.count where abs(cubeLevels[i] - v) < abs(cubeLevels[best] - v) {
      best = i
    }
    return best
  }

  // The grey ramp 8, 18, …, 238 (indices 232–255); the best step for the channel mean.
  private static func nearestGrayStep(r: UInt8, g: UInt8, b: UInt8) -> Int {
    let mean = Double(Int(r) + Int(g) + Int(b)) / 3
    return min(max(Int(((mean - 8) / 10).rounded()), 0), 23)
  }

  private static func squaredDistance(_ a: [Int], _ b: [Int]) -> Int {
    zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
  }
}
