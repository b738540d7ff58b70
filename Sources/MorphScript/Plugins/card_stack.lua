-- CardStack · NOT SO BIG TECH · https://github.com/notsobigcompany/CardStack
-- Ported to morphhost from the SwiftUI source (CardStack.swift and its DemoView preview).
--
-- Copyright 2022 NOT SO BIG TECH LIMITED
--
-- Permission is hereby granted, free of charge, to any person obtaining a copy of this software
-- and associated documentation files (the "Software"), to deal in the Software without
-- restriction, including without limitation the rights to use, copy, modify, merge, publish,
-- distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
-- Software is furnished to do so, subject to the following conditions:
--
-- The above copyright notice and this permission notice shall be included in all copies or
-- substantial portions of the Software.
--
-- THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
-- BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
-- NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
-- DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
-- OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
--
-- A data-driven deck: one continuous `currentIndex` places every card. Cards
-- behind the top one step 35 pt to the right, shrink by 10 % and turn 2° per
-- place; the card being dragged off the top swings out by sin(π·progress)·15
-- and drops behind the deck (zIndex flips sign) once it is half-way gone.
-- A drag follows the finger with interactiveSpring (300 pt per card) and
-- snaps with interpolatingSpring(stiffness 300, damping 40): a flick whose
-- predicted end is more than 200 pt away moves exactly one card, anything
-- else rounds to the nearest card.
--
-- The body is the seed's DemoView: the stack of six rounded cards (height
-- 400, `.padding(50)`) above two caption lines. The frame is 390 × 560 pt:
-- an iPhone's width (SwiftUI offers the stack the device width, so each card
-- is 390 − 2·50 = 290 pt wide) by the 500 pt stack plus two 17 pt caption
-- lines and the VStack's spacing. Like the phone's screen edge, the canvas
-- edge crops the card that swings out to the left mid-drag.
local m = morph

-- The seed's constants that are not props.
local POINTS_PER_CARD = 300 -- drag distance that moves the index by one
local FLICK_DISTANCE = 200 -- predicted end translation that moves one card
local SWING_OUT = 15 -- swingOutMultiplier's amplitude
local SCALE_STEP = 0.1 -- scale lost per place away from the top
local DEGREES_STEP = 2 -- degrees turned per place away from the top

local DEFAULT_ITEMS = {
  { name = "Red", color = m.color "red" },
  { name = "Orange", color = m.color "orange" },
  { name = "Yellow", color = m.color "yellow" },
  { name = "Green", color = m.color "green" },
  { name = "Blue", color = m.color "blue" },
  { name = "Purple", color = m.color "purple" },
}

--- Swift's `round`: halves away from zero.
local function round(x)
  if x >= 0 then return math.floor(x + 0.5) end
  return -math.floor(-x + 0.5)
end

--- An item's colour: a morph.Color, or a string such as "#FF0000" or "red"
--- (what `--set items=…` gives).
local function paint(c)
  if type(c) == "string" then return m.color(c) end
  return c
end

--- A whole number for captions (state numbers come back as floats).
local function int(x)
  return string.format("%d", math.floor(x))
end

-- The seed's per-card functions; `index` is 0-based, `current` the presented index.

local function z_index(index, current, count)
  if index + 0.5 < current then return -(count - index) end
  return count - index
end

local function current_position(index, current)
  return current - index
end

local function x_offset(index, current, count, spacing)
  local top_card_progress = current_position(index, current)
  local x = (index - current) * spacing
  if top_card_progress > 0 and top_card_progress < 0.99 and index < count - 1 then
    return x * (math.sin(math.pi * top_card_progress) * SWING_OUT)
  end
  return x
end

local function scale(index, current)
  return 1 - SCALE_STEP * math.abs(current_position(index, current))
end

local function rotation_degrees(index, current)
  return -current_position(index, current) * DEGREES_STEP
end

--- The card drawn on top: the first one whose zIndex is still positive.
local function top_card(current, count)
  return math.max(0, math.min(count - 1, math.ceil(current - 0.5)))
end

--- The demo's `.onTapGesture { tappedIndex = currentIndex }`: the demo's
--- currentIndex is the stack's binding (finalIndex), whichever card was hit.
local function card_tapped(self)
  self.tappedIndex = self.finalIndex
end

