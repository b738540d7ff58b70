import Foundation
import MorphCore
import Testing

@testable import MorphExport

@Suite struct LottieWriterTests {
  @Test func aStraightRunKeepsItsEndsOnly() {
    var p = SampledProperty()
    for f in 0..<20 { p.append(f, [Double(f) * 3, 7]) }
    #expect(KeyframeReducer.reduce(p, tolerance: 0.05).keys == [0, 19])
    #expect(KeyframeReducer.reduce(p, tolerance: 0.05).easings == [.linear])
  }

  /// A hostile `:offset(5e307, 0)` keeps its value: rounding it must not overflow to
  /// infinity (which JSON cannot hold and would be written as 0).
  @Test func hugeValuesKeepTheirValue() {
    #expect(LottieJSON.rounded(5e307, 2) == .number(5e307))
    #expect(LottieJSON.rounded(-1e300, 3) == .number(-1e300))
    #expect(LottieJSON.rounded(1.23456, 2) == .number(1.23))
  }

  @Test func aConstantIsWrittenOnce() {
    var p = SampledProperty()
    for f in 0..<10 { p.append(f, [4.2]) }
    #expect(p.lottie(.points, layout: .scalar) == ["a": 0, "k": 4.2])
  }

  @Test func everySampleStaysWithinTheTolerance() {
    var p = SampledProperty()
    for f in 0..<60 { p.append(f, [100 * sin(Double(f) / 9)]) }
    let reduction = KeyframeReducer.reduce(p, tolerance: 0.05)
    let keys = reduction.keys
    // Linear segments would need a key nearly every frame here; fitted easing needs few.
    #expect(keys.count <= 10 && keys.count > 2, "\(keys)")
    for f in 0..<60 {
      let after = keys.firstIndex { $0 >= f }!
      let (a, b) = (keys[max(after - 1, 0)], keys[after])
      let t = b == a ? 0 : Double(f - a) / Double(b - a)
      let eased = b == a ? 0 : reduction.easings[max(after - 1, 0)].progress(t)
      let value = p.values[a][0] + (p.values[b][0] - p.values[a][0]) * eased
      #expect(abs(value - p.values[f][0]) <= 0.05)
    }
  }

  @Test func transformsDecomposeIntoPositionRotationAndScale() throws {
    let t = ProjectiveTransform(
      AffineTransform.translation(30, 40).concatenating(
        after: AffineTransform.rotation(degrees: 25).concatenating(
          after: AffineTransform.scale(2, 0.5))))
    let d = try #require(LottieStyle.decompose(t))
    #expect(abs(d.tx - 30) < 1e-9 && abs(d.ty - 40) < 1e-9)
    #expect(abs(d.rotation - 25) < 1e-9)
    #expect(abs(d.sx - 2) < 1e-9 && abs(d.sy - 0.5) < 1e-9)
    let perspective = ProjectiveTransform.rotation3D(
      degrees: 30, axis: (0, 1, 0), anchor: Point(50, 50), perspective: 1, extent: 100)
    #expect(LottieStyle.decompose(perspective) == nil)
  }

