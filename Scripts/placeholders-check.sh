#!/usr/bin/env bash
# Builds Assets/ (and the SnowSeeker corpus, when ../shared/corpus/snowseeker is there) with
# `placeholders: thumbhash`, then decodes every placeholder with an independent ThumbHash
# decoder (PyPI's `thumbhash-python`, in a venv under .build/) and checks it against the file it was
# made from: present for every imageset, the file's orientation and aspect ratio, its average
# colour and alpha (Scripts/placeholders/check.py). THUMBFORGE_BIN picks the binary (else a
# release build). Installs python3-venv with apt-get when venvs cannot be made.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/lib.sh

release_binary
venv=.build/placeholders-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import thumbhash.decode, PIL' 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv" 2>/dev/null || { apt_install python3-venv && python3 -m venv "$venv"; }
  # The decoder needs only Pillow (its command-line part, which needs typer, is not used).
  "$venv/bin/pip" install -q "Pillow>=8,<11"
  "$venv/bin/pip" install -q --no-deps thumbhash-python==1.0.1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sample_folders placeholders-check.sh
status=0
for folder in "${folders[@]}"; do
  name=$(basename "$folder")
  cp -R "$folder" "$work/$name"
  printf '\nplaceholders: thumbhash\n' >> "$work/$name/thumbforge.yml"
  "$TF" build "$work/$name" -q -o "$work/out-$name/Assets.xcassets"
  echo "==> $folder"
  "$venv/bin/python" Scripts/placeholders/check.py "$work/out-$name/manifest.json" || status=1
done
exit "$status"
