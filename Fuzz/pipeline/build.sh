#!/usr/bin/env bash
# Builds the pipeline libFuzzer target (Swift, AddressSanitizer): Fuzz/pipeline/build.sh OUT_BINARY
# The harness is the package's executable target fuzz-pipeline, rebuilt here with SwiftPM's
# fuzzer and address sanitizers (release, in the separate scratch path .build-fuzz-swift,
# shared by every Swift target) and THUMBFORGE_FUZZ, which drops its replay main so that
# libFuzzer provides main.
set -euo pipefail
out=${1:?usage: build.sh OUT_BINARY}
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
flags=(-c release --sanitize=fuzzer --sanitize=address --scratch-path .build-fuzz-swift
  -Xswiftc -DTHUMBFORGE_FUZZ)
swift build "${flags[@]}" --product fuzz-pipeline
cp "$(swift build "${flags[@]}" --show-bin-path)/fuzz-pipeline" "$out"
