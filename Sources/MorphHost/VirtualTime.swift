/// How much virtual time one request may play, and how often it may be sampled. The
/// clock advances tick by tick (120 Hz), so an hour is 432 000 steps: seconds of wall time,
/// not hours. Past ~1e14 s a tick no longer moves a Double clock at all, so without a cap
/// a large render time or drag duration would never finish.
public enum VirtualTime {
  /// The longest virtual time a render, run, check or input script may ask for, in seconds.
  public static let maxSeconds = 3600.0
  /// The frame rates the clock may be sampled at (an export through time, a headless run):
  /// from a frame every 10 s to twice the clock's own rate.
  public static let frameRates = 0.1...240.0
}
