#!/usr/bin/env bash
# Makes the pictures of README.md and docs/ from real builds of the sample masters in Assets/:
# for each Scripts/pictures/NAME.yml, a folder of the masters its `# masters:` line names
# (MASTER or MASTER=NEW-NAME, paths under Assets/) is built with that configuration, and the
# build's contact sheet (every output, labelled, on a checkerboard where it is transparent)
# becomes docs/pictures/NAME.png. Deterministic: the same sources give the same pictures.
#
#   Scripts/docs-pictures.sh [--bin THUMBFORGE] [--out DIR] [NAME…]
#
# Without --bin it builds the tool as Scripts/run.sh does; --out writes the pictures to DIR
# instead of docs/pictures (DocsPicturesTests compares them there). Seconds after the build.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

bin=""
out=$here/docs/pictures
names=()
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) . "$here/Scripts/lib.sh"; script_help "$0"; exit 0 ;;
    -*) echo "docs-pictures.sh: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -z "$bin" ] || bin=$(realpath "$bin")
cd "$here"
if [ -z "$bin" ]; then
  flags=(-c release --disable-default-traits --scratch-path .build-run)
  [ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib)
  swift build "${flags[@]}" --product thumbforge
  bin="$(swift build "${flags[@]}" --show-bin-path)/thumbforge"
fi
[ ${#names[@]} -gt 0 ] || for spec in Scripts/pictures/*.yml; do names+=("$(basename "$spec" .yml)"); done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in "${names[@]}"; do
  spec=Scripts/pictures/$name.yml
  [ -f "$spec" ] || { echo "docs-pictures.sh: no $spec" >&2; exit 2; }
  masters=$(sed -n 's/^# masters: //p' "$spec")
  [ -n "$masters" ] || { echo "docs-pictures.sh: $spec has no '# masters:' line" >&2; exit 2; }
  folder=$work/$name
  mkdir -p "$folder"
  cp "$spec" "$folder/thumbforge.yml"
  # Masters are separated by spaces; '+' stands for a space inside a name (United+States.svg).
  for master in $masters; do
    source=${master%%=*}; target=${master#*=}
    source=${source//+/ }; target=${target//+/ }
    mkdir -p "$folder/$(dirname "$target")"
    cp "Assets/$source" "$folder/$target"
  done
  echo "==> $out/$name.png"
  "$bin" build "$folder" -q -o "$work/$name-out/Assets.xcassets" --contact-sheet "$out/$name.png"
done
