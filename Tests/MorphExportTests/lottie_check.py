"""Reads a Lottie file back for the Swift tests.

  lottie_check.py validate FILE            checks FILE against the lottie-specs schema
  lottie_check.py render FILE OUT W H      renders every frame with ThorVG to OUT/NNNN.rgba
                                           (straight RGBA, W×H) and prints the frame count
  lottie_check.py rlottie FILE OUT W H     the same with rlottie, to OUT/NNNN.bgra
                                           (premultiplied BGRA, as rlottie draws)
  lottie_check.py has-web                  exits 0 when Playwright and pylottie are installed
  lottie_check.py web FILE OUT W H [svg|canvas]
                                           the same with lottie-web (its svg or canvas
                                           renderer) in Debian's chromium (Playwright):
                                           OUT/first-NNNN.png on each frame's first visit
                                           (one load, frames in order, as playback meets
                                           them), then OUT/NNNN.png on a second pass
                                           (screenshots over white)

lottie-web is read at run time from PyPI's pylottie, whose lottie.html carries it
(5.7.5, MIT) as its first script; it is not copied into this repository.
"""
import json
import os
import sys


def validate(path):
    import jsonschema
    import lottie_specs

    with open(path) as f:
        animation = json.load(f)
    validator = jsonschema.Draft202012Validator(lottie_specs.load_specs())
    errors = sorted(validator.iter_errors(animation), key=lambda e: list(e.absolute_path))
    for error in errors[:10]:
        where = "/".join(str(p) for p in error.absolute_path)
        print(f"{where}: {error.message[:300]}")
    return 1 if errors else 0


def render(path, out, width, height):
    import thorvg_python as tvg

    engine = tvg.Engine(threads=0)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(width, height, width, tvg.Colorspace.ABGR8888S)
    buffer = canvas.buffer_arr
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    if picture.load(path) != tvg.Result.SUCCESS:
        print(f"{path}: ThorVG could not load it")
        return 1
    picture.set_size(width, height)
    canvas.add(picture)
    _, total = animation.get_total_frame()
    frames = int(round(total))
    for frame in range(frames):
        animation.set_frame(float(frame))
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        with open(os.path.join(out, f"{frame:04d}.rgba"), "wb") as f:
            f.write(bytes(buffer))
    print(frames)
    return 0


def render_rlottie(path, out, width, height):
    from rlottie_python import LottieAnimation

    animation = LottieAnimation.from_file(path)
    frames = animation.lottie_animation_get_totalframe()
    for frame in range(frames):
        pixels = animation.lottie_animation_render(frame, width=width, height=height)
        with open(os.path.join(out, f"{frame:04d}.bgra"), "wb") as f:
            f.write(pixels)
    print(frames)
    return 0


def has_web():
    import importlib.util

    return all(importlib.util.find_spec(name) for name in ["playwright", "pylottie"])


def lottie_web_script():
    import importlib.util
    import re

    # pylottie's __init__ imports packages it does not declare: find its folder unimported.
    spec = importlib.util.find_spec("pylottie")
    folder = list(spec.submodule_search_locations)[0]
    with open(os.path.join(folder, "lottie.html"), encoding="utf-8") as f:
        page = f.read()
    return re.search(r"<script>(.*?)</script>", page, re.S).group(1)


# Loads the animation into #player (the canvas size, over white) and reports its frames.
# With animationData lottie-web may finish loading inside loadAnimation, before a
# listener could hear DOMLoaded, hence isLoaded; a file it cannot load fails in 30 s.
LOAD_JS = """([data, renderer]) => new Promise((resolve, reject) => {
  const animation = lottie.loadAnimation({
    container: document.getElementById('player'), renderer, loop: false,
    autoplay: false, animationData: data });
  window.animation = animation;
  const done = () => resolve(Math.round(animation.totalFrames));
  if (animation.isLoaded) return done();
  animation.addEventListener('DOMLoaded', done);
  animation.addEventListener('data_failed', () => reject(new Error('data failed')));
  setTimeout(() => reject(new Error('not loaded in 30 s')), 30000);
})"""


def render_web(path, out, width, height, renderer="svg"):
    from playwright.sync_api import sync_playwright

    with open(path) as f:
        data = json.load(f)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            page = browser.new_page(
                viewport={"width": width, "height": height}, device_scale_factor=1)
            page.set_content(
                "<html><body style='margin:0;background:white'><div id='player' "
                f"style='width:{width}px;height:{height}px'></div></body></html>")
            page.add_script_tag(content=lottie_web_script())
            frames = page.evaluate(LOAD_JS, [data, renderer])
            # lottie-web builds a layer's elements the first time a frame is in its range;
            # the first pass is each frame's first visit, the second a later one.
            for prefix in ["first-", ""]:
                for frame in range(frames):
                    page.evaluate("f => window.animation.goToAndStop(f, true)", frame)
                    page.screenshot(
                        path=os.path.join(out, f"{prefix}{frame:04d}.png"),
                        clip={"x": 0, "y": 0, "width": width, "height": height})
        finally:
            browser.close()
    print(frames)
    return 0


RENDERERS = {"render": render, "rlottie": render_rlottie, "web": render_web}

if __name__ == "__main__":
    command = sys.argv[1]
    if command == "validate":
        sys.exit(validate(sys.argv[2]))
    if command == "has-web":
        sys.exit(0 if has_web() else 1)
    size = (sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    sys.exit(RENDERERS[command](*size, *sys.argv[6:]))
