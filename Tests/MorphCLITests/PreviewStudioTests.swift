import Foundation
import MorphCore
import MorphExport
import MorphSession
import Testing

@testable import MorphCLI

/// Issue 35, without a browser: the page's vocabulary is the session's, each tab
/// has its own session, a folder lists no tests, and the page's exports are the
/// library's files.
@Suite(.serialized) struct PreviewStudioTests {
  static func ask(_ port: Int, _ method: String, _ path: String, body: String? = nil) throws
    -> (status: Int, body: String)
  {
    try PreviewNumberTests.ask(port: port, method, path, body: body)
  }

  struct Vocabulary: Decodable {
    struct Command: Decodable {
      var name: String
      var takesValue: Bool
    }
    struct Key: Decodable {
      var key: String
      var action: String
    }
    var inputs: [String]
    var pointer: [String]
    var commands: [Command]
    var keys: [Key]
    var exports: [String]
  }

  @Test func thePageReadsEveryInputKindAndControlFromTheServer() throws {
    let vocabulary = try JSONDecoder().decode(Vocabulary.self, from: PreviewRoutes.vocabulary)
    #expect(vocabulary.inputs == SessionInput.Kind.allCases.map(\.rawValue))
    #expect(vocabulary.pointer == SessionInput.Kind.pointer.map(\.rawValue))
    #expect(vocabulary.commands.map(\.name) == SessionCommand.Name.allCases.map(\.rawValue))
    #expect(vocabulary.commands.map(\.takesValue) == SessionCommand.Name.allCases.map(\.takesValue))
    #expect(vocabulary.exports == PreviewExports.formats.map(\.rawValue))
    // A key that runs a session command names one the session has.
    let pageActions: Set = [
      "toggle", "back", "fit", "actual", "zoomIn", "zoomOut", "background", "keys",
    ]
    for key in vocabulary.keys where !pageActions.contains(key.action) {
      #expect(SessionCommand.Name(rawValue: key.action) != nil, "\(key.key): \(key.action)")
    }
    // The page's script names none of them itself beyond what the server lists.
    let script = String(decoding: PackageResources.preview_js, as: UTF8.self)
    #expect(script.contains(#"fetch("/vocabulary")"#))
  }

  @Test func eachTabHasItsOwnSession() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let catalog = try PreviewCatalog(
      dir.appendingPathComponent("flip.lua").path, options: .init(), output: CapturedOutput())
    let server = try PreviewServer(catalog: catalog, port: 0)
    defer { server.stop() }
    let port = server.port
    let tap = #"{"kind":"down","x":214,"y":144}"#
    #expect(try Self.ask(port, "POST", "/pointer?tab=one", body: tap).status == 204)
    #expect(
      try Self.ask(port, "POST", "/pointer?tab=one", body: tap.replacing("down", with: "up")).status
        == 204)
    let one = try #require(catalog.session("flip", tab: "one"))
    let two = try #require(catalog.session("flip", tab: "two"))
    #expect(one !== two)
    #expect(one === catalog.session("flip", tab: "one"))
    struct Take: Decodable { var take: Int }
    let takeOne = try JSONDecoder().decode(
      Take.self, from: one.perform { try one.inspectJSON(after: 0, marks: 0, epoch: -1) })
    let takeTwo = try JSONDecoder().decode(
      Take.self, from: two.perform { try two.inspectJSON(after: 0, marks: 0, epoch: -1) })
    #expect(takeOne.take == 2 && takeTwo.take == 0, "one: \(takeOne.take), two: \(takeTwo.take)")
    for bad in ["", "a%20b", String(repeating: "x", count: PreviewRoutes.maximumTab + 1)] {
      #expect(try Self.ask(port, "GET", "/props?tab=\(bad)").status == 400, "tab '\(bad)'")
    }
    // Past the limit the least recently used tab's session goes.
    for n in 0..<PreviewLimits.tabSessions { _ = catalog.session("flip", tab: "more\(n)") }
    #expect(catalog.session("flip", tab: "one") !== one)
    #expect(try Self.ask(port, "POST", "/close?tab=one").status == 204)
    // The stage's backgrounds are the server's: one it does not know is refused.
    for name in PreviewRoutes.backgrounds.map(\.name) {
      let answer = try Self.ask(port, "POST", "/background?tab=two", body: #"{"name":"\#(name)"}"#)
      #expect(answer.status == 204, "\(name): \(answer)")
    }
    let refused = try Self.ask(port, "POST", "/background?tab=two", body: #"{"name":"plaid"}"#)
    #expect(refused.status == 400 && refused.body.contains("unknown background"), "\(refused)")
  }

  @Test func aFoldersIndexListsNoTests() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    try "return morph.test {}".write(
      to: dir.appendingPathComponent("flip.test.lua"), atomically: true, encoding: .utf8)
    let catalog = try PreviewCatalog(dir.path, options: .init(), output: CapturedOutput())
    #expect(catalog.plugins.map(\.name) == ["flip"])
  }

  @Test func thePagesExportsAreTheLibrarysFiles() throws {
    let dir = try PreviewTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let catalog = try PreviewCatalog(
      dir.appendingPathComponent("flip.lua").path, options: .init(), output: CapturedOutput())
    let server = try PreviewServer(catalog: catalog, port: 0)
    defer { server.stop() }
    let port = server.port
    #expect(
      try Self.ask(port, "POST", "/pointer?tab=t", body: #"{"kind":"down","x":214,"y":144}"#).status
        == 204)
    #expect(
      try Self.ask(port, "POST", "/pointer?tab=t", body: #"{"kind":"up","x":214,"y":144}"#).status
        == 204)
    let refused = try Self.ask(port, "POST", "/export?tab=t", body: #"{"format":"webm"}"#)
    #expect(refused.status == 400 && refused.body.contains("unknown export format"), "\(refused)")
    for (format, magic) in [("gif", Array("GIF89a".utf8)), ("lottie", Array("{".utf8))] {
      let started = try Self.ask(port, "POST", "/export?tab=t", body: #"{"format":"\#(format)"}"#)
      #expect(started.status == 202, "\(started)")
      struct Started: Decodable { var id: Int }
      let id = try JSONDecoder().decode(Started.self, from: Data(started.body.utf8)).id
      let end = Date().addingTimeInterval(120)
      var finished = false
      while !finished, Date() < end {
        let progress = try Self.ask(port, "GET", "/export?tab=t&id=\(id)")
        finished = progress.body.contains(#""finished":true"#)
        #expect(!progress.body.contains("error"), "\(progress.body)")
        if !finished { Thread.sleep(forTimeInterval: 0.1) }
      }
      #expect(finished, "\(format) did not finish")
      let file = try #require(catalog.exports.take(id))
      #expect(Array(file.bytes.prefix(magic.count)) == magic, "\(format)")
      #expect(
        file.name == "flip."
          + PreviewExports.fileExtension(try PreviewExports.format(named: format)))
      #expect(catalog.exports.take(id) == nil, "handed over once")
    }
  }
}
