import Foundation
import MorphCore
import MorphRender
import MorphScript
import Testing

@testable import MorphHost

/// Issue 37, items 2 and 3: `morphhost test` reads and writes only inside the test file's
/// folder, never through a link it did not make, reads goldens as checked PNGs within
/// bounds, and fails a case whose body or `onAppear` raises.
@Suite struct TestRunnerSafetyTests {
  /// A scratch folder holding flip and `t.test.lua` with `source`; and a folder beside it,
  /// "outside", holding a file a test must never read or write.
  struct Scratch {
    let root: URL
    let dir: URL
    let outside: URL
    var test: String { dir.appendingPathComponent("t.test.lua").path }
    var snapshots: String { dir.appendingPathComponent("t.snapshots").path }

    init(_ source: String = TestRunnerSafetyTests.snapshotTest) throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("safety-\(UUID())")
      dir = root.appendingPathComponent("tests")
      outside = root.appendingPathComponent("outside")
      for folder in [dir, outside] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      try FileManager.default.copyItem(
        atPath: plugin("flip"), toPath: dir.appendingPathComponent("flip.lua").path)
      try Data("precious".utf8).write(to: outside.appendingPathComponent("user.txt"))
      try write(source)
    }

    func write(_ source: String) throws {
      try source.write(toFile: test, atomically: true, encoding: .utf8)
    }

    func link(_ name: String, to target: String) throws {
      try FileManager.default.createSymbolicLink(
        atPath: dir.appendingPathComponent(name).path, withDestinationPath: target)
    }

    var userFile: String { outside.appendingPathComponent("user.txt").path }
    var userFileIntact: Bool {
      (try? String(contentsOfFile: userFile, encoding: .utf8)) == "precious"
    }
    var outsideNames: [String] {
      (try? FileManager.default.contentsOfDirectory(atPath: outside.path).sorted()) ?? []
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    func run(update: Bool = false) -> TestFileResult {
      TestRunner(update: update).run(file: test)
    }
  }

  static let snapshotTest = """
    return { morph.test.case "x" { plugin = "flip.lua", morph.test.at(0) { morph.test.snapshot "s" } } }
    """

  static func failures(_ result: TestFileResult) -> [String] {
    result.cases.flatMap(\.failures).map(\.description)
  }

  /// Absolute and `..` paths, a link leading out (to the process's environment) and a
  /// FIFO: each one line at the case's line, and nothing of the file in it.
  @Test(arguments: [
    ("plugin = '/etc/passwd'", "plugin '/etc/passwd' must be a relative path inside"),
    ("plugin = '../outside/user.txt'", "must be a relative path inside the test file's folder"),
    ("plugin = 'flip.lua', inputFile = '/proc/self/environ'", "must be a relative path inside"),
    (
      "plugin = 'flip.lua', inputFile = 'env'",
      "inputFile 'env' leads outside the test file's folder"
    ),
    ("plugin = 'flip.lua', inputFile = 'pipe'", "inputFile 'pipe' is not a regular file"),
    ("plugin = 'out.lua'", "plugin 'out.lua' leads outside the test file's folder"),
  ])
  func pathsStayInTheTestFilesFolder(fields: String, message: String) throws {
    let s = try Scratch(
      "return {\n  morph.test.case 'x' { \(fields), morph.test.at(0) { turns = 0 } },\n}\n")
    defer { s.remove() }
    try s.link("env", to: "/proc/self/environ")
    try s.link("out.lua", to: plugin("flip"))
    #expect(mkfifo(s.dir.appendingPathComponent("pipe").path, 0o644) == 0)
    let failures = Self.failures(s.run())
    #expect(failures.count == 1, "\(failures)")
    #expect(failures.first?.hasPrefix("\(s.test):2: ") == true, "\(failures)")
    #expect(failures.first?.contains(message) == true, "\(failures)")
    // Never the environment's contents.
    #expect(failures.first?.contains("PATH=") == false)
  }

