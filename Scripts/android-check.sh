#!/usr/bin/env bash
# Builds Assets/ (and the SnowSeeker corpus, when ../shared/corpus/snowseeker is there) with
# `android:` on, one flag given dark art, and an app icon with a tinted appearance, then
# compiles each `res` folder with the Android platform tool Debian has, `aapt` (v1; Debian
# ships no `aapt2` and no android.jar: a stub framework package declares the one attribute
# adaptive icons use, so every reference of their XML is resolved), generating `R.java`,
# which refuses Java keywords. Each resource name is then held to aapt2's stricter rule (lower-case
# letters, digits and `_`, not starting with a digit), and dark art must be under
# `drawable-night-*`. THUMBFORGE_BIN picks the binary (else a release build). Installs aapt
# with apt-get when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/lib.sh

release_binary
command -v aapt >/dev/null || apt_install aapt

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '<?xml version="1.0" encoding="utf-8"?>\n<manifest package="com.thumbforge.check"/>\n' \
  > "$work/AndroidManifest.xml"
sample_folders android-check.sh
# The framework's attribute an adaptive icon's XML uses, in a stub `android` package
# (Debian ships no android.jar), so that aapt resolves every reference the XML makes.
mkdir -p "$work/framework/res/values"
printf '<?xml version="1.0" encoding="utf-8"?>\n<manifest package="android"/>\n' \
  > "$work/framework/AndroidManifest.xml"
cat > "$work/framework/res/values/attrs.xml" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<resources>
    <attr name="drawable" format="reference"/>
    <public type="attr" name="drawable" id="0x01010199"/>
</resources>
XML
aapt package -f -x -M "$work/framework/AndroidManifest.xml" -S "$work/framework/res" \
  -F "$work/android.apk"
# An app icon with a tinted appearance, for the launcher icons and their monochrome layer.
mkdir -p "$work/sources/icon"
cp Assets/Icons/Mountain.svg "$work/sources/icon/AppIcon.svg"
cp Assets/Icons/Mountain.svg "$work/sources/icon/AppIcon~tinted.svg"
printf 'rules: [{ match: "AppIcon*", recipes: [appicon] }]\n' > "$work/sources/icon/thumbforge.yml"
folders+=("$work/sources/icon")
status=0
for folder in "${folders[@]}"; do
  name=$(basename "$folder")
  cp -R "$folder" "$work/$name"
  # Dark art for one asset, so that the night qualifier is compiled too.
  dark=$(find "$work/$name" -name '*.svg' -o -name '*@2x.png' | sort | head -n 1)
  if [ -n "$dark" ]; then
    base=${dark%.*}; ext=${dark##*.}
    case $base in *@2x) cp "$dark" "${base%@2x}~dark@2x.$ext" ;; *) cp "$dark" "$base~dark.$ext" ;; esac
  fi
  printf '\nandroid:\n  folder: ../android-%s/res\n' "$name" >> "$work/$name/thumbforge.yml"
  "$TF" build "$work/$name" -q -o "$work/out-$name/Assets.xcassets"
  res=$work/android-$name/res
  echo "==> $folder: $(find "$res" -type f | wc -l) drawables in $(ls "$res" | tr '\n' ' ')"
  mkdir -p "$work/gen-$name"
  if ! aapt package -f -M "$work/AndroidManifest.xml" -S "$res" -I "$work/android.apk" \
    -J "$work/gen-$name" -F "$work/$name.apk"; then
    echo "android-check.sh: aapt refused $res" >&2
    status=1
  fi
  bad=$(find "$res" -type f | sed 's|.*/||; s|\.[a-z]*$||' | grep -Ev '^[a-z_][a-z0-9_]*$' || true)
  if [ -n "$bad" ]; then
    echo "android-check.sh: names outside aapt2's rule: $bad" >&2
    status=1
  fi
  if [ "$name" = icon ]; then
    for file in mipmap-xxxhdpi/ic_launcher.png mipmap-xxxhdpi/ic_launcher_round.png \
      mipmap-xxxhdpi/ic_launcher_foreground.png mipmap-xxxhdpi/ic_launcher_monochrome.png \
      mipmap-anydpi-v26/ic_launcher.xml values/ic_launcher_background.xml; do
      [ -f "$res/$file" ] || { echo "android-check.sh: no $file" >&2; status=1; }
    done
  elif [ -n "$dark" ] && ! ls "$res" | grep -q '^drawable-night-'; then
    echo "android-check.sh: no drawable-night-* folder for $dark" >&2
    status=1
  fi
done
exit "$status"
