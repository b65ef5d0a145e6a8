#!/usr/bin/env bash
# Checks serve's preview page in a real browser: builds ThumbForge, serves a copy of the
# sample folder Assets/ on a free loopback port, loads http://127.0.0.1:PORT/ in headless
# Chromium (Debian's package, installed with apt-get when missing), saves a screenshot, and
# fails unless every image of the page was answered 200 by the server and the screenshot
# shows pictures (not a blank page).
#
#   [THUMBFORGE_BIN=PATH] Scripts/preview-check.sh [OUT.png]     (default: Build/preview.png)
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/lib.sh
out=${1:-Build/preview.png}

Scripts/install-deps.sh
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  apt_install chromium
  browser=$(command -v chromium)
fi

release_binary

work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r Assets "$work/Assets"
port=$(free_port)
"$TF" serve "$work/Assets" --port "$port" 2>"$work/serve.log" &
server=$!
wait_http "$port" /healthz 100 || true
images=$(curl -sf "http://127.0.0.1:$port/" | grep -o '<img ' | wc -l)
echo "==> the preview page lists $images images; loading it in $browser"
mkdir -p "$(dirname "$out")"
"$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1400,6000 --virtual-time-budget=60000 --screenshot="$(realpath -m "$out")" \
  "http://127.0.0.1:$port/" >/dev/null 2>&1
kill -TERM "$server"; wait "$server" || true
ok=$(grep -c 'GET /unsafe/.* 200$' "$work/serve.log" || true)
bad=$(grep 'GET /unsafe/' "$work/serve.log" | grep -vc ' 200$' || true)
echo "==> image requests from the browser: $ok answered 200, $bad otherwise"
# A blank or broken page is nearly uniform: require some variation in the screenshot.
deviation=$(vips deviate "$out")
echo "==> screenshot $out: standard deviation $deviation"
if [ "$images" -eq 0 ] || [ "$ok" -lt "$images" ] || [ "$bad" -ne 0 ]; then
  echo "preview-check: not every image loaded" >&2
  grep 'GET /unsafe/' "$work/serve.log" | grep -v ' 200$' >&2 || true
  exit 1
fi
python3 -c "import sys; sys.exit(0 if float('$deviation') > 10 else 1)" || {
  echo "preview-check: the screenshot looks blank" >&2
  exit 1
}
echo "preview-check: ok"
