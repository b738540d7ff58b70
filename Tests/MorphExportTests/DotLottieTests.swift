import Foundation
import MorphRender
import Testing

@testable import MorphExport

/// The dotLottie archive: deflated entries and a manifest that loops and plays by itself,
/// read back by Python's zipfile, Info-ZIP's `unzip -t` and ThorVG.
@Suite struct DotLottieTests {
  /// Runs `arguments`; its exit status and standard output.
  static func run(_ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, out)
  }

  /// card_stack's entries were stored (89.6 kB where deflate gives 12.2 kB).
  @Test func entriesAreDeflatedAndTheManifestLoops() throws {
    let lists = try LottieVerification.frames("card_stack", count: 24)
    let json = LottieWriter(fps: 30, name: "card_stack").write(lists).json
    let bytes = DotLottie.archive(json: json, id: "card_stack", generator: "test")
    #expect(bytes.count * 4 < json.utf8.count, "\(bytes.count) of \(json.utf8.count) bytes")
    let folder = try LottieVerification.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("card_stack.lottie")
    try Data(bytes).write(to: file)
    let entry = folder.appendingPathComponent("entry.json")
    let (status, out) = try Self.run([
      "python3", "-c",
      "import zipfile,sys,json; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; "
        + "print(sorted((i.filename, i.compress_type) for i in z.infolist())); "
        + "a=json.loads(z.read('manifest.json'))['animations'][0]; "
        + "print(a['id'], a['loop'], a['autoplay']); "
        + "open(sys.argv[2], 'wb').write(z.read('animations/card_stack.json'))",
      file.path, entry.path,
    ])
    #expect(status == 0)
    #expect(
      out
        == "[('animations/card_stack.json', 8), ('manifest.json', 8)]\ncard_stack True True\n",
      Comment(rawValue: out))
    #expect(try String(contentsOf: entry, encoding: .utf8) == json)
    let (unzip, listing) = try Self.run(["unzip", "-t", file.path])
    #expect(unzip == 0 && listing.contains("No errors detected"), Comment(rawValue: listing))
    // The entry plays in ThorVG as the JSON it holds.
    let frames = try LottieVerification.thorvgFrames(entry, width: 400, height: 300)
    #expect(frames.count == 24)
  }

  /// An entry longer than what is deflated in memory is stored as it arrives, its
  /// checksum and sizes patched in at the end.
  @Test func aLongEntryIsStoredAsItArrives() throws {
    var out: [UInt8] = []
    let zip = ZipArchive(
      output: { out.append(contentsOf: $0) },
      patch: { bytes, at in out.replaceSubrange(at..<at + bytes.count, with: bytes) },
      deflatingUpTo: 1000)
    try zip.add("small.txt", Array(repeating: UInt8(ascii: "a"), count: 900))
    try zip.add("long.txt") { write in
      for n in 0..<50 {
        let piece = Array(repeating: UInt8(ascii: "0") + UInt8(n % 10), count: 100)
        try piece.withUnsafeBytes { try write($0) }
      }
    }
    try zip.finish()
    #expect(out.count == zip.size)
    let folder = try LottieVerification.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("t.zip")
    try Data(out).write(to: file)
    let (status, listed) = try Self.run([
      "python3", "-c",
      "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; "
        + "print([(i.filename, i.compress_type, i.file_size) for i in z.infolist()]); "
        + "print(z.read('long.txt')[95:105].decode())",
      file.path,
    ])
    #expect(status == 0)
    #expect(
      listed == "[('small.txt', 8, 900), ('long.txt', 0, 5000)]\n0000011111\n",
      Comment(rawValue: listed))
    let (unzip, listing) = try Self.run(["unzip", "-t", file.path])
    #expect(unzip == 0 && listing.contains("No errors detected"), Comment(rawValue: listing))
  }
}
