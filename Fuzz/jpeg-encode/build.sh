#!/usr/bin/env bash
# Builds the jpeg-encode libFuzzer target: Fuzz/jpeg-encode/build.sh OUT_BINARY
set -euo pipefail
out=${1:?usage: build.sh OUT_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../common.sh
source "$here/../common.sh"
src="$root/Sources/CJPEG"
"$FUZZ_CC" "${FUZZ_CFLAGS[@]}" -I"$src/include" "$here/fuzz_jpeg_encode.c" \
  "$src/jpeg_encode.c" "$src/jpeg_errors.c" "$src/jpeg_huffman.c" "$src/jpeg_order.c" \
  -ljpeg -lpthread -o "$out"
