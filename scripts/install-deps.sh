#!/usr/bin/env bash
# Installs the C libraries and tools morphhost needs, only when missing.
#   Debian/Ubuntu: liblua5.4-dev libcairo2-dev pkg-config (build), lua5.4 lua-check
#                  (plugin linting), fonts-dejavu-core (text labels in PNGs).
#   macOS:         lua cairo pkg-config luacheck (Homebrew).
# The Swift toolchain itself is a prerequisite (swift.org); it is not installed here.
set -euo pipefail

need_build() { ! pkg-config --exists lua5.4 cairo 2>/dev/null; }
need_tools() { ! command -v luacheck >/dev/null 2>&1 || ! command -v tmux >/dev/null 2>&1; }

if ! command -v swift >/dev/null 2>&1; then
  echo "install-deps: the Swift toolchain (6.0 or newer) is required: https://www.swift.org/install" >&2
  exit 1
fi

case "$(uname -s)" in
  Linux)
    if need_build || need_tools || [ ! -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
      sudo=""
      [ "$(id -u)" -ne 0 ] && sudo="sudo"
      export DEBIAN_FRONTEND=noninteractive
      $sudo apt-get update -qq
      $sudo apt-get install -y -qq --no-install-recommends \
        pkg-config liblua5.4-dev libcairo2-dev lua5.4 lua-check fonts-dejavu-core tmux >/dev/null
    fi
    ;;
  Darwin)
    if need_build || need_tools; then
      command -v brew >/dev/null 2>&1 || { echo "install-deps: Homebrew is required on macOS" >&2; exit 1; }
      brew install lua cairo pkg-config luacheck tmux
    fi
    ;;
  *)
    echo "install-deps: unsupported system $(uname -s); install Lua 5.4 and Cairo with pkg-config files" >&2
    ;;
esac
