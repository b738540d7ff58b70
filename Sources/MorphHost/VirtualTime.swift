/// How much virtual time one request may play. The clock advances tick by
/// tick (120 Hz), so an hour is 432 000 steps: seconds of wall time, not hours.
/// Past ~1e14 s a tick no longer moves a Double clock at all, so without a cap
/// a large `--time` or drag duration would never finish.
public enum VirtualTime {
  /// The longest virtual time a render, run, check or input script may ask for, in seconds.
  public static let maxSeconds = 3600.0
}
