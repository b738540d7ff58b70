import CLua
import CMorphLua
import MorphCore

/// One record being read: its table on the stack, the op `NodeSchema`
/// declares for it, and the node it belongs to (for messages).
struct Record {
  let table: Int32
  let op: NodeSchema.Op
  /// The node's place in the tree (`body.zstack[2]`).
  let at: String

  /// Where messages say the record is: the node, or `node:modifier`. Made
  /// only when needed, as most records never fail.
  var path: String { op.role == .modifier ? "\(at):\(op.name)" : at }
}

/// Reading a record's fields by key. Each accessor reads only a field the
/// schema declares with its kind (asking for another is a reader bug, caught
/// by the parity tests); an absent optional field gives the schema's default
/// for it, or nil where it declares none. The Lua
/// checker already guaranteed every value, so a value of the wrong kind means
/// a tampered tree: one message, naming the field and what it must hold.
extension SceneReader {
  /// Pushes field `name` and returns its Lua type, or returns nil (pushing
  /// nothing) when an optional field is absent, with the field's declaration.
  private func push(_ r: Record, _ name: String, _ kind: NodeSchema.Kind) throws(ScriptError)
    -> (type: Int32?, field: NodeSchema.Field)
  {
    guard let i = r.op.fields.firstIndex(where: { $0.name == name }),
      r.op.fields[i].kind.matches(kind)
    else { throw undeclared(r, name) }
    let field = r.op.fields[i]
    let type = morph_rawgetfield(lua, r.table, field.key)
    if type == LUA_TNIL && field.optional {
      morph_pop(lua, 1)
      return (nil, field)
    }
    return (type, field)
  }

  /// A field the schema gives a default (or requires): never nil once read;
  /// nil here means the schema lost the default, a reader bug the parity tests catch.
  func defaulted<T>(_ value: T?) throws(ScriptError) -> T {
    guard let value else {
      throw ScriptError(kind: .value, message: "reader bug: a defaulted field read nil")
    }
    return value
  }

  private func undeclared(_ r: Record, _ name: String) -> ScriptError {
    fail(
      r.path, "reader bug: NodeSchema declares no field '\(name)' of that kind for '\(r.op.name)'")
  }

  /// The message for the value on top of the stack (which it pops).
  private func wrong(_ r: Record, _ name: String, _ kind: NodeSchema.Kind) -> ScriptError {
    defer { morph_pop(lua, 1) }
    return fail(r.path, "field '\(name)': \(kind.expectation) expected, got \(typeName(-1))")
  }

  /// Reads field `name` of `kind` with `body`, which sees the value on top of
  /// the stack and returns nil when it is not of the kind.
  private func field<T>(
    _ r: Record, _ name: String, _ kind: NodeSchema.Kind, _ body: (Int32) -> T?
  ) throws(ScriptError) -> T? {
    let (type, field) = try push(r, name, kind)
    guard let type else {
      guard let fallback = field.defaultValue else { return nil }
      guard let value = fallback.value as? T else {
        throw fail(r.path, "reader bug: NodeSchema's default for '\(name)' is not a \(T.self)")
      }
      return value
    }
    guard let value = body(type) else { throw wrong(r, name, kind) }
    morph_pop(lua, 1)
    return value
  }

  private func numberOnTop(_ type: Int32) -> Double? {
    type == LUA_TNUMBER ? morph_tonumber(lua, -1) : nil
  }

  func number(_ r: Record, _ name: String) throws(ScriptError) -> Double? {
    try field(r, name, .number) { numberOnTop($0).flatMap { $0.isFinite ? $0 : nil } }
  }

