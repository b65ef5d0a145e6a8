#!/usr/bin/env bash
# Builds ThumbForge in release and runs the main job on the sample asset folder Assets/.
# Output: Build/Assets.xcassets, Build/manifest.json, Build/Asset.swift, Build/contact-sheet.png
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
echo "==> swift build -c release"
swift build -c release --product thumbforge
bin="$(swift build -c release --show-bin-path)/thumbforge"
echo "==> thumbforge build Assets $*"
"$bin" build Assets --contact-sheet Build/contact-sheet.png "$@"
