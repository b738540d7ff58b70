extension MetaFile {
  /// `morph.meta.lua` from top to bottom: the prose and classes no binding
  /// owns, and where each binding table's declarations go. Chunks are
  /// written one blank line apart.
  static var parts: [Part] {
    [
      .text(
        """
        ---@meta morph
        -- LuaLS definitions of the `morph` module that morphhost gives every plugin.
        -- Editors read this file for completion and type checks (see .luarc.json).
        -- It is documentation only: the host implements every function, in Swift
        -- and in its own Lua.
        -- Generated, all of it (Meta/MetaFile.swift): each function's doc and
        -- signature from its binding table (Bindings/*, Scene/NodeSchema.swift,
        -- the host's Lua files), the classes from Meta/MetaFile+Sections.swift.
        -- Change those, then refresh with
        -- `MORPH_REFRESH_META=1 swift test --disable-xctest --filter MetaFileTests`.
        """),
      .text(
        """
        ---@class morph
        morph = {}
        """),
      .text(
        """
        ---The host's version string.
        ---@type string
        morph.version = ""
        """),
      .text(
        """
        -- Scalars ---------------------------------------------------------------
        """),
      .functions("morph.", ScalarBindings.functions),
      .text(
        """
        -- Easing ------------------------------------------------------------------
        """),
      .text(
        """
        ---An easing function: `f(x)` on [0, 1], or Playdate-style `f(t, b, c, d)` = b + c·f(t/d).
        ---@alias morph.EasingFunction fun(x: number, b?: number, c?: number, d?: number): number
        """),
      .block("ease"),
      .text(
        """
        -- Timing curves -------------------------------------------------------------
        """),
      .block("BezierPreset"),
      .text(
        """
        ---A cubic Bézier timing curve from (0,0) to (1,1), solved for x like WebKit's UnitBezier.
        ---Call it as `curve(x)` to get y.
        ---@class morph.Bezier
        ---@field x1 number
        ---@field y1 number
        ---@field x2 number
        ---@field y2 number
        ---@overload fun(x: number): number
        local Bezier = {}
        """),
      .functions("Bezier:", CurveBindings.bezierMethods),
      .text(
        """
        ---A Bézier curve over a duration: SwiftUI's `timingCurve`. Call as `timing(t)`.
        ---@class morph.Timing
        ---@field duration number
        ---@field bezier morph.Bezier
        ---@overload fun(t: number): number
        local Timing = {}
        """),
      .functions("Timing:", CurveBindings.timingMethods + AnimationModifierBindings.methods),
      .functions("morph.", CurveBindings.functions),
      .functions("morph.", CurveBindings.presetFunctions),
      .text(
        """
        -- Keyframes -----------------------------------------------------------------
        -- SwiftUI's KeyframeAnimator: tracks of keyframes per state key, each keyframe
        -- reaching its value at the end of its duration. The engine plays them (no Lua
        -- runs per frame); `value(t)` scrubs them. A keyframe's value is any kind that
        -- animates: a number, a point {x, y}, a size {width, height}, a rect {x, y,
        -- width, height}, a morph.Color (premultiplied OKLab, as `animate`) or an array
        -- of numbers; every component goes through the track's keyframes on its own
        -- (a spring's velocity per component), and one track keeps to one kind.
        """),
      .text(
        """
        ---A value that animates (a colour's velocity is `{l, a, b, alpha}` per second).
        ---@alias morph.Animatable number|{x: number, y: number}|{width: number, height: number}|{x: number, y: number, width: number, height: number}|morph.Color|number[]
        """),
      .text(
        """
        ---One keyframe (`morph.keyframe.linear/spring/cubic/move`).
        ---@class morph.Keyframe
        ---@field to morph.Animatable the value it reaches
        """),
      .text(
        """
        ---Keyframe constructors, as SwiftUI's LinearKeyframe, SpringKeyframe, CubicKeyframe, MoveKeyframe.
        morph.keyframe = {}
        """),
      .functions("morph.keyframe.", KeyframeBindings.keyframeFunctions),
      .text(
        """
        ---A timeline: one track of keyframes per state key, of the key's kind (or of
        ---numbers on one field of a composite key: `"pos.y"`).
        ---@class morph.Keyframes
        ---@field duration number the longest track, in seconds (from the initial values)
        ---@field keys string[] the tracks' keys, sorted
        local Keyframes = {}
        """),
      .functions("Keyframes:", KeyframeBindings.timelineMethods + KeyframeBindings.modifiers),
      .functions("morph.", KeyframeBindings.functions),
      .lua("morph.stagger"),
      .text(
        """
        -- Springs -------------------------------------------------------------------
        """),
      .text(
        """
        ---A spring matching Apple's `Spring`, plus how it combines with a running animation.
        ---@class morph.Spring
        ---@field mass number
        ---@field stiffness number
        ---@field damping number
        ---@field response number seconds
        ---@field dampingRatio number
        ---@field bounce number
        ---@field duration number the perceptual duration (= response)
        ---@field settlingDuration number seconds until a unit step stays within 0.001
        ---@field blendDuration number
        ---@field initialVelocity number
        ---@field additive boolean true for interpolatingSpring: animations add up instead of merging
        local Spring = {}
        """),
      .functions("Spring:", SpringBindings.methods + AnimationModifierBindings.methods),
      .text(
        """
        ---@class morph.SpringOptions
        ---@field duration? number seconds (one set: duration, bounce)
        ---@field bounce? number in (-1, 1)
        ---@field response? number seconds (one set: response, dampingRatio or dampingFraction)
        ---@field dampingRatio? number
        ---@field dampingFraction? number SwiftUI's name for dampingRatio
        ---@field mass? number (one set: mass, stiffness, damping, allowOverDamping)
        ---@field stiffness? number
        ---@field damping? number above critical (2√(km)) it is taken as critical, as SwiftUI does
        ---@field allowOverDamping? boolean keep a damping above critical (default false)
        ---@field settlingDuration? number seconds (one set: settlingDuration, dampingRatio, epsilon)
        ---@field epsilon? number the settling band, a fraction of the change (default 0.001)
        ---@field blendDuration? number with any set; keys of two sets together are an error
        """),
      .block("SpringPreset"),
      .functions("morph.", SpringBindings.functions),
      .text(
        """
        -- Colour --------------------------------------------------------------------
        """),
      .text(
        """
        ---An sRGB colour with straight alpha. `tostring` gives `#RRGGBBAA`.
        ---@class morph.Color
        ---@field r number
        ---@field g number
        ---@field b number
        ---@field a number
        ---@field hex string
        local Color = {}
        """),
      .functions("Color:", ColorBindings.methods),
      .functions("morph.", ColorBindings.functions),
      .functions("morph.color.", ColorBindings.spaces),
      .text(
        """
        -- Paths ---------------------------------------------------------------------
        """),
      .text(
        """
        ---A vector outline. Builder methods change it in place and return it, so they chain.
        ---`#path` is its element count.
        ---@class morph.Path
        local Path = {}
        """),
      .functions("Path:", PathBindings.methods),
      .lua("morph.path"),
      .text(
        """
        ---SwiftUI's `AnyTransition`: what a node with an `:id` does entering (insertion) and
        ---leaving (removal) under an animation.
        ---@class morph.Transition
        local Transition = {}
        """),
      .lua("Transition:"),
      .text(
        """
        ---Where a custom transition is (SwiftUI's `TransitionPhase`).
        ---@class morph.TransitionPhase
        ---@field value number -1 about to appear, 0 identity, 1 gone (SwiftUI's)
        ---@field isIdentity boolean `value == 0`
        """),
      .text(
        """
        ---SwiftUI's built-in transitions, for `node:transition(t)`.
        ---@class morph.transitions
        ---@field identity morph.Transition unchanged
        ---@field opacity morph.Transition fades from transparent
        ---@field slide morph.Transition in from the leading edge, out toward the trailing one
        morph.transition = {}
        """),
      .lua("morph.transition."),
      .text(
        """
        ---Ready-made outlines.
        morph.paths = {}
        """),
      .functions("morph.paths.", PathBindings.shapes),
      .text(
        """
        -- Nodes ---------------------------------------------------------------------
        -- A body returns a tree of nodes. Modifiers change the node they are called
        -- on and return it, so they chain; the modifier written last applies last
        -- (SwiftUI's order): `n:scale(s):rotate(r, "bottom"):offset(x, y)`.
        -- The enum aliases list exactly the names the host's Swift types accept, and
        -- each options class exactly the keys its function takes (both generated).
        """),
      .text(
        """
        ---@alias morph.Paint morph.Color|morph.Gradient|string
        """),
      .block("enums"),
      .text(
        """
        ---@class morph.Gradient
        """),
      .text(
        """
        ---A PNG file beside the plugin, made by `morph.image`.
        ---@class morph.Image
        """),
      .text(
        """
        ---@class morph.Node
        local Node = {}
        """),
      .ops(NodeSchema.ops.filter { $0.role == .modifier }),
      .lua("Node:clipShape"),
      .ops(NodeSchema.ops.filter { $0.role != .modifier }),
      .text(
        """
        ---@class morph.Rect
        ---@field x number
        ---@field y number
        ---@field width number
        ---@field height number
        """),
      .text(
        """
        ---@class morph.TextMetrics
        ---@field width number as `morph.text` lays out: the widest line
        ---@field height number every line, with line spacing
        ---@field baseline number from the top of the box down to the first line's baseline
        """),
      .text(
        """
        ---@class morph.MeasureTextOptions: morph.TextOptions
        ---@field width? number the width offered (default: none, the ideal width)
        """),
      .lua("morph.measureText"),
      .text(
        """
        -- Components ----------------------------------------------------------------
        -- A plugin returns `morph.component{…}`. The host keeps the state: numbers
        -- animate (and so do points {x, y}, sizes {width, height}, rects {x, y, width,
        -- height}, colours, through OKLab, and arrays of numbers: each declared by its
        -- initial value), other values change at once. `self` shows props and the presented
        -- (on-screen) state; `self.target` shows where animations are headed.
        """),
      .text(
        """
        ---@class morph.InputPoint
        ---@field x number
        ---@field y number
        """),
      .text(
        """
        ---What `tap` and `drag` handlers receive, in the component's own points
        ---(origin at the top-left of its `size` frame).
        ---@class morph.InputEvent
        ---@field phase? "began"|"changed"|"ended"|"active" drags (began, changed, ended) and hover (active, ended)
        ---@field x number
        ---@field y number
        ---@field time number seconds on the component's clock
        ---@field location morph.InputPoint
        ---@field startLocation morph.InputPoint
        ---@field translation morph.InputPoint
        ---@field velocity morph.InputPoint points per second
        ---@field predictedEndTranslation morph.InputPoint translation + 0.25 s × velocity (SwiftUI)
        """),
      .text(
        """
        ---@class morph.Accessibility
        ---@field label? string
        ---@field value? string
        ---@field hint? string
        ---@field traits? string[] e.g. { "button" }
        """),
      .text(
        """
        ---The `self` handlers and `body` receive: props and state read as fields.
        ---Reading a key declared in neither props nor state is an error naming the declared ones.
        ---@class morph.Self
        ---@field target table where each state value is headed (read-only)
        ---@field reduceMotion boolean true when the host asks for reduced motion
        ---@field time number seconds since load on the virtual clock; a body that reads it is redrawn every frame (continuous motion as a pure function of time)
        ---@field size { width: number, height: number } the size offered to the body (SwiftUI's `GeometryReader`): the component's `size` until a host offers another; the body is laid out in it and runs again when it changes (a prop or state key named `size` wins)
        local Self = {}
        """),
      .text(
        """
        ---@class morph.AnimateOptions
        ---@field done? fun(self: morph.Self) runs once, when every key has finished or been taken over
        ---@field velocity? table<string, number|table> starting velocity per key, in units per second (a release speed), for springs; a composite key's in its shape (`{x =, y =}`; a colour's `{l =, a =, b =, alpha =}`)
        """),
      .text(
        """
        ---@class morph.PlayOptions
        ---@field done? fun(self: morph.Self) runs once, when every track has finished or been taken over
        ---@field repeat? boolean|integer true: restart forever (SwiftUI's `repeating: true`); n: play n times
        """),
      .lua("Self:"),
      .block("ComponentDefinition"),
      .lua("morph.import"),
      .lua("morph.component"),
      .text(
        """
        -- Tests (`*.test.lua` files only) -----------------------------------------
        -- `morph.test` exists in the state a test file runs in (`morphhost test`),
        -- never in a plugin's. docs/testing.md describes the vocabulary.
        """),
      .text(
        """
        ---A check made by `morph.test.accessibility`, `frame`, `quad`, `opacity`, `gradient`,
        ---`snapshot` or `settled`.
        ---@class morph.TestCheck
        """),
      .text(
        """
        ---Expectations at one moment, made by `at(t){…}` or `settledBy(t)`.
        ---@class morph.TestMoment
        """),
      .text(
        """
        ---A case, made by `case(name){…}`; a test file returns a list of them.
        ---@class morph.TestCase
        """),
      .text(
        """
        ---A number expected within a tolerance, made by `approx`.
        ---@class morph.Approx
        """),
      .text(
        """
        ---What a case table holds: the plugin, its props and input, then its moments.
        ---@class morph.TestCaseDefinition
        ---@field plugin string the plugin's path, relative to the test file
        ---@field props? table<string, number|string|boolean|(number|string|boolean)[]> `--set` values
        ---@field input? string an input script (`0 tap`, one event a line; docs/commands.md), or `"tap"` (one tap at 0 s) or `"none"` (the default)
        ---@field inputFile? string an input script's file, relative to the test file
        ---@field reduceMotion? boolean runs with Reduce Motion on
        ---@field [integer] morph.TestMoment
        """),
      .text(
        """
        ---@class morph.test
        ---@field settled morph.TestCheck at rest: nothing that will end is moving
        morph.test = {}
        """),
      .lua("morph.test."),
      .text(
        """
        return morph
        """),
    ]
  }
}
