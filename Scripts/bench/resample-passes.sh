#!/usr/bin/env bash
# The resampler's portable, AVX2 and AVX-512 passes side by side on the resizes a 24 MP
# photo gets in the bench corpus (its 2x variant from the 3x master, the 1x from the
# half-size copy, a fit into 1024 px from a quarter), best of 5; exits 1 if any two passes
# give different bytes. Needs a C compiler (cc or clang); nothing else.
#   Scripts/bench/resample-passes.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cc=${CC:-$(command -v clang || command -v cc)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
src=Sources/CResample
"$cc" -O2 -I"$src/include" -I"$src" Scripts/bench/resample_passes.c "$src/resample.c" \
  "$src/resample_avx2.c" "$src/resample_avx512.c" "$src/weights.c" -lm -lpthread \
  -o "$out/resample_passes"
"$out/resample_passes" 6000 4000 4000 2667
"$out/resample_passes" 3000 2000 2000 1333
"$out/resample_passes" 1500 1000 1024 683