--- The seed's goTo: clamps, moves the index, writes the binding.
local function go_to(self, index, spring)
  local max_index = #self.items - 1
  local clamped = math.max(0, math.min(max_index, index))
  self:animate(spring, { currentIndex = clamped })
  self.finalIndex = clamped
end

--- The seed's snapToNearestAbsoluteIndex.
local function snap(self, predicted_end_x)
  local spring = m.interpolatingSpring { stiffness = 300, damping = 40 }
  if math.abs(predicted_end_x) > FLICK_DISTANCE then
    if predicted_end_x > 0 then
      go_to(self, round(self.target.previousIndex) - 1, spring)
    else
      go_to(self, round(self.target.previousIndex) + 1, spring)
    end
  else
    -- SwiftUI's `round(currentIndex)` reads the model value, not the screen.
    self:animate(spring, { currentIndex = round(self.target.currentIndex) })
  end
end

--- The stack's highPriorityGesture(DragGesture()). It sits on the ZStack, so
--- (as in SwiftUI) a drag starts only on a card, never on the padding or the
--- captions: each card carries it.
local function stack_drag(self, event)
  if event.phase == "ended" then
    snap(self, event.predictedEndTranslation.x)
    -- Assigned after the withAnimation block: the model value, not the screen.
    self.previousIndex = self.target.currentIndex
  else
    local x = (event.translation.x / POINTS_PER_CARD) - self.target.previousIndex
    self:animate(m.interactiveSpring(), { currentIndex = -x })
  end
end

return m.component {
  name = "Card Stack",
  description = "NOT SO BIG TECH's CardStack demo, 390 pt wide (iPhone); drag or flick through the cards.",
  size = { 390, 560 },
  props = {
    -- The cards: { name = "Red", color = m.color "red" | "#FF3B30" }, …
    items = DEFAULT_ITEMS,
    cornerRadius = 20, -- continuous corners
    cardHeight = 400,
    cardPadding = 50, -- the demo's .padding(50) around each card
    spacing = 35, -- the seed's `padding`: x step between stacked cards
    titleSize = 34, -- .largeTitle
  },
  -- currentIndex: the continuous index (the seed's @State); previousIndex:
  -- where the current drag started; finalIndex: the currentIndex binding
  -- (only goTo writes it); tappedIndex: the demo's Int? (false = nil).
  state = { currentIndex = 0, previousIndex = 0, tappedIndex = false, finalIndex = 0 },
  progress = "currentIndex",
  progressRange = function(self) return 0, #self.items - 1 end,
  -- Controlled mode is the demo's parent writing the binding: the captions
  -- then name the card the stack shows, as they would after swiping there.
  controlled = function(self, index)
    self.finalIndex = top_card(index, #self.items)
  end,

  body = function(self)
    local items = self.items
    local count = #items
    local current = self.currentIndex
    local cards = {}
    for k, item in ipairs(items) do
      local index = k - 1
      cards[k] = m.roundedRect(self.cornerRadius, "continuous")
        :fill(paint(item.color))
        :overlay(m.text(tostring(item.name), { size = self.titleSize, weight = "bold", color = m.color "white" }))
        :frame { height = self.cardHeight }
        :onTap(card_tapped)
        :onDrag(stack_drag)
        :id("card" .. k)
        :padding(self.cardPadding)
        :z(z_index(index, current, count))
        :offset(x_offset(index, current, count, self.spacing), 0)
        :scale(scale(index, current))
        :rotate(rotation_degrees(index, current))
    end
    local tapped = self.tappedIndex
    return m.vstack {
      m.zstack(cards),
      m.text("Current card is " .. int(self.finalIndex)):id("currentCaption"),
      m.text(tapped and ("Card " .. int(tapped) .. " was tapped") or "No card has been tapped")
        :id("tappedCaption"),
    }
  end,

  -- Not in the seed (it has no accessibility): positions are 1-based, as
  -- VoiceOver reads them; the captions keep the demo's 0-based numbers.
  accessibility = function(self)
    local count = #self.items
    local value = string.format("Card %d of %d", top_card(self.currentIndex, count) + 1, count)
    if self.tappedIndex then
      value = value .. string.format(", card %d was tapped", math.floor(self.tappedIndex) + 1)
    end
    return { label = "Card stack", value = value, traits = { "adjustable" } }
  end,
}
