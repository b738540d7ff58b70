"""Drives `morphhost preview` in a real browser (Debian's chromium through
Playwright): the page loads; a click on #stage flips the card; #scrub moves
the picture; an edited accent colour shows; a broken save shows #error with
flip.lua:LINE and the fix hides it; a foreign Host header is refused; the
pointer moving over #stage hovers (HOVER_LUA says where) and leaving ends it.

Usage: test_preview.py MORPHHOST_BINARY FLIP_LUA HOVER_LUA SCREENSHOT_PNG
Exits 0 when every check passed; prints one line per check.
"""
import http.client
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


def center_pixel(page):
    """The RGB of the picture's centre, read back through a canvas."""
    return page.evaluate(
        """() => {
          const img = document.getElementById('stage');
          const c = document.createElement('canvas');
          c.width = img.naturalWidth; c.height = img.naturalHeight;
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          const d = g.getImageData(c.width / 2, c.height / 2, 1, 1).data;
          return [d[0], d[1], d[2]];
        }"""
    )


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


def check_hover(browser, binary, plugin):
    """The hover probe reports where the pointer is over it, and leaving ends it."""
    server, url = serve(binary, plugin)
    try:
        page = browser.new_page(device_scale_factor=2)
        page.goto(url)
        page.wait_for_function(
            "document.getElementById('status').textContent.includes('not hovered')",
            timeout=TIMEOUT_MS)
        box = page.locator("#stage").bounding_box()
        # The probe is 200 x 100 pt inside a canvas with a 24 pt margin.
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(
            "/hovered at \\d+/.test(document.getElementById('status').textContent)"
            " && !document.getElementById('status').textContent.includes('not hovered')",
            timeout=TIMEOUT_MS)
        middle = hovered_x(page)
        check("moving over #stage hovers: " + page.text_content("#status"),
              90 <= middle <= 110)
        page.mouse.move(box["x"] + box["width"] * 0.75, box["y"] + box["height"] / 2)
        page.wait_for_function(
            "x => { const m = /hovered at (\\d+),/.exec("
            "document.getElementById('status').textContent); return m && Number(m[1]) > x + 30; }",
            arg=middle, timeout=TIMEOUT_MS)
        check("the hover follows the pointer: " + page.text_content("#status"), True)
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] + 40)
        page.wait_for_function(
            "document.getElementById('status').textContent.includes('not hovered')",
            timeout=TIMEOUT_MS)
        check("leaving #stage ends the hover", True)
        page.close()
    finally:
        stop(server)


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
                "document.getElementById('stage').naturalWidth > 0", timeout=TIMEOUT_MS)
            check("the page loads at 2x (%d px wide)"
                  % page.evaluate("document.getElementById('stage').naturalWidth"),
                  page.evaluate("document.getElementById('stage').naturalWidth") == 856)
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

            before = page.get_attribute("#stage", "src")
            page.fill("#scrub", "0.25")
            page.wait_for_function(
                "src => document.getElementById('stage').src !== src", arg=before,
                timeout=TIMEOUT_MS)
            check("moving #scrub changes the picture", True)
            page.fill("#scrub", "0")
            page.wait_for_function(
                "Math.abs(Number(document.getElementById('progress').textContent)) < 1e-9",
                timeout=TIMEOUT_MS)

            save(plugin, original.replace('accent = m.color "#2F6FED"', 'accent = m.color "#FF0000"'))
            page.wait_for_function(
                """() => { const img = document.getElementById('stage');
                  const c = document.createElement('canvas');
                  c.width = img.naturalWidth; c.height = img.naturalHeight;
                  const g = c.getContext('2d'); g.drawImage(img, 0, 0);
                  const d = g.getImageData(c.width / 2, c.height / 2, 1, 1).data;
                  return d[0] > 200 && d[1] < 60 && d[2] < 60; }""",
                timeout=TIMEOUT_MS)
            check("an edited accent colour shows: centre %s" % center_pixel(page), True)
            page.wait_for_function(
                "document.getElementById('prop-accent').value === '#ff0000'", timeout=TIMEOUT_MS)
            check("the props panel follows the save", True)
            page.screenshot(path=screenshot)

            page.fill("#prop-frontColor", "#00ff00")
            page.wait_for_function(
                """() => { const img = document.getElementById('stage');
                  const c = document.createElement('canvas');
                  c.width = img.naturalWidth; c.height = img.naturalHeight;
                  const g = c.getContext('2d'); g.drawImage(img, 0, 0);
                  const d = g.getImageData(c.width / 2 + 120, c.height / 2, 1, 1).data;
                  return d[1] > 200 && d[0] < 60 && d[2] < 60; }""",
                timeout=TIMEOUT_MS)
            check("a colour from the props panel shows on the card", True)

            second = browser.new_page()
            second.goto(url)
            second.wait_for_function(
                "document.getElementById('status').textContent.includes('Showing front')",
                timeout=TIMEOUT_MS)
            second.click("#stage")
            page.wait_for_function(
                "document.getElementById('status').textContent.includes('Showing back')",
                timeout=TIMEOUT_MS)
            check("a second tab drives the same component", True)
            second.close()

            broken = original.replace("local angle = 360 * self.turns",
                                      "local angle = 360 * self.turns + nil")
            line = original[:original.index("local angle = 360 * self.turns")].count("\n") + 1
            save(plugin, broken)
            page.wait_for_selector("#error:not([hidden])", timeout=TIMEOUT_MS)
            text = page.text_content("#error")
            check("a broken save shows #error: " + page.text_content("#error-line"),
                  re.search(r"flip\.lua:%d:" % line, text) is not None)
            check("#error shows the offending line", "+ nil" in page.text_content("#error-source"))

            save(plugin, original)
            page.wait_for_selector("#error", state="hidden", timeout=TIMEOUT_MS)
            check("the fix hides #error", True)

            check_hover(browser, binary, hover_source)
            browser.close()
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    print("browser preview: all checks passed")


if __name__ == "__main__":
    main()
