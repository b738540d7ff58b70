#!/usr/bin/env bash
# Installs the C libraries and tools morphhost needs, only when missing.
#   Debian/Ubuntu: liblua5.4-dev libcairo2-dev libcivetweb-dev libsixel-dev pkg-config (build),
#                  lua5.4 lua-check (plugin linting), libpango1.0-dev (text layout),
#                  fonts-inter fonts-noto-cjk fonts-noto-color-emoji (the fonts text is
#                  drawn in, the same on every machine), tmux (live-view tests), chromium and Python's playwright
#                  (the preview's browser test; the browser is Debian's, never a download),
#                  libdeflate-dev libimagequant-dev libgif-dev libwebp-dev libzopfli-dev (export
#                  encoders; zopfli for export --optimize), librsvg2-bin poppler-utils (the tests
#                  read SVG and PDF stills back),
#                  ffmpeg (MP4/WebM export; ffprobe reads exports back in tests),
#                  webp (libwebp's tools: the tests read animated WebP back),
#                  xterm xvfb xfonts-base (the live view's sixel test in a real xterm),
#                  Python's thorvg-python rlottie-python lottie-specs jsonschema (Lottie exports played
#                  in ThorVG and rlottie, checked against the Lottie schema in the tests), and
#                  pylottie without its dependencies (it carries lottie-web, which the tests play
#                  the exports in through chromium).
#   macOS:         lua cairo pango civetweb libsixel pkg-config luacheck tmux libdeflate libimagequant
#                  giflib webp ffmpeg zopfli (Homebrew).
# The Swift toolchain itself is a prerequisite (swift.org); it is not installed here.
set -euo pipefail

need_build() {
  ! pkg-config --exists lua5.4 cairo pangocairo libsixel 2>/dev/null || ! civetweb_installed
}
# The private font set (Sources/MorphRender/Text/TextFonts.swift) reads these files.
need_fonts() {
  [ ! -e /usr/share/fonts/opentype/inter/Inter-Regular.otf ] \
    || [ ! -e /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] \
    || [ ! -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]
}
civetweb_installed() {
  [ -e /usr/include/civetweb.h ] || [ -e /usr/local/include/civetweb.h ] \
    || { command -v brew >/dev/null 2>&1 && [ -e "$(brew --prefix)/include/civetweb.h" ]; }
}
need_browser() { [ ! -x /usr/bin/chromium ] || ! command -v python3 >/dev/null 2>&1; }
has_playwright() { python3 -c 'import playwright' >/dev/null 2>&1; }
has_lottie_tools() {
  python3 -c 'import thorvg_python, rlottie_python, lottie_specs, jsonschema' >/dev/null 2>&1
}
# pylottie's own import needs packages it does not declare; the tests only read its lottie.html.
has_lottie_web() {
  python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("pylottie") is None)' \
    >/dev/null 2>&1
}
need_tools() {
  ! command -v luacheck >/dev/null 2>&1 || ! command -v tmux >/dev/null 2>&1 \
    || ! command -v xterm >/dev/null 2>&1 || ! command -v Xvfb >/dev/null 2>&1
}
need_export() {
  ! pkg-config --exists libdeflate imagequant libwebpmux 2>/dev/null || ! gif_installed \
    || ! command -v ffmpeg >/dev/null 2>&1 || ! command -v webpinfo >/dev/null 2>&1 \
    || ! zopfli_installed || ! command -v rsvg-convert >/dev/null 2>&1 \
    || ! command -v pdftocairo >/dev/null 2>&1
}
zopfli_installed() {
  [ -e /usr/include/zopfli/zopfli.h ] || [ -e /usr/local/include/zopfli/zopfli.h ] \
    || { command -v brew >/dev/null 2>&1 && [ -e "$(brew --prefix)/include/zopfli/zopfli.h" ]; }
}
gif_installed() {
  [ -e /usr/include/gif_lib.h ] || [ -e /usr/local/include/gif_lib.h ] \
    || { command -v brew >/dev/null 2>&1 && [ -e "$(brew --prefix)/include/gif_lib.h" ]; }
}

if ! command -v swift >/dev/null 2>&1; then
  echo "install-deps: the Swift toolchain (6.0 or newer) is required: https://www.swift.org/install" >&2
  exit 1
fi

case "$(uname -s)" in
  Linux)
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    if need_build || need_tools || need_browser || need_export || need_fonts; then
      export DEBIAN_FRONTEND=noninteractive
      $sudo apt-get update -qq
      $sudo apt-get install -y -qq --no-install-recommends \
        pkg-config liblua5.4-dev libcairo2-dev libpango1.0-dev libcivetweb-dev libsixel-dev \
        lua5.4 lua-check fonts-inter fonts-noto-cjk fonts-noto-color-emoji tmux chromium \
        python3 python3-pip >/dev/null
      $sudo apt-get install -y -qq --no-install-recommends \
        libdeflate-dev libimagequant-dev libgif-dev libwebp-dev libzopfli-dev ffmpeg webp \
        librsvg2-bin poppler-utils >/dev/null
      $sudo apt-get install -y -qq --no-install-recommends xterm xvfb xfonts-base >/dev/null
    fi
    # Playwright drives Debian's chromium (the test names /usr/bin/chromium);
    # `playwright install` is never run, so no browser is downloaded.
    if ! has_playwright; then
      python3 -m pip install -q playwright 2>/dev/null \
        || python3 -m pip install -q --break-system-packages playwright
    fi
    if ! has_lottie_tools; then
      python3 -m pip install -q thorvg-python rlottie-python lottie-specs jsonschema 2>/dev/null \
        || python3 -m pip install -q --break-system-packages thorvg-python rlottie-python \
          lottie-specs jsonschema
    fi
    if ! has_lottie_web; then
      python3 -m pip install -q --no-deps pylottie 2>/dev/null \
        || python3 -m pip install -q --no-deps --break-system-packages pylottie
    fi
    ;;
  Darwin)
    if need_build || need_tools || need_export; then
      command -v brew >/dev/null 2>&1 || { echo "install-deps: Homebrew is required on macOS" >&2; exit 1; }
      brew install lua cairo pango civetweb libsixel pkg-config luacheck tmux
      brew install libdeflate libimagequant giflib webp ffmpeg zopfli
    fi
    ;;
  *)
    echo "install-deps: unsupported system $(uname -s); install Lua 5.4 and Cairo with pkg-config files" >&2
    ;;
esac
