"""Drives `morphhost preview` in a real browser (Debian's chromium through
Playwright): the page loads; a click on #stage flips the card; #scrub moves
the picture; an edited accent colour shows; a broken save shows #error with
flip.lua:LINE and the fix hides it; a foreign Host header is refused; the
pointer moving over #stage hovers (HOVER_LUA says where) and leaving ends it.
The inspector: every numeric state key of the bundled plugins is drawn as a
curve; scrubbing the played timeline puts the readout at the engine's value
at that moment (the session plays the take again to reach it, and `inspect`
reports the engine then); a replay after a save reproduces the same curves.
The picture is streamed as changed rectangles drawn into a canvas: after
scrubbing, the canvas (over white, as `render` draws it) must match
`morphhost render --progress P --scale 2`.
The studio (issue 35): at 1440 x 900 the stage covers at least 45 % of the
window's width or 55 % of its height; `export-gif` downloads a GIF that
ffprobe reads and `export-lottie` a Lottie JSON; a tap in one tab does not
change another; a broken save covers the page with the overlay, its
file:line and a code frame quoting the broken line under a caret; a
folder's index lists no test files; the keys panel lists the server's keys.
The screenshots are the studio at 1440 x 900 (SCREENSHOT_PNG) and at
390 x 844 (beside it, `-mobile` added to its name).

Usage: test_preview.py MORPHHOST_BINARY FLIP_LUA HOVER_LUA SCREENSHOT_PNG
Exits 0 when every check passed; prints one line per check.
"""
import base64
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

TIMEOUT_MS = 20000


def check(name, condition):
    print(("ok   " if condition else "FAIL ") + name, flush=True)
    if not condition:
        raise SystemExit(1)


# The RGB of the picture at (dx, dy) pixels from its centre: `px(dx, dy)` in
# the page's scripts.
PIXEL_JS = """const px = (dx, dy) => { const c = document.getElementById('stage');
  const d = c.getContext('2d').getImageData(c.width / 2 + dx, c.height / 2 + dy, 1, 1).data;
  return [d[0], d[1], d[2]]; };"""


def center_pixel(page):
    return page.evaluate("() => { %s return px(0, 0); }" % PIXEL_JS)


# How much of the canvas matches the PNG given as base64 (the same size):
# the share of pixels whose channels are all within 2 levels, and the
# largest difference.
MATCH_JS = """async (png) => {
  const c = document.getElementById('stage');
  const image = new Image();
  image.src = 'data:image/png;base64,' + png;
  await image.decode();
  if (image.width !== c.width || image.height !== c.height) return [0, 255];
  const other = document.createElement('canvas');
  other.width = c.width; other.height = c.height;
  other.getContext('2d').drawImage(image, 0, 0);
  // The stage is transparent (the page's background shows through): over white, as render draws.
  const flat = document.createElement('canvas');
  flat.width = c.width; flat.height = c.height;
  const f = flat.getContext('2d');
  f.fillStyle = '#fff'; f.fillRect(0, 0, c.width, c.height); f.drawImage(c, 0, 0);
  const a = f.getImageData(0, 0, c.width, c.height).data;
  const b = other.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let close = 0, worst = 0;
  for (let i = 0; i < a.length; i += 4) {
    let d = 0;
    for (let k = 0; k < 4; k++) d = Math.max(d, Math.abs(a[i + k] - b[i + k]));
    if (d <= 2) close += 1;
    worst = Math.max(worst, d);
  }
  return [close / (a.length / 4), worst];
}"""


def rendered(binary, plugin, progress, scale):
    """`morphhost render PLUGIN --progress P --scale S` as base64 PNG."""
    folder = tempfile.mkdtemp(prefix="morph-render-")
    try:
        out = os.path.join(folder, "frame.png")
        subprocess.run([binary, "render", plugin, "--progress", str(progress), "--scale", str(scale),
                        "-o", out], check=True, timeout=120)
        with open(out, "rb") as f:
            return base64.b64encode(f.read()).decode()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def check_matches_render(page, binary, plugin, progress):
    """Waits (bounded) until the streamed canvas shows what `render` draws at
    the stream's density."""
    density = float(page.evaluate("document.getElementById('stage').dataset.density"))
    expected = rendered(binary, plugin, progress, density)
    end = time.time() + TIMEOUT_MS / 1000
    while True:
        share, worst = page.evaluate(MATCH_JS, expected)
        if share >= 0.999 or time.time() > end:
            break
        time.sleep(0.2)
    check("the streamed picture at progress %s matches render: %.4f of pixels within 2 levels"
          " (largest difference %d)" % (progress, share, worst), share >= 0.999)