  @Test func anInputFileInsideTheFolderIsRead() throws {
    let s = try Scratch(
      "return { morph.test.case 'x' { plugin = 'flip.lua', inputFile = 'in/tap.txt',\n"
        + "  morph.test.at(1) { turns = 0.5 } } }\n")
    defer { s.remove() }
    try FileManager.default.createDirectory(
      at: s.dir.appendingPathComponent("in"), withIntermediateDirectories: true)
    try "0 tap\n".write(
      to: s.dir.appendingPathComponent("in/tap.txt"), atomically: true, encoding: .utf8)
    let result = s.run()
    #expect(result.cases.first?.passed == true, "\(Self.failures(result))")
  }

  /// A golden that is a link (to a user's file, or dangling), a FIFO, or a snapshots
  /// folder that is a file or a link leading out: refused in one line, with or without
  /// `--update`, and nothing outside is read, written or created.
  @Test(arguments: ["link", "dangling", "fifo", "folder is a file", "folder leads out"])
  func goldensAreRegularFilesInTheFolder(kind: String) throws {
    let s = try Scratch()
    defer { s.remove() }
    let golden = s.snapshots + "/s.png"
    if kind != "folder is a file" && kind != "folder leads out" {
      try FileManager.default.createDirectory(
        atPath: s.snapshots, withIntermediateDirectories: true)
    }
    switch kind {
    case "link":
      try FileManager.default.createSymbolicLink(atPath: golden, withDestinationPath: s.userFile)
    case "dangling":
      try FileManager.default.createSymbolicLink(
        atPath: golden, withDestinationPath: s.outside.appendingPathComponent("new.png").path)
    case "fifo": #expect(mkfifo(golden, 0o644) == 0)
    case "folder is a file": try Data("x".utf8).write(to: URL(fileURLWithPath: s.snapshots))
    default: try s.link("t.snapshots", to: s.outside.path)
    }
    for update in [false, true] {
      let failures = Self.failures(s.run(update: update))
      #expect(failures.count == 1, "\(failures)")
      #expect(failures.first?.hasPrefix("\(s.test):1: at 0 s: ") == true, "\(failures)")
    }
    #expect(s.userFileIntact)
    #expect(s.outsideNames == ["user.txt"])
  }

  /// A failing snapshot's `NAME.actual.png` that is a link to a user's file: the link is
  /// not written through (nor replaced), and the case fails in one line.
  @Test func theActualImageIsNeverWrittenThroughALink() throws {
    let s = try Scratch()
    defer { s.remove() }
    #expect(s.run(update: true).cases.first?.recorded == [s.snapshots + "/s.png"])
    // A golden of another picture: all white, the same size.
    let golden = try RasterImage.decodePNG(
      [UInt8](try Data(contentsOf: URL(fileURLWithPath: s.snapshots + "/s.png"))))
    let white = RasterImage(
      width: golden.width, height: golden.height,
      pixels: [UInt8](repeating: 255, count: golden.pixels.count))
    try Data(try white.pngData()).write(to: URL(fileURLWithPath: s.snapshots + "/s.png"))
    try FileManager.default.createSymbolicLink(
      atPath: s.snapshots + "/s.actual.png", withDestinationPath: s.userFile)
    let failures = Self.failures(s.run())
    #expect(failures.count == 1)
    #expect(failures.first?.contains("is a symbolic link; refusing to replace it") == true)
    #expect(s.userFileIntact)
    // Without the link, the actual and diff images are written beside the golden.
    try FileManager.default.removeItem(atPath: s.snapshots + "/s.actual.png")
    #expect(Self.failures(s.run()).first?.contains("differs from its golden") == true)
    let names = try FileManager.default.contentsOfDirectory(atPath: s.snapshots).sorted()
    #expect(names == ["s.actual.png", "s.diff.png", "s.png"])
  }

