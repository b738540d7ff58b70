/// What a JSON scene dump says about the frame besides its nodes.
public struct SceneSummary: Hashable, Sendable {
  public var name: String
  public var progress: Double?
  public var accessibility: Accessibility?

  public init(name: String, progress: Double? = nil, accessibility: Accessibility? = nil) {
    self.name = name
    self.progress = progress
    self.accessibility = accessibility
  }
}

/// SwiftUI's accessibility description of a component.
public struct Accessibility: Hashable, Sendable {
  public var label: String?
  public var value: String?
  public var hint: String?
  public var traits: [String]

  public init(
    label: String? = nil, value: String? = nil, hint: String? = nil, traits: [String] = []
  ) {
    self.label = label
    self.value = value
    self.hint = hint
    self.traits = traits
  }
}