def save(path, text):
    # Write and rename, as editors do; the watcher sees either.
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def serve(binary, plugin):
    """`morphhost preview PLUGIN` and the URL it prints first."""
    server = subprocess.Popen(
        [binary, "preview", plugin, "--no-open"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = server.stdout.readline().strip()
    check("the first line is the URL: " + url, url.startswith("http://127.0.0.1:"))
    return server, url


def stop(server):
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    check("Ctrl-C/SIGTERM stops the server cleanly (exit %s)" % server.returncode,
          server.returncode == 0)


def hovered_x(page):
    match = re.search(r"hovered at (\d+),", page.text_content("#status"))
    return int(match.group(1)) if match else -1


def move_until(page, x, y, condition, arg=None):
    """Moves the pointer to (x, y) until `condition` holds. A real pointer
    sends a stream of moves; Playwright sends one, so it is nudged by a pixel
    every few seconds while the page has not answered (a loaded machine)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    nudge = 0
    while True:
        page.mouse.move(x + nudge, y)
        try:
            page.wait_for_function(condition, arg=arg, timeout=4000)
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
        nudge = 1 - nudge


def check_hover(browser, binary, plugin):
    """The hover probe reports where the pointer is over it, and leaving ends it."""
    server, url = serve(binary, plugin)
    try:
        page = browser.new_page(device_scale_factor=2)
        page.goto(url)
        page.wait_for_function(
            "document.getElementById('status').textContent.includes('not hovered')",
            timeout=TIMEOUT_MS)
        # The stage has its final size once the first picture is drawn.
        page.wait_for_function(
            "document.getElementById('stage').dataset.frames > 0", timeout=TIMEOUT_MS)
        box = page.locator("#stage").bounding_box()
        # The probe is 200 x 100 pt inside a canvas with a 24 pt margin.
        move_until(
            page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2,
            "/hovered at \\d+/.test(document.getElementById('status').textContent)"
            " && !document.getElementById('status').textContent.includes('not hovered')")
        middle = hovered_x(page)
        check("moving over #stage hovers: " + page.text_content("#status"),
              90 <= middle <= 110)
        move_until(
            page, box["x"] + box["width"] * 0.75, box["y"] + box["height"] / 2,
            "x => { const m = /hovered at (\\d+),/.exec("
            "document.getElementById('status').textContent); return m && Number(m[1]) > x + 30; }",
            arg=middle)
        check("the hover follows the pointer: " + page.text_content("#status"), True)
        move_until(
            page, box["x"] + box["width"] / 2, box["y"] + box["height"] + 40,
            "document.getElementById('status').textContent.includes('not hovered')")
        check("leaving #stage ends the hover", True)
        page.close()
    finally:
        stop(server)


def check_offered_size(browser, binary, plugin):
    """`?width=&height=` in the address offers the component that size: a
    body that reads `self.size` is laid out in it (issue 27)."""
    server, url = serve(binary, plugin)
    try:
        page = browser.new_page()
        page.goto(url + "?width=320&height=90")
        page.wait_for_function(
            "document.getElementById('status').textContent.includes('offered 320x90')",
            timeout=TIMEOUT_MS)
        # 320 x 90 pt with 24 pt margins, at the stream's density.
        page.wait_for_function(
            "() => { const s = document.getElementById('stage');"
            " return s.width === Math.round(368 * Number(s.dataset.density)); }",
            timeout=TIMEOUT_MS)
        check("?width=320&height=90 lays the body out in that size", True)
        page.close()
    finally:
        stop(server)


# The tab's own session (`tabURL` adds the page's tab).
INSPECT_JS = "async () => (await fetch(tabURL('inspect'))).json()"
BUNDLED = ["flip", "deck_fan", "card_stack", "ticket_tear"]


def wait_until(page, what, condition, timeout=TIMEOUT_MS / 1000):
    """Polls `inspect` until `condition(answer)` holds; returns the answer."""
    end = time.monotonic() + timeout
    while True:
        answer = page.evaluate(INSPECT_JS)
        if condition(answer):
            return answer
        if time.monotonic() > end:
            check(what, False)
        time.sleep(0.2)


def settled(answer):
    """Nothing runs and the take, if any, has played out."""
    last = max([m["time"] for m in answer["markers"]], default=0)
    return not answer["animations"] and answer["time"] > last + 0.3


def check_inspector(browser, binary, name):
    """Curves for every key; a scrub puts the readout at the engine's value."""
    server, url = serve(binary, name)
    try:
        page = browser.new_page(viewport={"width": 1180, "height": 760})
        page.goto(url)
        page.wait_for_function(
            "document.getElementById('stage').dataset.frames > 0", timeout=TIMEOUT_MS)
        page.click("#stage")
        answer = wait_until(page, name + ": the click is recorded",
                            lambda a: a["markers"] and settled(a))
        keys = answer["keys"]
        check("%s: the session records its numeric state keys %s" % (name, keys), len(keys) > 0)
        page.wait_for_function(
            """keys => keys.every(k => {
              const c = document.querySelector(`#keys li[data-key="${CSS.escape(k)}"] canvas`);
              return c && Number(c.dataset.points) > 1; })""", arg=keys, timeout=TIMEOUT_MS)
        check("%s: a curve for each key" % name, True)
        page.wait_for_function(
            "document.getElementById('history').dataset.markers > 0", timeout=TIMEOUT_MS)
        check("%s: the input markers are on the timeline" % name, True)

        box = page.locator("#history").bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.45, box["y"] + box["height"] / 2)
        # The cursor is read in the same evaluation that sees it rewound (it stays
        # until the page plays on).
        rewound = page.wait_for_function(
            """() => { const d = document.getElementById('inspector').dataset;
              return d.cursor !== '' && d.rewound === d.cursor ? d.cursor : false; }""",
            timeout=TIMEOUT_MS)
        cursor = float(rewound.json_value())
        engine = page.evaluate(INSPECT_JS)
        check("%s: the scrub took the session to the cursor (%.4f s)" % (name, cursor),
              abs(engine["time"] - cursor) < 1e-9 and engine["paused"])
        worst = 0
        for key in keys:
            shown = page.evaluate(
                "k => Number(document.querySelector(`#keys li[data-key=\"${CSS.escape(k)}\"] "
                ".value`).dataset.value)", key)
            worst = max(worst, abs(shown - float(engine["now"][key]["value"])))
        check("%s: the readout is the engine's value at the cursor (largest difference %.2g)"
              % (name, worst), worst <= 1e-6)
        page.close()
    finally:
        stop(server)


def check_own_tab(browser, page, url):
    """A second tab runs a session of its own: a tap there leaves the first alone."""
    before = page.evaluate(INSPECT_JS)
    shown = page.text_content("#status")
    second = browser.new_page()
    second.goto(url)
    second.wait_for_function(
        "document.getElementById('status').textContent.includes('Showing front')",
        timeout=TIMEOUT_MS)
    second.click("#stage")
    second.wait_for_function(
        "document.getElementById('status').textContent.includes('Showing back')",
        timeout=TIMEOUT_MS)
    check("a tap flips the second tab's card", True)
    # The second tab's tap ran before its status said so: a shared session would show it now.
    after = page.evaluate(INSPECT_JS)
    check("a tap in one tab does not change another (take %d → %d, status %r)"
          % (before["take"], after["take"], page.text_content("#status")),
          after["take"] == before["take"] and page.text_content("#status") == shown
          and after["epoch"] == before["epoch"])
    check("each tab names its own session",
          page.evaluate("document.body.dataset.tab") != second.evaluate("document.body.dataset.tab"))
    second.close()


def download(page, testid):
    """Clicks the export button and waits for its download; the file's path."""
    with page.expect_download(timeout=120000) as info:
        page.click("[data-testid=%s]" % testid)
    return info.value.path()


def check_studio(browser, binary, flip_source, screenshot):
    """The stage fills the window; the exports download; the keys panel."""
    server, url = serve(binary, flip_source)
    try:
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(url)
        page.wait_for_function(
            "document.getElementById('stage').dataset.frames > 0 && document.body.dataset.ready",
            timeout=TIMEOUT_MS)
        for testid in ["stage", "timeline", "error", "export-gif", "export-lottie", "export-mp4"]:
            check("data-testid=%s is on the page" % testid,
                  page.locator("[data-testid=%s]" % testid).count() == 1)
        box = page.locator("[data-testid=stage]").bounding_box()
        check("at 1440x900 the stage covers %.0f %% of the width, %.0f %% of the height"
              % (100 * box["width"] / 1440, 100 * box["height"] / 900),
              box["width"] >= 0.45 * 1440 or box["height"] >= 0.55 * 900)
        timeline = page.locator("[data-testid=timeline]").bounding_box()
        check("the timeline is under the stage", timeline["y"] >= box["y"] + box["height"] - 1)

        page.click("#zoom-actual")
        page.wait_for_function(
            "Math.abs(document.getElementById('stage').getBoundingClientRect().width - 428) < 1",
            timeout=TIMEOUT_MS)
        check("1:1 shows the canvas at its size in points", True)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.keyboard.press("f")
        page.wait_for_function(
            "document.getElementById('stage').getBoundingClientRect().width > 600",
            timeout=TIMEOUT_MS)
        check("f fits the stage again", True)
        page.keyboard.press("b")
        check("b changes the background (%s)" % page.get_attribute("#viewport", "class"),
              "bg-dark" in page.get_attribute("#viewport", "class"))
        # The server draws the frames over it: the stage's corner turns dark.
        page.wait_for_function(
            "() => { const c = document.getElementById('stage');"
            " const d = c.getContext('2d').getImageData(1, 1, 1, 1).data;"
            " return d[3] === 255 && d[0] < 30 && d[1] < 30 && d[2] < 30; }", timeout=TIMEOUT_MS)
        check("the frames are drawn over the dark background", True)
        page.click("[data-background=checkerboard]")
        page.wait_for_function(
            "() => { const c = document.getElementById('stage');"
            " return c.getContext('2d').getImageData(1, 1, 1, 1).data[3] === 0; }",
            timeout=TIMEOUT_MS)
        check("over the checkerboard the frames are transparent", True)

        page.click("#show-keys")
        page.wait_for_selector("#keys-panel[open]", timeout=TIMEOUT_MS)
        keys = page.evaluate("[...document.querySelectorAll('#key-list dt')].length")
        served = len(page.evaluate("async () => (await fetch('/vocabulary')).json()")["keys"])
        check("the keys panel lists the server's %d keys" % served, keys == served and keys > 0)
        page.click("#keys-close")

        page.click("[data-testid=stage]")
        page.wait_for_function(
            "document.getElementById('status').textContent.includes('Showing back')",
            timeout=TIMEOUT_MS)
        played = wait_until(page, "the tap plays out", lambda a: a["markers"] and settled(a))
        # The picture too: the stream may be behind the session on a loaded machine.
        page.wait_for_function(
            "t => parseFloat(document.getElementById('time').textContent) > t",
            arg=max(m["time"] for m in played["markers"]) + 0.6, timeout=TIMEOUT_MS)
        if screenshot:
            page.screenshot(path=screenshot)

        gif = download(page, "export-gif")
        probe = subprocess.run(
            ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
             "stream=codec_name,width,height,nb_read_frames", "-of", "json", gif],
            capture_output=True, text=True, timeout=60)
        streams = json.loads(probe.stdout or "{}").get("streams", [])
        check("export-gif downloads a GIF that ffprobe reads: %s" % streams,
              probe.returncode == 0 and streams and streams[0]["codec_name"] == "gif"
              and int(streams[0]["nb_read_frames"]) > 1)
        with open(download(page, "export-lottie")) as f:
            lottie = json.load(f)
        check("export-lottie downloads a Lottie JSON (%s frames, %d layers)"
              % (lottie.get("op"), len(lottie.get("layers", []))),
              "v" in lottie and lottie.get("layers") and lottie.get("op", 0) > 1)
        page.close()

        if screenshot:
            stem, extension = os.path.splitext(screenshot)
            phone = browser.new_page(viewport={"width": 390, "height": 844},
                                     device_scale_factor=2)
            phone.goto(url)
            phone.wait_for_function(
                "document.getElementById('stage').dataset.frames > 0", timeout=TIMEOUT_MS)
            phone.screenshot(path=stem + "-mobile" + extension)
            phone.close()
    finally:
        stop(server)