  /// A card that moves is one layer with animated properties, not a layer per frame.
  @Test func oneItemAcrossFramesIsOneLayer() throws {
    let lists = (0..<5).map { i in
      DisplayList(
        canvas: Size(100, 100),
        commands: [
          .item(
            DisplayItem(
              kind: .rect, path: .rect(Rect(origin: .zero, size: Size(10, 10))),
              frame: Rect(origin: .zero, size: Size(10, 10)),
              transform: ProjectiveTransform(.translation(Double(i) * 10, 0)),
              fill: .color(.black), identity: "/0"))
        ])
    }
    let animation = LottieWriter(fps: 30, name: "t").write(lists)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(animation.json.utf8)) as? [String: Any])
    let layers = try #require(json["layers"] as? [[String: Any]])
    #expect(layers.count == 1)
    let position = try #require((layers[0]["ks"] as? [String: Any])?["p"] as? [String: Any])
    #expect(position["a"] as? Int == 1)
    #expect((position["k"] as? [Any])?.count == 2)
    #expect(animation.report.count(.native) == 1)
  }

  /// A square at `x`, its identity "/0".
  static func square(x: Double) -> DisplayCommand {
    .item(
      DisplayItem(
        kind: .rect, path: .rect(Rect(origin: .zero, size: Size(10, 10))),
        frame: Rect(origin: .zero, size: Size(10, 10)),
        transform: ProjectiveTransform(.translation(x, 0)), fill: .color(.black), identity: "/0"))
  }

  static func json(_ lists: [DisplayList]) throws -> [String: Any] {
    let animation = LottieWriter(fps: 30, name: "t").write(lists)
    return try #require(
      try JSONSerialization.jsonObject(with: Data(animation.json.utf8)) as? [String: Any])
  }

  /// The players fade a layer's effects apart from its content; the host fades the whole
  /// group. So a blur goes on an inner layer at full opacity, the fade on an outer one.
  @Test func aFadingBlurredGroupIsTwoLayers() throws {
    let lists = (0..<4).map { i in
      DisplayList(
        canvas: Size(100, 100),
        commands: [
          .beginGroup(GroupStyle(opacity: Double(i) / 3, blur: 2)), Self.square(x: 20), .endGroup,
        ])
    }
    let json = try Self.json(lists)
    let outer = try #require((json["layers"] as? [[String: Any]])?.first)
    #expect(outer["ef"] == nil)
    #expect(((outer["ks"] as? [String: Any])?["o"] as? [String: Any])?["a"] as? Int == 1)
    let assets = try #require(json["assets"] as? [[String: Any]])
    let wrapper = try #require(assets.first { $0["id"] as? String == outer["refId"] as? String })
    let inner = try #require((wrapper["layers"] as? [[String: Any]])?.first)
    #expect((inner["ef"] as? [Any])?.count == 1)
    #expect(((inner["ks"] as? [String: Any])?["o"] as? [String: Any])?["k"] as? Double == 100)
    #expect(assets.contains { $0["id"] as? String == inner["refId"] as? String })
  }

  /// A shadow is no effect (rlottie and lottie-web's canvas draw none, its svg cuts it to
  /// the layer's box) but a shape layer of nested filled outlines just behind its caster,
  /// its levels fading with the group, the caster's silhouette cut out (one mask) so a
  /// fading caster shows no shadow through it.
  @Test func aShadowIsGeometryBehindItsCaster() throws {
    let lists = (0..<4).map { i in
      DisplayList(
        canvas: Size(100, 100),
        commands: [
          .beginGroup(
            GroupStyle(opacity: Double(i) / 3, shadow: Shadow(radius: 8, offset: Point(0, 4)))),
          Self.square(x: 20), .endGroup,
        ])
    }
    let json = try Self.json(lists)
    #expect(
      !String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        .contains("\"ef\""))
    let layers = try #require(json["layers"] as? [[String: Any]])
    #expect(layers.count == 2)
    // Lottie lists the front first: the shadow is last, behind what casts it.
    let shadow = try #require(layers.last)
    #expect((shadow["nm"] as? String)?.hasSuffix(" shadow") == true)
    let masks = try #require(shadow["masksProperties"] as? [[String: Any]])
    #expect(masks.count == 1 && masks[0]["mode"] as? String == "a")
    let levels = try #require(shadow["shapes"] as? [[String: Any]])
    let count = ShadowGeometry.levelCount(alpha: Shadow.defaultColor.alpha, sigma: 8, depth: 4)
    #expect(levels.count == count)
    let fill = try #require(
      (levels[0]["it"] as? [[String: Any]])?.first { $0["ty"] as? String == "fl" })
    #expect((fill["o"] as? [String: Any])?["a"] as? Int == 1)
  }

  /// The stacked levels reproduce a Gaussian's edge within half a step, and an outline
  /// moves out along its normals (a circle's by its radius).
  @Test func shadowLevelsFollowTheBlurredEdge() throws {
    let (alpha, sigma, depth) = (0.6, 10.0, 5.0)
    let count = ShadowGeometry.levelCount(alpha: alpha, sigma: sigma, depth: depth)
    let levels = ShadowGeometry.levels(alpha: alpha, sigma: sigma, depth: depth, count: count)
    for d in stride(from: -depth, through: 4 * sigma, by: 0.25) {
      let stacked = 1 - levels.filter { $0.distance >= d }.map { 1 - $0.opacity }.reduce(1, *)
      let blurred = alpha * ShadowGeometry.normalCDF(-d / sigma)
      #expect(abs(stacked - blurred) * 255 <= ShadowGeometry.maxStep / 2 + 0.01, "at \(d)")
    }
    let circle = BezierShape.subpaths(
      of: .ellipse(in: Rect(x: -10, y: -10, width: 20, height: 20)))[0]
    let grown = ShadowGeometry.offset(ShadowGeometry.oriented(circle), by: 5, moved: Point(0, 2))
    for v in grown.vertices {
      #expect(abs(v.distance(to: Point(0, 2)) - 15) < 1e-6)
    }
    // Its handles grow with it: still the host's circle, three halves the size.
    let scaled = BezierShape.subpaths(
      of: .ellipse(in: Rect(x: -15, y: -13, width: 30, height: 30)))[0]
    for (a, b) in zip(grown.outPoints, ShadowGeometry.oriented(scaled).outPoints) {
      #expect(a.distance(to: b) < 1e-6)
    }
  }

  /// rlottie draws a layer at its out point, so a layer that ends early runs one frame
  /// longer with its opacity 0 there; one that lasts to the end keeps the animation's `op`.
  @Test func aLayerThatEndsEarlyIsHiddenAtItsOutPoint() throws {
    let lists = (0..<6).map { i in
      DisplayList(canvas: Size(100, 100), commands: i < 3 ? [Self.square(x: 0)] : [])
    }
    let layer = try #require((try Self.json(lists)["layers"] as? [[String: Any]])?.first)
    #expect(layer["ip"] as? Int == 0)
    #expect(layer["op"] as? Int == 4)
    let opacity = try #require((layer["ks"] as? [String: Any])?["o"] as? [String: Any])
    let keys = try #require(opacity["k"] as? [[String: Any]])
    #expect(keys.last?["t"] as? Int == 3)
    #expect(keys.last?["s"] as? [Double] == [0])
    let whole = (0..<6).map { _ in
      DisplayList(canvas: Size(100, 100), commands: [Self.square(x: 0)])
    }
    let lasting = try #require((try Self.json(whole)["layers"] as? [[String: Any]])?.first)
    #expect(lasting["op"] as? Int == 6)
  }

  /// lottie-web stops drawing at a path without vertices: an empty outline is one open
  /// vertex, which no player draws.
  @Test func anEmptyOutlineIsOneOpenVertex() {
    let empty = BezierShape(closed: true, vertices: [], inPoints: [], outPoints: [])
    #expect(empty.lottie(2) == ["c": false, "v": [[0, 0]], "i": [[0, 0]], "o": [[0, 0]]])
  }

  @Test func theReportNamesWhatFellBack() {
    let frame = Rect(origin: .zero, size: Size(20, 20))
    let angular = Paint.angularGradient(
      AngularGradient(
        stops: [
          GradientStop(color: .black, location: 0), GradientStop(color: .white, location: 1),
        ],
        center: Point(0.5, 0.5), startAngle: 0, endAngle: 360))
    let list = DisplayList(
      canvas: Size(50, 50),
      commands: [
        .item(
          DisplayItem(
            kind: .circle, path: .circle(in: frame), frame: frame, fill: angular, identity: "/0")),
        .item(DisplayItem(kind: .text, path: Path(), frame: frame, identity: "/1")),
        .item(
          DisplayItem(
            kind: .rect, path: .rect(frame), frame: frame, fill: .color(.black),
            blend: .destinationOut, identity: "/2")),
      ])
    let report = LottieWriter(fps: 30, name: "t").write([list]).report
    let byIdentity = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.identity, $0) })
    #expect(byIdentity["/0"]?.mapping == .approximated)
    #expect(byIdentity["/0"]?.notes.contains { $0.contains("angular") } == true)
    #expect(byIdentity["/1"]?.mapping == .dropped)  // no glyph outlines given
    #expect(byIdentity["/2"]?.mapping == .dropped)
    #expect(report.summary == "3 items: 0 native, 0 baked, 1 approximated, 2 dropped")
  }

  /// A trimmed shape of one subpath keeps its whole outline and Lottie's trim-paths
  /// modifier (start and end animated, in percent); a trim over two subpaths is baked.
  @Test func aTrimOfOneSubpathIsLottiesTrimPaths() throws {
    let frame = Rect(origin: .zero, size: Size(40, 40))
    func item(_ to: Double, path: Path, identity: String) -> DisplayCommand {
      let trim = Trim(from: 0.1, to: to)
      return .item(
        DisplayItem(
          kind: .path, path: trim.apply(to: path), frame: frame,
          stroke: Stroke(paint: .color(.black), width: 4), trim: trim, identity: identity,
          untrimmedPath: path))
    }
    var twoRings = Path.circle(in: frame)
    twoRings.addEllipse(in: Rect(origin: Point(10, 10), size: Size(20, 20)))
    let lists = [0.3, 0.6, 0.9].map { to in
      DisplayList(
        canvas: Size(50, 50),
        commands: [
          item(to, path: .circle(in: frame), identity: "/0"),
          item(to, path: twoRings, identity: "/1"),
        ])
    }
    let animation = LottieWriter(fps: 30, name: "t").write(lists)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(animation.json.utf8)) as? [String: Any])
    let layers = try #require(json["layers"] as? [[String: Any]])
    func items(_ name: String) throws -> [[String: Any]] {
      let layer = try #require(layers.first { $0["nm"] as? String == name })
      let group = try #require((layer["shapes"] as? [[String: Any]])?.first)
      return try #require(group["it"] as? [[String: Any]])
    }
    let circle = try items("/0")
    #expect(circle.map { $0["ty"] as? String } == ["sh", "tm", "st", "tr"])
    let trim = circle[1]
    #expect((trim["s"] as? [String: Any])?["k"] as? Double == 10)
    let end = try #require((trim["e"] as? [String: Any])?["k"] as? [[String: Any]])
    #expect(end.first?["s"] as? [Double] == [30])
    #expect(end.last?["s"] as? [Double] == [90])
    // The whole circle: its four quarter arcs, closed.
    let shape = try #require((circle[0]["ks"] as? [String: Any])?["k"] as? [String: Any])
    #expect(shape["c"] as? Bool == true)
    #expect((shape["v"] as? [Any])?.count == 4)
    #expect(!(try items("/1")).contains { $0["ty"] as? String == "tm" })
    let byIdentity = Dictionary(
      uniqueKeysWithValues: animation.report.entries.map { ($0.identity, $0) })
    #expect(byIdentity["/0"]?.mapping == .native)
    #expect(byIdentity["/1"]?.mapping == .baked)
    #expect(byIdentity["/1"]?.notes.contains { $0.contains("trim") } == true)
  }

  @Test func dotLottieIsAZipThePythonReaderOpens() throws {
    let bytes = DotLottie.archive(json: "{\"v\":\"5.7.0\"}", id: "fan", generator: "test")
    let folder = try LottieVerification.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("fan.lottie")
    try Data(bytes).write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      "import zipfile,sys,json; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; "
        + "m=json.loads(z.read('manifest.json')); print(m['animations'][0]['id'], "
        + "z.read('animations/fan.json').decode())",
      file.path,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(out == "fan {\"v\":\"5.7.0\"}\n")
  }

  /// The builder gives each view the same identity in every frame.
  @Test func identitiesAreStableAcrossFrames() throws {
    let lists = try LottieVerification.frames("deck_fan", count: 3)
    let identities = lists.map { $0.items.map(\.identity) }
    #expect(identities[0] == identities[2])
    #expect(Set(identities[0]).count == identities[0].count)
    #expect(identities[0].contains("/0#card1"))
  }
}
