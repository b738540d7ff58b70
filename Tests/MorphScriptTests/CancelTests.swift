import Foundation
import Testing

@testable import MorphScript

/// A host's other thread can stop a plugin that spins: the state's
/// canceller ends the running call as a spent budget would, and no `pcall`
/// inside the plugin can catch it.
@Suite struct CancelTests {
  @Test func anotherThreadStopsASpinningCall() throws {
    let state = try LuaState(
      limits: ScriptLimits(memoryCapMiB: 64, instructionBudget: 0, wallClockSeconds: 60))
    let canceller = state.canceller
    let started = Date()
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: 0.2)
      canceller.cancel()
    }
    do {
      _ = try state.evaluate(
        "while true do pcall(function() while true do end end) end", chunkName: "spin.lua")
      Issue.record("the spin returned")
    } catch {
      #expect(error.kind == .cancelled)
      #expect(error.description == "spin.lua:1: stopped: the host was asked to quit")
    }
    // Well before the 60 s wall clock; generous for a loaded machine.
    #expect(Date().timeIntervalSince(started) < 10)
  }
}
