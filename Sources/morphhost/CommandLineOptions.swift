/// A small command-line reader: `--name value`, `--name=value`, flags, and
/// positional arguments, with errors that say which option was wrong.
struct CommandLineOptions {
  private var arguments: [String]
  private var positional: [String] = []

  init(_ arguments: [String]) {
    self.arguments = arguments
  }

  /// The value of `name`, removed from the list; nil when absent.
  mutating func value(_ name: String) throws(UsageError) -> String? {
    var i = 0
    while i < arguments.count {
      let argument = arguments[i]
      if argument == "--" { return nil }
      if argument == name {
        guard i + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
        let value = arguments[i + 1]
        arguments.removeSubrange(i...(i + 1))
        return value
      }
      if argument.hasPrefix(name + "=") {
        arguments.remove(at: i)
        return String(argument.dropFirst(name.count + 1))
      }
      i += 1
    }
    return nil
  }

  /// Every value given for a repeatable option, in order.
  mutating func values(_ name: String) throws(UsageError) -> [String] {
    var found: [String] = []
    while let value = try value(name) { found.append(value) }
    return found
  }

  /// `--help` or `-h` anywhere before `--`.
  mutating func helpRequested() -> Bool { flag("--help") || flag("-h") }

  mutating func flag(_ name: String) -> Bool {
    guard let i = arguments.firstIndex(of: name) else { return false }
    if let end = arguments.firstIndex(of: "--"), end < i { return false }
    arguments.remove(at: i)
    return true
  }

  mutating func double(_ name: String) throws(UsageError) -> Double? {
    guard let text = try value(name) else { return nil }
    guard let number = Double(text), number.isFinite else {
      throw UsageError("\(name) expects a number, got '\(text)'")
    }
    return number
  }

  mutating func int(_ name: String) throws(UsageError) -> Int? {
    guard let text = try value(name) else { return nil }
    guard let number = Int(text) else {
      throw UsageError("\(name) expects a whole number, got '\(text)'")
    }
    return number
  }

  /// Positional arguments; anything left that looks like an option is an error.
  mutating func remaining() throws(UsageError) -> [String] {
    var result: [String] = []
    var afterDashes = false
    for argument in arguments {
      if afterDashes {
        result.append(argument)
      } else if argument == "--" {
        afterDashes = true
      } else if argument.hasPrefix("-") && argument.count > 1 && Double(argument) == nil {
        throw UsageError("unknown option '\(argument)'")
      } else {
        result.append(argument)
      }
    }
    arguments = []
    positional = result
    return result
  }

  /// The single positional argument (after options are read); `name` is for messages.
  mutating func positional(name: String) throws(UsageError) -> String {
    let positional = try remaining()
    guard positional.count == 1 else {
      throw UsageError(
        positional.isEmpty
          ? "expected a \(name); see --help" : "expected one \(name), got \(positional.count)")
    }
    return positional[0]
  }

  /// Fails on anything not consumed.
  mutating func finish() throws(UsageError) {
    let left = try remaining()
    if !left.isEmpty, positional != left || !left.isEmpty {
      throw UsageError("unexpected argument '\(left[0])'")
    }
  }
}
