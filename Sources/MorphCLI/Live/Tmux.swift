import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the tmux this process runs inside (if any) tells about the terminal
/// it shows us on: tmux answers queries itself, so its own options say what
/// the outer terminal takes.
enum Tmux {
  /// Whether this process runs inside tmux (`TMUX` is set).
  static var isInside: Bool { !(ProcessInfo.processInfo.environment["TMUX"] ?? "").isEmpty }

  /// Whether tmux passes 24-bit colour on: the attached client's features
  /// (`#{client_termfeatures}`) include `RGB`, or, with no client attached, a
  /// `terminal-features` entry for this pane's `TERM` does (or an old-style
  /// `terminal-overrides` `Tc`/`RGB`). nil outside tmux.
  static func clientHasRGB() -> Bool? {
    guard isInside else { return nil }
    let client =
      query(["display-message", "-p", "#{client_termfeatures}|#{client_termname}"]) ?? ""
    let parts = client.split(separator: "|", omittingEmptySubsequences: false)
    let features = parts.first.map(String.init) ?? ""
    if features.split(separator: ",").contains("RGB") { return true }
    let name =
      parts.count > 1 && !parts[1].isEmpty
      ? String(parts[1]) : ProcessInfo.processInfo.environment["TERM"] ?? ""
    let entries =
      (query(["show-options", "-sv", "terminal-features"]) ?? "")
      + "\n" + (query(["show-options", "-sv", "terminal-overrides"]) ?? "")
    return entries.split(separator: "\n").contains { entry in
      let fields = entry.split(separator: ":")
      guard let pattern = fields.first, fnmatch(String(pattern), name, 0) == 0 else { return false }
      return fields.dropFirst().contains { $0 == "RGB" || $0 == "Tc" }
    }
  }

  /// Whether tmux lets escape sequences through to the outer terminal
  /// (`allow-passthrough`, tmux 3.3 and later; earlier ones always did).
  static func allowsPassthrough() -> Bool {
    guard let value = query(["show-options", "-gv", "allow-passthrough"]) else { return true }
    return value.hasPrefix("on") || value.hasPrefix("all")
  }

  /// A tmux command's standard output, trimmed; nil when it fails or takes
  /// over a second (an answer that late is no answer).
  static func query(_ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    if done.wait(timeout: .now() + 1) == .timedOut {
      process.terminate()
      return nil
    }
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
