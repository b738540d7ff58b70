#!/usr/bin/env bash
# Runs every command of the ```sh blocks of the README and of docs/*.md that
# starts with `morphhost`, as written (each distinct command once), in a
# scratch folder that sees the repository's Plugins and Examples. Fails on
# the first command that fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.build/${CONFIG:-debug}/morphhost"
[ -x "$bin" ] || { echo "readme-commands: build first ($bin is missing)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ln -s "$root/Plugins" "$scratch/Plugins"
ln -s "$root/Examples" "$scratch/Examples"
mkdir -p "$scratch/bin"
ln -s "$bin" "$scratch/bin/morphhost"
export PATH="$scratch/bin:$PATH"
cd "$scratch"
count=0
while IFS= read -r line; do
  command=${line%%#*}
  echo "+ $command"
  bash -c "$command" </dev/null >"$scratch/out.txt" 2>&1 || {
    echo "readme-commands: failed: $command" >&2
    cat "$scratch/out.txt" >&2
    exit 1
  }
  count=$((count + 1))
done < <(awk '/^```sh$/ {on=1; next} /^```/ {on=0} on && /^morphhost / && !seen[$0]++ {print}' \
  "$root/README.md" "$root"/docs/*.md)
echo "readme-commands: $count commands ran"
