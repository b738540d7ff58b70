import Foundation

@testable import MorphRender

/// The two figures issue 33 holds every Lottie player to, frame by frame against the
/// host's own frame (both over white):
/// - `offByTen`: the fraction of pixels whose channels differ by more than 10 levels,
///   pixels within 1 px of an edge of the host's frame excepted (a soft shadow missing,
///   a colour off);
/// - `unmatched`: the fraction of pixels with no pixel within 1 px of them in the player's
///   frame that matches by 40 levels (a garbled glyph, a missing part).
struct PlayerFigures: Hashable, CustomStringConvertible {
  var offByTen: Double
  var unmatched: Double

  /// The bars: at most 1 % and 0.5 %.
  static let maxOffByTen = 0.01
  static let maxUnmatched = 0.005
  /// Neighbouring host pixels whose channels differ by more than this make an edge (the
  /// edge-tolerant comparison's own contrast).
  static let edgeContrast = ImageTolerance.standard.edgeContrast

  var holds: Bool { offByTen <= Self.maxOffByTen && unmatched <= Self.maxUnmatched }

  var description: String {
    func percent(_ v: Double) -> String { String(format: "%.3g %%", v * 100) }
    return "\(percent(offByTen)) off by >10, \(percent(unmatched)) unmatched"
  }

  init(offByTen: Double, unmatched: Double) {
    self.offByTen = offByTen
    self.unmatched = unmatched
  }

  init(host: RasterImage, played: RasterImage) {
    precondition(host.width == played.width && host.height == played.height)
    let (w, h) = (host.width, host.height)
    let nearEdge = ImageComparison.edgeMask(host, contrast: Self.edgeContrast, radius: 1)
    var off = 0
    var lost = 0
    host.pixels.withUnsafeBufferPointer { e in
      played.pixels.withUnsafeBufferPointer { a in
        func delta(_ i: Int, _ j: Int) -> Int {
          var worst = 0
          for c in 0..<3 { worst = max(worst, abs(Int(e[i * 4 + c]) - Int(a[j * 4 + c]))) }
          return worst
        }
        for y in 0..<h {
          for x in 0..<w {
            let i = y * w + x
            if !nearEdge[i] && delta(i, i) > 10 { off += 1 }
            var matched = false
            search: for ny in max(0, y - 1)...min(h - 1, y + 1) {
              for nx in max(0, x - 1)...min(w - 1, x + 1) where delta(i, ny * w + nx) <= 40 {
                matched = true
                break search
              }
            }
            if !matched { lost += 1 }
          }
        }
      }
    }
    let n = Double(max(w * h, 1))
    offByTen = Double(off) / n
    unmatched = Double(lost) / n
  }
}

/// A Lottie player as the tests run it.
enum LottiePlayer: String, CaseIterable, Sendable {
  case thorvg = "ThorVG"
  case rlottie
  case webSVGFirst = "lottie-web svg, first visit"
  case webSVG = "lottie-web svg"
  case webCanvasFirst = "lottie-web canvas, first visit"
  case webCanvas = "lottie-web canvas"

  var isWeb: Bool { self != .thorvg && self != .rlottie }
}

/// One export's worst frames per player.
struct PlayerMeasure {
  /// Per player: the worst frame for each figure, and the figures there.
  struct Worst {
    var offByTen = (value: 0.0, frame: 0)
    var unmatched = (value: 0.0, frame: 0)
    var figures: PlayerFigures {
      PlayerFigures(offByTen: offByTen.value, unmatched: unmatched.value)
    }
    var text: String {
      String(
        format: "%.2f %% (f%d) / %.2f %% (f%d)", offByTen.value * 100, offByTen.frame,
        unmatched.value * 100, unmatched.frame)
    }
  }

  var worst: [LottiePlayer: Worst] = [:]
  var export: LottieVerification.Export

  /// Exports `plugin` (`count` frames over its progress range, or played from one tap at
  /// 30 frames a second) and plays it in `players`. With MORPH_LOTTIE_FRAMES set to a
  /// folder, each player's frames are written there beside the host's.
  static func measure(
    _ plugin: String, frames count: Int, played isPlayed: Bool,
    players: [LottiePlayer] = LottiePlayer.allCases
  ) throws -> PlayerMeasure {
    let folder = try LottieVerification.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let export = try LottieVerification.export(
      plugin, frames: count, played: isPlayed, into: folder)
    var measure = PlayerMeasure(export: export)
    let (w, h) = (export.width, export.height)
    var frames: [LottiePlayer: [RasterImage]] = [:]
    if players.contains(.thorvg) {
      frames[.thorvg] = try LottieVerification.thorvgFrames(export.file, width: w, height: h)
    }
    if players.contains(.rlottie) {
      frames[.rlottie] = try LottieVerification.rlottieFrames(export.file, width: w, height: h)
    }
    if players.contains(.webSVG) || players.contains(.webSVGFirst) {
      let web = try LottieVerification.lottieWebFrames(export.file, width: w, height: h)
      (frames[.webSVGFirst], frames[.webSVG]) = (web.first, web.second)
    }
    if players.contains(.webCanvas) || players.contains(.webCanvasFirst) {
      let web = try LottieVerification.lottieWebFrames(
        export.file, width: w, height: h, renderer: "canvas")
      (frames[.webCanvasFirst], frames[.webCanvas]) = (web.first, web.second)
    }
    let keep = ProcessInfo.processInfo.environment["MORPH_LOTTIE_FRAMES"].map {
      URL(fileURLWithPath: $0)
    }
    for player in players {
      // rlottie counts the out point's frame too (`op` - `ip` + 1).
      let played = Array(frames[player]!.prefix(export.host.count))
      guard played.count == export.host.count else {
        throw VerificationError(
          "\(plugin): \(player.rawValue) played \(played.count) frames of \(export.host.count)")
      }
      var worst = Worst()
      for (i, (host, frame)) in zip(export.host, played).enumerated() {
        let f = PlayerFigures(host: host, played: frame)
        if f.offByTen > worst.offByTen.value { worst.offByTen = (f.offByTen, i) }
        if f.unmatched > worst.unmatched.value { worst.unmatched = (f.unmatched, i) }
        if let keep {
          let tag = player.rawValue.replacingOccurrences(of: " ", with: "")
            .replacingOccurrences(of: ",", with: "-")
          let name = "\(export.name)\(isPlayed ? "-played" : "")-\(i)"
          try Data(try host.pngData()).write(to: keep.appendingPathComponent("\(name)-host.png"))
          try Data(try frame.pngData()).write(to: keep.appendingPathComponent("\(name)-\(tag).png"))
        }
      }
      measure.worst[player] = worst
    }
    return measure
  }
}
