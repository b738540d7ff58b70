/// Finds what a pointer at a canvas point touches.
extension DisplayList {
  /// The frontmost item with a handler (per `wants`) under `point`, mapping
  /// the point back through each item's transform, perspective included.
  /// Shapes are hit inside their outline; `node` items inside their frame.
  public func hitTest(_ point: Point, wants: (Handlers) -> Bool = { _ in true }) -> DisplayItem? {
    for item in items.reversed() {
      guard let handlers = item.handlers, wants(handlers) else { continue }
      if item.contains(point) { return item }
    }
    return nil
  }
}

extension DisplayItem {
  /// Whether a canvas point falls on this item.
  public func contains(_ point: Point) -> Bool {
    guard let inverse = transform.inverted, inverse.weight(point) > 0 else { return false }
    let local = inverse.apply(point)
    guard local.isFinite else { return false }
    switch kind {
    case .node, .text: return frame.contains(local)
    default: return path.contains(local)
    }
  }
}
