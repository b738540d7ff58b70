import MorphCore

/// What any one client of the preview may hold, and for how long: the only
/// place these numbers live. Every client is on 127.0.0.1 (a browser tab,
/// another page in the same browser, any local process), so "per client"
/// mostly means "in total"; the point is that no socket holds a worker
/// thread for long, and the tab always finds a free one.
enum PreviewLimits {
  /// CivetWeb's worker threads. A socket holds one from its first byte, so
  /// more workers than the 200 idle sockets we test with means the tab is
  /// not queued behind them; an idle worker costs a 16 KiB buffer and an
  /// untouched stack.
  static let workerThreads = 256
  /// Accepted sockets waiting for a worker, and the kernel's queue before
  /// that: a burst of connections must not drop the tab's (a dropped SYN
  /// is retried only after a second).
  static let connectionQueue = 256
  static let listenBacklog = 1024

  /// A request head must arrive whole within this; a silent or dribbling
  /// socket is closed then. CivetWeb also uses it as the longest a single
  /// read or write may wait for the client.
  static let headerTimeout = 1.5
  /// An idle kept-alive connection is closed after this.
  static let keepAliveTimeout = 0.5
  /// The largest request head (CivetWeb answers a longer one 413).
  static let maximumHeaderBytes = 16 * 1024

  /// The largest request body: prop values and pointer events are small.
  /// A longer Content-Length is answered 413 before anything is read.
  static let maximumBody = 64 * 1024
  /// A body must arrive whole within this (each read also waits at most
  /// `headerTimeout`).
  static let bodyTimeout = 2.0
  /// One response write may take this long in all (a client that reads a
  /// byte at a time is let go).
  static let writeTimeout = 5.0

  /// Requests being answered at once (event streams included); more are
  /// answered 503 at once. Below `workerThreads`, so workers always remain
  /// to read new requests: 64 past one client's, 32 past everyone's. Not
  /// lower: a burst of streams that wait their turn on the plugin's queue
  /// to (un)subscribe is legitimately in flight for a moment.
  static let requestsPerClient = 192
  static let requests = 224

  /// Open event streams per client: a new one closes that client's oldest
  /// (a reloaded tab's old stream may not be noticed as dead yet).
  static let eventStreamsPerClient = 8
  static let eventStreams = 16
  /// An event stream with nothing to send writes a comment this often; the
  /// write that fails is how a closed tab is noticed and its thread freed.
  static let heartbeat = 1.0

  /// Sessions of their own the tabs may hold at once, over every plugin (each
  /// is a Lua state, its history and its frame encoder's buffers): a tab past
  /// them takes the place of the least recently used one.
  static let tabSessions = 6

  /// The pixel densities a page may ask for (its screen's, which the page
  /// rounds to quarter steps): more would draw 16 times the pixels of 1x
  /// for no screen that shows them.
  static let scales = 1.0...4.0

  /// Bytes of pixels in one frame of a plugin, over every scale its open
  /// streams asked for (4 bytes a pixel): one 4K screen's worth. A larger
  /// frame is drawn at a lower density (`FrameFit`), the same for every
  /// scale; the page shows it at the same size. The encoder holds a few
  /// frames at once (drawing, compared, posted, spare buffers), so this,
  /// not the number of streams or their scales, bounds its memory.
  static let frameBytes = 32 << 20
  /// Bytes the streams' own PNGs (what a stream missed, in one rectangle)
  /// and `frame.png` renders may hold at once, over every plugin (`ByteBudget`).
  static let hostBytes = 96 << 20
  /// How long work waits for room in `hostBytes` before it is given up (a
  /// stream then tries the next frame; `frame.png` is answered 503).
  static let hostBytesWait = 5.0

  /// How far from the canvas's origin, either way, a pointer event may be
  /// (a drag goes on past the picture's edge): four times the largest canvas.
  static let pointerReach = 4 * SceneError.maxCanvasSide
}
