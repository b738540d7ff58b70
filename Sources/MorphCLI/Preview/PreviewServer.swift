import Foundation
import MorphCore
import MorphExport
import MorphRender
import MorphScript
import MorphSession

/// The preview's HTTP routes over CivetWeb. A single plugin is served at
/// `/`; a folder's plugins at `/p/NAME/`, with an index at `/`. The page
/// uses relative URLs for its plugin (`events`, `pointer`, …) and absolute
/// ones for the shared assets (`/assets/…`).
final class PreviewServer: @unchecked Sendable {
  let catalog: PreviewCatalog
  /// The open event streams, every plugin's.
  let streams = EventStreams(
    perClient: PreviewLimits.eventStreamsPerClient, total: PreviewLimits.eventStreams)
  private var http: HTTPServer?

  init(catalog: PreviewCatalog, port: Int) throws {
    self.catalog = catalog
    PreviewRoutes.loadEmbeddedFiles()
    http = try HTTPServer(port: port) { [catalog, streams] request, responder in
      PreviewRoutes(catalog: catalog, streams: streams).answer(request, responder)
    }
  }

  var port: Int { http?.port ?? 0 }

  /// Ends the event streams, then the server (which waits for its threads).
  func stop() {
    catalog.closeAll()
    http?.stop()
    http = nil
  }

  deinit { stop() }
}

/// Answers one request; the work on a plugin runs on its session's queue.
struct PreviewRoutes {
  let catalog: PreviewCatalog
  let streams: EventStreams

  static let assets: [String: (type: String, bytes: Data)] = [
    "preview.js": ("text/javascript; charset=utf-8", Data(PackageResources.preview_js)),
    "preview.css": ("text/css; charset=utf-8", Data(PackageResources.preview_css)),
    "favicon.svg": ("image/svg+xml", Data(PackageResources.favicon_svg)),
  ]
  static let playerPage = Data(PackageResources.player_html)
  static let indexPage = String(decoding: PackageResources.index_html, as: UTF8.self)
  static let propsReader = String(decoding: PackageResources.props_lua, as: UTF8.self)

  /// Builds the embedded pages and assets on the starting thread: the first
  /// read of an embedded file materialises a large array literal on the
  /// stack, more than CivetWeb's request threads have (AddressSanitizer
  /// found the overflow).
  static func loadEmbeddedFiles() {
    _ = (assets.count, playerPage.count, indexPage.count, propsReader.count, vocabulary.count)
  }

  func answer(_ request: HTTPRequest, _ responder: HTTPResponder) {
    // DNS rebinding: a page on another name that resolves to 127.0.0.1
    // sends its own name as Host; only loopback names are served.
    // The port must be the one it came in on.
    guard let host = request.header("Host"), Self.isLoopback(host: host, port: request.port)
    else {
      return responder.send(status: 403, "Forbidden", text: "morphhost: not a loopback Host")
    }
    if let refusal = Self.refusal(of: request) {
      return responder.send(status: 403, "Forbidden", text: "morphhost: " + refusal)
    }
    let path = request.path
    if path.hasPrefix("/assets/"), let asset = Self.assets[String(path.dropFirst(8))] {
      return responder.send(status: 200, "OK", type: asset.type, body: asset.bytes)
    }
    if path == "/favicon.ico" {
      let icon = Self.assets["favicon.svg"]!
      return responder.send(status: 200, "OK", type: icon.type, body: icon.bytes)
    }
    if request.method == "GET", path == "/vocabulary" {
      return responder.send(status: 200, "OK", type: "application/json", body: Self.vocabulary)
    }
    if catalog.single, let only = catalog.plugins.first {
      return plugin(only.name, rest: String(path.dropFirst()), request, responder)
    }
    if path == "/" { return responder.send(status: 200, "OK", type: Self.html, body: index()) }
    let parts = path.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
    if parts.count == 3, parts[1] == "p" {
      let rest = parts[2]
      let name = rest.prefix { $0 != "/" }
      if rest.count == name.count {
        // `/p/flip` → `/p/flip/`, so the page's relative URLs land inside it.
        // The name in the header is the listing's, never the request's.
        guard let known = catalog.plugins.first(where: { $0.name == name })?.name else {
          return notFound("no such plugin in this folder", responder)
        }
        return responder.send(
          status: 301, "Moved", type: Self.html, body: Data(),
          headers: ["Location": Self.location(ofPlugin: known)])
      }
      return plugin(String(name), rest: String(rest.dropFirst(name.count + 1)), request, responder)
    }
    notFound("no page \(path)", responder)
  }

