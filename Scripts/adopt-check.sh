#!/usr/bin/env bash
# Adopts each asset catalog given (or every .xcassets under a folder given) as a new user
# would, and checks that nothing changes: `thumbforge init --from` into a folder beside a
# copy of the catalog, `build --output` elsewhere (the rebuilt tree must equal the
# catalog: every file byte for byte), `check` (exit 0), and a build in place (no file of
# the catalog changes). The catalogs themselves are only read. Ends with
# "N passed, N failed".
#
#   Scripts/adopt-check.sh ~/src/MyApp/MyApp/Assets.xcassets
#   Scripts/adopt-check.sh ~/src/open-source-apps        # every catalog under it
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -eq 0 ]; then
  echo "usage: Scripts/adopt-check.sh CATALOG.xcassets|FOLDER ..." >&2
  exit 2
fi
tool=${THUMBFORGE:-}
if [ -z "$tool" ]; then
  echo "==> swift build -c release --product thumbforge"
  swift build -c release --product thumbforge >/dev/null
  tool="$(swift build -c release --show-bin-path)/thumbforge"
fi

catalogs=()
for arg in "$@"; do
  if [[ "$arg" == *.xcassets ]]; then
    catalogs+=("$arg")
  else
    while IFS= read -r -d '' found; do catalogs+=("$found"); done \
      < <(find "$arg" -type d -name '*.xcassets' -not -path '*.xcassets/*' -print0 | sort -z)
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Every non-hidden file of a tree with its hash, by relative path.
listing() { (cd "$1" && find . -type f -not -path '*/.*' -print0 | sort -z | xargs -0r sha256sum); }

passed=0
failed=0
for catalog in "${catalogs[@]}"; do
  name=$(basename "$catalog")
  case_dir="$work/$passed-$failed"
  mkdir -p "$case_dir/App" "$case_dir/Out"
  cp -R "$catalog" "$case_dir/App/"
  copy="$case_dir/App/$name"
  before=$(listing "$copy")
  why=""
  if ! "$tool" init --from "$copy" "$case_dir/App/Art" >"$case_dir/init.log" 2>&1; then
    # Exit 1 lists what will not come back as it was: reported, not a failure by itself.
    [ "${PIPESTATUS[0]:-1}" -le 1 ] || why="init failed"
  fi
  if [ -z "$why" ] && ! "$tool" build "$case_dir/App/Art" --output "$case_dir/Out/$name" \
    >"$case_dir/build.log" 2>&1; then
    why="build failed: $(tail -n 3 "$case_dir/build.log" | tr '\n' ' ')"
  fi
  if [ -z "$why" ] && [ "$(listing "$case_dir/Out/$name")" != "$before" ]; then
    why="rebuilt catalog differs: $(diff <(echo "$before") <(listing "$case_dir/Out/$name") | head -n 4 | tr '\n' ' ' || true)"
  fi
  if [ -z "$why" ] && ! "$tool" check "$case_dir/App/Art" --output "$case_dir/Out/$name" \
    >"$case_dir/check.log" 2>&1; then
    why="check is not green: $(head -n 3 "$case_dir/check.log" | tr '\n' ' ')"
  fi
  rm -f "$case_dir/App/Art/manifest.json"
  if [ -z "$why" ] && ! "$tool" build "$case_dir/App/Art" >"$case_dir/inplace.log" 2>&1; then
    why="build in place failed: $(tail -n 3 "$case_dir/inplace.log" | tr '\n' ' ')"
  fi
  if [ -z "$why" ] && [ "$(listing "$copy")" != "$before" ]; then
    why="building in place changed the catalog"
  fi
  if [ -z "$why" ]; then
    passed=$((passed + 1))
    grep -h '^warning' "$case_dir/init.log" | sed "s|^|  $catalog: |" || true
  else
    failed=$((failed + 1))
    echo "FAILED $catalog: $why"
  fi
done
echo "adopt-check: ${#catalogs[@]} catalogs"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
