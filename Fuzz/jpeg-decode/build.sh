#!/usr/bin/env bash
# Builds the jpeg-decode libFuzzer target: Fuzz/jpeg-decode/build.sh OUT_BINARY
set -euo pipefail
out=${1:?usage: build.sh OUT_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../common.sh
source "$here/../common.sh"
"$FUZZ_CC" "${FUZZ_CFLAGS[@]}" -I"$root/Sources/CJPEG/include" \
  "$here/fuzz_jpeg_decode.c" "$root/Sources/CJPEG/jpeg_stream.c" \
  "$root/Sources/CJPEG/jpeg_errors.c" -ljpeg -lpthread -o "$out"
