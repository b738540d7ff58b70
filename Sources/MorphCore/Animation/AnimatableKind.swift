/// The kinds of value that animate, each as a fixed list of numbers (its
/// components), every component on its own engine channel with its own
/// velocity. A colour's components are `Color.animatableChannels`
/// (premultiplied OKLab), the one conversion `animate` and keyframes share.
public enum AnimatableKind: Hashable, Sendable, CustomStringConvertible {
  case number, point, size, rect, color
  case array(Int)

  /// The kinds a plain table with exactly these named number fields is, tried in order.
  public static let namedTables: [AnimatableKind] = [.point, .size, .rect]

  public var name: String {
    switch self {
    case .number: return "number"
    case .point: return "point"
    case .size: return "size"
    case .rect: return "rect"
    case .color: return "color"
    case .array: return "array"
    }
  }

  /// The components' names, in order (an array's are its indices; a number has none).
  public var fields: [String] {
    switch self {
    case .number: return []
    case .point: return ["x", "y"]
    case .size: return ["width", "height"]
    case .rect: return ["x", "y", "width", "height"]
    case .color: return ["l", "a", "b", "alpha"]
    case .array(let n): return (0..<max(0, n)).map { String($0 + 1) }
    }
  }

  /// Whether the components are a Lua sequence (an array's), not named fields.
  public var isArray: Bool {
    if case .array = self { return true }
    return false
  }

  /// How many numbers a value of this kind is.
  public var count: Int {
    switch self {
    case .number: return 1
    case .array(let n): return n
    default: return fields.count
    }
  }

  public var description: String {
    switch self {
    case .number: return "a number"
    case .color: return "a morph.Color"
    case .array(let n): return "an array of \(n) numbers"
    default: return "a \(name) {\(fields.joined(separator: ", "))}"
    }
  }
}
