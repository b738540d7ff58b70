import Foundation

/// The preview's open event streams, oldest first, so that no client holds
/// more than its share of worker threads with them: opening one past a
/// limit closes the oldest (that client's, or anyone's past the total), and
/// wakes its stream, which ends then and frees its thread.
final class EventStreams: @unchecked Sendable {
  /// One open stream.
  final class Place {
    let client: String
    fileprivate let wake: @Sendable () -> Void
    fileprivate var closed = false
    fileprivate init(client: String, wake: @escaping @Sendable () -> Void) {
      self.client = client
      self.wake = wake
    }
  }

  let perClient: Int
  let total: Int
  private let lock = NSLock()
  private var open: [Place] = []

  init(perClient: Int, total: Int) {
    self.perClient = perClient
    self.total = total
  }

  /// A place for a new stream of `client`'s; `wake` makes it look at
  /// `isClosed` now.
  func open(client: String, wake: @escaping @Sendable () -> Void) -> Place {
    lock.lock()
    var closing: [Place] = []
    if open.count(where: { $0.client == client }) >= perClient,
      let oldest = open.firstIndex(where: { $0.client == client })
    {
      closing.append(open.remove(at: oldest))
    }
    if open.count >= total { closing.append(open.removeFirst()) }
    for place in closing { place.closed = true }
    let place = Place(client: client, wake: wake)
    open.append(place)
    lock.unlock()
    // Outside the lock: a waking stream takes its board's lock, then ours.
    for place in closing { place.wake() }
    return place
  }

  /// The stream ended, or was closed.
  func close(_ place: Place) {
    lock.lock()
    defer { lock.unlock() }
    place.closed = true
    open.removeAll { $0 === place }
  }

  func isClosed(_ place: Place) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return place.closed
  }

  /// Streams open now.
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return open.count
  }
}
