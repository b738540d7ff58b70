import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// Lines a document printed, collected across threads.
private final class PrintedLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}

private func file(_ source: String) throws -> String {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("doc-\(UUID()).lua")
  try source.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

@Suite struct DocumentHostTests {
  static let scene = """
    print("top level ran")
    return {
      name = "Printing", size = { 100, 50 },
      body = function(p) return morph.rect():fill("#336699"):frame(100 * p + 1, 50) end,
    }
    """

  static let component = """
    print("top level ran")
    return morph.component {
      name = "Printing", size = { 80, 40 }, state = { p = 0 }, progress = "p",
      body = function(self) return morph.rect():frame(10 + 70 * self.p, 40) end,
    }
    """

  /// `morph.measureText` measures with the font layout uses, so a text's
  /// laid-out frame is the measured size.
  @Test func measuredTextAgreesWithItsLaidOutFrame() throws {
    let path = try file(
      """
      local m = morph
      local style = { size = 23, weight = "bold" }
      local measured = m.measureText("Hello, morph", style)
      return m.component {
        name = "Measure", size = { 300, 80 },
        body = function() return m.text("Hello, morph", style) end,
        accessibility = function()
          return { label = string.format("%.6f %.6f %.6f", measured.width, measured.height,
            measured.baseline) }
        end,
      }
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let frame = try DocumentHost(path: path).frame()
    let label = try #require(frame.summary.accessibility?.label)
    let figures = label.split(separator: " ").compactMap { Double($0) }
    try #require(figures.count == 3)
    let text = try #require(frame.list.items.first { $0.text != nil })
    #expect(abs(text.frame.width - figures[0]) <= 0.5)
    #expect(abs(text.frame.height - figures[1]) <= 0.5)
    #expect(figures[2] > 0 && figures[2] < figures[1])
    // The font's own figures, not the 0.6 em per character approximation.
    #expect(abs(figures[0] - 12 * 23 * 0.6) > 1)
  }

  /// A host given a component made on its own measures with the host's font.
  @Test func aComponentHostMeasuresWithItsOwnFont() throws {
    let source = """
      local m = morph
      return m.component {
        size = { 300, 80 },
        body = function() return m.rect():frame(m.measureText("Hello, morph").width, 20) end,
      }
      """
    let host = ComponentHost(component: try ComponentInstance(path: "h.lua", source: source))
    let frame = try host.frame()
    let rect = try #require(frame.list.items.first { $0.kind == .rect })
    let hello = TextRun(string: "Hello, morph", size: TextRun.defaultSize, color: .black)
    #expect(
      abs(
        rect.frame.width
          - host.textMeasure.measure(hello, in: ProposedSize(width: nil, height: nil)).size.width)
        <= 0.5)
    #expect(abs(rect.frame.width - 12 * 17 * 0.6) > 1)  // not the approximation
  }

  @Test(arguments: [scene, component])
  func aFileRunsOnceWhateverItReturns(source: String) throws {
    let path = try file(source)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let printed = PrintedLines()
    let document = try DocumentHost(
      path: path, options: ComponentOptions(output: { printed.append($0) }))
    for p in [0, 0.5, 1.0] { _ = try document.frame(progress: p) }
    #expect(printed.all == ["top level ran"])
    #expect(document.name == "Printing")
  }

  /// Controlled mode costs one call into Lua per frame: the progress goes
  /// to the engine directly, and body and accessibility share one entry.
  @Test func aControlledFrameEntersLuaOnce() throws {
    let document = try DocumentHost(path: plugin("deck_fan"))
    let state = try #require(document.component).component.state
    _ = try document.frame(progress: 0)
    for p in [0.1, 0.5, 0.9] {
      let before = state.entryCount
      _ = try document.frame(progress: p)
      #expect(state.entryCount - before == 1, "progress \(p)")
    }
  }

  @Test func scenesAndComponentsShareTheMargin() throws {
    let scenePath = try file(Self.scene)
    let componentPath = try file(Self.component)
    defer {
      try? FileManager.default.removeItem(atPath: scenePath)
      try? FileManager.default.removeItem(atPath: componentPath)
    }
    let scene = try DocumentHost(path: scenePath, options: ComponentOptions(output: { _ in }))
    let component = try DocumentHost(
      path: componentPath, options: ComponentOptions(output: { _ in }), margin: 10)
    #expect(scene.canvas == Size(148, 98))
    #expect(try scene.frame(progress: 0.5).list.canvas == Size(148, 98))
    #expect(component.canvas == Size(100, 60))
    #expect(try component.frame(progress: 1).summary.progress == 1)
    #expect(throws: ScriptError.self) { try scene.componentHost(for: "playing input") }
  }

  @Test func aFileThatReturnsNothingSaysWhatItMayReturn() throws {
    let path = try file("local x = 1\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      _ = try DocumentHost(path: path)
      Issue.record("loaded a file that returns nothing")
    } catch {
      #expect(
        error.description
          == "\(path): the file must return morph.component{ … }, a node or a scene table, got nil"
      )
    }
  }
}

/// `morph.measureText` and the laid-out frame of the same text come from one layout.
@Suite struct MeasureTextAgreementTests {
  @Test(arguments: [
    ("'Hello, morph'", "{ style = 'headline' }", "nil"),
    (
      "'A caption long enough to wrap over several lines in a narrow frame'", "{ style = 'body' }",
      "120"
    ),
    ("'Two\\nlines 世界 😀'", "{ size = 22, weight = 'black', lineSpacing = 4 }", "nil"),
    ("'Truncated after two lines of text in a narrow frame'", "{ lineLimit = 2 }", "90"),
  ])
  func measureTextAgreesWithTheFrame(_ string: String, _ style: String, _ width: String) throws {
    let source = """
      local m = morph
      return m.component {
        size = { 300, 300 },
        body = function()
          local s, style, width = \(string), \(style), \(width)
          local measured = m.measureText(s, { width = width, style = style.style, size = style.size,
            weight = style.weight, lineSpacing = style.lineSpacing, lineLimit = style.lineLimit })
          local t = m.text(s, style)
          if width then t = t:frame { width = width } end
          return m.vstack { t, m.rect():frame(measured.width, measured.height) }
        end,
      }
      """
    let host = ComponentHost(component: try ComponentInstance(path: "t.lua", source: source))
    let items = try host.frame().list.items
    let text = try #require(items.first { $0.kind == .text })
    let rect = try #require(items.first { $0.kind == .rect })
    #expect(abs(text.frame.width - rect.frame.width) <= 0.5, "\(text.frame) \(rect.frame)")
    #expect(abs(text.frame.height - rect.frame.height) <= 0.5, "\(text.frame) \(rect.frame)")
    if width != "nil" { #expect(text.frame.width <= Double(width)! + 0.001) }
  }
}
