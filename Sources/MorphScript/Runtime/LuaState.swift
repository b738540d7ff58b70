import CLua
import CMorphLua
import MorphCore

/// Limits applied to every call from the host into Lua code.
public struct ScriptLimits: Sendable, Equatable {
  /// Bytes the Lua heap may hold, in MiB; 0 for no cap.
  public var memoryCapMiB: Double
  /// Lua VM instructions one call may run; 0 for no budget.
  public var instructionBudget: Int
  /// Seconds one call may take on the wall clock; 0 for no limit.
  public var wallClockSeconds: Double

  public init(
    memoryCapMiB: Double = 64, instructionBudget: Int = 200_000_000,
    wallClockSeconds: Double = 2
  ) {
    self.memoryCapMiB = memoryCapMiB
    self.instructionBudget = instructionBudget
    self.wallClockSeconds = wallClockSeconds
  }

  /// 64 MiB, 200 million instructions, 2 s per call.
  public static let standard = ScriptLimits()

  /// Seconds the host may work for a plugin outside Lua in one call or frame (text
  /// layout): the same wall clock as a call; nil when there is none.
  public var hostWorkSeconds: Double? { wallClockSeconds > 0 ? wallClockSeconds : nil }

  /// What a plugin over the memory cap is told: `not enough memory (cap 64 MiB)`.
  public var memoryMessage: String {
    let mib = memoryCapMiB
    let whole = mib == mib.rounded() && abs(mib) < 1e15
    return "not enough memory (cap \(whole ? String(Int(mib)) : String(mib)) MiB)"
  }
}

/// A Lua 5.4 state running untrusted chunks in sandboxed environments.
///
/// This is the only type that owns a `lua_State`. It is not thread-safe: use
/// one state per thread (or per plugin).
public final class LuaState {
  /// The raw state, for bindings inside this module.
  let lua: OpaquePointer
  private let limitsPointer: UnsafeMutablePointer<morph_limits>
  /// Where `print` in a chunk writes, one call per printed line.
  public var output: (String) -> Void = { print($0) }
  public let limits: ScriptLimits
  /// What `morph.measureText` measures with; a host that lays text out sets
  /// its own, so the two agree.
  public var textMeasure: TextMeasuring
  private var sandboxFactory: LuaRef?
  private var moduleTable: LuaRef?
  /// `Lua/support.lua`'s table, for trusted files installed after start-up.
  private var supportTable: LuaValue = .nil
  /// The functions of `Lua/component.lua` that drive a component instance.
  private(set) var componentRuntime: LuaRef?
  /// Receives `self:animate` and state changes from the component running here.
  weak var animationHost: AnimationHost?
  /// The folder `morph.import` reads from (the plugin's); nil forbids imports.
  public var moduleDirectory: String?
  /// Files `morph.import` has read since the last `forgetImports()`.
  public internal(set) var importedFiles: [String] = []
  /// `morph.image` handles by real path, with the file version each was read at.
  var images: [String: (stamp: String, handle: LuaRef)] = [:]
  private var forgetModules: LuaRef?
  /// `NodeSchema.pushOpNumbers`' table, for reading node trees.
  private(set) var nodeOpNumbers: LuaRef?
  /// Short names inside Lua for long paths, expanded in every error.
  private var chunkNames = ChunkNames()
  /// Advice the bindings noted while the plugin ran (where: `file:line: `, and what), each once, at
  /// most `maxNotes`): what `check` prints as warnings.
  public private(set) var notes: [(location: String, text: String)] = []
  static let maxNotes = 32

  /// `file:line: ` of the plugin line running now (as `luaL_where`, skipping C functions
  /// and the host's own chunks), its alias expanded; empty when no plugin line runs.
  func pluginWhere() -> String {
    var ar = lua_Debug()
    var level: Int32 = 0
    while lua_getstack(lua, level, &ar) != 0, level < 64 {
      lua_getinfo(lua, "Sl", &ar)
      let source = ar.source.map { String(cString: $0) } ?? ""
      if ar.currentline > 0 && !source.hasPrefix("=morph.") {
        let short = withUnsafeBytes(of: &ar.short_src) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return chunkNames.expand("\(short):\(ar.currentline): ")
      }
      level += 1
    }
    return ""
  }