def check_index(browser, binary, folder):
    """A folder's index lists its plugins, not their tests."""
    server, url = serve(binary, folder)
    try:
        page = browser.new_page()
        page.goto(url)
        names = page.evaluate("[...document.querySelectorAll('.plugins span')].map(s => s.textContent)")
        check("the folder's index lists %s and no test files" % names,
              "flip" in names and not any(".test" in n or n.endswith(".test") for n in names))
        page.close()
    finally:
        stop(server)


def check_replay(browser, binary, flip_source):
    """A replay after a save plays the same click again: the same curves."""
    folder = tempfile.mkdtemp(prefix="morph-replay-")
    plugin = os.path.join(folder, "flip.lua")
    shutil.copy(flip_source, plugin)
    server, url = serve(binary, plugin)
    try:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function(
            "document.getElementById('stage').dataset.frames > 0", timeout=TIMEOUT_MS)
        page.click("#stage")
        first = wait_until(page, "the click plays out", lambda a: a["markers"] and settled(a))
        save(plugin, open(flip_source).read() + "\n-- an edit that changes nothing\n")
        wait_until(page, "the save reloads",
                   lambda a: any(m["kind"] == "reload" for m in a["markers"]))
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.keyboard.press("r")
        again = wait_until(
            page, "the replay plays out",
            lambda a: a["epoch"] != first["epoch"] and a["take"] == first["take"]
            and a["time"] >= first["time"] and settled(a), timeout=60)
        common, worst = 0, 0
        for key in first["keys"]:
            old, new = first["series"][key], again["series"][key]
            values = {round(t * 60): float(v) for t, v in zip(old["t"], old["v"])}
            for t, v in zip(new["t"], new["v"]):
                if round(t * 60) in values:
                    common += 1
                    worst = max(worst, abs(float(v) - values[round(t * 60)]))
        check("a replay after a save reproduces the curves (%d samples, largest difference %.2g)"
              % (common, worst), common > 30 and worst <= 1e-6)
        page.close()
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)