  func length(_ r: Record, _ name: String) throws(ScriptError) -> Double? {
    try field(r, name, .length) { numberOnTop($0).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
  }

  func fontSize(_ r: Record, _ name: String) throws(ScriptError) -> Double? {
    try field(r, name, .fontSize) { type in
      numberOnTop(type).flatMap { $0 >= 0 && $0 <= FrameBudget.standard.maxFontSize ? $0 : nil }
    }
  }

  func extent(_ r: Record, _ name: String) throws(ScriptError) -> Double? {
    try field(r, name, .extent) { numberOnTop($0).flatMap { $0 >= 0 ? $0 : nil } }
  }

  func string(_ r: Record, _ name: String) throws(ScriptError) -> String? {
    try field(r, name, .string) { $0 == LUA_TSTRING ? state.stringValue(at: -1) : nil }
  }

  func flag(_ r: Record, _ name: String) throws(ScriptError) -> Bool? {
    try field(r, name, .flag) { $0 == LUA_TBOOLEAN ? lua_toboolean(lua, -1) != 0 : nil }
  }

  func count(_ r: Record, _ name: String) throws(ScriptError) -> Int? {
    try field(r, name, .count) { type in
      numberOnTop(type).flatMap { $0 >= 1 && $0 <= 1e9 && $0.rounded() == $0 ? Int($0) : nil }
    }
  }

  /// A name of the enumeration the schema declares for the field, as `T`.
  func choice<T: RawRepresentable>(_ r: Record, _ name: String, as type: T.Type)
    throws(ScriptError) -> T? where T.RawValue == String
  {
    guard case .choice(let enumeration)? = r.op.field(name)?.kind else {
      throw undeclared(r, name)
    }
    return try field(r, name, .choice(enumeration)) {
      $0 == LUA_TSTRING ? T(rawValue: state.stringValue(at: -1)) : nil
    }
  }

  func anchor(_ r: Record, _ name: String) throws(ScriptError) -> Alignment? {
    try field(r, name, .anchor) { _ in anchorOnTop() }
  }

  /// A name (`"bottom"`) or `{x, y}` on top of the stack.
  private func anchorOnTop() -> Alignment? {
    switch lua_type(lua, -1) {
    case LUA_TSTRING:
      let name = state.stringValue(at: -1)
      return Alignment.named.first { $0.0 == name }?.1
    case LUA_TTABLE:
      let (x, y) = state.numberPair(at: -1)
      return x.isFinite && y.isFinite ? Alignment(x: x, y: y) : nil
    default: return nil
    }
  }

  func paint(_ r: Record, _ name: String) throws(ScriptError) -> Paint? {
    let (type, field) = try push(r, name, .paint)
    guard type != nil else { return field.defaultValue?.value as? Paint }
    defer { morph_pop(lua, 1) }
    if let color = ColorBindings.type.value(lua, at: -1) { return .color(color) }
    return try readGradient(-1, path: r.path + "." + name)
  }

  func boolean(_ r: Record, _ name: String) throws(ScriptError) -> Bool? {
    try field(r, name, .boolean) { $0 == LUA_TBOOLEAN ? lua_toboolean(lua, -1) != 0 : nil }
  }

  func image(_ r: Record, _ name: String) throws(ScriptError) -> ImageSource? {
    try field(r, name, .image) { _ in ImageBindings.type.value(lua, at: -1) }
  }

  /// A function kept by reference (a shape's path function), not a handler.
  func function(_ r: Record, _ name: String) throws(ScriptError) -> LuaRef? {
    guard let type = try push(r, name, .handler).type else { return nil }
    guard type == LUA_TFUNCTION else { throw wrong(r, name, .handler) }
    return LuaRef(popping: state)
  }

  func color(_ r: Record, _ name: String) throws(ScriptError) -> Color? {
    try field(r, name, .color) { _ in ColorBindings.type.value(lua, at: -1) }
  }

  func path(_ r: Record, _ name: String) throws(ScriptError) -> Path? {
    try field(r, name, .path) { _ in
      PathBindings.type.value(lua, at: -1).flatMap { $0.isFinite ? $0 : nil }
    }
  }

  func lengths(_ r: Record, _ name: String) throws(ScriptError) -> [Double]? {
    try field(r, name, .lengths) { type in
      guard type == LUA_TTABLE else { return nil }
      let table = lua_gettop(lua)
      var values: [Double] = []
      for i in 0..<Int(lua_rawlen(lua, table)) {
        lua_rawgeti(lua, table, lua_Integer(i + 1))
        let v = numberOnTop(lua_type(lua, -1)) ?? .nan
        morph_pop(lua, 1)
        guard v.isFinite, v >= 0 else { return nil }
        values.append(v)
      }
      return values
    }
  }

  /// `count` finite numbers (a matrix, in SwiftUI's order).
  func matrix(_ r: Record, _ name: String, count: Int) throws(ScriptError) -> [Double] {
    try defaulted(
      field(r, name, .matrix(count)) { type in
        guard type == LUA_TTABLE, lua_rawlen(lua, -1) == count else { return nil }
        let table = lua_gettop(lua)
        var values: [Double] = []
        for i in 1...count {
          lua_rawgeti(lua, table, lua_Integer(i))
          let v = numberOnTop(lua_type(lua, -1)) ?? .nan
          morph_pop(lua, 1)
          guard v.isFinite else { return nil }
          values.append(v)
        }
        return values
      })
  }

  /// One side of a transition, as `Lua/nodes.lua`'s `m.transition` builds it.
  func effects(_ r: Record, _ name: String) throws(ScriptError) -> [TransitionEffect]? {
    try field(r, name, .effects) { type in
      guard type == LUA_TTABLE else { return nil }
      let table = lua_gettop(lua)
      var effects: [TransitionEffect] = []
      for i in 0..<Int(lua_rawlen(lua, table)) {
        lua_rawgeti(lua, table, lua_Integer(i + 1))
        defer { morph_pop(lua, 1) }
        guard lua_type(lua, -1) == LUA_TTABLE, let effect = effectOnTop() else { return nil }
        effects.append(effect)
      }
      return effects
    }
  }

  /// `{kind = …, …}` on top of the stack.
  private func effectOnTop() -> TransitionEffect? {
    func number(_ key: String) -> Double? {
      defer { morph_pop(lua, 1) }
      return numberOnTop(morph_rawgetfield(lua, -1, key)).flatMap { $0.isFinite ? $0 : nil }
    }
    func string(_ key: String) -> String? {
      defer { morph_pop(lua, 1) }
      return morph_rawgetfield(lua, -1, key) == LUA_TSTRING ? state.stringValue(at: -1) : nil
    }
    switch string("kind") {
    case "opacity": return .opacity
    case "offset":
      guard let x = number("x"), let y = number("y") else { return nil }
      return .offset(Point(x, y))
    case "move": return string("edge").flatMap(Edge.init(rawValue:)).map { .move($0) }
    case "scale":
      guard let s = number("scale") else { return nil }
      morph_rawgetfield(lua, -1, "anchor")
      defer { morph_pop(lua, 1) }
      guard let anchor = anchorOnTop() else { return nil }
      return .scale(s, anchor: anchor)
    case "custom":
      guard morph_rawgetfield(lua, -1, "resolve") == LUA_TFUNCTION else {
        morph_pop(lua, 1)
        return nil
      }
      let resolve = LuaRef(popping: state)
      // The tracker calls it with the phase while the node moves, under the plugin's limits.
      return .custom(
        TransitionFunction { [weak state] phase throws(SceneError) in
          guard let state else { throw SceneError("the plugin's Lua state is gone") }
          return try state.transitionModifiers(resolve, phase: phase)
        })
    case "animation":
      morph_rawgetfield(lua, -1, "curve")
      defer { morph_pop(lua, 1) }
      if let spring = SpringBindings.type.value(lua, at: -1) { return .animation(.spring(spring)) }
      if let timing = CurveBindings.timingType.value(lua, at: -1) {
        return .animation(.timing(timing))
      }
      if let bezier = CurveBindings.bezierType.value(lua, at: -1) {
        return .animation(
          .timing(TimingCurve(bezier: bezier, duration: CurveBindings.defaultDuration)))
      }
      return nil
    default: return nil
    }
  }

  func vector(_ r: Record, _ name: String) throws(ScriptError) -> Vector3? {
    try field(r, name, .vector) { type in
      guard type == LUA_TTABLE else { return nil }
      let table = lua_gettop(lua)
      var c: [Double] = []
      for i in 1...3 {
        lua_rawgeti(lua, table, lua_Integer(i))
        c.append(numberOnTop(lua_type(lua, -1)) ?? .nan)
        morph_pop(lua, 1)
      }
      guard c.allSatisfy(\.isFinite), c.contains(where: { $0 != 0 }) else { return nil }
      return Vector3(c[0], c[1], c[2])
    }
  }

  /// Stores a handler function and returns its id.
  mutating func handler(_ r: Record, _ name: String) throws(ScriptError) -> Int? {
    guard let type = try push(r, name, .handler).type else { return nil }
    guard type == LUA_TFUNCTION else { throw wrong(r, name, .handler) }
    handlers.append(LuaRef(popping: state))
    return handlers.count - 1
  }

  mutating func node(_ r: Record, _ name: String) throws(ScriptError) -> ViewNode? {
    guard try push(r, name, .node).type != nil else { return nil }
    defer { morph_pop(lua, 1) }
    return try read(-1, path: r.path)
  }

  /// A shape node's outline; its own modifiers are not part of a clip.
  func shape(_ r: Record, _ name: String) throws(ScriptError) -> ShapeSpec? {
    guard try push(r, name, .shape).type != nil else { return nil }
    let index = lua_gettop(lua)
    guard isNode(index), let op = op(of: index), op.role == .shape else {
      throw wrong(r, name, .shape)
    }
    defer { morph_pop(lua, 1) }
    return try readShape(Record(table: index, op: op, at: r.path))
  }

  mutating func children(_ r: Record, _ name: String) throws(ScriptError) -> [ViewNode] {
    guard let type = try push(r, name, .children).type else { return [] }
    guard type == LUA_TTABLE else { throw wrong(r, name, .children) }
    defer { morph_pop(lua, 1) }
    let table = lua_gettop(lua)
    let n = lua_rawlen(lua, table)
    var children: [ViewNode] = []
    children.reserveCapacity(Int(n))
    let stack = "\(r.path).\(r.op.name)"
    for i in 0..<Int(n) {
      lua_rawgeti(lua, table, lua_Integer(i + 1))
      defer { morph_pop(lua, 1) }
      children.append(try read(-1, path: "\(stack)[\(i + 1)]"))
    }
    return children
  }

  /// A gradient record from `morph.linearGradient`, `radialGradient` or
  /// `angularGradient` at `index`.
  private func readGradient(_ index: Int32, path: String) throws(ScriptError) -> Paint {
    let index = lua_absindex(lua, index)
    guard lua_type(lua, index) == LUA_TTABLE, let op = op(of: index), op.role == .paint else {
      throw fail(path, "\(NodeSchema.Kind.paint.expectation) expected, got \(typeName(index))")
    }
    let r = Record(table: index, op: op, at: path)
    let stops = try stops(r, "stops") ?? []
    switch op.name {
    case "radialGradient":
      let c = try defaulted(anchor(r, "center"))
      return .radialGradient(
        RadialGradient(
          stops: stops, center: Point(c.x, c.y),
          startRadius: try defaulted(length(r, "startRadius")),
          endRadius: try defaulted(length(r, "endRadius"))))
    case "angularGradient":
      let c = try defaulted(anchor(r, "center"))
      let start = try defaulted(number(r, "startAngle"))
      // SwiftUI's angular gradient without an end goes once around.
      return .angularGradient(
        AngularGradient(
          stops: stops, center: Point(c.x, c.y), startAngle: start,
          endAngle: try number(r, "endAngle") ?? start + 360))
    default:
      let start = try defaulted(anchor(r, "from"))
      let end = try defaulted(anchor(r, "to"))
      return .linearGradient(
        LinearGradient(stops: stops, start: Point(start.x, start.y), end: Point(end.x, end.y)))
    }
  }

  private func stops(_ r: Record, _ name: String) throws(ScriptError) -> [GradientStop]? {
    try field(r, name, .stops) { type in
      guard type == LUA_TTABLE else { return nil }
      let table = lua_gettop(lua)
      var stops: [GradientStop] = []
      for i in 0..<Int(lua_rawlen(lua, table)) {
        let stop = lua_gettop(lua) + 1
        guard lua_rawgeti(lua, table, lua_Integer(i + 1)) == LUA_TTABLE else {
          morph_pop(lua, 1)
          return nil
        }
        lua_rawgeti(lua, stop, 1)
        let color = ColorBindings.type.value(lua, at: -1)
        lua_rawgeti(lua, stop, 2)
        let location = morph_tonumber(lua, -1)
        morph_pop(lua, 3)
        guard let color, location.isFinite else { return nil }
        stops.append(GradientStop(color: color, location: location))
      }
      return stops
    }
  }
}
