#!/usr/bin/env bash
# Cross-compiles the C targets (Sources/CResample, Sources/CJPEG) for aarch64-linux-gnu with
# -O2 -Wall -Werror, links the C tests (Tests/C) and runs them under qemu-aarch64, and the
# same tests natively, so they are known to pass on both. The tests:
#   resample_test        portable passes against a double-precision reference resize
#   jpeg_roundtrip_test  own Huffman statistics pass == libjpeg's optimize_coding, decode back
#   replay-resample      Fuzz/resample's target over its seeds and generated inputs
#   replay-jpeg-encode   Fuzz/jpeg-encode's target over its seeds and generated inputs
# The resampler and the JPEG files must also be the same bytes on both CPUs (digests).
# Installs what it needs with apt-get when missing, from Debian (bookworm: libjpeg-turbo 2.1.5
# for both CPUs through arm64 multiarch; Ubuntu's default mirrors carry no arm64 packages,
# so CI runs it in a debian:bookworm container).
# Usage: Scripts/arm64-check.sh [--random N]   (generated inputs per replay, default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."

random=1000
if [ "${1:-}" = "--random" ]; then random=${2:?--random N}; fi

cross=aarch64-linux-gnu-gcc
sysroot=/usr/aarch64-linux-gnu
need=()
command -v cc >/dev/null || need+=(gcc libc6-dev)
command -v file >/dev/null || need+=(file)
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
command -v "$cross" >/dev/null || need+=(gcc-aarch64-linux-gnu)
[ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] || need+=(libc6-dev-arm64-cross)
[ -e /usr/include/jpeglib.h ] || need+=(libjpeg62-turbo-dev)
[ -e /usr/lib/aarch64-linux-gnu/libjpeg.so ] || need+=(libjpeg62-turbo-dev:arm64)
if [ ${#need[@]} -gt 0 ]; then
  echo "==> apt-get install ${need[*]}"
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  if [[ " ${need[*]} " == *":arm64 "* ]] &&
    ! dpkg --print-foreign-architectures | grep -qx arm64; then
    "${sudo[@]}" dpkg --add-architecture arm64
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${need[@]}" >/dev/null
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cflags=(-std=gnu11 -O2 -Wall -Werror)
resample_src=(Sources/CResample/resample.c Sources/CResample/resample_avx2.c
  Sources/CResample/resample_avx512.c Sources/CResample/resample_float.c
  Sources/CResample/weights.c)
jpeg_src=(Sources/CJPEG/jpeg_encode.c Sources/CJPEG/jpeg_errors.c Sources/CJPEG/jpeg_huffman.c
  Sources/CJPEG/jpeg_order.c Sources/CJPEG/jpeg_stream.c)
resample_flags=(-ISources/CResample/include -lm -lpthread)
jpeg_flags=(-ISources/CJPEG/include -ljpeg -lpthread)

build() { # build ARCH CC
  local arch=$1 cc=$2
  echo "==> $arch: compiling with $cc ${cflags[*]}"
  mkdir -p "$out/$arch"
  "$cc" "${cflags[@]}" Tests/C/resample_test.c "${resample_src[@]}" "${resample_flags[@]}" \
    -o "$out/$arch/resample_test"
  "$cc" "${cflags[@]}" Tests/C/jpeg_roundtrip_test.c "${jpeg_src[@]}" "${jpeg_flags[@]}" \
    -o "$out/$arch/jpeg_roundtrip_test"
  "$cc" "${cflags[@]}" Tests/C/replay_main.c Fuzz/resample/fuzz_resample.c \
    "${resample_src[@]}" "${resample_flags[@]}" -o "$out/$arch/replay-resample"
  "$cc" "${cflags[@]}" Tests/C/replay_main.c Fuzz/jpeg-encode/fuzz_jpeg_encode.c \
    "${jpeg_src[@]}" "${jpeg_flags[@]}" -o "$out/$arch/replay-jpeg-encode"
}

failures=0
run() { # run ARCH [RUNNER...]: runs the four tests, keeping their output
  local arch=$1
  shift
  local bin=$out/$arch
  echo "==> $arch: running"
  local test
  for test in resample_test jpeg_roundtrip_test; do
    if ! "$@" "$bin/$test" >"$bin/$test.log" 2>&1; then failures=$((failures + 1)); fi
    sed 's/^/    /' "$bin/$test.log" | tail -n 25
  done
  if ! "$@" "$bin/replay-resample" Fuzz/resample/seeds/* --random "$random" \
    --max-len "$(cat Fuzz/resample/max_len)" >"$bin/replay-resample.log" 2>&1; then
    failures=$((failures + 1))
  fi
  sed 's/^/    resample /' "$bin/replay-resample.log" | tail -n 5
  if ! "$@" "$bin/replay-jpeg-encode" Fuzz/jpeg-encode/seeds/* --random "$random" \
    --max-len "$(cat Fuzz/jpeg-encode/max_len)" >"$bin/replay-jpeg-encode.log" 2>&1; then
    failures=$((failures + 1))
  fi
  sed 's/^/    jpeg-encode /' "$bin/replay-jpeg-encode.log" | tail -n 5
}

build x86_64 "${CC:-cc}"
build aarch64 "$cross"
file "$out/aarch64/resample_test" | grep -q 'ARM aarch64' || {
  echo "arm64-check: the cross build is not an aarch64 binary" >&2
  exit 1
}
run x86_64
# The arm64 libjpeg comes from Debian's multiarch folder, outside qemu's -L prefix.
run aarch64 qemu-aarch64 -L "$sysroot" -E LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu

# The same bytes on both CPUs: the resampler promises it (fixed-point, exact sums); the JPEG
# files come from libjpeg-turbo's SIMD (SSE2/AVX2 against NEON) and own Huffman pass.
for test in resample_test jpeg_roundtrip_test; do
  a=$(grep digest "$out/x86_64/$test.log" || true)
  b=$(grep digest "$out/aarch64/$test.log" || true)
  if [ -z "$a" ] || [ "$a" != "$b" ]; then
    echo "FAIL $test: x86_64 '$a', aarch64 '$b'"
    failures=$((failures + 1))
  else
    echo "==> $test: same bytes on x86_64 and aarch64 ($a)"
  fi
done

total=$(cat "$out"/*/*.log | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' |
  awk '{p += $1; f += $2} END {print p + 0, f + 0}')
echo "arm64-check: $((10 - failures)) passed, $failures failed (4 tests x 2 CPUs, 2 digest" \
  "comparisons; ${total% *} checks passed, ${total#* } failed inside them)"
[ "$failures" = 0 ]
