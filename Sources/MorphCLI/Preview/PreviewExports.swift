import Foundation
import MorphCore
import MorphExport

/// Exports started from the page: each runs `Exporter` (the library's, so the
/// page writes what `morphhost export` writes) on a thread of its own into a
/// scratch folder, reports its progress, and is handed to the page once as a
/// download. At most `running` at once; a finished one not fetched is dropped
/// after `kept` newer ones, and everything goes when the server stops.
final class PreviewExports: @unchecked Sendable {
  /// The formats the page offers, in its order.
  static let formats: [ExportFormat] = [.gif, .mp4, .apng, .lottie, .filmstrip]
  static let running = 2
  static let kept = 8

  struct Progress: Encodable {
    var format: String
    var done = 0
    var total = 0
    var finished = false
    var error: String?
    /// The download's file name, once finished.
    var name: String?
  }

  private struct Job {
    var progress: Progress
    var path: String
  }

  private let lock = NSLock()
  private var jobs: [Int: Job] = [:]
  private var next = 1
  private var stopped = false
  private lazy var folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morphhost-preview-\(getpid())-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  /// The format a page names, one of `formats`.
  static func format(named name: String) throws(UsageError) -> ExportFormat {
    guard let format = ExportFormat(rawValue: name), formats.contains(format) else {
      throw UsageError(
        "unknown export format '\(RequestNumbers.shown(name))'; expected "
          + formats.map(\.rawValue).joined(separator: ", "))
    }
    return format
  }

  /// The extension a download of `format` gets.
  static func fileExtension(_ format: ExportFormat) -> String {
    switch format {
    case .filmstrip, .pngSequence: "png"
    default: ExportFormat.extensions.first { $0.format == format }?.name ?? format.rawValue
    }
  }

  /// Starts `exporter` writing `format`; the job's number.
  func start(_ exporter: Exporter, format: ExportFormat, name: String) throws -> Int {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { throw PreviewBusy(message: "the preview is stopping") }
    guard jobs.values.filter({ !$0.progress.finished }).count < Self.running else {
      throw PreviewBusy(message: "two exports are running; wait for one to finish")
    }
    let id = next
    next += 1
    let file = "\(name)-\(id).\(Self.fileExtension(format))"
    let path = folder.appendingPathComponent(file).path
    jobs[id] = Job(progress: Progress(format: format.rawValue), path: path)
    dropOld()
    let work = exporter
    Thread.detachNewThread { [self] in
      let observer = ExportObserver(
        frameDone: { [self] done, total in
          update(id) {
            $0.done = done
            $0.total = total
          }
        },
        isCancelled: { [self] in isStopped })
      do {
        try work.write(to: URL(fileURLWithPath: path), format: format, observer: observer)
        update(id) {
          $0.finished = true
          $0.name = "\(name).\(Self.fileExtension(format))"
        }
      } catch {
        try? FileManager.default.removeItem(atPath: path)
        update(id) {
          $0.finished = true
          $0.error = PreviewRoutes.oneLine((error as? any Diagnostic)?.message ?? "\(error)")
        }
      }
    }
    return id
  }

  private var isStopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  private func update(_ id: Int, _ change: (inout Progress) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    if var job = jobs[id] {
      change(&job.progress)
      jobs[id] = job
    }
  }

  /// Finished jobs past the newest `kept` go, with their files.
  private func dropOld() {
    let finished = jobs.filter { $0.value.progress.finished }.keys.sorted()
    for id in finished.dropLast(Self.kept) {
      try? FileManager.default.removeItem(atPath: jobs[id]!.path)
      jobs[id] = nil
    }
  }

  func progress(_ id: Int) -> Progress? {
    lock.lock()
    defer { lock.unlock() }
    return jobs[id]?.progress
  }

  /// The finished file's bytes and name, once: the job and its file go.
  func take(_ id: Int) -> (bytes: Data, name: String)? {
    lock.lock()
    guard let job = jobs[id], job.progress.finished, let name = job.progress.name else {
      lock.unlock()
      return nil
    }
    jobs[id] = nil
    lock.unlock()
    defer { try? FileManager.default.removeItem(atPath: job.path) }
    guard let bytes = FileManager.default.contents(atPath: job.path) else { return nil }
    return (bytes, name)
  }

  /// Cancels what runs and removes the scratch folder (the running exports
  /// notice before their next frame and remove what they wrote).
  func stop() {
    lock.lock()
    stopped = true
    let hadFolder = !jobs.isEmpty || next > 1
    lock.unlock()
    if hadFolder { try? FileManager.default.removeItem(at: folder) }
  }
}
