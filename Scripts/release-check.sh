#!/usr/bin/env bash
# Tests the binary distribution as an app meets it: builds this machine's artifact bundle and
# the binary plugin package (Scripts/release.sh build, finish), then a new package that
# depends on that plugin package by path runs `swift package thumbforge build` and `check`
# on an Assets folder, and prints how long its first `check` took. It must compile nothing of ThumbForge (no module of it, no C of it,
# none of its dependencies: the tool is the bundle's binary), and `check` must pass.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
Scripts/release.sh build
Scripts/release.sh finish

app=$(mktemp -d "${TMPDIR:-/tmp}/thumbforge-release-check.XXXXXX")
trap 'rm -rf "$app"' EXIT
plugin=$(cd dist/ThumbForgeBinaryPlugin && pwd)
mkdir -p "$app/Sources/App" "$app/Assets"
cat >"$app/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "App",
  platforms: [.macOS(.v14)],
  dependencies: [.package(path: "$plugin")],
  targets: [.target(name: "App")]
)
EOF
echo 'public let assets = "Assets"' >"$app/Sources/App/App.swift"
echo 'output: ../Build/Assets.xcassets' >"$app/Assets/thumbforge.yml"
vips black "$app/Assets/Dot@2x.png" 8 8

failures=0
fail() { echo "release-check: FAIL: $*" >&2; failures=$((failures + 1)); }

run() {
  (cd "$app" && swift package --allow-writing-to-package-directory thumbforge "$@") >"$app/out.log" 2>&1
}
# An app's first call compiles the plugin's own source and nothing else; nothing is built yet,
# so this check fails (exit 1) and says what is missing.
started=$(date +%s.%N)
if run check; then fail "check passed before any build"; fi
first=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
grep -q "missing: Dot.imageset" "$app/out.log" || fail "the first check did not name Dot.imageset"
printf "release-check: the app's first 'swift package thumbforge check' took %.1f s\n" "$first"
if ! run build; then
  fail "swift package thumbforge build failed"
  cat "$app/out.log" >&2
fi
if grep -E 'Compiling (ThumbForge|Vips|CResample|CJPEG|CPNG|Yams|ArgumentParser|thumbforge)' "$app/out.log"; then
  fail "the app compiled ThumbForge or one of its dependencies"
fi
[ -f "$app/Build/Assets.xcassets/Dot.imageset/Contents.json" ] || fail "no Dot.imageset built"
if ! run check; then
  fail "swift package thumbforge check failed"
  cat "$app/out.log" >&2
fi
grep -q "up to date" "$app/out.log" || fail "check did not say 'up to date'"
rm -f "$app/Build/Assets.xcassets/Dot.imageset/Dot@2x.png"
if run check; then fail "check passed with an output removed"; fi

if [ "$failures" -eq 0 ]; then
  echo "release-check: passed (the app ran the bundle's thumbforge, compiling none of ThumbForge)"
else
  echo "release-check: $failures failed" >&2
  exit 1
fi
