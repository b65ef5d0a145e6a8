#!/usr/bin/env bash
# Peak memory of one render against the memory model of the README (*Limits and memory*),
# over extreme shapes: each case is a folder with one master and one recipe, built by a
# fresh `thumbforge build` process whose peak resident set size is measured; the model's
# bound is computed from the render's planned cost (`build --dry-run --json`).
#
#   Scripts/bench-memory.sh            # release build, every case
#   THUMBFORGE_BIN=path Scripts/bench-memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
if [ -z "${THUMBFORGE_BIN:-}" ]; then
  static=()
  [ "$(uname -s)" = Linux ] && static=(--static-swift-stdlib)
  echo "==> swift build -c release --product thumbforge ${static[*]}"
  swift build -c release --product thumbforge "${static[@]}"
  THUMBFORGE_BIN="$(swift build -c release --show-bin-path "${static[@]}")/thumbforge"
fi
work="$(mktemp -d /tmp/thumbforge-bench-memory.XXXXXX)"
trap 'rm -rf "$work"' EXIT
echo "==> cases in $work"
python3 Scripts/bench/memory.py "$THUMBFORGE_BIN" "$work"
