@testable import MorphScript

/// The script error `body` throws, or nil when it throws none (or another).
func scriptFailure(_ body: () throws -> Void) -> ScriptError? {
  do {
    try body()
    return nil
  } catch {
    return error as? ScriptError
  }
}