  /// Notes `text` at the plugin line that called the running host function.
  func note(_ text: String) {
    guard notes.count < Self.maxNotes else { return }
    let location = pluginWhere()
    if !notes.contains(where: { $0 == (location, text) }) { notes.append((location, text)) }
  }

  /// What Lua calls the file at `path` (without `@`): short enough that Lua
  /// never cuts it; errors name `path` in full.
  func chunkName(forFile path: String) -> String { chunkNames.chunkName(for: path) }

  /// Drops imported modules so the next import reads them again (hot reload).
  public func forgetImports() throws(ScriptError) {
    importedFiles = []
    if let forgetModules { try call(forgetModules) }
  }

  public init(
    limits: ScriptLimits = .standard, textMeasure: TextMeasuring = ApproximateTextMeasure()
  ) throws(ScriptError) {
    self.limits = limits
    self.textMeasure = textMeasure
    limitsPointer = .allocate(capacity: 1)
    limitsPointer.initialize(to: morph_limits())
    limitsPointer.pointee.cap = Self.bytes(fromMiB: limits.memoryCapMiB)
    limitsPointer.pointee.budget = Int64(limits.instructionBudget)
    limitsPointer.pointee.wall_limit = limits.wallClockSeconds
    guard let state = morph_newstate(limitsPointer) else {
      limitsPointer.deallocate()
      throw ScriptError(kind: .memory, message: "could not create a Lua state")
    }
    lua = state
    morph_extraspace(lua).pointee = Unmanaged.passUnretained(self).toOpaque()
    luaL_openlibs(lua)
    morph_openbounded(lua)
    try installSandbox()
  }

  deinit {
    lua_close(lua)
    limitsPointer.deallocate()
  }

  /// The cap in bytes: 0 (no cap) unless `mib` is a positive number (NaN included), and
  /// 2^62 at most (more than any machine has), so an embedding host's number cannot trap
  /// converting. The command line allows (0, 4096].
  private static func bytes(fromMiB mib: Double) -> Int {
    guard mib > 0 else { return 0 }
    return Int(min(mib * 1024 * 1024, 0x1p62).rounded(.up))
  }

  /// The Swift object that owns a raw state (set at creation).
  static func owner(of lua: OpaquePointer) -> LuaState {
    Unmanaged<LuaState>.fromOpaque(morph_extraspace(lua).pointee!).takeUnretainedValue()
  }

  /// A handle that stops whatever this state runs, from any thread: for a
  /// host whose input thread must be able to quit while a plugin spins.
  public var canceller: Canceller { Canceller(limits: limitsPointer) }

  public struct Canceller: @unchecked Sendable {
    fileprivate let limits: UnsafeMutablePointer<morph_limits>

    /// Stops the running call (and every later one) as soon as Lua next
    /// checks its limits, within about a thousand instructions.
    public func cancel() { morph_cancel(limits) }
  }

  /// Bytes the Lua heap holds now.
  public var memoryInUse: Int { limitsPointer.pointee.used }

  // MARK: Loading and calling

  /// Compiles a text chunk (binary chunks are refused) whose `_ENV` is `env`,
  /// or a fresh sandbox when `env` is nil. `chunkName` is what errors show:
  /// pass a file path for files.
  public func load(_ code: String, chunkName: String, env: LuaRef? = nil) throws(ScriptError)
    -> LuaRef
  {
    try load(Array(code.utf8), chunkName: chunkName, env: env)
  }

