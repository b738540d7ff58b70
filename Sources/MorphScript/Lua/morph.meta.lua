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

---@class morph
morph = {}

---The host's version string.
---@type string
morph.version = ""

-- Scalars ---------------------------------------------------------------

---Linear interpolation: `a + (b - a) * t` (t is not clamped).
---@param a number
---@param b number
---@param t number
---@return number
function morph.lerp(a, b, t) end

---GLSL `mix`: the same as `lerp`.
---@param a number
---@param b number
---@param t number
---@return number
function morph.mix(a, b, t) end

---GLSL smoothstep: 0 below e0, 1 above e1, a cubic in between.
---@param e0 number
---@param e1 number
---@param x number
---@return number
function morph.smoothstep(e0, e1, x) end

---The fractional part `x - floor(x)`.
---@param x number
---@return number
function morph.fract(x) end

---Deterministic pseudo-random in [0, 1): `fract(sin(i * 12.9898) * 43758.5453)`,
---the ticket tear's jitter hash.
---@param i number
---@return number
function morph.hash(i) end

---Degrees to radians.
---@param degrees number
---@return number
function morph.rad(degrees) end

---Radians to degrees.
---@param radians number
---@return number
function morph.deg(radians) end

---Wraps an angle in degrees into [0, 360).
---@param degrees number
---@return number
function morph.wrapDegrees(degrees) end

---Clamps `x` to [lo, hi] (default [0, 1]).
---@param x number
---@param lo? number
---@param hi? number
---@return number
function morph.clamp(x, lo, hi) end

---Maps `x` from [inMin, inMax] to [outMin, outMax] (not clamped).
---@param x number
---@param inMin number
---@param inMax number
---@param outMin number
---@param outMax number
---@return number
function morph.remap(x, inMin, inMax, outMin, outMax) end

---A well-mixed integer hash (splitmix64) mapped to [0, 1).
---@param i integer
---@param seed? integer
---@return number
function morph.hashInt(i, seed) end

---The shortest signed turn in degrees from `from` to `to`, in (-180, 180].
---@param from number
---@param to number
---@return number
function morph.angleDelta(from, to) end

-- Easing ------------------------------------------------------------------

---An easing function: `f(x)` on [0, 1], or Playdate-style `f(t, b, c, d)` = b + c·f(t/d).
---@alias morph.EasingFunction fun(x: number, b?: number, c?: number, d?: number): number

---The easings.net (Penner) set, named like Playdate: `linear`, and
---in/out/inOut/outIn of Quad, Cubic, Quart, Quint, Sine, Expo, Circ, Back, Elastic, Bounce.
---@class morph.ease
---@field linear morph.EasingFunction
---@field inQuad morph.EasingFunction
---@field outQuad morph.EasingFunction
---@field inOutQuad morph.EasingFunction
---@field outInQuad morph.EasingFunction
---@field inCubic morph.EasingFunction
---@field outCubic morph.EasingFunction
---@field inOutCubic morph.EasingFunction
---@field outInCubic morph.EasingFunction
---@field inQuart morph.EasingFunction
---@field outQuart morph.EasingFunction
---@field inOutQuart morph.EasingFunction
---@field outInQuart morph.EasingFunction
---@field inQuint morph.EasingFunction
---@field outQuint morph.EasingFunction
---@field inOutQuint morph.EasingFunction
---@field outInQuint morph.EasingFunction
---@field inSine morph.EasingFunction
---@field outSine morph.EasingFunction
---@field inOutSine morph.EasingFunction
---@field outInSine morph.EasingFunction
---@field inExpo morph.EasingFunction
---@field outExpo morph.EasingFunction
---@field inOutExpo morph.EasingFunction
---@field outInExpo morph.EasingFunction
---@field inCirc morph.EasingFunction
---@field outCirc morph.EasingFunction
---@field inOutCirc morph.EasingFunction
---@field outInCirc morph.EasingFunction
---@field inBack morph.EasingFunction
---@field outBack morph.EasingFunction
---@field inOutBack morph.EasingFunction
---@field outInBack morph.EasingFunction
---@field inElastic morph.EasingFunction
---@field outElastic morph.EasingFunction
---@field inOutElastic morph.EasingFunction
---@field outInElastic morph.EasingFunction
---@field inBounce morph.EasingFunction
---@field outBounce morph.EasingFunction
---@field inOutBounce morph.EasingFunction
---@field outInBounce morph.EasingFunction
morph.ease = {}

-- Timing curves -------------------------------------------------------------

---@alias morph.BezierPreset "linear"|"ease"|"easeIn"|"easeOut"|"easeInOut"

---A cubic Bézier timing curve from (0,0) to (1,1), solved for x like WebKit's UnitBezier.
---Call it as `curve(x)` to get y.
---@class morph.Bezier
---@field x1 number
---@field y1 number
---@field x2 number
---@field y2 number
---@overload fun(x: number): number
local Bezier = {}

---y for progress x; outside [0, 1] it follows the end tangents, as WebKit and CSS do.
---@param x number
---@return number
function Bezier:solve(x) end

---A Bézier curve over a duration: SwiftUI's `timingCurve`. Call as `timing(t)`.
---@class morph.Timing
---@field duration number
---@field bezier morph.Bezier
---@overload fun(t: number): number
local Timing = {}

