import Foundation
import MorphCore
import MorphHost

extension PluginSession {
  /// The take as an input script: what an export plays to show what the
  /// timeline shows. A press and release in one place is a tap, one that moved
  /// a drag (its moves in between are the drag's own); hovers and progress stay
  /// as they were. Nil when the take is empty.
  public var takeScript: InputScript? {
    var events: [InputScript.Event] = []
    var pressed: SessionHistory.Marker?
    for marker in take {
      guard let kind = SessionInput.Kind(rawValue: marker.kind) else { continue }
      let point = marker.x.map { Point($0, marker.y ?? 0) }
      switch kind {
      case .down: pressed = marker
      case .move, .leave: continue
      case .up:
        guard let start = pressed, let from = start.x.map({ Point($0, start.y ?? 0) }),
          let to = point
        else { continue }
        pressed = nil
        let moved = hypot(to.x - from.x, to.y - from.y) > Self.tapSlop
        let action: InputScript.Action =
          moved ? .drag(from: from, to: to, duration: max(0, marker.time - start.time)) : .tap(from)
        events.append(InputScript.Event(time: start.time, action: action, line: 0))
      case .hover:
        if let point {
          events.append(InputScript.Event(time: marker.time, action: .hover(point), line: 0))
        }
      case .tap:
        events.append(InputScript.Event(time: marker.time, action: .tap(point), line: 0))
      case .progress:
        events.append(
          InputScript.Event(time: marker.time, action: .progress(marker.value ?? 0), line: 0))
      }
    }
    return events.isEmpty ? nil : InputScript(events: events)
  }

  /// Points a press may move and still be a tap in `takeScript`.
  public static let tapSlop = 4.0

  /// Seconds the timeline covers: from the take's start to the newest moment recorded.
  public var timelineEnd: Double {
    max(host?.time ?? 0, history?.lastTime ?? 0, take.last?.time ?? 0)
  }
}
