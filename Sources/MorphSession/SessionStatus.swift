import Foundation
import MorphCore
import MorphRender

/// What a front end shows beside the picture: the plugin's name and accessibility
/// text, the clock, the progress and its range, the canvas, playback, and the last
/// error. The preview sends it as JSON with every frame.
public struct SessionStatus: Codable, Equatable, Sendable {
  public var name: String
  public var label: String?
  public var value: String?
  public var time = 0.0
  public var progress: Double?
  public var range: [Double]?
  public var canvas: [Double]?
  public var playing: Bool
  public var speed: Double
  public var reduceMotion: Bool
  /// The front end's own count of prop changes (the preview's page reloads its
  /// props panel when it moves).
  public var propsVersion: Int
  public var error: SessionDiagnostic?
  /// The history's epoch, samples and markers recorded: the inspector
  /// fetches `inspect` when they change.
  public var history: [Int]?

  public init(
    name: String, playing: Bool, speed: Double, reduceMotion: Bool, propsVersion: Int = 0,
    error: SessionDiagnostic? = nil
  ) {
    self.name = name
    self.playing = playing
    self.speed = speed
    self.reduceMotion = reduceMotion
    self.propsVersion = propsVersion
    self.error = error
  }
}

extension PluginSession {
  /// The status now.
  public func status(propsVersion: Int = 0) -> SessionStatus {
    var status = SessionStatus(
      name: name, playing: !isPaused, speed: speed, reduceMotion: reduceMotion,
      propsVersion: propsVersion, error: error)
    guard let document else { return status }
    status.progress = progress
    status.range = [document.progressRange.lowerBound, document.progressRange.upperBound]
    status.canvas = [document.canvas.width, document.canvas.height]
    guard let component = host?.component else { return status }
    status.time = component.time
    status.history = history.map { [$0.epoch, $0.recorded, $0.marked] }
    if let accessibility = try? component.accessibility() {
      status.label = accessibility.label
      status.value = accessibility.value
    }
    return status
  }
}

/// A live view's frames fitted to a byte budget (the preview's `PreviewLimits.frameBytes`).
public enum FrameFit {
  /// The factor (at most 1) every one of `scales` is multiplied by so that
  /// the rasters of one frame of `canvas`, one per scale, take at most
  /// `bytes`: a 1 950-point offer at 4x is 7 800 pixels a side, 243 MB a
  /// raster, more than a screen shows; it is drawn at a lower density
  /// instead, and the page shows it at the same size. 1 when the canvas
  /// cannot be drawn at all (the renderer then says why).
  public static func factor(_ scales: [Double], canvas: Size, bytes: Int) -> Double {
    func total(_ factor: Double) -> Int? {
      var sum = 0
      for scale in scales {
        guard let (width, height) = try? CairoRenderer.pixelSize(canvas, scale: scale * factor)
        else { return nil }
        sum += width * height * 4
      }
      return sum
    }
    guard let whole = total(1), whole > bytes, whole > 0 else { return 1 }
    // Pixels grow with the square of the scale; whole-pixel rounding may
    // still leave it a little over, so it steps down until it fits.
    var factor = (Double(bytes) / Double(whole)).squareRoot()
    while factor > 1e-3, let sum = total(factor), sum > bytes { factor *= 0.98 }
    return factor
  }

  /// The bytes of one raster of `canvas` at `scale` (0 when it cannot be drawn).
  public static func rasterBytes(_ canvas: Size, scale: Double) -> Int {
    guard let (width, height) = try? CairoRenderer.pixelSize(canvas, scale: scale) else { return 0 }
    return width * height * 4
  }
}