def main():
    binary, flip_source, hover_source, screenshot = sys.argv[1:5]
    folder = tempfile.mkdtemp(prefix="morph-preview-")
    plugin = os.path.join(folder, "flip.lua")
    shutil.copy(flip_source, plugin)
    original = open(plugin).read()
    server, url = serve(binary, plugin)
    try:
        port = int(url.rstrip("/").rsplit(":", 1)[1])

        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/", headers={"Host": "evil.example"})
        status = connection.getresponse().status
        check("Host: evil.example is refused (%d)" % status, 400 <= status < 500)

        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(device_scale_factor=2, viewport={"width": 720, "height": 640})
            page.goto(url)
            page.wait_for_function(
                "document.getElementById('stage').dataset.frames > 0", timeout=TIMEOUT_MS)
            # The screen's density (2), times the zoom when the fitted stage is larger than 1:1.
            page.wait_for_function(
                "() => { const s = document.getElementById('stage');"
                " return s.width === Math.round(428 * Number(s.dataset.density)); }",
                timeout=TIMEOUT_MS)
            density = float(page.evaluate("document.getElementById('stage').dataset.density"))
            check("the page loads at the screen's density times the zoom (%gx, %d px wide)"
                  % (density, page.evaluate("document.getElementById('stage').width")),
                  density >= 2)
            page.wait_for_function(
                "document.getElementById('status').textContent.includes('Showing front')",
                timeout=TIMEOUT_MS)

            page.click("#stage")
            page.wait_for_function(
                "document.getElementById('status').textContent.includes('Showing back')",
                timeout=TIMEOUT_MS)
            check("a click on #stage flips the card: " + page.text_content("#status"), True)
            page.wait_for_function(
                "document.getElementById('play').textContent === 'Pause'", timeout=TIMEOUT_MS)
            time.sleep(1.0)  # the flip settles

            before = page.evaluate("document.getElementById('stage').dataset.frames")
            partial = int(page.evaluate("document.getElementById('stage').dataset.partial || 0"))
            page.fill("#scrub", "0.15")
            page.wait_for_function(
                "n => document.getElementById('stage').dataset.frames !== n", arg=before,
                timeout=TIMEOUT_MS)
            check("moving #scrub changes the picture", True)
            check_matches_render(page, binary, plugin, 0.15)
            now_partial = int(page.evaluate("document.getElementById('stage').dataset.partial"))
            check("frames after the first are changed rectangles (%d of them)" % now_partial,
                  now_partial > partial)
            page.fill("#scrub", "0")
            page.wait_for_function(
                "Math.abs(Number(document.getElementById('progress').textContent)) < 1e-9",
                timeout=TIMEOUT_MS)

            save(plugin, original.replace('accent = m.color "#2F6FED"', 'accent = m.color "#FF0000"'))
            page.wait_for_function(
                "() => { %s const d = px(0, 0); return d[0] > 200 && d[1] < 60 && d[2] < 60; }"
                % PIXEL_JS, timeout=TIMEOUT_MS)
            check("an edited accent colour shows: centre %s" % center_pixel(page), True)
            page.wait_for_function(
                "document.getElementById('prop-accent').value === '#ff0000'", timeout=TIMEOUT_MS)
            check("the props panel follows the save", True)

            page.fill("#prop-frontColor", "#00ff00")
            page.wait_for_function(
                "() => { %s const d = px(120, 0); return d[1] > 200 && d[0] < 60 && d[2] < 60; }"
                % PIXEL_JS, timeout=TIMEOUT_MS)
            check("a colour from the props panel shows on the card", True)

            check_own_tab(browser, page, url)

            broken = original.replace("local angle = 360 * self.turns",
                                      "local angle = 360 * self.turns + nil")
            line = original[:original.index("local angle = 360 * self.turns")].count("\n") + 1
            save(plugin, broken)
            page.wait_for_selector("[data-testid=error]:not([hidden])", timeout=TIMEOUT_MS)
            text = page.text_content("[data-testid=error]")
            check("a broken save shows the overlay: " + page.text_content("#error-line"),
                  re.search(r"flip\.lua:%d:" % line, text) is not None)
            frame = page.text_content("#error-source")
            broken_row = [row for row in frame.split("\n") if row.startswith(">")]
            check("the overlay quotes the broken line, marked: %r" % broken_row,
                  len(broken_row) == 1 and "+ nil" in broken_row[0]
                  and broken_row[0].split("|")[0].strip() == "> %d" % line)
            rows = frame.split("\n")
            caret = rows[rows.index(broken_row[0]) + 1]
            check("a caret under the broken line: %r" % caret.strip(), caret.strip().startswith("^"))
            cover = page.locator("[data-testid=error]").bounding_box()
            size = page.viewport_size
            check("the overlay covers the whole page (%dx%d)" % (cover["width"], cover["height"]),
                  cover["width"] >= size["width"] - 1 and cover["height"] >= size["height"] - 1)

            save(plugin, original)
            page.wait_for_selector("#error", state="hidden", timeout=TIMEOUT_MS)
            check("the fix hides #error", True)

            check_studio(browser, binary, flip_source, screenshot)
            check_index(browser, binary, os.path.dirname(flip_source))
            check_hover(browser, binary, hover_source)
            check_offered_size(
                browser, binary, os.path.join(os.path.dirname(hover_source), "adaptive.lua"))
            for name in BUNDLED:
                check_inspector(browser, binary, name)
            check_replay(browser, binary, flip_source)
            browser.close()
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    print("browser preview: all checks passed")


if __name__ == "__main__":
    main()
