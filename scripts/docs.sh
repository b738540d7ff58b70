#!/usr/bin/env bash
# DocC for the library targets: symbol graphs from the build's modules
# (CONFIG, default debug; swift symbolgraph-extract, one per module), one
# `docc convert` a module (with its catalog where it has one,
# Sources/<module>/<module>.docc: MorphHost, MorphExport), merged into
# .build/docs/morphhost.doccarchive. Any warning fails, as does an error.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
docc=${DOCC:-$(dirname "$(readlink -f "$(command -v "$swift")")")/docc}
[ -x "$docc" ] || docc=$(command -v docc)
modules=(MorphCore MorphScript MorphRender MorphHost MorphSession MorphExport)
bin=$("$swift" build -c "${CONFIG:-debug}" --show-bin-path)
triple=$(basename "$(dirname "$bin")")
out=.build/docs
rm -rf "$out"
mkdir -p "$out/symbol-graphs" "$out/archives"
maps=()
for map in Sources/C*/module.modulemap "$bin"/C*.build/module.modulemap; do
  maps+=(-Xcc "-fmodule-map-file=$map")
done
includes=()
for dir in Sources/C*/include; do includes+=(-Xcc "-I$dir"); done
for flag in $(pkg-config --cflags-only-I lua5.4 cairo pangocairo libsixel libdeflate imagequant libwebpmux); do
  includes+=(-Xcc "$flag")
done
log="$out/docc.log"
: >"$log"
for module in "${modules[@]}"; do
  mkdir -p "$out/symbol-graphs/$module"
  "$swift" symbolgraph-extract -module-name "$module" -target "$triple" \
    -I "$bin/Modules" "${maps[@]}" "${includes[@]}" \
    -minimum-access-level public -output-dir "$out/symbol-graphs/$module"
  catalog=()
  [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
  "$docc" convert "${catalog[@]}" \
    --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.morphhost.$module" \
    --warnings-as-errors --output-dir "$out/archives/$module.doccarchive" 2>&1 | tee -a "$log"
done
"$docc" merge "$out"/archives/*.doccarchive --synthesized-landing-page-name morphhost \
  --output-path "$out/morphhost.doccarchive" 2>&1 | tee -a "$log"
if grep -q -i -E 'warning:|error:' "$log"; then
  echo "docs: DocC reported problems (above; also in $log)" >&2
  exit 1
fi
echo "docs: $out/morphhost.doccarchive"
