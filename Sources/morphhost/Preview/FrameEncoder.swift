import Foundation
import MorphCore
import MorphRender

/// Rasterises display lists and encodes them as PNG off the host's queue,
/// on up to one worker per core, so Lua, input and reloads never wait for
/// pixels. Frames are posted in the order they were made; one finished
/// after a newer one is dropped, and when every worker is busy only the
/// newest waiting frame is kept. Nothing is posted when neither the
/// pictures nor the status changed.
final class FrameEncoder: @unchecked Sendable {
  private struct Job {
    var id: Int
    var list: DisplayList?
    var status: PreviewStatus
    var scales: [Double]
  }

  private struct Posted {
    var list: DisplayList?
    var images: [Double: Data]
    var status: PreviewStatus
  }

  private let board: FrameBoard
  private let workers = DispatchQueue(label: "morphhost.preview.encode", attributes: .concurrent)
  private let limit = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
  // Guarded by `lock`.
  private let lock = NSLock()
  private var lastID = 0
  private var inFlight = 0
  private var waiting: Job?
  private var postedID = 0
  private var posted: Posted?
  private var renderers: [CairoRenderer] = []

  init(board: FrameBoard) { self.board = board }

  /// A new moment to show: its display list (nil when the plugin has not
  /// loaded), its status, and the scales the open tabs want.
  func submit(list: DisplayList?, status: PreviewStatus, scales: [Double]) {
    lock.lock()
    lastID += 1
    let job = Job(id: lastID, list: list, status: status, scales: scales)
    guard inFlight < limit else {
      waiting = job
      lock.unlock()
      return
    }
    inFlight += 1
    let renderer = renderers.popLast() ?? CairoRenderer()
    lock.unlock()
    start(job, renderer)
  }

  private func start(_ job: Job, _ renderer: CairoRenderer) {
    let work = UncheckedSendable((job, renderer))
    workers.async { self.run(work.value.0, work.value.1) }
  }

  private func run(_ job: Job, _ renderer: CairoRenderer) {
    lock.lock()
    // The same list as the last frame shown: its pictures still hold.
    let reusable = job.list != nil && posted?.list == job.list ? posted?.images ?? [:] : [:]
    lock.unlock()
    var status = job.status
    var images: [Double: Data] = [:]
    if let list = job.list {
      for scale in job.scales {
        if let image = reusable[scale] {
          images[scale] = image
          continue
        }
        do {
          let image = try renderer.render(list, scale: scale, background: .white)
          images[scale] = Data(try image.pngData())
        } catch {
          status.error = PreviewError(error)
        }
      }
    }
    lock.lock()
    renderers.append(renderer)
    inFlight -= 1
    // Posting under the lock keeps frames in order across workers.
    if job.id > postedID {
      postedID = job.id
      if posted?.status != status || posted?.images != images {
        board.post(status: status, images: images)
      }
      posted = Posted(list: job.list, images: images, status: status)
    }
    var next: (Job, CairoRenderer)?
    if let waiting {
      self.waiting = nil
      inFlight += 1
      next = (waiting, renderers.popLast() ?? CairoRenderer())
    }
    lock.unlock()
    if let next { start(next.0, next.1) }
  }
}
