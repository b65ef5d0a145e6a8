#!/usr/bin/env bash
# Builds the png-encode libFuzzer target: Fuzz/png-encode/build.sh OUT_BINARY
set -euo pipefail
out=${1:?usage: build.sh OUT_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../common.sh
source "$here/../common.sh"
src="$root/Sources/CPNG"
# shellcheck disable=SC2046
"$FUZZ_CC" "${FUZZ_CFLAGS[@]}" -I"$src/include" $(pkg-config --cflags vips) \
  "$here/fuzz_png_encode.c" "$src/png_encode.c" $(pkg-config --libs vips) -lpng16 -lm \
  -o "$out"
