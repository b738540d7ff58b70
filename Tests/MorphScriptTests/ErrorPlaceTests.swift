import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// Errors with their place (issue 36): each names where the fix goes.
@Suite struct ErrorPlaceTests {
  func failure(_ source: String, path: String = "p.lua") -> ScriptError? {
    do {
      let c = try ComponentInstance(path: path, source: source)
      _ = try c.view()
      return nil
    } catch {
      return error
    }
  }

  @Test func aTracebackShowsThePluginsFramesAndFoldsTheHosts() throws {
    let error = try #require(
      failure(
        """
        local m = morph
        local function helper(x) return x.y.z end
        return m.component {
          body = function(self)
            return m.rect():frame(helper({}), 10)
          end,
        }
        """))
    print(error.traceback ?? "none")
  }
}
