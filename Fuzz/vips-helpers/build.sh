#!/usr/bin/env bash
# Builds the vips-helpers libFuzzer target: Fuzz/vips-helpers/build.sh OUT_BINARY
set -euo pipefail
out=${1:?usage: build.sh OUT_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../common.sh
source "$here/../common.sh"
src="$root/Sources/CVipsHelpers"
# shellcheck disable=SC2046
"$FUZZ_CC" "${FUZZ_CFLAGS[@]}" -I"$src/include" $(pkg-config --cflags vips gmodule-2.0 libwebpmux) \
  "$here/fuzz_vips_helpers.c" "$src"/*.c \
  $(pkg-config --libs vips gmodule-2.0 libwebpmux) -lm -o "$out"
