import Testing

@testable import MorphScript

/// `ScriptLimits` is public (an embedding host fills it in; the command line checks its
/// own options): a cap that is not a sensible number must not trap converting it to bytes.
@Suite struct NumericLimitTests {
  static let values: [Double] = [
    1e6, 1e300, -1e300, -0.0, .nan, .infinity, -.infinity, 4.9e-324, 0x1p53, 0x1p63,
  ]

  @Test(arguments: values)
  func memoryCaps(_ mib: Double) throws {
    let limits = ScriptLimits(memoryCapMiB: mib, instructionBudget: 1_000_000)
    #expect(!limits.memoryMessage.contains("\n"))
    // A cap too small for a state is refused in one line; any other runs code.
    do {
      let state = try LuaState(limits: limits)
      _ = try state.evaluate("return 1 + 1", chunkName: "t.lua")
    } catch {
      #expect(!error.description.contains("\n"), "\(error)")
    }
  }

  /// Any budget runs or stops a chunk; it never traps.
  @Test(arguments: [1_000_000, Int.max, Int.min, 0, -1])
  func instructionBudgets(_ budget: Int) throws {
    let state = try LuaState(limits: ScriptLimits(instructionBudget: budget))
    do {
      _ = try state.evaluate("return 1 + 1", chunkName: "t.lua")
    } catch {
      #expect(!error.description.contains("\n"))
    }
  }
}
