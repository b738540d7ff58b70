import MorphRender

/// Where an animation encoder's bytes go, in order; `patch` rewrites bytes
/// already written (a header whose count is only known at the end).
public protocol EncodedOutput: AnyObject {
  func write(_ bytes: [UInt8]) throws
  func patch(_ bytes: [UInt8], at offset: Int) throws
}

/// An animated format written as its frames come, in order. Frames share one
/// size; identical neighbours may merge into one longer frame.
public protocol AnimationEncoder {
  mutating func add(_ frame: RasterImage) throws
  /// Writes what is still held and the end of the file.
  mutating func finish() throws
}

/// The run of identical frames an encoder holds until the next different
/// frame (or the end) says how long it shows.
struct HeldFrame<Payload> {
  var payload: Payload
  let first: Int
  var end: Int
}
