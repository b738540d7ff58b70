-- Toast: a tap slides a message in from the top, and it leaves by itself after a
-- few seconds or at a second tap, written the SwiftUI way: the tap changes `shown`
-- under a spring (withAnimation), and the toast's transition (move from the top,
-- combined with opacity) animates its insertion and removal.
-- `morphhost run Examples/plugins/toast.lua --input Examples/inputs/toast.txt`
local m = morph

local spring = m.spring { response = 0.45, dampingFraction = 0.8 }

-- withAnimation(spring) { shown = false }
local function hide(self) self:animate(spring, { shown = false }) end

return m.component {
  name = "Toast",
  description = "A message that slides in at a tap and leaves after a delay or a second tap (transition).",
  size = { 360, 240 },
  props = {
    message = "Saved to your library. You will find it under Recent on every device.",
    tint = m.color "#1C1C1E",
    -- Seconds the toast stays before it leaves by itself.
    stay = 2,
  },
  -- shows counts the toasts, so a timer left from an earlier one does nothing;
  -- timer runs from 0 to 1 while a toast stays.
  state = { shown = false, shows = 0, timer = 0 },
  -- What --progress and filmstrips drive: how long the toast has stayed.
  progress = "timer",

  tap = function(self)
    if self.shown then return hide(self) end
    self.shows = self.shows + 1
    local show = self.shows
    self:animate(spring, { shown = true })
    self.timer = 0
    self:animate(m.linear(self.stay), { timer = 1 }, function(s)
      if s.shown and s.shows == show then hide(s) end
    end)
  end,

  body = function(self)
    local children = {
      alignment = "top",
      m.rect():fill "#F2F2F7",
      m.text("Tap to save", { style = "footnote", color = "#8E8E93" })
        :frame { maxWidth = math.huge, maxHeight = math.huge, alignment = "bottom" }
        :padding { bottom = 16 },
    }
    if self.shown then
      children[3] = m.hstack {
        spacing = 12,
        alignment = "top",
        m.circle():fill "#34C759":frame(22, 22)
          :overlay(m.text("✓", { size = 13, weight = "bold", color = "white" })),
        -- Offered 250 pt, the message wraps (SwiftUI's Text).
        m.text(self.message, { style = "subheadline", color = "white" })
          :frame { width = 250, alignment = "leading" },
      }
        :padding(14)
        :background(m.roundedRect(16):fill(self.tint))
        :shadow { radius = 8, y = 4 }
        :padding { top = 16 }
        :id("toast")
        -- .transition(.move(edge: .top).combined(with: .opacity))
        :transition(m.transition.move("top"):combined(m.transition.opacity))
    end
    return m.zstack(children)
  end,

  accessibility = function(self)
    return {
      label = "Toast",
      value = self.shown and self.message or "Hidden",
      hint = "Shows a message, or dismisses it",
      traits = { "button" },
    }
  end,
}
