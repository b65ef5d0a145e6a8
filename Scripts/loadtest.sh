#!/usr/bin/env bash
# Load test: `thumbforge serve` and thumbor side by side, driven by wrk, on the sample
# folder's resort photos (Assets/Resorts), equivalent fill crops at 1x.
#
#   Scripts/loadtest.sh [--duration S] [--connections "16 64"] [--processes N] [--no-apt]
#                       [--baseline REV] [--masters N]
#
# For each tool and each concurrency: cold (every request a new size: all renders) and warm
# (8 paths repeated, after one request each: served from the result cache / thumbor's
# result storage). Reports requests/s, p50 and p99 latency, errors and the server's peak RSS
# (all its processes), with the ratios serve/thumbor. Installs what it needs: libvips
# (Scripts/install-deps.sh), wrk (apt-get), thumbor (PyPI, in bench-work/venv-thumbor).
# thumbor runs with --processes N (default: one per core) so both servers use every core;
# wrk runs 2 threads on the same machine. Results: bench-work/loadtest.md and .jsonl.
# --baseline REV also builds `serve` at git revision REV (in a worktree under bench-work/)
# and runs it as a third server, each of its runs right after the current one's, with the
# current one's throughput as a ratio of it: what a change costs, measured in one run.
# --masters N serves N distinct photos instead of the four (each a different crop of one of
# them, re-encoded), so that the cold paths cycle over more masters than any in-memory cache
# of decoded images would hold: cold renders that are really cold. Reports go to
# bench-work/loadtest-mastersN.md and .jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. Scripts/lib.sh
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH

DURATION=10
CONNECTIONS="16 64"
PROCESSES=$(nproc)
APT=1
BASELINE=
MASTERS=0
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION=$2; shift ;;
    --connections) CONNECTIONS=$2; shift ;;
    --processes) PROCESSES=$2; shift ;;
    --no-apt) APT=0 ;;
    --baseline) BASELINE=$2; shift ;;
    --masters) MASTERS=$2; shift ;;
    -h|--help) script_help "$0"; exit 0 ;;
    *) echo "loadtest.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

WORK=$ROOT/bench-work/loadtest
SUFFIX=; [ "$MASTERS" -gt 0 ] && SUFFIX=-masters$MASTERS
RESULTS=$ROOT/bench-work/loadtest$SUFFIX.jsonl
REPORT=$ROOT/bench-work/loadtest$SUFFIX.md
mkdir -p "$WORK"

# ---------------------------------------------------------------- tools
Scripts/install-deps.sh
if ! command -v wrk >/dev/null; then
  [ $APT = 1 ] || { echo "loadtest.sh: wrk is missing (--no-apt)" >&2; exit 1; }
  apt_install wrk
fi
VENV=$ROOT/bench-work/venv-thumbor
if [ ! -x "$VENV/bin/thumbor" ]; then
  echo "==> installing thumbor into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip >/dev/null
  "$VENV/bin/pip" install -q thumbor
fi
echo "==> building thumbforge (release)"
static=(); [ "$(uname -s)" = Linux ] && static=(--static-swift-stdlib)
swift build -c release --product thumbforge --scratch-path .build-bench "${static[@]}" >/dev/null
TF=$ROOT/.build-bench/release/thumbforge
BASE_TF=
if [ -n "$BASELINE" ]; then
  echo "==> building thumbforge at $BASELINE (release)"
  BASE_SRC=$ROOT/bench-work/baseline-src
  git worktree remove --force "$BASE_SRC" 2>/dev/null || rm -rf "$BASE_SRC"
  git worktree add --detach "$BASE_SRC" "$BASELINE" >/dev/null
  (cd "$BASE_SRC" && swift build -c release --product thumbforge \
    --scratch-path "$ROOT/.build-bench-baseline" "${static[@]}" >/dev/null)
  BASE_TF=$ROOT/.build-bench-baseline/release/thumbforge
fi

