import Foundation
import MorphCore
import MorphRender

/// Streams frames through a bounded queue: display lists are made in order on
/// the calling thread (one Lua state), turned into results (raster, PNG) on
/// worker threads, and handed back in order on the calling thread. What is
/// in flight is bounded by bytes: each frame reserves `frameBytes` of a
/// `ByteBudget` before it is made and gives them back when it is handed over
/// (a stage that keeps the frame, as an APNG's compression does, takes the
/// bytes over), so memory grows neither with the number of frames nor with
/// their size; at most `window` frames wait, so the workers never wait on the
/// producer. Every result depends on its list alone, so the output is the
/// same byte for byte whatever the number of workers or the budget.
final class FramePipeline<Result>: @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [(index: Int, list: DisplayList)] = []
  private var finished: [Int: Result] = [:]
  private var failure: Error?
  private var closed = false

  /// Frames in flight per worker: enough that a worker never waits on the
  /// producer, few enough that memory stays small.
  static var framesPerWorker: Int { 2 }

  /// Runs `count` frames: `produce(i)` makes frame i's list, `work` turns it
  /// into a result on a worker (with that worker's own renderer), and
  /// `consume(i, result)` receives results in order. Each frame reserves
  /// `frameBytes` of `budget` before it is made and releases them just
  /// before it is consumed.
  static func run(
    count: Int, workers: Int, budget: ByteBudget, frameBytes: Int,
    produce: (Int) throws -> DisplayList,
    work: @escaping @Sendable (DisplayList, CairoRenderer) throws -> Result,
    consume: (Int, Result) throws -> Void
  ) throws {
    let pipeline = FramePipeline()
    let workers = max(1, min(workers, count))
    // Threads of their own, not Dispatch's pool: a worker waits on the
    // queue for most of its life, and pool threads blocked so starved other
    // work sent to the pool (APNG's compression ran 40 % slower).
    let group = DispatchGroup()
    for _ in 0..<workers {
      group.enter()
      Thread {
        pipeline.workLoop(work)
        group.leave()
      }.start()
    }
    defer {
      pipeline.close()
      group.wait()
    }
    try pipeline.drive(
      count: count, window: workers * framesPerWorker, budget: budget, frameBytes: frameBytes,
      produce: produce, consume: consume)
  }

  private func drive(
    count: Int, window: Int, budget: ByteBudget, frameBytes: Int,
    produce: (Int) throws -> DisplayList, consume: (Int, Result) throws -> Void
  ) throws {
    var produced = 0
    var consumed = 0
    // Bytes reserved for frames made and not yet consumed, given back on the way out.
    defer { budget.release((produced - consumed) * frameBytes) }
    while consumed < count {
      // A frame waits for room before it is made: while frames are in
      // flight it takes the next result off instead; with none, the bytes
      // it waits for are held downstream, and come back on their own.
      if produced < count && produced - consumed < window
        && (produced == consumed ? reserve(budget, frameBytes) : budget.tryReserve(frameBytes))
      {
        let list: DisplayList
        do {
          list = try produce(produced)
        } catch {
          budget.release(frameBytes)
          throw error
        }
        condition.withLock {
          jobs.append((produced, list))
          condition.signal()
        }
        produced += 1
        continue
      }
      let result = try condition.withLock { () throws -> Result in
        while finished[consumed] == nil && failure == nil { condition.wait() }
        if let failure { throw failure }
        return finished.removeValue(forKey: consumed)!
      }
      consumed += 1
      budget.release(frameBytes)
      try consume(consumed - 1, result)
    }
  }

  private func reserve(_ budget: ByteBudget, _ bytes: Int) -> Bool {
    budget.reserve(bytes)
    return true
  }

  private func workLoop(_ work: (DisplayList, CairoRenderer) throws -> Result) {
    let renderer = CairoRenderer()
    while let job = nextJob() {
      do {
        let result = try work(job.list, renderer)
        condition.withLock {
          finished[job.index] = result
          condition.broadcast()
        }
      } catch {
        condition.withLock {
          failure = failure ?? error
          condition.broadcast()
        }
        return
      }
    }
  }

  private func nextJob() -> (index: Int, list: DisplayList)? {
    condition.withLock {
      while jobs.isEmpty && !closed && failure == nil { condition.wait() }
      guard !closed, failure == nil, !jobs.isEmpty else { return nil }
      return jobs.removeFirst()
    }
  }

  private func close() {
    condition.withLock {
      closed = true
      jobs.removeAll()
      condition.broadcast()
    }
  }
}
