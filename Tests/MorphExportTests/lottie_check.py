"""Reads a Lottie file back for the Swift tests.

  lottie_check.py validate FILE            checks FILE against the lottie-specs schema
  lottie_check.py render FILE OUT W H      renders every frame with ThorVG to OUT/NNNN.rgba
                                           (straight RGBA, W×H) and prints the frame count
  lottie_check.py rlottie FILE OUT W H     the same with rlottie, to OUT/NNNN.bgra
                                           (premultiplied BGRA, as rlottie draws)
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


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "validate":
        sys.exit(validate(sys.argv[2]))
    size = (sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    sys.exit(render_rlottie(*size) if command == "rlottie" else render(*size))
