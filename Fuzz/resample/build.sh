#!/usr/bin/env bash
# Builds the resample libFuzzer target: Fuzz/resample/build.sh OUT_BINARY
set -euo pipefail
out=${1:?usage: build.sh OUT_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../common.sh
source "$here/../common.sh"
src="$root/Sources/CResample"
"$FUZZ_CC" "${FUZZ_CFLAGS[@]}" -I"$src/include" "$here/fuzz_resample.c" "$src/resample.c" \
  "$src/resample_avx2.c" "$src/resample_avx512.c" "$src/resample_float.c" "$src/weights.c" \
  -lm -lpthread -o "$out"
