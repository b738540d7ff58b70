import Foundation

/// Every number a preview request carries, in its query or in its JSON body,
/// passes through here before anything computes with it. A value that is
/// not a number, is not finite or lies outside its route's range is refused
/// with one line (the route answers 400), so no request, from the page or
/// from a link on any other site, can trap the server on an overflow, spin a
/// loop to 1e308 or carry NaN into the session. The intervals are `Bounds`,
/// the rule the command line's numbers follow.
enum RequestNumbers {
  /// A refused value is echoed this far at most (a query may be 16 KiB).
  static let echoed = 40

  /// Counts the page sends back (samples and markers it has): whole numbers
  /// a page's JavaScript holds exactly, from 0.
  static let counts = 0...(1 << 53)

  /// A whole number from the query; `fallback` when the name is absent.
  static func int(
    _ query: [String: String], _ name: String, in range: ClosedRange<Int>, fallback: Int
  ) throws(UsageError) -> Int {
    guard let text = query[name] else { return fallback }
    guard let number = Int(text) else {
      throw UsageError("\(name) expects a whole number, got '\(shown(text))'")
    }
    guard range.contains(number) else {
      throw UsageError("\(name) must be in \(range.lowerBound)…\(range.upperBound), got \(number)")
    }
    return number
  }

  /// A number from the query; `fallback` when the name is absent.
  static func double(
    _ query: [String: String], _ name: String, in bounds: Bounds, fallback: Double
  ) throws(UsageError) -> Double {
    guard let text = query[name] else { return fallback }
    guard let number = Double(text), number.isFinite else {
      throw UsageError("\(name) expects a number, got '\(shown(text))'")
    }
    return try check(number, name, in: bounds)
  }

  /// A number already decoded (a JSON body's): finite and within `bounds`.
  @discardableResult
  static func check(_ number: Double, _ name: String, in bounds: Bounds) throws(UsageError)
    -> Double
  {
    guard number.isFinite, bounds.contains(number) else {
      throw UsageError("\(name) must be in \(bounds), got \(number)")
    }
    return number
  }

  /// The start of a refused text, on one line.
  static func shown(_ text: String) -> String {
    let start = terminalSafe(String(text.prefix(echoed)))
    return text.count > echoed ? start + "…" : start
  }
}