  /// Goldens that would cost more than they are worth: a 1.5 GB file (sparse), and a
  /// small one claiming 16384 × 16384 pixels. Refused by their size and header, before
  /// anything is read whole or inflated; `--update` records them anew.
  @Test func oversizedGoldensAreRefusedBeforeReading() throws {
    let s = try Scratch()
    defer { s.remove() }
    let golden = s.snapshots + "/s.png"
    try FileManager.default.createDirectory(atPath: s.snapshots, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: golden, contents: nil))
    #expect(truncate(golden, 1_500_000_000) == 0)
    let huge = Self.failures(s.run())
    #expect(huge.count == 1)
    #expect(huge.first?.contains("is larger than") == true, "\(huge)")
    try Data(Self.png(width: 16384, height: 16384, inflated: 1 << 20)).write(
      to: URL(fileURLWithPath: golden))
    let bomb = Self.failures(s.run())
    #expect(bomb.first?.contains("its golden 16384×16384") == true, "\(bomb)")
    // A corrupt golden of the right size is refused by the PNG check.
    #expect(s.run(update: true).cases.first?.recorded == [golden])
    let real = try RasterImage.decodePNG(
      [UInt8](try Data(contentsOf: URL(fileURLWithPath: golden))))
    // Image data longer than the size needs (a row more).
    let rows = (4 * real.width + 1) * (real.height + 1)
    try Data(Self.png(width: real.width, height: real.height, inflated: rows)).write(
      to: URL(fileURLWithPath: golden))
    let corrupt = Self.failures(s.run())
    #expect(
      corrupt.first?.contains("is not a valid PNG: image data longer than") == true, "\(corrupt)")
    #expect(s.run(update: true).cases.first?.passed == true)
    #expect(s.run().cases.first?.passed == true)
  }

  /// A PNG of `width` × `height` RGBA pixels whose image data inflates to `inflated` zero
  /// bytes, whatever the size needs.
  static func png(width: Int, height: Int, inflated: Int) -> [UInt8] {
    func be(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((v >> $0) & 255) } }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + data
      return be(data.count) + body + be(Int(crc32(body)))
    }
    // zlib: stored blocks of zeros, then the Adler-32 of them.
    var stream: [UInt8] = [0x78, 0x01]
    var left = inflated
    repeat {
      let n = min(left, 65535)
      left -= n
      stream += [
        left == 0 ? 1 : 0, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255),
      ]
      stream += [UInt8](repeating: 0, count: n)
    } while left > 0
    stream += be((inflated % 65521) << 16 | 1)
    let header = be(width) + be(height) + [8, 6, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
      + chunk("IDAT", stream) + chunk("IEND", [])
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
      c ^= UInt32(b)
      for _ in 0..<8 { c = (c >> 1) ^ (c & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~c
  }

  /// A body or an `onAppear` that raises fails a case that checks only state, with the
  /// plugin's line, as `render` and `check` fail it.
  @Test(arguments: [
    ("body = function(self) error('body failed') end", "p.lua:4: at 0 s: body failed"),
    (
      "body = function(self) return morph.rect():onAppear(function() error('no') end) end",
      "p.lua:4: at 0 s: no"
    ),
  ])
  func aRaisingBodyFailsTheCase(body: String, failure: String) throws {
    let s = try Scratch(
      "return { morph.test.case 'x' { plugin = 'p.lua', morph.test.at(0) { n = 0 } } }\n")
    defer { s.remove() }
    try
      "return morph.component {\n  name = 'p', size = { 50, 50 }, state = { n = 0 },\n\n  \(body),\n}\n"
      .write(to: s.dir.appendingPathComponent("p.lua"), atomically: true, encoding: .utf8)
    let failures = Self.failures(s.run())
    #expect(failures == [s.dir.path + "/" + failure], "\(failures)")
  }

  /// A search does not follow a link out of the folder it was given, to a folder or a file.
  @Test func discoveryStaysInItsTree() throws {
    let s = try Scratch()
    defer { s.remove() }
    try "return {}".write(
      to: s.outside.appendingPathComponent("o.test.lua"), atomically: true, encoding: .utf8)
    try s.link("away", to: s.outside.path)
    try s.link("away.test.lua", to: s.outside.appendingPathComponent("o.test.lua").path)
    try FileManager.default.createDirectory(
      at: s.dir.appendingPathComponent("inner"), withIntermediateDirectories: true)
    try s.link("inner/back", to: s.dir.path)
    #expect(try TestDiscovery.files(in: [s.dir.path]) == [s.test])
  }

  /// Each moment is in range on its own, as well as the file's hour in all.
  @Test func eachMomentIsInRange() throws {
    let s = try Scratch(
      "return { morph.test.case 'x' { plugin = 'flip.lua',\n  morph.test.at(7200) { turns = 0 } } }\n"
    )
    defer { s.remove() }
    let result = s.run()
    #expect(result.cases.isEmpty)
    #expect(
      result.error?.description == "\(s.test):2: a moment at 7200 s; moments are 0 to 3600 s")
  }
}