---Progress (0 to 1, before the curve's overshoot) at time `t` seconds.
---@param t number
---@return number
function Timing:at(t) end

---SwiftUI's `delay(_:)`: a copy that waits `seconds` before it starts; the value holds meanwhile.
---Inside a repeat (`c:delay(s):repeatForever()`) it waits before every pass; after one, once.
---@param seconds number
---@return morph.Timing
function Timing:delay(seconds) end

---SwiftUI's `speed(_:)`: a copy that plays `factor` times as fast, with any delay written before it.
---@param factor number
---@return morph.Timing
function Timing:speed(factor) end

---SwiftUI's `repeatCount(_:autoreverses:)`: a copy that plays `count` times, every other play
---backwards when `autoreverses` (default true); when done it sits on the target.
---@param count integer
---@param options? { autoreverses?: boolean }
---@return morph.Timing
function Timing:repeatCount(count, options) end

---SwiftUI's `repeatForever(autoreverses:)`: a copy that never ends (`check` accepts it).
---@param options? { autoreverses?: boolean }
---@return morph.Timing
function Timing:repeatForever(options) end

---A Bézier curve from its control points (x in [0, 1]) or a preset name.
---@param x1 number|morph.BezierPreset
---@param y1? number
---@param x2? number
---@param y2? number
---@return morph.Bezier
function morph.bezier(x1, y1, x2, y2) end

---`timing(x1, y1, x2, y2, duration)` or `timing("easeInOut", duration)`;
---duration defaults to 0.35 s.
---@param x1 number|morph.BezierPreset
---@param y1? number
---@param x2? number
---@param y2? number
---@param duration? number
---@return morph.Timing
function morph.timing(x1, y1, x2, y2, duration) end

---SwiftUI `.linear(duration:)` (default 0.35 s).
---@param duration? number
---@return morph.Timing
function morph.linear(duration) end

---SwiftUI `.easeIn(duration:)` (default 0.35 s).
---@param duration? number
---@return morph.Timing
function morph.easeIn(duration) end

---SwiftUI `.easeOut(duration:)` (default 0.35 s).
---@param duration? number
---@return morph.Timing
function morph.easeOut(duration) end

---SwiftUI `.easeInOut(duration:)` (default 0.35 s).
---@param duration? number
---@return morph.Timing
function morph.easeInOut(duration) end

-- Keyframes -----------------------------------------------------------------
-- SwiftUI's KeyframeAnimator: tracks of keyframes per state key, each keyframe
-- reaching its value at the end of its duration. The engine plays them (no Lua
-- runs per frame); `value(t)` scrubs them. A keyframe's value is any kind that
-- animates: a number, a point {x, y}, a size {width, height}, a rect {x, y,
-- width, height}, a morph.Color (premultiplied OKLab, as `animate`) or an array
-- of numbers; every component goes through the track's keyframes on its own
-- (a spring's velocity per component), and one track keeps to one kind.

---A value that animates (a colour's velocity is `{l, a, b, alpha}` per second).
---@alias morph.Animatable number|{x: number, y: number}|{width: number, height: number}|{x: number, y: number, width: number, height: number}|morph.Color|number[]

---One keyframe (`morph.keyframe.linear/spring/cubic/move`).
---@class morph.Keyframe
---@field to morph.Animatable the value it reaches

---Keyframe constructors, as SwiftUI's LinearKeyframe, SpringKeyframe, CubicKeyframe, MoveKeyframe.
morph.keyframe = {}

---`LinearKeyframe`: to `to` over `duration` seconds along `curve` (default linear).
---@param to morph.Animatable
---@param duration number
---@param curve? morph.Bezier|morph.BezierPreset
---@return morph.Keyframe
function morph.keyframe.linear(to, duration, curve) end

---`SpringKeyframe`: a spring towards `to`, cut after `duration` (default: until
---it settles); the next keyframe starts where and as fast as it was cut.
---`startVelocity` (default: the velocity carried in) is how fast it starts, in
---the value's shape (`{x =, y =}` for a point). A composite without a `duration`
---runs the spring's `settlingDuration` on every component, so they stay in step.
---@param to morph.Animatable
---@param options? { duration?: number, spring?: morph.Spring, startVelocity?: number|table }
---@return morph.Keyframe
function morph.keyframe.spring(to, options) end

---`CubicKeyframe`: a cubic through the values. Adjacent cubics without velocities
---form a Catmull-Rom spline; next to another kind, a cubic matches its velocity;
---the track's last cubic comes to rest. Velocities are in the value's shape.
---@param to morph.Animatable
---@param duration number
---@param options? { startVelocity?: number|table, endVelocity?: number|table }
---@return morph.Keyframe
function morph.keyframe.cubic(to, duration, options) end

---`MoveKeyframe`: jumps to `to` at once.
---@param to morph.Animatable
---@return morph.Keyframe
function morph.keyframe.move(to) end

---A timeline: one track of keyframes per state key, of the key's kind (or of
---numbers on one field of a composite key: `"pos.y"`).
---@class morph.Keyframes
---@field duration number the longest track, in seconds (from the initial values)
---@field keys string[] the tracks' keys, sorted
local Keyframes = {}

---Scrubs the timeline from its initial values: all tracks at `t` seconds as
---`{key = value}`, or one track's value when `key` is given (a point track's
---as `{x =, y =}`, a colour track's as a morph.Color).
---@param t number
---@param key? string
---@return table<string, morph.Animatable>|morph.Animatable
function Keyframes:value(t, key) end

---SwiftUI's `delay(_:)`: a copy that waits `seconds` before it starts; the value holds meanwhile.
---Inside a repeat (`c:delay(s):repeatForever()`) it waits before every pass; after one, once.
---@param seconds number
---@return morph.Keyframes
function Keyframes:delay(seconds) end

---SwiftUI's `speed(_:)`: a copy that plays `factor` times as fast, with any delay written before it.
---@param factor number
---@return morph.Keyframes
function Keyframes:speed(factor) end

---A timeline of keyframe tracks by state key; `initial` gives each key's value
---before the timeline starts, for scrubbing (default 0 for every component). A
---component plays it with `self:play(timeline)`, each track from its key's
---presented value. A keyframe of another kind than its track's first is an
---error naming it (`track 'pos' keyframe 2 is a size {width, height}, but …`).
---@param tracks table<string, morph.Keyframe[]>
---@param initial? table<string, morph.Animatable>
---@return morph.Keyframes
function morph.keyframes(tracks, initial) end

---`n` copies of `curve`, the i-th delayed by `(i - 1) * step` seconds: a
---sequence across children (`self:animate(curves[i], …)` for child i).
---@generic C: morph.Spring|morph.Timing|morph.Keyframes
---@param n integer
---@param step number
---@param curve C
---@return C[]
function morph.stagger(n, step, curve) end

-- Springs -------------------------------------------------------------------

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

---Value at time `t` of a spring moving `from` → `to` with initial velocity `velocity`.
---@param t number
---@param from? number default 0
---@param to? number default 1
---@param velocity? number default 0
---@return number
function Spring:value(t, from, to, velocity) end

---Velocity at time `t` (same arguments as `value`).
---@param t number
---@param from? number
---@param to? number
---@param velocity? number
---@return number
function Spring:velocity(t, from, to, velocity) end

---Seconds until the motion stays within `epsilon` × |from − to| of `to`.
---@param from? number
---@param to? number
---@param velocity? number
---@param epsilon? number default 0.001
---@return number
function Spring:settle(from, to, velocity, epsilon) end

---Advances (value, velocity) toward `target` by `dt` seconds (exact closed form).
---@param value number
---@param velocity number
---@param target number
---@param dt number
---@return number value
---@return number velocity
function Spring:step(value, velocity, target, dt) end

---SwiftUI's `delay(_:)`: a copy that waits `seconds` before it starts; the value holds meanwhile.
---Inside a repeat (`c:delay(s):repeatForever()`) it waits before every pass; after one, once.
---@param seconds number
---@return morph.Spring
function Spring:delay(seconds) end

---SwiftUI's `speed(_:)`: a copy that plays `factor` times as fast, with any delay written before it.
---@param factor number
---@return morph.Spring
function Spring:speed(factor) end

---SwiftUI's `repeatCount(_:autoreverses:)`: a copy that plays `count` times, every other play
---backwards when `autoreverses` (default true); when done it sits on the target.
---@param count integer
---@param options? { autoreverses?: boolean }
---@return morph.Spring
function Spring:repeatCount(count, options) end

---SwiftUI's `repeatForever(autoreverses:)`: a copy that never ends (`check` accepts it).
---@param options? { autoreverses?: boolean }
---@return morph.Spring
function Spring:repeatForever(options) end

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

---@alias morph.SpringPreset "default"|"smooth"|"snappy"|"bouncy"|"interactive"

---`spring()` = duration 0.5, bounce 0; one of SwiftUI's parameter sets:
---`spring{duration=, bounce=}`, `spring{response=, dampingRatio=}` (or `dampingFraction=`),
---`spring{mass=, stiffness=, damping=, allowOverDamping=}`,
---`spring{settlingDuration=, dampingRatio=, epsilon=}`, each with `blendDuration=`;
---or a preset name. Keys of two sets together are an error.
---@param options? morph.SpringOptions|morph.SpringPreset
---@return morph.Spring
function morph.spring(options) end

---SwiftUI `interactiveSpring()`: response 0.15, dampingFraction 0.86, blendDuration 0.25.
---@param options? { response?: number, dampingFraction?: number, blendDuration?: number }
---@return morph.Spring
function morph.interactiveSpring(options) end

---SwiftUI `interpolatingSpring(mass:stiffness:damping:initialVelocity:)`; its animations add up.
---A damping at or above critical gives the critically damped curve, as SwiftUI samples it.
---`initialVelocity` is SwiftUI's relative velocity: fractions of the change per second.
---@param options { stiffness: number, damping?: number, mass?: number, initialVelocity?: number }
---@return morph.Spring
function morph.interpolatingSpring(options) end

-- Colour --------------------------------------------------------------------

---An sRGB colour with straight alpha. `tostring` gives `#RRGGBBAA`.
---@class morph.Color
---@field r number
---@field g number
---@field b number
---@field a number
---@field hex string
local Color = {}

---The colour with its alpha multiplied by `alpha` (SwiftUI `.opacity`).
---@param alpha number
---@return morph.Color
function Color:opacity(alpha) end

---Linear mix toward `other` by `amount` in sRGB components.
---@param other morph.Color|string
---@param amount number
---@return morph.Color
function Color:mix(other, amount) end

---`color("#RRGGBB[AA]")`, `color("red")`, `color(white, alpha)` or `color(r, g, b [, a])`;
---components are in [0, 1]. The names are Apple's system colours in light mode (`red` is
---#FF3B30), listed in docs/lua-api.md, Colour names; `morph.color.p3` takes Display P3.
---@param a number|string
---@param b? number
---@param c? number
---@param d? number
---@return morph.Color
function morph.color(a, b, c, d) end

---A colour given in Display P3 (SwiftUI's `Color(.displayP3, red:green:blue:opacity:)`),
---components in [0, 1], drawn as the sRGB colour nearest it (P3's reds and greens beyond
---sRGB clamp: the renderers draw in sRGB).
---@param r number
---@param g number
---@param b number
---@param a? number
---@return morph.Color
function morph.color.p3(r, g, b, a) end

-- Paths ---------------------------------------------------------------------

---A vector outline. Builder methods change it in place and return it, so they chain.
---`#path` is its element count.
---@class morph.Path
local Path = {}

---@param x number
---@param y number
---@return morph.Path
function Path:move(x, y) end

---@param x number
---@param y number
---@return morph.Path
function Path:line(x, y) end

---A quadratic curve to (x, y) with control point (cx, cy) (canvas order).
---@param cx number
---@param cy number
---@param x number
---@param y number
---@return morph.Path
function Path:quad(cx, cy, x, y) end

---A cubic curve to (x, y) with control points (c1x, c1y), (c2x, c2y).
---@param c1x number
---@param c1y number
---@param c2x number
---@param c2y number
---@param x number
---@param y number
---@return morph.Path
function Path:cubic(c1x, c1y, c2x, c2y, x, y) end

---An arc around (cx, cy); degrees clockwise from +x on the y-down canvas (SwiftUI's addArc).
---@param cx number
---@param cy number
---@param radius number
---@param startDegrees number
---@param endDegrees number
---@param clockwise? boolean SwiftUI's flag: false sweeps increasing angles
---@return morph.Path
function Path:arc(cx, cy, radius, startDegrees, endDegrees, clockwise) end

---@return morph.Path
function Path:close() end

---@param x number
---@param y number
---@param w number
---@param h number
---@return morph.Path
function Path:rect(x, y, w, h) end

---@param x number
---@param y number
---@param w number
---@param h number
---@return morph.Path
function Path:ellipse(x, y, w, h) end

---@param other morph.Path
---@return morph.Path
function Path:append(other) end

---Tight bounds (curve extrema included); nothing for an empty path.
---@return number x, number y, number w, number h
function Path:bounds() end

---A transformed copy: (x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty).
---@param a number
---@param b number
---@param c number
---@param d number
---@param tx number
---@param ty number
---@return morph.Path
function Path:transformed(a, b, c, d, tx, ty) end

---@param x number
---@param y number
---@return morph.Path
function Path:translated(x, y) end

---@param sx number
---@param sy? number default sx
---@return morph.Path
function Path:scaled(sx, sy) end

---Rotated copy, clockwise degrees, about (ax, ay) (default the origin).
---@param degrees number
---@param ax? number
---@param ay? number
---@return morph.Path
function Path:rotated(degrees, ax, ay) end

---The part between two fractions of the arc length (SwiftUI's `trimmedPath(from:to:)`):
---both clamped to 0…1; `from >= to` gives an empty path; each piece starts its own subpath.
---@param from? number default 0
---@param to? number default 1
---@return morph.Path
function Path:trimmed(from, to) end

---The arc length in points (every segment, `close` lines too).
---@return number
function Path:length() end

---Non-zero winding containment.
---@param x number
---@param y number
---@return boolean
function Path:contains(x, y) end

---Polylines within `tolerance` points of the curves (default 0.25): `{ { {x, y}, … }, … }`.
---@param tolerance? number
---@return number[][][]
function Path:flatten(tolerance) end

---A new path; `build(p)` may add to it at once.
---@param build? fun(p: morph.Path)
---@return morph.Path
function morph.path(build) end

---SwiftUI's `AnyTransition`: what a node with an `:id` does entering (insertion) and
---leaving (removal) under an animation.
---@class morph.Transition
local Transition = {}

---This transition on `curve`, whatever animation the change ran under, and even under
---none (SwiftUI's `AnyTransition.animation(_:)`).
---@param curve morph.Spring|morph.Timing|morph.Bezier
---@return morph.Transition
function Transition:animation(curve) end

---Both transitions at once (SwiftUI's `combined(with:)`).
---@param other morph.Transition
---@return morph.Transition
function Transition:combined(other) end

---Where a custom transition is (SwiftUI's `TransitionPhase`).
---@class morph.TransitionPhase
---@field value number -1 about to appear, 0 identity, 1 gone (SwiftUI's)
---@field isIdentity boolean `value == 0`

---SwiftUI's built-in transitions, for `node:transition(t)`.
---@class morph.transitions
---@field identity morph.Transition unchanged
---@field opacity morph.Transition fades from transparent
---@field slide morph.Transition in from the leading edge, out toward the trailing one
morph.transition = {}

---Scaled by `s` (default 0) about `anchor` (default the centre).
---@param s? number
---@param anchor? morph.Anchor
---@return morph.Transition
function morph.transition.scale(s, anchor) end

---Moved by its own size toward `edge`.
---@param edge morph.Edge
---@return morph.Transition
function morph.transition.move(edge) end

---Moved by (x, y) points.
---@param x? number
---@param y? number
---@return morph.Transition
function morph.transition.offset(x, y) end

---In from `edge` fading in, out toward the opposite edge fading out (SwiftUI's `push(from:)`).
---@param edge morph.Edge
---@return morph.Transition
function morph.transition.push(edge) end

---`insertion` in, `removal` out.
---@param insertion morph.Transition
---@param removal morph.Transition
---@return morph.Transition
function morph.transition.asymmetric(insertion, removal) end

---A transition of your own (SwiftUI's `Transition` and its `TransitionPhase`):
---`body(node, phase)` returns `node` with the modifiers it shows at `phase.value`, −1 about
---to appear, 0 identity, 1 gone, as SwiftUI's (`phase.isIdentity` is `value == 0`). An
---insertion runs the value from −1 to 0 and a removal from 0 to 1 on the change's curve (or the
---transition's own, `t:animation(curve)`); it composes with the others (`combined`).
---`m.transition.custom(function(node, phase) return node:opacity(1 - math.abs(phase.value)) end)`
---@param body fun(node: morph.Node, phase: morph.TransitionPhase): morph.Node
---@return morph.Transition
function morph.transition.custom(body) end

---Ready-made outlines.
morph.paths = {}

---@param x number
---@param y number
---@param w number
---@param h number
---@return morph.Path
function morph.paths.rect(x, y, w, h) end

---Rounded rectangle; style "continuous" (default, SwiftUI's smooth corners) or "circular".
---@param x number
---@param y number
---@param w number
---@param h number
---@param radius number
---@param style? morph.CornerStyle
---@return morph.Path
function morph.paths.roundedRect(x, y, w, h, radius, style) end

---@param cx number
---@param cy number
---@param radius number
---@return morph.Path
function morph.paths.circle(cx, cy, radius) end

---@param x number
---@param y number
---@param w number
---@param h number
---@return morph.Path
function morph.paths.ellipse(x, y, w, h) end

---@param x number
---@param y number
---@param w number
---@param h number
---@return morph.Path
function morph.paths.capsule(x, y, w, h) end

-- Nodes ---------------------------------------------------------------------
-- A body returns a tree of nodes. Modifiers change the node they are called
-- on and return it, so they chain; the modifier written last applies last
-- (SwiftUI's order): `n:scale(s):rotate(r, "bottom"):offset(x, y)`.
-- The enum aliases list exactly the names the host's Swift types accept, and
-- each options class exactly the keys its function takes (both generated).

---@alias morph.Paint morph.Color|morph.Gradient|string

---@alias morph.Anchor "center"|"top"|"bottom"|"leading"|"trailing"|"topLeading"|"topTrailing"|"bottomLeading"|"bottomTrailing"|number[]
---@alias morph.BlendMode "normal"|"multiply"|"screen"|"overlay"|"darken"|"lighten"|"colorDodge"|"colorBurn"|"softLight"|"hardLight"|"difference"|"exclusion"|"plusLighter"|"destinationOut"|"destinationOver"|"sourceAtop"
---@alias morph.FontWeight "ultraLight"|"thin"|"light"|"regular"|"medium"|"semibold"|"bold"|"heavy"|"black"
---@alias morph.LineCap "butt"|"round"|"square"
---@alias morph.LineJoin "miter"|"round"|"bevel"
---@alias morph.CornerStyle "continuous"|"circular"
---SwiftUI's text styles at iOS's default (Large) size: largeTitle 34, title 28, title2 22, title3 20, headline 17 semibold, subheadline 15, body 17, callout 16, footnote 13, caption 12, caption2 11.
---@alias morph.TextStyle "largeTitle"|"title"|"title2"|"title3"|"headline"|"subheadline"|"body"|"callout"|"footnote"|"caption"|"caption2"
---@alias morph.TextTruncation "head"|"middle"|"tail"
---@alias morph.TextAlignment "leading"|"center"|"trailing"
---@alias morph.ContentMode "fit"|"fill"
---@alias morph.Interpolation "none"|"low"|"medium"|"high"
---@alias morph.Edge "top"|"leading"|"bottom"|"trailing"
---@alias morph.RedactionReason "placeholder"

---@class morph.Gradient

---A PNG file beside the plugin, made by `morph.image`.
---@class morph.Image

---@class morph.Node
local Node = {}

---@class morph.FrameOptions
---@field width? number
---@field height? number
---@field minWidth? number
---@field maxWidth? number may be `math.huge`
---@field minHeight? number
---@field maxHeight? number may be `math.huge`
---@field alignment? morph.Anchor default "center"

---A fixed frame `frame(w, h [, alignment])` (either side may be nil), or a flexible one
---`frame{width=, height=, minWidth=, maxWidth = math.huge, minHeight=, maxHeight=, alignment=}`.
---@param width number|morph.FrameOptions|nil
---@param height? number
---@param alignment? morph.Anchor
---@return morph.Node
function Node:frame(width, height, alignment) end

---@class morph.PaddingOptions
---@field top? number
---@field leading? number
---@field bottom? number
---@field trailing? number
---@field horizontal? number
---@field vertical? number
---@field all? number

---`padding()` (16), `padding(n)`, or `padding{top=, leading=, bottom=, trailing=, horizontal=, vertical=, all=}`.
---@param insets? number|morph.PaddingOptions
---@return morph.Node
function Node:padding(insets) end

---Moves the drawing, not the layout.
---@param x? number default 0
---@param y? number default 0
---@return morph.Node
function Node:offset(x, y) end

---Centres the view at (x, y) of its parent's space; it takes the space offered.
---@param x number
---@param y number
---@return morph.Node
function Node:position(x, y) end

---`scale(s [, anchor])` or `scale(x, y [, anchor])`; the anchor is a unit point of the layout frame.
---@param x number
---@param y? number|morph.Anchor
---@param anchor? morph.Anchor
---@return morph.Node
function Node:scale(x, y, anchor) end

---Clockwise degrees about an anchor of the layout frame (default centre).
---@param degrees number
---@param anchor? morph.Anchor
---@return morph.Node
function Node:rotate(degrees, anchor) end

---@class morph.Rotate3dOptions
---@field axis? number[] {x, y, z}, default {0, 1, 0}
---@field anchor? morph.Anchor default "center"
---@field perspective? number default 1

---SwiftUI `rotation3DEffect`: true perspective, `d = max(w, h) / perspective`.
---@param degrees number
---@param options? morph.Rotate3dOptions
---@return morph.Node
function Node:rotate3d(degrees, options) end

---Multiplies opacity (per shape, or for the whole group after `group()`).
---@param alpha number
---@return morph.Node
function Node:opacity(alpha) end

---@param paint morph.Paint
---@return morph.Node
function Node:fill(paint) end

---@class morph.StrokeOptions
---@field color? morph.Paint default black
---@field width? number default 1
---@field dash? number[] e.g. {4, 3}
---@field dashPhase? number default 0
---@field cap? morph.LineCap default "butt"
---@field join? morph.LineJoin default "miter"

---`stroke(color [, width])` or `stroke{color=, width=, dash = {4, 3}, dashPhase=, cap=, join=}`.
---@param color? morph.Paint|morph.StrokeOptions
---@param width? number
---@return morph.Node
function Node:stroke(color, width) end

---@class morph.StrokeBorderOptions
---@field color? morph.Paint default black
---@field width? number default 1
---@field dash? number[]
---@field dashPhase? number default 0
---@field cap? morph.LineCap default "butt"
---@field join? morph.LineJoin default "miter"

---SwiftUI's `strokeBorder`: the stroke inside the shape's frame, its outline inset by
---half the width (rect, roundedRect, circle, ellipse and capsule, SwiftUI's
---`InsettableShape`s; a path shape takes `stroke`). Arguments as `stroke`'s.
---@param color? morph.Paint|morph.StrokeBorderOptions
---@param width? number
---@return morph.Node
function Node:strokeBorder(color, width) end

---SwiftUI's `transformEffect(_:)`: a `CGAffineTransform` `{a, b, c, d, tx, ty}` (or with
---those names) applied to the drawing about the view's origin, its top-leading corner:
---a point (x, y) goes to (a·x + c·y + tx, b·x + d·y + ty). `{1, 0, 0.5, 1, 0, 0}` skews.
---Layout is untouched. With a body that reads animated state it is `GeometryEffect`.
---@param matrix number[]|{a: number, b: number, c: number, d: number, tx: number, ty: number}
---@return morph.Node
function Node:transformEffect(matrix) end

---SwiftUI's `projectionEffect(_:)`: a `ProjectionTransform` `{m11, m12, m13, m21, m22,
---m23, m31, m32, m33}` (or with those names), row vectors as Core Animation's, about the
---view's origin: (x, y) goes to ((m11·x + m21·y + m31) / w, (m12·x + m22·y + m32) / w)
---with w = m13·x + m23·y + m33.
---@param matrix number[]|table
---@return morph.Node
function Node:projectionEffect(matrix) end

---SwiftUI's `redacted(reason: .placeholder)`: every text inside draws as a rounded bar
---per line and every image as a rounded box, in their colour faded (black for images).
---@param reason? morph.RedactionReason the only reason, and the default
---@return morph.Node
function Node:redacted(reason) end

---@class morph.ShadowOptions
---@field color? morph.Color|string default black at 0.33
---@field radius? number default 0
---@field x? number default 0
---@field y? number default 0

---A Gaussian shadow (σ ≈ radius).
---@param options morph.ShadowOptions
---@return morph.Node
function Node:shadow(options) end

---Clips to a shape node (default a rectangle) laid in this frame: any shape, a
---`morph.shape(function(rect) … end)` too.
---@param shape? morph.Node
---@return morph.Node
function Node:clip(shape) end

---Draws only part of a shape's outline (SwiftUI's `trim(from:to:)`): fractions of its
---arc length from the shape's start point (rect: top-left corner; roundedRect, capsule:
---where the top-left corner meets the top edge; circle, ellipse: the rightmost point;
---all clockwise on screen), clamped to 0…1; `from >= to` draws nothing. Shape nodes only.
---@param from? number default 0
---@param to? number default 1
---@return morph.Node
function Node:trim(from, to) end

---A Gaussian blur of the node as drawn (SwiftUI's `blur(radius:)`): σ = radius points,
---as shadows; it spreads 3σ past the node. Charged to the frame's blur budget.
---@param radius number
---@return morph.Node
function Node:blur(radius) end

---Keeps the node only where `node` is opaque (SwiftUI's `mask`): `node` is laid out in
---this node's frame like an overlay, and its alpha multiplies this node's. Modifiers
---written before `mask` are masked; those after apply to the masked result.
---@param node morph.Node|morph.Paint
---@param alignment? morph.Anchor
---@return morph.Node
function Node:mask(node, alignment) end

---@param mode morph.BlendMode
---@return morph.Node
function Node:blend(mode) end

---SwiftUI `compositingGroup()`: draws into its own layer; `destinationOut` inside erases only it.
---@return morph.Node
function Node:group() end

---zIndex among siblings (default 0; ties keep written order).
---@param index number
---@return morph.Node
function Node:z(index) end

---A stable name for tools, tests and the JSON dump.
---@param name string
---@return morph.Node
function Node:id(name) end

---SwiftUI's `.transition(_:)`: how this node (it needs an `:id`; a stack's child, the
---root, or an overlay's or background's view) enters and leaves the tree when a handler
---changes state under `self:animate`/`self:play` (without an animation, at once). A
---removed node keeps drawing at its last frame, taking no space, until its removal
---ends; its stack's other children glide to make or close its room. docs/design.md,
---Transitions.
---@param t morph.Transition
---@return morph.Node
function Node:transition(t) end

---SwiftUI's `.matchedGeometryEffect(id:in:)` (`properties: .frame`, the source): when
---the node with this id and namespace is laid out at another frame than in the last
---frame (elsewhere in the tree, or resized) after a handler changes state under
---`self:animate`/`self:play`, it glides from the frame it was shown at to the new one
---on the transaction's curve; without an animation it jumps. The first node of a key
---in a body is matched. docs/design.md, Matched geometry.
---@param id string|number
---@param namespace? string
---@return morph.Node
function Node:matchedGeometry(id, namespace) end

---@param node morph.Node|morph.Paint
---@param alignment? morph.Anchor
---@return morph.Node
function Node:overlay(node, alignment) end

---@param node morph.Node|morph.Paint
---@param alignment? morph.Anchor
---@return morph.Node
function Node:background(node, alignment) end

---@param handler fun(self: table, event: table)
---@return morph.Node
function Node:onTap(handler) end

---@param handler fun(self: table, event: table)
---@return morph.Node
function Node:onDrag(handler) end

---A press held 0.5 s within 10 pt over this node (SwiftUI's `onLongPressGesture`
---defaults), reported while still down; its release is no tap.
---@param handler fun(self: table, event: table)
---@return morph.Node
function Node:onLongPress(handler) end

---A second tap within 0.35 s of a first over this node (`onTapGesture(count: 2)`);
---the first was a tap.
---@param handler fun(self: table, event: table)
---@return morph.Node
function Node:onDoubleTap(handler) end

---SwiftUI's `.onAppear`: runs `handler(self)` when this node first shows (the first
---body, or a later body that inserts it), after that body and before the frame is
---drawn, as a handler does (`self:animate` in it animates). A node is the same from
---one body to the next by its `:id`, else by its place. docs/lua-api.md, Appear and
---disappear.
---@param handler fun(self: table)
---@return morph.Node
function Node:onAppear(handler) end

---SwiftUI's `.onDisappear`: runs `handler(self)` when this node leaves the tree —
---after the body that removed it, or, when a transition removes it, once its removal
---has ended — and when the component is unloaded. docs/lua-api.md, Appear and
---disappear.
---@param handler fun(self: table)
---@return morph.Node
function Node:onDisappear(handler) end

---SwiftUI's name for `clip`.
---@param shape? morph.Node
---@return morph.Node
function Node:clipShape(shape) end

---@return morph.Node
function morph.rect() end

---@return morph.Node
function morph.circle() end

---@return morph.Node
function morph.ellipse() end

---@return morph.Node
function morph.capsule() end

---@class morph.RoundedRectOptions
---@field r? number the corner radius
---@field radius? number the same as r
---@field style? morph.CornerStyle default "continuous"

---`roundedRect(r [, style])` or `roundedRect{r =, style =}`; style "continuous" (default) or "circular".
---@param r number|morph.RoundedRectOptions
---@param style? morph.CornerStyle
---@return morph.Node
function morph.roundedRect(r, style) end

---A custom outline: a path drawn in the frame's coordinates as given, or a function
---called with the frame layout gives the shape (`{x = 0, y = 0, width =, height =}`)
---that returns its path (SwiftUI's `Shape.path(in:)`), so the shape fills its frame.
---@param path morph.Path|fun(rect: morph.Rect): morph.Path
---@return morph.Node
function morph.shape(path) end

---@class morph.ImageOptions
---@field resizable? boolean take the size offered instead of the image's own (a pixel a point), default false
---@field contentMode? morph.ContentMode keep the aspect ratio inside (`fit`) or around (`fill`) the offer
---@field interpolation? morph.Interpolation how scaled pixels are sampled, default "high"

---A PNG file in the plugin's folder (a relative path, no `..`, no link leading out),
---decoded once and reloaded when the file changes: `image("icon.png", {resizable = true,
---contentMode = "fit"})`.
---@param name string
---@param options? morph.ImageOptions
---@return morph.Node
function morph.image(name, options) end

---@class morph.TextOptions
---@field size? number points, 0 to 4096 (the frame budget); default the style's size, else 17
---@field weight? morph.FontWeight default the style's weight, else "regular"
---@field color? morph.Paint default black
---@field style? morph.TextStyle a SwiftUI text style: its size and weight unless given
---@field italic? boolean default false
---@field monospacedDigit? boolean digits of one width (SwiftUI's `monospacedDigit()`), default false
---@field tracking? number points added between characters
---@field kerning? number the same as tracking; tracking wins when both are given
---@field lineSpacing? number points added between lines, default 0
---@field lineLimit? integer at most this many lines, the last truncated
---@field truncation? morph.TextTruncation where the ellipsis goes, default "tail"
---@field alignment? morph.TextAlignment how lines align (SwiftUI's `multilineTextAlignment`), default "leading"

---Text, laid out like SwiftUI's `Text`: its ideal width when it fits, else wrapped at the
---width offered (`"\n"` breaks a line); as many lines as the height offered and `lineLimit`
---allow. Inter, with Noto Sans CJK and Noto Color Emoji for what Inter lacks:
---`text("Red", {style = "largeTitle", weight = "bold", color = "#FFFFFF"})`.
---@param s string|number
---@param options? morph.TextOptions
---@return morph.Node
function morph.text(s, options) end

---Draws nothing, takes no space.
---@return morph.Node
function morph.empty() end

---Takes the space offered.
---@param minLength? number
---@return morph.Node
function morph.spacer(minLength) end

---Children in the array part; plain arrays are spliced in, `false` skipped.
---@class morph.ZstackOptions
---@field alignment? morph.Anchor default "center"
---@field spacing? number
---@field [integer] morph.Node|morph.Node[]|morph.Paint|false

---Children drawn on top of each other; `alignment` (default centre).
---@param children morph.ZstackOptions
---@return morph.Node
function morph.zstack(children) end

---@class morph.VstackOptions
---@field alignment? morph.Anchor default "center"
---@field spacing? number
---@field [integer] morph.Node|morph.Node[]|morph.Paint|false

---@param children morph.VstackOptions
---@return morph.Node
function morph.vstack(children) end

---@class morph.HstackOptions
---@field alignment? morph.Anchor default "center"
---@field spacing? number
---@field [integer] morph.Node|morph.Node[]|morph.Paint|false

---@param children morph.HstackOptions
---@return morph.Node
function morph.hstack(children) end

---@class morph.LinearGradientOptions
---@field colors? morph.Paint[] evenly spaced
---@field stops? table[] `{ {colour, location}, … }`
---@field from? morph.Anchor default "top"
---@field to? morph.Anchor default "bottom"

---@param options morph.LinearGradientOptions
---@return morph.Gradient
function morph.linearGradient(options) end

---@class morph.RadialGradientOptions
---@field colors? morph.Paint[] evenly spaced
---@field stops? table[] `{ {colour, location}, … }`
---@field center? morph.Anchor default "center"
---@field startRadius? number points, default 0
---@field endRadius? number points (required)

---Circles about `center` (SwiftUI's `RadialGradient`), padded with the end colours.
---@param options morph.RadialGradientOptions
---@return morph.Gradient
function morph.radialGradient(options) end

---@class morph.AngularGradientOptions
---@field colors? morph.Paint[] evenly spaced
---@field stops? table[] `{ {colour, location}, … }`
---@field center? morph.Anchor default "center"
---@field startAngle? number degrees clockwise from trailing, default 0
---@field endAngle? number default startAngle + 360

---A conic gradient about `center` (SwiftUI's `AngularGradient`): a span under 360° fills
---the rest with the last and first colours, meeting halfway.
---@param options morph.AngularGradientOptions
---@return morph.Gradient
function morph.angularGradient(options) end

---@class morph.Rect
---@field x number
---@field y number
---@field width number
---@field height number

---@class morph.TextMetrics
---@field width number as `morph.text` lays out: the widest line
---@field height number every line, with line spacing
---@field baseline number from the top of the box down to the first line's baseline

---@class morph.MeasureTextOptions: morph.TextOptions
---@field width? number the width offered (default: none, the ideal width)

---The size `morph.text(s, style)` lays out at, offered `style.width` (nil: its ideal
---width), by the same layout the frame uses: `measureText("Red", {size = 34}).width`.
---@param s string|number
---@param style? morph.MeasureTextOptions
---@return morph.TextMetrics
function morph.measureText(s, style) end

-- Components ----------------------------------------------------------------
-- A plugin returns `morph.component{…}`. The host keeps the state: numbers
-- animate (and so do points {x, y}, sizes {width, height}, rects {x, y, width,
-- height}, colours, through OKLab, and arrays of numbers: each declared by its
-- initial value), other values change at once. `self` shows props and the presented
-- (on-screen) state; `self.target` shows where animations are headed.

---@class morph.InputPoint
---@field x number
---@field y number

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

---@class morph.Accessibility
---@field label? string
---@field value? string
---@field hint? string
---@field traits? string[] e.g. { "button" }

---The `self` handlers and `body` receive: props and state read as fields.
---Reading a key declared in neither props nor state is an error naming the declared ones.
---@class morph.Self
---@field target table where each state value is headed (read-only)
---@field reduceMotion boolean true when the host asks for reduced motion
---@field time number seconds since load on the virtual clock; a body that reads it is redrawn every frame (continuous motion as a pure function of time)
---@field size { width: number, height: number } the size offered to the body (SwiftUI's `GeometryReader`): the component's `size` until a host offers another; the body is laid out in it and runs again when it changes (a prop or state key named `size` wins)
local Self = {}

---@class morph.AnimateOptions
---@field done? fun(self: morph.Self) runs once, when every key has finished or been taken over
---@field velocity? table<string, number|table> starting velocity per key, in units per second (a release speed), for springs; a composite key's in its shape (`{x =, y =}`; a colour's `{l =, a =, b =, alpha =}`)

---@class morph.PlayOptions
---@field done? fun(self: morph.Self) runs once, when every track has finished or been taken over
---@field repeat? boolean|integer true: restart forever (SwiftUI's `repeating: true`); n: play n times

---Animates state changes along a curve; non-numbers change at once. With reduce
---motion on, everything changes at once. `done(self)` runs once, when every key
---has finished or been taken over by a later animation.
---@param curve morph.Spring|morph.Timing|morph.Bezier
---@param changes table<string, any>
---@param done? fun(self: morph.Self)|morph.AnimateOptions
function Self:animate(curve, changes, done) end

---How fast a state key's presented value moves now, in units per second, in the
---key's shape: a number, `{x, y}` for a point, … (a colour's in premultiplied
---OKLab: `{l, a, b, alpha}`).
---@param key string
---@return number|table
function Self:velocity(key) end

---Plays a keyframe timeline on state keys of its tracks' kinds (a point track
---on a point key, …), each component from its presented value and velocity; it
---replaces what was animating those keys. With reduce motion on, each key takes
---its track's last value at once.
---@param timeline morph.Keyframes
---@param options? morph.PlayOptions
function Self:play(timeline, options) end

---Sets state at once (the same as assigning `self.key = value`).
---@param changes table<string, any>
function Self:set(changes) end

---Runs `fn(self)` `seconds` after now on the component's clock (SwiftUI's
---`DispatchQueue.main.asyncAfter`), as a handler runs: `self:animate` in it animates. The
---clock stops at that moment, so `render --time`, tests and exports run it at exactly
---that time; a hot reload keeps it, unloading the component cancels it.
---@param seconds number
---@param fn fun(self: morph.Self)
function Self:after(seconds, fn) end

---@class morph.ComponentDefinition
---@field name? string shown in the status line and JSON
---@field description? string one line for `morphhost list`
---@field size? number[] the component's frame in points, default {380, 240}
---@field props? table defaults, overridable with `--set key=value`
---@field state? table initial state; use false for "none" (nil cannot be stored)
---@field progress? string the numeric state key that `--progress` drives
---@field progressRange? number[]|fun(self: morph.Self): number, number the range filmstrips and checks sweep, default {0, 1}
---@field body fun(self: morph.Self): morph.Node
---@field tap? fun(self: morph.Self, event: morph.InputEvent) taps no node claimed
---@field drag? fun(self: morph.Self, event: morph.InputEvent) drags no node claimed
---@field longPress? fun(self: morph.Self, event: morph.InputEvent) a press held 0.5 s within 10 pt (SwiftUI's LongPressGesture defaults), while still down; its release is no tap
---@field doubleTap? fun(self: morph.Self, event: morph.InputEvent) a second tap within 0.35 s of the first (which was a tap)
---@field hover? fun(self: morph.Self, event: morph.InputEvent) the pointer over the component with no button down: phase "active" with the location, "ended" when it leaves
---@field dragMinimumDistance? number points before a drag begins, default 10
---@field controlled? fun(self: morph.Self, value: number) after the host sets the progress key (controlled mode: `--progress`, scrubbing), as a parent writing a binding
---@field appear? fun(self: morph.Self) SwiftUI's `onAppear`: once per load, after the state exists and before the first frame, in every host; what it animates runs from the first frame. A hot reload keeps state and does not run it again
---@field disappear? fun(self: morph.Self) SwiftUI's `onDisappear` for the component: once, when the instance is unloaded (a reload that resets state, the file closed, the run, view or test case over); a hot reload that keeps state does not run it
---@field accessibility? fun(self: morph.Self): morph.Accessibility
---@field reload? fun(self: morph.Self, old: table) runs after a hot reload; `old` holds the old model values
---@field save? fun(self: morph.Self): any before a hot reload, the old code hands something on…
---@field restore? fun(self: morph.Self, saved: any) …which the new code receives before `reload`

---Runs another Lua file beside the plugin (a path inside the plugin's folder,
---".lua" optional) in its own sandbox and returns what it returns, cached until
---the plugin reloads. Hot reload watches imported files too.
---@param name string
---@return any
function morph.import(name) end

---Checks a component definition and marks it as one.
---@param definition morph.ComponentDefinition
---@return morph.ComponentDefinition
function morph.component(definition) end

-- Tests (`*.test.lua` files only) -----------------------------------------
-- `morph.test` exists in the state a test file runs in (`morphhost test`),
-- never in a plugin's. docs/testing.md describes the vocabulary.

---A check made by `morph.test.accessibility`, `frame`, `quad`, `opacity`, `gradient`,
---`snapshot` or `settled`.
---@class morph.TestCheck

---Expectations at one moment, made by `at(t){…}` or `settledBy(t)`.
---@class morph.TestMoment

---A case, made by `case(name){…}`; a test file returns a list of them.
---@class morph.TestCase

---A number expected within a tolerance, made by `approx`.
---@class morph.Approx

---What a case table holds: the plugin, its props and input, then its moments.
---@class morph.TestCaseDefinition
---@field plugin string the plugin's path, relative to the test file
---@field props? table<string, number|string|boolean|(number|string|boolean)[]> `--set` values
---@field input? string an input script (`0 tap`, one event a line; docs/commands.md), or `"tap"` (one tap at 0 s) or `"none"` (the default)
---@field inputFile? string an input script's file, relative to the test file
---@field reduceMotion? boolean runs with Reduce Motion on
---@field [integer] morph.TestMoment

---@class morph.test
---@field settled morph.TestCheck at rest: nothing that will end is moving
morph.test = {}

---A number within `tolerance` (default 1e-6) of `value`.
---@param value number
---@param tolerance? number
---@return morph.Approx
function morph.test.approx(value, tolerance) end

---The accessibility value, or some of label, value and hint.
---@param want string|{label?: string, value?: string, hint?: string}
---@return morph.TestCheck
function morph.test.accessibility(want) end

---The box around the node marked `:id(id)`, in the component's points.
---@param id string
---@param rect number[] {x, y, width, height}
---@param tolerance? number default 0.01
---@return morph.TestCheck
function morph.test.frame(id, rect, tolerance) end

---The node's four corners after every transform (top-left, top-right, bottom-right,
---bottom-left), in the component's points.
---@param id string
---@param corners number[][] four {x, y}
---@param tolerance? number default 0.01
---@return morph.TestCheck
function morph.test.quad(id, corners, tolerance) end

---The drawn opacity of the node marked `:id(id)`: its own times every group's around it.
---@param id string
---@param value number 0 to 1
---@param tolerance? number default 0.001
---@return morph.TestCheck
function morph.test.opacity(id, value, tolerance) end

---The gradient the node marked `:id(id)` is filled with: its ends (`from`, `to`: a linear
---gradient's) or its `center` (radial, angular) in the component's points, and its
---`stops` (`{"#RRGGBB[AA]", location}`); what is left out is not checked. Points within
---`tolerance` points, colour channels and locations within `tolerance` (0…1).
---@param id string
---@param want {from?: number[], to?: number[], center?: number[], stops?: table[]}
---@param tolerance? number default 0.01
---@return morph.TestCheck
function morph.test.gradient(id, want, tolerance) end

---The picture, compared with the golden `NAME.png` in the `<file>.snapshots` folder beside
---the test file (`morphhost test --update` records it). `tolerance` loosens or tightens
---this snapshot's comparison: `channel` (0-255, away from edges), `edgeChannel` (near
---edges), `fraction` (of pixels that may differ) and `cluster` (the most differing pixels
---that may touch).
---@param name string letters, digits, '_' and '-'
---@param options? {scale?: number, tolerance?: table<string, number>} scale: pixels a point, 0.25 to 4 (default 1)
---@return morph.TestCheck
function morph.test.snapshot(name, options) end

---Expectations at `t` seconds on the component's clock: string keys are state keys
---(a number is checked within 1e-9, `approx(v, tol)` within tol, strings and booleans
---exactly, a table field by field: `pt = {x = 1, y = approx(2, 0.1)}`); list items are
---checks (`accessibility`, `frame`, `quad`, `opacity`, `gradient`, `snapshot`, `settled`).
---@param t number seconds, >= 0
---@return fun(expectations: table): morph.TestMoment
function morph.test.at(t) end

---The component comes to rest at or before `t` seconds.
---@param t number
---@return morph.TestMoment
function morph.test.settledBy(t) end

---A case: `test.case "name" { plugin = "x.lua", input = "0 tap", test.at(0.3) { … } }`.
---@param name string
---@return fun(definition: morph.TestCaseDefinition): morph.TestCase
function morph.test.case(name) end

return morph
