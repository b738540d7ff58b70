/// Text drawn in an item's frame: a string and its style, laid out like SwiftUI's `Text`
/// (wrapped to the width offered, at most `lineLimit` lines, truncated as `truncation` says).
public struct TextRun: Hashable, Sendable {
  /// SwiftUI's body text size, for text given no size or style.
  public static let defaultSize = TextStyle.body.pointSize

  public var string: String
  public var size: Double
  public var weight: FontWeight
  public var color: Color
  public var italic = false
  /// Digits of one width (OpenType `tnum`), SwiftUI's `monospacedDigit()`.
  public var monospacedDigit = false
  /// Points added between characters (SwiftUI's `tracking`; `kerning` too, which tracking
  /// overrides when both are given, as in UIKit).
  public var tracking = 0.0
  /// At most this many lines; nil: as many as the height offered holds.
  public var lineLimit: Int?
  public var truncation = TextTruncation.tail
  /// How lines of different widths align (SwiftUI's `multilineTextAlignment`).
  public var alignment = TextAlignment.leading
  /// Points added between lines.
  public var lineSpacing = 0.0

  public init(string: String, size: Double, weight: FontWeight = .regular, color: Color) {
    self.string = string
    self.size = size
    self.weight = weight
    self.color = color
  }

  /// A style's size and weight unless `size` or `weight` is given; body text without either.
  public init(
    string: String, style: TextStyle?, size: Double?, weight: FontWeight?, color: Color
  ) {
    self.init(
      string: string, size: size ?? style?.pointSize ?? Self.defaultSize,
      weight: weight ?? style?.weight ?? .regular, color: color)
  }

  /// The same text in another colour lays out the same: what a layout cache keys on.
  public var layoutKey: TextRun {
    var key = self
    key.color = .black
    return key
  }
}

/// SwiftUI's weights, lightest first.
public enum FontWeight: String, Hashable, Sendable, CaseIterable {
  case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

  /// The OpenType weight class (100 … 900), as SF's weights map to it.
  public var weightClass: Int { 100 * (Self.allCases.firstIndex(of: self)! + 1) }
}

/// SwiftUI's text styles at iOS's default (Large) Dynamic Type size.
public enum TextStyle: String, Hashable, Sendable, CaseIterable {
  case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote
  case caption, caption2

  /// Apple's point size for the style at the Large content size.
  public var pointSize: Double {
    switch self {
    case .largeTitle: return 34
    case .title: return 28
    case .title2: return 22
    case .title3: return 20
    case .headline, .body: return 17
    case .callout: return 16
    case .subheadline: return 15
    case .footnote: return 13
    case .caption: return 12
    case .caption2: return 11
    }
  }

  /// Headline is semibold; every other style regular.
  public var weight: FontWeight { self == .headline ? .semibold : .regular }
}

/// Where an ellipsis replaces what does not fit (SwiftUI's `truncationMode`).
public enum TextTruncation: String, Hashable, Sendable, CaseIterable { case head, middle, tail }

/// SwiftUI's `TextAlignment`.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
  case leading, center, trailing
}

/// What text measures: its size and its first baseline, from the top.
public struct TextMetrics: Hashable, Sendable {
  public var size: Size
  public var baseline: Double

  public init(size: Size, baseline: Double) {
    self.size = size
    self.baseline = baseline
  }

  public static let zero = TextMetrics(size: .zero, baseline: 0)
}