  /// One line, whatever the request had in it.
  private func notFound(_ message: String, _ responder: HTTPResponder) {
    responder.send(status: 404, "Not Found", text: "morphhost: " + terminalSafe(message))
  }

  /// A plugin's page, its name percent-encoded (a file name may hold any
  /// character but `/`).
  static func location(ofPlugin name: String) -> String {
    "/p/\(name.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? "")/"
  }

  /// What may stand unencoded in a path segment of ours.
  static let pathCharacters = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

  /// Why a request that came from elsewhere is refused, or nil. A page of
  /// another origin that the browser lets send a request says where it is
  /// from: with `Origin` (scripts, event streams, POSTs) or with
  /// `Sec-Fetch-Site` (also images and no-cors fetches, which send no
  /// Origin). Neither is sent from the address bar or by curl, and both
  /// are fine from our own pages. Following a link here from another site
  /// is a navigation, and is allowed: the page then runs as ours.
  static func refusal(of request: HTTPRequest) -> String? {
    if let origin = request.header("Origin"), !isOwn(origin: origin, port: request.port) {
      return "request from another origin (\(terminalSafe(origin)))"
    }
    let site = request.header("Sec-Fetch-Site") ?? "same-origin"
    guard site == "same-origin" || site == "none" else {
      let navigation =
        request.method == "GET" && request.header("Sec-Fetch-Mode") == "navigate"
        && (request.header("Sec-Fetch-Dest") ?? "document") == "document"
      return navigation ? nil : "request from another site"
    }
    return nil
  }

  /// `http://` and a loopback name with our port: a page we served.
  static func isOwn(origin: String, port: Int) -> Bool {
    let scheme = "http://"
    guard origin.lowercased().hasPrefix(scheme) else { return false }
    var authority = String(origin.dropFirst(scheme.count))
    // An origin leaves its port out only when it is 80 (`[::1]` has colons of its own).
    if !(authority.lastIndex(of: ":").map { !authority[$0...].contains("]") } ?? false) {
      authority += ":80"
    }
    return isLoopback(host: authority, port: port)
  }

  static let html = "text/html; charset=utf-8"