  /// `load` of source bytes as they are in the file: Lua strings are bytes, so a byte that
  /// is not UTF-8 reaches the chunk unchanged.
  public func load(_ code: [UInt8], chunkName: String, env: LuaRef? = nil) throws(ScriptError)
    -> LuaRef
  {
    let environment: LuaRef
    if let env { environment = env } else { environment = try newEnvironment() }
    let status = loadText(code, name: "@" + self.chunkName(forFile: chunkName))
    if status != LUA_OK { throw popError(status: status).framed(in: code) }
    push(environment)
    // A main chunk's first upvalue is its _ENV.
    _ = lua_setupvalue(lua, -2, 1)
    return LuaRef(popping: self)
  }

  /// Compiles text (embedded NULs kept) onto the stack; returns Lua's status.
  private func loadText(_ code: [UInt8], name: String) -> Int32 {
    code.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { chars in
        morph_loadtext(lua, chars.baseAddress, chars.count, name)
      }
    }
  }

  /// Calls `function` with `args` under the limits, returning its results.
  @discardableResult
  public func call(_ function: LuaRef, _ args: [LuaValue] = []) throws(ScriptError) -> [LuaValue] {
    let base = lua_gettop(lua)
    push(function)
    for arg in args { push(arg) }
    return try protectedCall(base: base, nargs: Int32(args.count))
  }

  /// How many times the host has called into Lua: what a frame costs in
  /// boundary crossings (`morphhost bench` reports it per frame).
  public private(set) var entryCount = 0

  /// Runs the function on top of the stack (above `base`) with `nargs` args.
  func protectedCall(base: Int32, nargs: Int32) throws(ScriptError) -> [LuaValue] {
    entryCount += 1
    morph_resetbudget(lua)
    let status = morph_pcall(lua, nargs, LUA_MULTRET)
    if status != LUA_OK { throw popError(status: status) }
    let top = lua_gettop(lua)
    var results: [LuaValue] = []
    if top > base {
      for i in (base + 1)...top { results.append(value(at: i)) }
    }
    lua_settop(lua, base)
    return results
  }

  /// Converts the error on top of the stack into a `ScriptError` and pops it.
  private func popError(status: Int32) -> ScriptError {
    let raw = chunkNames.expand(
      morph_tostring(lua, -1).map { String(cString: $0) } ?? "(error object is not a string)")
    morph_pop(lua, 1)
    let stop = limitsPointer.pointee.stopped
    limitsPointer.pointee.stopped = Int32(MORPH_RUNNING)
    if status == LUA_ERRMEM || stop == Int32(MORPH_STOP_MEMORY)
      || raw.hasPrefix("not enough memory") || raw.contains(": not enough memory")
    {
      var error = ScriptError.parse(raw, kind: .memory)
      if error.chunk == nil {
        // The allocator's refusal has no position: the line last seen filling the heap.
        let near = ScriptError.parse(
          chunkNames.expand(String(cString: morph_nearcap(lua))) + "x", kind: .memory)
        (error.chunk, error.line) = (near.chunk, near.line)
      }
      error.message = limits.memoryMessage
      morph_collect(lua)  // the refused call's garbage must not greet the next one
      return error
    }
    if stop == Int32(MORPH_STOP_CANCEL) { return ScriptError.parse(raw, kind: .cancelled) }
    if stop == Int32(MORPH_STOP_BUDGET) {
      // The message is the C side's own (morph_pushbudgetmessage): no plugin
      // code runs once a call is stopped, so none can have changed it.
      return ScriptError.parse(raw, kind: .timeBudget)
    }
    return ScriptError.parse(raw, kind: status == LUA_ERRSYNTAX ? .syntax : .runtime)
  }

  // MARK: Environments

  /// A fresh sandboxed environment with `morph` and the safe standard library.
  public func newEnvironment() throws(ScriptError) -> LuaRef {
    guard let factory = sandboxFactory, let module = moduleTable else {
      throw ScriptError(kind: .runtime, message: "sandbox is not installed")
    }
    let results = try call(factory, [.ref(module)])
    guard case .table(let env)? = results.first else {
      throw ScriptError(kind: .runtime, message: "sandbox factory returned no table")
    }
    return env
  }

  /// Builds `morph` (Swift bindings, then its Lua parts, which may still use
  /// the full library), then runs the sandbox prelude, which closes it.
  private func installSandbox() throws(ScriptError) {
    MorphModule.open(self)
    let module = LuaRef(popping: self)
    var support: [LuaValue] = []
    try runTrusted(LuaSources.support, name: "morph.support", results: &support) {
      self.pushDebugFunctions()
      morph_pushhostpcall(self.lua)
      morph_pushhostfn(self.lua, SwiftUINames.nearest, 0)
      SwiftUINames.push(self.lua)
    }
    let supportTable = support.first ?? .nil
    self.supportTable = supportTable
    try runTrusted(LuaSources.paths, name: "morph.paths") {
      self.push(module)
      self.push(supportTable)
    }
    try runTrusted(LuaSources.nodes, name: "morph.nodes") {
      self.push(module)
      self.push(supportTable)
      NodeSchema.push(self.lua)
      morph_pushhostfn(self.lua, TextBindings.measure, 0)
      ImageBindings.define(self.lua)
      morph_pushhostfn(self.lua, ImageBindings.open, 0)
    }
    var runtime: [LuaValue] = []
    try runTrusted(LuaSources.component, name: "morph.component", results: &runtime) {
      self.push(module)
      ComponentHostFunctions.push(self.lua)
      self.push(supportTable)
    }
    guard case .table(let runtimeTable)? = runtime.first else {
      throw ScriptError(kind: .runtime, message: "component runtime returned no table")
    }
    componentRuntime = runtimeTable
    NodeSchema.pushOpNumbers(lua)
    nodeOpNumbers = LuaRef(popping: self)
    var results: [LuaValue] = []
    try runTrusted(LuaSources.sandbox, name: "morph.sandbox", results: &results) {
      morph_pushhostfn(self.lua, Sandbox.hostWrite, 0)
      self.push(module)
      morph_pushhostfn(self.lua, Sandbox.readModule, 0)
      self.push(supportTable)
      lua_pushcclosure(self.lua, morph_untail, 0)
    }
    guard case .function(let factory)? = results.first,
      case .function(let forget)? = results.dropFirst().first
    else {
      throw ScriptError(kind: .runtime, message: "sandbox prelude returned no factory")
    }
    sandboxFactory = factory
    forgetModules = forget
    moduleTable = module
  }

  /// Adds `morph.test` (`Lua/testing.lua`) to this state, for a test file; returns the
  /// function that encodes what a test file returned as JSON.
  func installTestVocabulary() throws(ScriptError) -> LuaRef {
    guard let module = moduleTable else {
      throw ScriptError(kind: .runtime, message: "sandbox is not installed")
    }
    var results: [LuaValue] = []
    try runTrusted(LuaSources.testing, name: "morph.testing", results: &results) {
      self.push(module)
      self.push(self.supportTable)
      // The numbers `TestCheck` owns, for the constructors to check where they are called.
      lua_createtable(self.lua, 0, 3)
      for (key, value) in [
        ("minScale", TestCheck.scales.lowerBound), ("maxScale", TestCheck.scales.upperBound),
        ("nameLength", Double(TestCheck.maxNameLength)),
        ("maxCluster", Double(TestCheck.maxSnapshotCluster)),
      ] {
        // Whole numbers as integers, so messages show `4`, not `4.0`.
        if value == value.rounded() {
          lua_pushinteger(self.lua, lua_Integer(value))
        } else {
          lua_pushnumber(self.lua, value)
        }
        lua_setfield(self.lua, -2, key)
      }
    }
    guard case .function(let encode)? = results.first else {
      throw ScriptError(kind: .runtime, message: "the test vocabulary returned no encoder")
    }
    return encode
  }

  /// `debug.getinfo` and `debug.traceback`, for trusted files that blame
  /// errors on the plugin's line and keep its stack; the sandbox prelude
  /// removes `debug` afterwards. [-0, +2, -]
  private func pushDebugFunctions() {
    _ = lua_getglobal(lua, "debug")
    _ = lua_getfield(lua, -1, "getinfo")
    _ = lua_getfield(lua, -2, "traceback")
    lua_rotate(lua, -3, -1)
    morph_pop(lua, 1)
  }

  /// Runs host Lua code (not a plugin) with the arguments `pushArguments` pushes.
  private func runTrusted(
    _ code: String, name: String, results: inout [LuaValue], pushArguments: () -> Void
  ) throws(ScriptError) {
    let base = lua_gettop(lua)
    let status = loadText(Array(code.utf8), name: "=" + name)
    if status != LUA_OK { throw popError(status: status) }
    pushArguments()
    results = try protectedCall(base: base, nargs: lua_gettop(lua) - base - 1)
  }

  private func runTrusted(_ code: String, name: String, pushArguments: () -> Void)
    throws(ScriptError)
  {
    var ignored: [LuaValue] = []
    try runTrusted(code, name: name, results: &ignored, pushArguments: pushArguments)
  }

  /// Runs a chunk of text in a fresh sandbox and returns its results.
  public func evaluate(_ code: String, chunkName: String) throws(ScriptError) -> [LuaValue] {
    try evaluate(Array(code.utf8), chunkName: chunkName)
  }

  /// `evaluate` of source bytes, unchanged.
  public func evaluate(_ code: [UInt8], chunkName: String) throws(ScriptError) -> [LuaValue] {
    let function = try load(code, chunkName: chunkName)
    return try call(function)
  }

  /// How `morphhost eval` shows a value: Lua's `tostring` for scalars and
  /// objects, a sorted, nested listing for tables.
  public func describe(_ value: LuaValue) throws(ScriptError) -> String {
    guard let inspect = inspectFunction else { return "\(value)" }
    let results = try call(inspect, [value])
    if case .string(let text)? = results.first { return text }
    return "\(value)"
  }

  private lazy var inspectFunction: LuaRef? = {
    let code = LuaSources.inspect
    guard let function = try? load(code, chunkName: "morph.inspect") else { return nil }
    return (try? call(function))?.first?.functionRef
  }()

  // MARK: Values

  /// A new Lua array of integers (or an empty table), built without running code.
  public func makeArray(_ values: [Int] = []) -> LuaValue {
    lua_createtable(lua, Int32(values.count), 0)
    for (i, v) in values.enumerated() {
      lua_pushinteger(lua, lua_Integer(v))
      lua_rawseti(lua, -2, lua_Integer(i + 1))
    }
    return .table(LuaRef(popping: self))
  }

  /// How many references (`LuaRef`) the registry holds now: its integer slots that hold
  /// a value other than a number (a released slot holds the next free one's number).
  var heldReferences: Int {
    var count = 0
    lua_pushnil(lua)
    while lua_next(lua, morph_registryindex()) != 0 {
      if lua_isinteger(lua, -2) != 0, lua_type(lua, -1) != LUA_TNUMBER { count += 1 }
      morph_pop(lua, 1)
    }
    return count
  }

  func push(_ ref: LuaRef) {
    lua_rawgeti(lua, morph_registryindex(), lua_Integer(ref.index))
  }

  /// Where the Lua function `ref` was written: its file and first line (nil for a C
  /// function or one loaded from a string). What a frame-level error (the frame budget)
  /// points at when no one line made it: the body that built the frame.
  public func definition(of ref: LuaRef) -> FilePosition? {
    let top = lua_gettop(lua)
    defer { lua_settop(lua, top) }
    push(ref)
    guard lua_type(lua, -1) == LUA_TFUNCTION else { return nil }
    var info = lua_Debug()
    guard lua_getinfo(lua, ">S", &info) != 0, info.linedefined > 0, let source = info.source,
      source.pointee == CChar(UInt8(ascii: "@"))
    else { return nil }
    return FilePosition(
      file: chunkNames.expand(String(cString: source + 1)), line: Int(info.linedefined))
  }

  /// `definition(of:)` of the function in `table`'s field `name`.
  public func definition(of name: String, in table: LuaRef) -> FilePosition? {
    let top = lua_gettop(lua)
    defer { lua_settop(lua, top) }
    push(table)
    guard lua_type(lua, -1) == LUA_TTABLE, morph_rawgetfield(lua, -1, name) == LUA_TFUNCTION
    else { return nil }
    let function = LuaRef(popping: self)
    return definition(of: function)
  }

  func push(_ value: LuaValue) {
    switch value {
    case .nil: lua_pushnil(lua)
    case .boolean(let b): lua_pushboolean(lua, b ? 1 : 0)
    case .number(let n): lua_pushnumber(lua, n)
    case .integer(let i): lua_pushinteger(lua, lua_Integer(i))
    case .string(let s): lua_pushstring(lua, s)
    case .table(let r), .function(let r), .other(let r): push(r)
    }
  }

  /// A Swift view of the value at `index`; tables and functions become refs.
  func value(at index: Int32) -> LuaValue {
    switch lua_type(lua, index) {
    case LUA_TNIL, LUA_TNONE: return .nil
    case LUA_TBOOLEAN: return .boolean(lua_toboolean(lua, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(lua, index) != 0 { return .integer(Int(morph_tointeger(lua, index))) }
      return .number(morph_tonumber(lua, index))
    case LUA_TSTRING: return .string(stringValue(at: index))
    case LUA_TTABLE:
      lua_pushvalue(lua, index)
      return .table(LuaRef(popping: self))
    case LUA_TFUNCTION:
      lua_pushvalue(lua, index)
      return .function(LuaRef(popping: self))
    default:
      lua_pushvalue(lua, index)
      return .other(LuaRef(popping: self))
    }
  }

  /// `t[1], t[2]` of the table at `index` as numbers (NaN where they are not):
  /// how `size = {w, h}` and ranges are written.
  func numberPair(at index: Int32) -> (Double, Double) {
    let table = lua_absindex(lua, index)
    lua_rawgeti(lua, table, 1)
    lua_rawgeti(lua, table, 2)
    defer { morph_pop(lua, 2) }
    let a = lua_type(lua, -2) == LUA_TNUMBER ? morph_tonumber(lua, -2) : .nan
    let b = lua_type(lua, -1) == LUA_TNUMBER ? morph_tonumber(lua, -1) : .nan
    return (a, b)
  }

  /// The string at `index` (which must be a string or number), bytes kept.
  func stringValue(at index: Int32) -> String {
    var length = 0
    guard let bytes = lua_tolstring(lua, index, &length) else { return "" }
    let buffer = UnsafeRawBufferPointer(start: bytes, count: length)
    return String(decoding: buffer, as: UTF8.self)
  }
}

/// A value crossing between Swift and Lua.
public enum LuaValue: CustomStringConvertible {
  case `nil`
  case boolean(Bool)
  case number(Double)
  case integer(Int)
  case string(String)
  case table(LuaRef)
  case function(LuaRef)
  /// Userdata, threads: kept by reference.
  case other(LuaRef)

  static func ref(_ r: LuaRef) -> LuaValue { .table(r) }

  public var functionRef: LuaRef? {
    if case .function(let r) = self { return r }
    return nil
  }

  public var description: String {
    switch self {
    case .nil: return "nil"
    case .boolean(let b): return String(b)
    case .number(let n): return String(n)
    case .integer(let i): return String(i)
    case .string(let s): return s
    case .table: return "table"
    case .function: return "function"
    case .other: return "userdata"
    }
  }
}

/// A value held in the Lua registry so the garbage collector keeps it.
/// Released when the last Swift reference goes away.
public final class LuaRef {
  let index: Int32
  private weak var state: LuaState?

  /// Takes the value on top of the stack into the registry.
  init(popping state: LuaState) {
    self.state = state
    index = luaL_ref(state.lua, morph_registryindex())
  }

  // A ref that outlives its state has nothing left to release.
  deinit {
    if let state { luaL_unref(state.lua, morph_registryindex(), index) }
  }
}
