#!/usr/bin/env bash
# Builds ThumbForge's binary distribution, so that an app using the plugin compiles nothing
# of ThumbForge:
#
#   Scripts/release.sh [build]   this machine's `thumbforge` (release, with `serve`) into
#                                dist/thumbforge.artifactbundle, beside the variants already
#                                there (run it on each machine, then gather the bundles)
#   Scripts/release.sh finish [URL]
#                                zips the bundle (dist/thumbforge.artifactbundle.zip), writes
#                                its checksum (…zip.sha256) and the binary plugin package
#                                (dist/ThumbForgeBinaryPlugin): a `.binaryTarget` at URL with
#                                that checksum, or without URL at the bundle's path (to test);
#                                with URL also the Homebrew formula (dist/thumbforge.rb)
#
# Each variant is `thumbforge-VERSION-TRIPLE/bin/thumbforge` with `runtime-libraries.txt`,
# the shared libraries it needs that an app's machine must have (libvips and the libraries
# libvips brings: `brew install vips`, or Debian's libvips42); on Linux the Swift runtime is
# linked in (`--static-swift-stdlib`). Scripts/release-check.sh tests the result.
set -euo pipefail
cd "$(dirname "$0")/.."

dist=dist
bundle="$dist/thumbforge.artifactbundle"
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/ThumbForgeBasics/Text/ToolVersion.swift)
[ -n "$version" ] || { echo "release.sh: no version in ToolVersion.swift" >&2; exit 1; }

build_variant() {
  local triple flags=()
  triple=$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["unversionedTriple"])')
  [ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib)
  echo "==> swift build -c release --product thumbforge ${flags[*]} ($triple)"
  swift build -c release --product thumbforge "${flags[@]}"
  local binary variant
  binary="$(swift build -c release --show-bin-path)/thumbforge"
  variant="thumbforge-$version-$triple"
  rm -rf "${bundle:?}/$variant"
  mkdir -p "$bundle/$variant/bin"
  cp "$binary" "$bundle/$variant/bin/thumbforge"
  strip "$bundle/$variant/bin/thumbforge" 2>/dev/null || true
  runtime_libraries "$bundle/$variant/bin/thumbforge" >"$bundle/$variant/runtime-libraries.txt"
  write_info
  echo "release.sh: $bundle/$variant ($(wc -l <"$bundle/$variant/runtime-libraries.txt") runtime libraries)"
}

# The shared libraries the binary itself names (what they load in turn comes with them), by
# file name, without the C and C++ runtimes and the loader every system has.
runtime_libraries() {
  if [ "$(uname -s)" = Darwin ]; then
    otool -L "$1" | tail -n +2 | awk '{print $1}' | grep -v '^/usr/lib/\|^/System/' | sort -u
  else
    readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
      grep -v -E '^(ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libgcc_s\.so|libstdc\+\+\.so)' |
      sort -u
  fi
}

# info.json lists every variant folder in the bundle (schema 1.0 of SwiftPM's artifact bundles).
write_info() {
  python3 - "$bundle" "$version" <<'PY'
import json, os, sys
bundle, version = sys.argv[1], sys.argv[2]
prefix = f"thumbforge-{version}-"
variants = [
    {"path": f"{name}/bin/thumbforge", "supportedTriples": [name[len(prefix):]]}
    for name in sorted(os.listdir(bundle)) if name.startswith(prefix)
]
info = {"schemaVersion": "1.0", "artifacts": {"thumbforge": {
    "version": version, "type": "executable", "variants": variants}}}
with open(os.path.join(bundle, "info.json"), "w") as file:
    json.dump(info, file, indent=2, sort_keys=True)
    file.write("\n")
PY
}

finish() {
  local url=${1:-}
  compgen -G "$bundle/thumbforge-$version-*" >/dev/null ||
    { echo "release.sh: no variant in $bundle; run 'Scripts/release.sh build' first" >&2; exit 1; }
  write_info
  rm -f "$bundle.zip"
  (cd "$dist" && python3 -m zipfile -c thumbforge.artifactbundle.zip thumbforge.artifactbundle)
  local checksum
  # What `swift package compute-checksum` gives: the zip's SHA-256.
  if command -v sha256sum >/dev/null; then
    checksum=$(sha256sum "$bundle.zip" | cut -d' ' -f1)
  else
    checksum=$(shasum -a 256 "$bundle.zip" | cut -d' ' -f1)
  fi
  echo "$checksum" >"$bundle.zip.sha256"
  local plugin="$dist/ThumbForgeBinaryPlugin" target
  rm -rf "$plugin"
  mkdir -p "$plugin/Plugins/ThumbForgePlugin"
  cp Plugins/ThumbForgePlugin/ThumbForgePlugin.swift "$plugin/Plugins/ThumbForgePlugin/"
  if [ -n "$url" ]; then
    target=".binaryTarget(name: \"thumbforge\", url: \"$url\", checksum: \"$checksum\")"
  else
    cp -R "$bundle" "$plugin/"
    target='.binaryTarget(name: "thumbforge", path: "thumbforge.artifactbundle")'
  fi
  sed -e "s|@BINARY_TARGET@|$target|" -e "s|@VERSION@|$version|" \
    Scripts/release/BinaryPlugin.Package.swift >"$plugin/Package.swift"
  if [ -n "$url" ]; then
    sed -e "s|@URL@|$url|" -e "s|@SHA256@|$checksum|" -e "s|@VERSION@|$version|" \
      -e "s|@HOMEPAGE@|${THUMBFORGE_HOMEPAGE:-${url%/releases/*}}|" \
      Scripts/release/thumbforge.rb >"$dist/thumbforge.rb"
  fi
  echo "release.sh: $bundle.zip (checksum $checksum), $plugin${url:+, $dist/thumbforge.rb}"
}

case "${1:-build}" in
  build) build_variant ;;
  finish) finish "${2:-}" ;;
  *) echo "usage: Scripts/release.sh [build | finish [URL]]" >&2; exit 2 ;;
esac