  /// `127.0.0.1`, `localhost` or `[::1]`, with our port or none.
  static func isLoopback(host: String, port: Int) -> Bool {
    var name = host.lowercased()
    if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]") {
      guard Int(name[name.index(after: colon)...]) == port else { return false }
      name = String(name[..<colon])
    }
    return ["127.0.0.1", "localhost", "[::1]"].contains(name)
  }

  private func plugin(
    _ name: String, rest: String, _ request: HTTPRequest, _ responder: HTTPResponder
  ) {
    do {
      if request.method == "POST", rest == "close" {
        // The page went: its own session goes (a request naming no tab closes nothing).
        if let tab = try Self.tab(request) { catalog.closeTab(name, tab: tab) }
        return responder.send(status: 204, "No Content", type: "text/plain", body: Data())
      }
      // The request's name is never echoed: a page's link chose it.
      guard let session = catalog.session(name, tab: try Self.tab(request)) else {
        return notFound("no such plugin in this folder", responder)
      }
      switch (request.method, rest) {
      case ("GET", ""):
        responder.send(
          status: 200, "OK", type: Self.html, body: Self.playerPage)
      case ("GET", "events"):
        stream(session, scale: try Self.scale(request), client: request.client, responder)
      case ("GET", "frame.png"):
        let scale = try Self.scale(request)
        let png = try session.perform { try session.png(scale: scale) }
        responder.send(status: 200, "OK", type: "image/png", body: png)
      case ("GET", "inspect"):
        let query = request.query
        let after = try RequestNumbers.int(
          query, "after", in: RequestNumbers.counts, fallback: 0)
        let marks = try RequestNumbers.int(
          query, "marks", in: RequestNumbers.counts, fallback: 0)
        // -1: the page has no history yet.
        let epoch = try RequestNumbers.int(
          query, "epoch", in: -1...RequestNumbers.counts.upperBound, fallback: -1)
        let body = try session.perform {
          try session.inspectJSON(after: after, marks: marks, epoch: epoch)
        }
        responder.send(status: 200, "OK", type: "application/json", body: body)
      case ("GET", "props"):
        let body = try session.perform { try session.propsJSON() }
        responder.send(status: 200, "OK", type: "application/json", body: body)
      case ("POST", "pointer"):
        let event = try Self.decode(PointerBody.self, request.body)
        let point = try event.point()
        try session.perform { try session.pointer(event.kind, at: point) }
        responder.send(status: 204, "No Content", type: "text/plain", body: Data())
      case ("POST", "control"):
        let control = try Self.decode(ControlBody.self, request.body)
        try session.perform { try session.control(control.action, control.value) }
        responder.send(status: 204, "No Content", type: "text/plain", body: Data())
      case ("POST", "size"):
        let size = try Self.decode(SizeBody.self, request.body).size()
        session.perform { session.resize(to: size) }
        responder.send(status: 204, "No Content", type: "text/plain", body: Data())
      case ("POST", "props"):
        let prop = try Self.decode(PropBody.self, request.body)
        try session.perform { try session.setProp(prop.name, prop.value) }
        responder.send(status: 204, "No Content", type: "text/plain", body: Data())
      case ("POST", "background"):
        let name = try Self.decode(BackgroundBody.self, request.body).name
        guard let background = Self.backgrounds.first(where: { $0.name == name }) else {
          throw UsageError(
            "unknown background '\(RequestNumbers.shown(name))'; expected "
              + Self.backgrounds.map(\.name).joined(separator: ", "))
        }
        session.perform { session.host.background = background.color }
        responder.send(status: 204, "No Content", type: "text/plain", body: Data())
      case ("POST", "export"):
        let format = try PreviewExports.format(
          named: try Self.decode(ExportBody.self, request.body).format)
        let exporter = try session.perform { session.exporter(for: format) }
        let id = try catalog.exports.start(
          exporter, format: format, name: BundledPlugins.baseName(ofPath: session.path))
        responder.send(
          status: 202, "Accepted", type: "application/json", body: Data(#"{"id":\#(id)}"#.utf8))
      case ("GET", "export"):
        let id = try RequestNumbers.int(request.query, "id", in: RequestNumbers.counts, fallback: 0)
        guard let progress = catalog.exports.progress(id) else {
          return notFound("no such export", responder)
        }
        responder.send(
          status: 200, "OK", type: "application/json", body: try JSONEncoder().encode(progress))
      case ("GET", "export/file"):
        let id = try RequestNumbers.int(request.query, "id", in: RequestNumbers.counts, fallback: 0)
        guard let file = catalog.exports.take(id) else {
          return notFound("no finished export \(id)", responder)
        }
        let name = file.name.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? ""
        responder.send(
          status: 200, "OK", type: "application/octet-stream", body: file.bytes,
          headers: ["Content-Disposition": "attachment; filename=\"\(name)\""])
      default:
        notFound("no page \(request.path)", responder)
      }
    } catch {
      let diagnostic = error as? any Diagnostic ?? ForeignError(error)
      let busy = error is PreviewBusy
      responder.send(
        status: busy ? 503 : 400, busy ? "Service Unavailable" : "Bad Request",
        text: Self.oneLine(diagnostic.commandLine))
    }
  }

  /// Server-sent events: every frame the session pushes, as JSON with the
  /// pixels that changed since the frame this tab last got (a PNG of that
  /// rectangle, at this tab's scale), until the tab closes or the server
  /// stops. A tab that is slow to read gets the newest frame next, with
  /// the union of the rectangles it missed. With nothing to send, a
  /// heartbeat comment every `PreviewLimits.heartbeat`: its failed write is
  /// how a closed tab is noticed. A stream the roster closed (the client
  /// opened too many) ends at once.
  private func stream(
    _ session: PreviewSession, scale: Double, client: String, _ responder: HTTPResponder
  ) {
    let place = streams.open(client: client) { [board = session.board] in board.wake() }
    defer { streams.close(place) }
    // Closed already by a burst of newer ones: not worth a turn on the queue.
    guard !streams.isClosed(place) else { return }
    session.perform { session.subscribe(scale: scale) }
    defer { session.perform { session.unsubscribe(scale: scale) } }
    guard responder.startEventStream() else { return }
    var reader = StreamReader(board: session.board, scale: scale)
    let stopped = { streams.isClosed(place) }
    while let event = reader.next(stopped: stopped) {
      guard event.write(to: responder) else { return }
    }
  }

  /// A refusal's line as sent: control characters escaped, so it stays one
  /// line, and cut at `maximumLine` characters (a body may echo 64 KiB).
  static func oneLine(_ text: String) -> String {
    let line = terminalSafe(text)
    return line.count > maximumLine ? String(line.prefix(maximumLine)) + "…" : line
  }

  static let maximumLine = 300

  /// An event stream's comment line, which the page ignores.
  static let heartbeat = Data(":\n\n".utf8)

  /// The page's pixel density: within `PreviewLimits.scales`, rounded to a
  /// quarter step (a few renders at most); 1 when not given.
  static func scale(_ request: HTTPRequest) throws(UsageError) -> Double {
    let asked = try RequestNumbers.double(
      request.query, "scale", in: .within(PreviewLimits.scales), fallback: 1)
    return (asked * 4).rounded() / 4
  }

  static func decode<T: Decodable>(_ type: T.Type, _ body: Data) throws -> T {
    do {
      return try JSONDecoder().decode(type, from: body)
    } catch {
      throw UsageError("bad request body: expected JSON for \(type)")
    }
  }

  /// The tab a request names (`?tab=`), whose own session it drives; nil for
  /// the plugin's shared one. A tab's name is the page's own random word.
  static func tab(_ request: HTTPRequest) throws(UsageError) -> String? {
    guard let tab = request.query["tab"] else { return nil }
    guard (1...maximumTab).contains(tab.count), tab.allSatisfy({ tabCharacters.contains($0) })
    else {
      throw UsageError("tab must be 1 to \(maximumTab) letters, digits, - or _")
    }
    return tab
  }

  static let maximumTab = 32
  static let tabCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")

  /// What the stage can show the frames over, the first the default: white
  /// (as `render` and `export` draw), a dark grey, or a checkerboard the page
  /// draws under transparent frames (slower to stream: every pixel that is
  /// not opaque has its alpha divided out).
  static let backgrounds: [(name: String, color: Color?)] = [
    ("white", .white), ("dark", Color(red: 0.02, green: 0.024, blue: 0.03)), ("checkerboard", nil),
  ]

  /// What the page reads before anything else: the input kinds and the
  /// controls (`SessionInput`, `SessionCommand`), the keys that drive them, and
  /// the export formats. The page spells none of them.
  static let vocabulary: Data = {
    struct Command: Encodable {
      var name: String
      var takesValue: Bool
    }
    struct Answer: Encodable {
      var inputs: [String]
      var pointer: [String]
      var commands: [Command]
      var keys: [StudioKey]
      var exports: [String]
      var backgrounds: [String]
    }
    let answer = Answer(
      inputs: SessionInput.Kind.allCases.map(\.rawValue),
      pointer: SessionInput.Kind.pointer.map(\.rawValue),
      commands: SessionCommand.Name.allCases.map {
        Command(name: $0.rawValue, takesValue: $0.takesValue)
      },
      keys: StudioKey.all, exports: PreviewExports.formats.map(\.rawValue),
      backgrounds: backgrounds.map(\.name))
    return (try? JSONEncoder().encode(answer)) ?? Data("{}".utf8)
  }()

  /// The folder's plugins, each a link with a thumbnail.
  private func index() -> Data {
    let items = catalog.plugins.map { plugin in
      let name = Self.escape(plugin.name)
      // Relative, so the page works behind any prefix; encoded as the redirect is.
      let link = Self.escape(String(Self.location(ofPlugin: plugin.name).dropFirst()))
      return """
            <li><a href="\(link)"><img src="\(link)frame.png" alt="\(name)" loading="lazy">\
        <span>\(name)</span></a></li>
        """
    }
    let page = Self.indexPage
      .replacingOccurrences(of: "{{TITLE}}", with: Self.escape(catalog.title))
      .replacingOccurrences(of: "{{PLUGINS}}", with: items.joined(separator: "\n"))
    return Data(page.utf8)
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}

/// One stream's place in its board's frames: what it has seen and what the
/// page shows. Each event is put together from the frame posted, which is
/// let go before the event is written: a slow tab holds its event's bytes,
/// never a frame's rasters.
struct StreamReader {
  let board: LiveFrameBoard
  let scale: Double
  private var seen = 0
  /// The frame whose pixels the tab shows (0: none yet).
  private var shown = 0
  private var encoder: StreamingPNGEncoder?
  private let json = JSONEncoder()

  init(board: LiveFrameBoard, scale: Double) {
    self.board = board
    self.scale = scale
  }

  /// The next event: a frame, or a heartbeat after `PreviewLimits.heartbeat`
  /// with nothing new; nil when the stream is to end.
  mutating func next(stopped: () -> Bool) -> StreamEvent? {
    guard let next = board.next(after: seen, timeout: PreviewLimits.heartbeat, stopped: stopped)
    else { return nil }
    guard let posted = next else { return .heartbeat }
    seen = posted.sequence
    guard let status = try? json.encode(posted.status) else { return nil }
    var event = PreviewEvent(status: status)
    if let picture = posted.images[scale] {
      let raster = picture.raster
      let whole = PixelBox(width: raster.width, height: raster.height)
      if let box = board.changes(at: scale, after: shown, upTo: posted.sequence, size: whole) {
        guard let png = pixels(of: picture, box: box, stopped: stopped) else {
          // No room to encode them now: the status goes, the pixels with a later frame.
          return .event(event)
        }
        event.picture = (png, box, [raster.width, raster.height])
      }
      shown = posted.sequence
    }
    return .event(event)
  }

  /// The PNG of `box`: the one the frame came with, or one of this
  /// stream's own (after frames it missed), charged to the preview's byte
  /// budget while it is made (a PNG is at most about the size of its pixels).
  private mutating func pixels(
    of picture: LiveFrameBoard.Picture, box: PixelBox, stopped: () -> Bool
  ) -> [UInt8]? {
    if box == picture.changed, let png = picture.png { return png }
    let bytes = 2 * box.width * box.height * 4
    guard
      ByteBudget.shared.charge(bytes, timeout: PreviewLimits.hostBytesWait, stopped: stopped)
    else { return nil }
    defer { ByteBudget.shared.release(bytes) }
    if encoder == nil { encoder = try? StreamingPNGEncoder() }
    return try? encoder?.encode(picture.raster, box: box)
  }
}

/// What a stream writes next.
enum StreamEvent {
  case heartbeat
  case event(PreviewEvent)

  /// Writes it; false once the tab has gone.
  func write(to responder: HTTPResponder) -> Bool {
    switch self {
    case .heartbeat: return responder.write(PreviewRoutes.heartbeat)
    case .event(let event): return event.write(to: responder)
    }
  }
}

/// One event of the stream, `data: {"status": …, "image": …, "box": […],
/// "size": […]}`: the status, and when pixels changed, those of `box` (x, y,
/// width, height in the frame's pixels) as base64 PNG; `size` is the whole
/// frame's. Put together by hand: JSONEncoder would escape every `/` of the
/// base64, and copy it twice.
struct PreviewEvent {
  /// The status, as JSON.
  var status: Data
  var picture: (png: [UInt8], box: PixelBox, size: [Int])?

  /// Writes the event, all of it within `PreviewLimits.writeTimeout`. The
  /// base64 of the PNG is made a piece at a time as it is written: never
  /// held whole, nor copied into one buffer with the rest (a 32 MB frame
  /// would be 43 MB more per stream).
  func write(to responder: HTTPResponder) -> Bool {
    let deadline = Date().addingTimeInterval(PreviewLimits.writeTimeout)
    var head = Data(#"data: {"status":"#.utf8) + status
    guard let (png, box, size) = picture else {
      return responder.write(head + Data("}\n\n".utf8), by: deadline)
    }
    head += Data(#","image":""#.utf8)
    guard responder.write(head, by: deadline) else { return false }
    var start = 0
    while start < png.count {
      let end = min(png.count, start + Self.base64Piece)
      guard responder.write(Data(png[start..<end]).base64EncodedData(), by: deadline) else {
        return false
      }
      start = end
    }
    let tail =
      #"","box":[\#(box.x),\#(box.y),\#(box.width),\#(box.height)],"size":[\#(size[0]),\#(size[1])]}"#
    return responder.write(Data((tail + "\n\n").utf8), by: deadline)
  }

  /// PNG bytes encoded at a time: whole groups of three, so the pieces'
  /// base64 joins up without padding in between.
  static let base64Piece = 3 * 16 * 1024
}

struct PointerBody: Decodable {
  var kind: String
  var x: Double
  var y: Double

  /// The event's place, within `PreviewLimits.pointerReach` of the origin.
  func point() throws(UsageError) -> Point {
    let reach = Bounds.within(-PreviewLimits.pointerReach...PreviewLimits.pointerReach)
    return Point(
      try RequestNumbers.check(x, "pointer x", in: reach),
      try RequestNumbers.check(y, "pointer y", in: reach))
  }
}

struct ControlBody: Decodable {
  var action: String
  var value: Double?
}

/// The page's room for the component's frame in points; both null: none.
struct SizeBody: Decodable {
  var width: Double?
  var height: Double?

  /// The room offered: each side within 0…the largest canvas side, in
  /// points (0 offers nothing, as a missing side does).
  func size() throws(UsageError) -> Size? {
    guard let width, let height else { return nil }
    let side = Bounds.within(0...SceneError.maxCanvasSide)
    return Size(
      try RequestNumbers.check(width, "width", in: side),
      try RequestNumbers.check(height, "height", in: side))
  }
}

struct BackgroundBody: Decodable {
  var name: String
}

struct ExportBody: Decodable {
  var format: String
}

/// A key of the page and what it does: the keys panel lists these, and the page
/// runs the action a key names (a session command, or a view action of the page's own).
struct StudioKey: Encodable {
  /// `KeyboardEvent.key`.
  var key: String
  /// How the panel shows it.
  var label: String
  var action: String
  var help: String

  static let all = [
    StudioKey(key: " ", label: "space", action: "toggle", help: "play / pause"),
    StudioKey(key: "ArrowLeft", label: "←", action: "back", help: "one frame back"),
    StudioKey(
      key: "ArrowRight", label: "→", action: SessionCommand.Name.step.rawValue, help: "one frame on"
    ),
    StudioKey(
      key: "r", label: "r", action: SessionCommand.Name.replay.rawValue, help: "replay the input"),
    StudioKey(key: "f", label: "f", action: "fit", help: "fit the stage to the window"),
    StudioKey(key: "1", label: "1", action: "actual", help: "1:1 (one point, one CSS pixel)"),
    StudioKey(key: "+", label: "+", action: "zoomIn", help: "zoom in"),
    StudioKey(key: "-", label: "−", action: "zoomOut", help: "zoom out"),
    StudioKey(key: "b", label: "b", action: "background", help: "checkerboard / white / dark"),
    StudioKey(key: "?", label: "?", action: "keys", help: "show these keys"),
  ]
}

struct PropBody: Decodable {
  var name: String
  var value: String
}