# ---------------------------------------------------------------- folder and paths
FOLDER=$WORK/Assets
rm -rf "$FOLDER" && mkdir -p "$FOLDER/Resorts"
if [ "$MASTERS" -gt 0 ]; then
  # Distinct content (a content-addressed cache would share equal files): master i is a
  # 1920×960 window of photo i mod 4, moved by i pixels, re-encoded at quality 90.
  photos=(Assets/Resorts/*.jpg)
  for i in $(seq 0 $((MASTERS - 1))); do
    photo=${photos[$((i % ${#photos[@]}))]}
    vips crop "$photo" "$FOLDER/Resorts/photo-$(printf %04d "$i").jpg[Q=90]" \
      $((i % 128)) $(((i / 128) % 64)) 1920 960
  done
else
  cp Assets/Resorts/*.jpg "$FOLDER/Resorts/"
fi
cat > "$FOLDER/thumbforge.yml" <<EOF
output: ../Build/Assets.xcassets
serve:
  ad-hoc: true
  cache: ../serve-cache
  cache-size: 2048
  queue: 256
EOF
python3 Scripts/loadtest/make_paths.py "$FOLDER/Resorts" "$WORK/paths"
for mode in cold warm; do cp "$WORK/paths/$mode-serve.txt" "$WORK/paths/$mode-baseline.txt"; done
cat > "$WORK/thumbor.conf" <<EOF
LOADER = 'thumbor.loaders.file_loader'
FILE_LOADER_ROOT_PATH = '$FOLDER'
STORAGE = 'thumbor.storages.no_storage'
RESULT_STORAGE = 'thumbor.result_storages.file_storage'
RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '$WORK/thumbor-results'
RESULT_STORAGE_STORES_UNSAFE = True
ALLOW_UNSAFE_URL = True
QUALITY = 82
EOF

# peak_rss PID: the sum of VmHWM (peak resident set) of PID and its children, in MB.
peak_rss() {
  local total=0 pid
  for pid in $1 $(pgrep -P "$1" || true); do
    local kb
    kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    total=$((total + ${kb:-0}))
  done
  echo $((total / 1024))
}

start_server() { # TOOL PORT → sets SERVER
  case $1 in
    serve | baseline)
      rm -rf "$WORK/serve-cache"
      local binary=$TF; [ "$1" = baseline ] && binary=$BASE_TF
      "$binary" serve "$FOLDER" --port "$2" 2>"$WORK/$1.log" &
      SERVER=$!
      wait_http "$2" /healthz ;;
    thumbor)
      rm -rf "$WORK/thumbor-results"
      "$VENV/bin/thumbor" -c "$WORK/thumbor.conf" -p "$2" -l error --processes "$PROCESSES" \
        >"$WORK/thumbor.log" 2>&1 &
      SERVER=$!
      wait_http "$2" /healthcheck ;;
  esac
}

run_wrk() { # TOOL MODE CONNECTIONS PORT
  local paths=$WORK/paths/$2-$1.txt
  if [ "$2" = warm ]; then
    while read -r path; do curl -s -o /dev/null "http://127.0.0.1:$4$path"; done <"$paths"
  fi
  sync
  local line
  line=$(PATHS=$paths THREADS=2 wrk -t2 -c"$3" -d"${DURATION}s" --timeout 30s \
    -s Scripts/loadtest/paths.lua "http://127.0.0.1:$4" | tail -n 1)
  local rss
  rss=$(peak_rss "$SERVER")
  echo "{\"tool\": \"$1\", \"mode\": \"$2\", \"connections\": $3, \"peak_rss_mb\": $rss, ${line#\{}" \
    | tee -a "$RESULTS"
}

rm -f "$RESULTS"
for connections in $CONNECTIONS; do
  for mode in cold warm; do
    tools="serve thumbor"; [ -n "$BASE_TF" ] && tools="serve baseline thumbor"
    for tool in $tools; do
      port=$(free_port)
      echo "==> $tool, $mode, $connections connections, ${DURATION}s"
      start_server "$tool" "$port"
      run_wrk "$tool" "$mode" "$connections" "$port"
      # thumbor's worker processes first: once their parent is gone they are orphans.
      pkill -TERM -P "$SERVER" 2>/dev/null || true
      kill -TERM "$SERVER" 2>/dev/null || true
      wait "$SERVER" 2>/dev/null || true
      pkill -KILL -P "$SERVER" 2>/dev/null || true
    done
  done
done

python3 - "$RESULTS" "$REPORT" "$DURATION" "$PROCESSES" <<'EOF'
import json, sys, subprocess
rows = [json.loads(l) for l in open(sys.argv[1])]
duration, processes = sys.argv[3], sys.argv[4]
by = {(r["tool"], r["mode"], r["connections"]): r for r in rows}
lines = [
    f"wrk, 2 threads, {duration} s per run; thumbor {processes} processes; "
    f"{subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores.",
    "",
    "| mode | connections | tool | req/s | p50 ms | p99 ms | errors | peak RSS MB | req/s vs thumbor | p99 vs thumbor | req/s vs baseline |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
]
for (tool, mode, c), r in sorted(by.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
    other = by.get(("thumbor", mode, c))
    ratio = p99 = ""
    if tool in ("serve", "baseline") and other and other["rps"] > 0:
        ratio = f"{r['rps'] / other['rps']:.1f}×"
        p99 = f"{r['p99_ms'] / other['p99_ms']:.2f}×" if other["p99_ms"] > 0 else ""
    base = by.get(("baseline", mode, c))
    vs_base = f"{r['rps'] / base['rps']:.2f}×" if tool == "serve" and base and base["rps"] > 0 else ""
    lines.append(f"| {mode} | {c} | {tool} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['errors']} | {r['peak_rss_mb']} | {ratio} | {p99} | {vs_base} |")
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
