#!/usr/bin/env bash
# Builds ThumbForge in release and runs the main job on the sample asset folder Assets/.
# Output: Build/Assets.xcassets, Build/manifest.json, Build/Asset.swift, Build/contact-sheet.png
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
# On Linux the Swift runtime is linked statically (a shorter start-up per run). The main job
# needs no server, so the build leaves out the Serve trait and the packages only it uses, in
# a build folder of its own (.build-run), so that it never replaces the tool with `serve`
# that `swift build -c release` makes in .build.
flags=(-c release --disable-default-traits --scratch-path .build-run)
[ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib)
echo "==> swift build ${flags[*]}"
swift build "${flags[@]}" --product thumbforge
bin="$(swift build "${flags[@]}" --show-bin-path)/thumbforge"
echo "==> thumbforge build Assets $*"
"$bin" build Assets --contact-sheet Build/contact-sheet.png "$@"
