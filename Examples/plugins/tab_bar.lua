-- Tab bar: four tabs with labels; tapping one moves the selection pill under it,
-- written the SwiftUI way: the tap changes `selected` under a spring (withAnimation),
-- and the pill, drawn behind the selected label only, is matched by id
-- (matchedGeometryEffect), so the host glides it from the old tab to the new one and
-- stretches it to the new label's width.
-- `morphhost run Examples/plugins/tab_bar.lua --input Examples/inputs/tabs.txt`
local m = morph

local spring = m.spring { response = 0.4, dampingFraction = 0.75 }
local tabs = { "Home", "Search", "Library", "Me" }

return m.component {
  name = "TabBar",
  description = "Four tabs; a selection pill glides to the tapped one (matched geometry).",
  size = { 360, 96 },
  props = { tint = m.color "#007AFF" },
  -- `tab` is the selected tab's index from 0 (the progress); `selected` its name.
  state = { selected = "Home", tab = 0 },
  progress = "tab",
  progressRange = function() return 0, #tabs - 1 end,

  -- A parent's binding sets the tab: the pill jumps (no animation).
  controlled = function(self, value)
    self.selected = tabs[math.floor(value + 0.5) + 1]
  end,

  body = function(self)
    local row = { spacing = 4 }
    for i, name in ipairs(tabs) do
      local chosen = self.selected == name
      local label = m.text(name, { style = "subheadline", weight = "semibold",
        color = chosen and self.tint or "#3C3C43" })
        :padding { horizontal = 14, vertical = 8 }
      if chosen then
        -- .background(Capsule().matchedGeometryEffect(id: "pill", in: tabs))
        label = label:background(m.capsule():fill(self.tint:opacity(0.16)):id("pill")
          :matchedGeometry("pill", "tabs"))
      end
      -- The chosen tab draws first (zIndex), so the pill passes under the other labels;
      -- its label is tinted, not white, to read wherever the pill is on its way.
      row[i] = label:id(name):z(chosen and -1 or 0)
        :onTap(function(s) s:animate(spring, { selected = name, tab = i - 1 }) end)
    end
    return m.zstack {
      m.rect():fill "#F2F2F7",
      m.hstack(row):padding(6):background(m.capsule():fill "white"),
    }
  end,

  accessibility = function(self)
    return { label = "Tabs", value = self.selected, traits = { "tabBar" } }
  end,
}
