#!/usr/bin/env bash
# Per plugin, 24 frames over the progress range: Lottie (gzipped) against lossless WebP and
# GIF of the same frames, and the Lottie export's time against the PNG sequence's.
set -euo pipefail
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
  echo "$n json=$j gz=$g webp=$w gif=$f gz/webp=$(echo "scale=3; $g/$w" | bc) gz/gif=$(echo "scale=3; $g/$f" | bc) lottie_ms=$lt png_ms=$pt ratio=$(echo "scale=2; $lt/$pt" | bc)"
done
