import CLua
import CMorphLua
import MorphCore

/// SwiftUI's names for what `morph` names otherwise: the one table the "did you mean"
/// messages read (a modifier, a `morph` function or an option written as in SwiftUI
/// names ours) and docs/lua-api.md shows (a test keeps the page to it).
enum SwiftUINames {
  /// Where a SwiftUI name is met.
  enum Place: String, Sendable {
    /// `node:NAME(…)`.
    case modifier
    /// `morph.NAME`.
    case function
    /// A key of an option table.
    case option
  }

  struct Entry: Sendable {
    let swiftUI: String
    let ours: String
    let place: Place
    /// How ours differs, when the name is not all (shown in the docs' table).
    let note: String

    init(_ swiftUI: String, _ ours: String, _ place: Place, _ note: String = "") {
      self.swiftUI = swiftUI
      self.ours = ours
      self.place = place
      self.note = note
    }
  }

  static let entries: [Entry] = [
    Entry("rotationEffect", "rotate", .modifier, "degrees, not an `Angle`"),
    Entry("rotation3DEffect", "rotate3d", .modifier),
    Entry("scaleEffect", "scale", .modifier),
    Entry("foregroundColor", "fill", .modifier, "a text's colour too"),
    Entry("foregroundStyle", "fill", .modifier, "a text's colour too"),
    Entry("cornerRadius", "clip", .modifier, "`:clip(morph.roundedRect(r))`"),
    Entry("zIndex", "z", .modifier),
    Entry("compositingGroup", "group", .modifier),
    Entry("blendMode", "blend", .modifier),
    Entry("onTapGesture", "onTap", .modifier),
    Entry("onLongPressGesture", "onLongPress", .modifier),
    Entry("gesture", "onDrag", .modifier, "a `DragGesture`'s `onChanged`/`onEnded`"),
    Entry("matchedGeometryEffect", "matchedGeometry", .modifier),
    Entry("Color", "color", .function),
    Entry("Rectangle", "rect", .function),
    Entry("RoundedRectangle", "roundedRect", .function),
    Entry("Circle", "circle", .function),
    Entry("Ellipse", "ellipse", .function),
    Entry("Capsule", "capsule", .function),
    Entry("Text", "text", .function),
    Entry("Image", "image", .function),
    Entry("Spacer", "spacer", .function),
    Entry("EmptyView", "empty", .function),
    Entry("VStack", "vstack", .function),
    Entry("HStack", "hstack", .function),
    Entry("ZStack", "zstack", .function),
    Entry("LinearGradient", "linearGradient", .function),
    Entry("RadialGradient", "radialGradient", .function),
    Entry("AngularGradient", "angularGradient", .function),
    Entry(
      "withAnimation", "self:animate", .function, "in a handler: `self:animate(curve, changes)`"),
    Entry("startPoint", "from", .option, "`linearGradient`"),
    Entry("endPoint", "to", .option, "`linearGradient`"),
    Entry("cornerRadius", "r", .option, "`roundedRect`"),
    Entry("lineWidth", "width", .option, "`stroke`, `strokeBorder`"),
    Entry("foregroundColor", "color", .option, "`text`"),
  ]

  /// Pushes `{ modifier = { rotationEffect = "rotate", … }, ["function"] = {…}, option =
  /// {…} }` for `Lua/support.lua`.
  /// [-0, +1, m]
  static func push(_ lua: OpaquePointer) {
    lua_createtable(lua, 0, 3)
    for place in [Place.modifier, .function, .option] {
      morph_newtable(lua)
      for entry in entries where entry.place == place {
        lua_pushstring(lua, entry.ours)
        morph_rawsetfield(lua, -2, entry.swiftUI)
      }
      morph_rawsetfield(lua, -2, place.rawValue)
    }
  }

  /// `nearest(name, {candidate, …})`: `Suggestion.nearest`, for the host's Lua files.
  static let nearest: morph_hostfn = { lua in
    hostCall(lua, "nearest") { a in
      let name = try a.string(1)
      try a.checkType(2, LUA_TTABLE, "table")
      var candidates: [String] = []
      for i in 0..<Int(lua_rawlen(a.lua, 2)) {
        if lua_rawgeti(a.lua, 2, lua_Integer(i + 1)) == LUA_TSTRING {
          candidates.append(LuaState.owner(of: a.lua).stringValue(at: -1))
        }
        morph_pop(a.lua, 1)
      }
      if let found = Suggestion.nearest(to: name, in: candidates) {
        a.push(found)
      } else {
        lua_pushnil(a.lua)
      }
      return 1
    }
  }

  /// The table as docs/lua-api.md shows it, between its markers.
  static var markdown: String {
    var lines = ["| SwiftUI | here | where | note |", "| --- | --- | --- | --- |"]
    for e in entries {
      let ours: String
      switch e.place {
      case .modifier: ours = "`:\(e.ours)`"
      case .function: ours = e.ours.contains(":") ? "`\(e.ours)`" : "`morph.\(e.ours)`"
      case .option: ours = "`\(e.ours) =`"
      }
      lines.append("| `\(e.swiftUI)` | \(ours) | \(e.place.rawValue) | \(e.note) |")
    }
    return lines.joined(separator: "\n")
  }
}
