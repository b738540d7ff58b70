#!/usr/bin/env bash
# Per plugin, 24 frames over the progress range: Lottie (gzipped) against lossless WebP and
# GIF of the same frames, and the Lottie export's time against the PNG sequence's.
set -euo pipefail
# MORPHHOST: the binary (default: morphhost on PATH); run from a scratch folder.
m=${MORPHHOST:-morphhost}
ms() { local s=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000000 )); }
for p in "$@"; do
  n=$(basename "$p" .lua); rm -rf "$n"-frames*
  lt=999999; pt=999999
  for r in 1 2 3; do
    t=$(ms "$m" export "$p" --frames 24 -o "$n.json"); (( t < lt )) && lt=$t
    t=$(ms "$m" export "$p" --frames 24 -o "$n-frames$r"); (( t < pt )) && pt=$t
  done
  "$m" export "$p" --frames 24 -o "$n.webp" >/dev/null 2>&1
  "$m" export "$p" --frames 24 -o "$n.gif" >/dev/null 2>&1
  j=$(stat -c %s "$n.json"); g=$(gzip -9 -c "$n.json" | wc -c)
  w=$(stat -c %s "$n.webp"); f=$(stat -c %s "$n.gif")
  awk -v n="$n" -v j="$j" -v g="$g" -v w="$w" -v f="$f" -v lt="$lt" -v pt="$pt" 'BEGIN {
    printf "%s json=%d gz=%d webp=%d gif=%d gz/webp=%.3f gz/gif=%.3f lottie_ms=%d png_ms=%d ratio=%.2f\n",
      n, j, g, w, f, g / w, g / f, lt, pt, lt / pt }'
done
