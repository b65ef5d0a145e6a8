#!/usr/bin/env bash
# Hostile-request suite: `thumbforge serve` as a real process on a free loopback port, over
# temporary asset folders whose hostile masters this script generates itself (Python's zlib
# and struct, in Scripts/attack/gen.py: no checked-in file is used), attacked by the clients
# of Scripts/attack/attack.py. One line per row: PASS, FAIL or SKIP (reason), with what was
# measured; exits 1 if any row failed. Every row in one run takes minutes on a 2-core machine.
#
#   [THUMBFORGE_BIN=PATH] Scripts/attack.sh [--only N,M,…] [--keep]
#
#  1  a 1×2 000 000 single-colour PNG through fill and tile at 3x: 4xx, server alive
#  2  no global stall: a slow render (smart crop of a 2000×90000 PNG) runs, a trivial render
#     asked 0.3 s later answers in < 1 s (2 render workers: --jobs 2, or --workers 2)
#  3  serve.timeout: 1 and a slow render: 503, then thumbforge_renders_cancelled_total ≥ 1
#     within 2 s (the render was stopped)
#  4  masters swapped after start (limit-input-pixels: 1000000): a 2000×2000 PNG renamed over
#     a served master, requested at once and after the reload; also a stealth swap (same
#     size and modification time): never a 200 of the big image, never a 5xx
#  5  untrusted-sources: an SVG referencing a file outside the folder and a BMP named .png
#     are 4xx; under `strace -f -y -e trace=open,openat` (when installed) no file outside
#     the folder, the cache and the system's libraries/fonts/locale is opened (failed
#     attempts are only counted), and never the outside file
#  6  slowloris: 1 500 connections (100 of them trickling a header line every 2 s) against a
#     server with ulimit -n 1024: /healthz < 1 s meanwhile, all closed by the server in 15 s
#  7  slow readers: 50 clients read a ~26 MB PNG output at 1 KB/s: they add < 100 MB to the
#     server's peak RSS (each write waits for the connection: BodyPacing), and < 600 MB in all
#  8  flood: 200 concurrent distinct large renders (20–26 MP outputs of 6000×6000 RGBA
#     masters; 8 render workers, serve.memory-budget: 1024, max-output-pixels raised, queue: 16,
#     timeout: 15): only 200, 429 or 503, peak RSS < 1024 + 150 MB
#  9  small leaks: (a) 404 bodies (unknown assets, near misses, an output the recipe does not
#     make) name no master file (but the one asked for) nor byte size; (b) a signature with "=",
#     a %-encoded character, or a non-canonical last character (same bytes) is 403; (c) a 1-byte key is refused (message names 32 bytes);
#     (d) a name with an accent answers the same in NFC and NFD, also after a reload;
#     (e) 300 small renders with cache-size: 1 leave du -sk of the cache ≤ 1.1 MB
# 10  through nginx with Examples/nginx/thumbforge.conf: /unsafe/…, /, /metrics are nginx's
#     404, a signed path is 200 (nginx from apt-get when missing, else SKIP)
# 11  --metrics-port: /metrics is 404 on the public port and 200 on the metrics port
# 12  the Kubernetes example's pod (a 1.5 GiB cgroup v1 memory limit, 2 workers, defaults:
#     the budget from the cgroup) under 120 concurrent renders of the largest outputs the
#     defaults allow: only 200, 429 or 503, no OOM kill, peak RSS < 1536 MB (SKIP without a
#     writable cgroup)
#
# Throughout, every server's /healthz is polled every 0.2 s: a row fails if /healthz took
# more than 1 s or its server died; each row prints the worst /healthz latency and the
# server's peak RSS (VmHWM). Takes the binary from THUMBFORGE_BIN (default: `swift build -c
# release --product thumbforge`, run each time, .build/release/thumbforge). Installs the vips CLI (Scripts/install-deps.sh) and, for row 10, nginx; uses
# strace when installed. --only: run only these rows; --keep: keep the temporary folder
# (inputs, server logs, strace output) and print where it is. Installs strace as root when
# missing. CI (.ci/run) runs it on the release build, as deployed (a debug build's
# NIO and Hummingbird are unoptimised: under row 6 its /healthz comes close to the 1 s
# bound, the release build's stays far below it).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH

ONLY=
KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) ONLY=",$2,"; shift ;;
    --keep) KEEP=1 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | cut -c3-; exit 0 ;;
    *) echo "attack.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

# ---------------------------------------------------------------- tools and binary
Scripts/install-deps.sh >&2 || exit 1
# strace for row 5's check of the files opened, curl for the requests, pgrep (procps) for
# the cleanup: installed as root when missing (a fresh CI machine).
missing=()
command -v strace >/dev/null || missing+=(strace)
command -v curl >/dev/null || missing+=(curl)
command -v pgrep >/dev/null || missing+=(procps)
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "==> installing ${missing[*]} with apt-get" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/dev/null 2>&1 || true
fi
TF=${THUMBFORGE_BIN:-.build/release/thumbforge}
if [ -n "${THUMBFORGE_BIN:-}" ]; then
  [ -x "$TF" ] || { echo "attack.sh: THUMBFORGE_BIN=$TF is not executable" >&2; exit 1; }
else
  # Always through SwiftPM (quick when up to date): a binary left by another build (without
  # the Serve trait, or of other sources) is never what is attacked.
  echo "==> swift build -c release --product thumbforge" >&2
  swift build -c release --product thumbforge >&2 || exit 1
fi
TF=$(cd "$(dirname "$TF")" && pwd)/$(basename "$TF")
# The interpreter itself, not a wrapper (pyenv's shims are scripts): background helpers
# are then the processes whose ids are kept, and start faster.
PYTHON=$(python3 -c 'import sys; print(sys.executable)')
PY=("$PYTHON" "$ROOT/Scripts/attack/attack.py")
GEN=("$PYTHON" "$ROOT/Scripts/attack/gen.py")
# The flag for parallel renders (--jobs; --workers where the binary has it).
JOBS_FLAG=--jobs
"$TF" serve --help 2>/dev/null | grep -q -- '--workers' && JOBS_FLAG=--workers
# Our own descriptor limit, for 1 500 client sockets (the server gets 1024 in row 6).
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# Rows sign their own paths; the caller's keys must not reach unsigned servers.
unset THUMBFORGE_KEY THUMBFORGE_SALT

WORK=$(mktemp -d /tmp/thumbforge-attack.XXXXXX)
PIDS=()         # every process started: servers (or their strace), monitors, clients, nginx
MAIN_PID=$BASHPID
# descendants PID: the live processes below PID (children first). Only these are ever
# signalled at the end: a recorded id whose process has ended may already belong to
# someone else's process (pid_max is 32768 here), which must not be killed.
descendants() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}
cleanup() {
  [ "$BASHPID" = "$MAIN_PID" ] || return 0   # a subshell inheriting the trap: not its job
  local pids
  {
    pids=$(descendants "$MAIN_PID")
    [ -n "$pids" ] && kill -TERM $pids
    sleep 0.3
    pids=$(descendants "$MAIN_PID")
    [ -n "$pids" ] && kill -KILL $pids
    wait
  } 2>/dev/null
  if [ "$KEEP" = 1 ]; then echo "==> kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A copy of the binary: a rebuild during the run changes nothing here.
TF_SOURCE=$TF
mkdir -p "$WORK/bin" && cp "$TF" "$WORK/bin/thumbforge" || exit 1
TF=$WORK/bin/thumbforge

# spawn COMMAND…: runs COMMAND in the background as a process of its own (exec'd, without
# this script's traps), recorded for the cleanup; its id in SPAWNED.
spawn() {
  ( trap - EXIT INT TERM; exec "$@" ) &
  SPAWNED=$!
  PIDS+=("$SPAWNED")
}
free_port() { "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
json() { "$PYTHON" -c 'import json,sys; v=json.load(sys.stdin)
for k in sys.argv[1].split("."): v=v[k] if not isinstance(v,list) else v[int(k)]
print(v if not isinstance(v,(dict,list)) else json.dumps(v))' "$1"; }
ms() { "$PYTHON" -c "print(round(($2 - $1) * 1000))"; }
now() { date +%s.%N; }
# http PATH [PORT]: "STATUS SECONDS BYTES" of a GET; the body in $WORK/body.
http() { curl -s -o "$WORK/body" -w '%{http_code} %{time_total} %{size_download}' --max-time 30 \
  "http://127.0.0.1:${2:-$PORT}$1"; }
code() { http "$@" | cut -d' ' -f1; }
# unsafe PATH / signed PATH: the request path of an unsigned / signed server.
unsafe() { echo "/unsafe$1"; }
signed() { "${PY[@]}" sign "$1"; }
# input NAME ARGS…: a generated file in $WORK/inputs, made once (gen.py KIND PATH ARGS…).
input() {
  local name=$1; shift
  [ -f "$WORK/inputs/$name" ] || { mkdir -p "$WORK/inputs"; "${GEN[@]}" "$1" "$WORK/inputs/$name" "${@:2}"; }
  echo "$WORK/inputs/$name"
}
# folder ROW [SERVE_KEY_LINE…]: a fresh asset folder $WORK/ROW/assets with a thumbforge.yml:
# the lines of $TOP at the top level, and under serve: ad-hoc boxes on, the result cache in
# $WORK/ROW/cache, and the lines given ("timeout: 1").
TOP=
folder() {
  local dir=$WORK/$1/assets line; shift
  rm -rf "${dir%/assets}" && mkdir -p "$dir"
  {
    echo "output: ../Build/Assets.xcassets"
    [ -n "$TOP" ] && printf '%s\n' "$TOP"
    echo "serve:"
    echo "  ad-hoc: true"
    echo "  cache: ../cache"
    for line in "$@"; do echo "  $line"; done
  } >"$dir/thumbforge.yml"
  echo "$dir"
}

# ---------------------------------------------------------------- servers and monitoring
# start_server NAME FOLDER [serve options…]: `thumbforge serve` on a free port, wrapped by
# SERVE_WRAP (e.g. strace) and with SERVE_NOFILE descriptors when set; waits for /healthz,
# then polls it in the background. Sets PORT, SERVER_PID (what was started), REAL_PID (the
# server itself) and MONITOR; returns 1 with START_ERROR when the server did not start.
ROW_HEALTH_MS=0; ROW_HEALTH_FAILED=0; ROW_RSS_MB=0; ROW_DEATHS=
start_server() {
  local name=$1 dir=$2; shift 2
  PORT=$(free_port)
  SERVER_LOG=$WORK/$name.log
  (
    trap - EXIT INT TERM
    [ -n "${SERVE_NOFILE:-}" ] && ulimit -n "$SERVE_NOFILE"
    cd "$WORK" && exec ${SERVE_WRAP[@]+"${SERVE_WRAP[@]}"} "$TF" serve "$dir" --port "$PORT" "$@"
  ) 2>"$SERVER_LOG" &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  START_ERROR=
  local i
  for i in $(seq 600); do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      wait "$SERVER_PID"; local status=$?
      START_ERROR="exited $status at start: $(grep -v '^\s*$' "$SERVER_LOG" | tail -n 2 | tr '\n' ' ' | cut -c1-300)"
      return 1
    fi
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/healthz" && break
    sleep 0.1
  done
  REAL_PID=$SERVER_PID
  if [ -n "${SERVE_WRAP[*]:-}" ]; then
    REAL_PID=$(cut -d' ' -f1 "/proc/$SERVER_PID/task/$SERVER_PID/children" 2>/dev/null)
    [ -n "$REAL_PID" ] || REAL_PID=$(pgrep -P "$SERVER_PID" | head -n 1)
    # A wrapper that execs the server (row 12's cgroup) is the server.
    [ -n "$REAL_PID" ] || REAL_PID=$SERVER_PID
    PIDS+=("$REAL_PID")
  fi
  curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/healthz" \
    || { START_ERROR="no answer on /healthz after 60 s"; return 1; }
  MONITOR_FILE=$WORK/$name.monitor
  spawn "${PY[@]}" monitor --port "$PORT" --pid "$REAL_PID" --out "$MONITOR_FILE"
  MONITOR=$SPAWNED
}

# stop_server: stops the monitor and the server (SIGTERM, SIGKILL after 3 s), and folds
# the monitor's figures into the row's: worst /healthz, peak RSS, death.
stop_server() {
  # The monitor's first poll is written before it is stopped (and it has started for sure).
  for _ in $(seq 50); do [ -f "$MONITOR_FILE" ] && break; sleep 0.05; done
  kill -TERM "$MONITOR" 2>/dev/null; wait "$MONITOR" 2>/dev/null
  local died=
  if ! kill -0 "$REAL_PID" 2>/dev/null || grep -q '"alive": false' "$MONITOR_FILE" 2>/dev/null; then
    wait "$SERVER_PID" 2>/dev/null; local status=$?
    died="the server ($(basename "$SERVER_LOG" .log)) died (exit $status): $(grep -v '^\s*$' "$SERVER_LOG" | tail -n 1 | cut -c1-200)"
  else
    kill -TERM "$REAL_PID" 2>/dev/null
    for _ in $(seq 30); do kill -0 "$REAL_PID" 2>/dev/null || break; sleep 0.1; done
    # Still ours (not an ended process's id taken by another): our child, or strace's.
    descendants "$MAIN_PID" | grep -qx "$REAL_PID" && kill -KILL "$REAL_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  if [ -f "$MONITOR_FILE" ]; then
    local worst failed rss
    worst=$(json worst_ms <"$MONITOR_FILE"); failed=$(json failed <"$MONITOR_FILE")
    rss=$(($(json peak_rss_kb <"$MONITOR_FILE") / 1024))
    ROW_HEALTH_MS=$("$PYTHON" -c "print(max($ROW_HEALTH_MS, $worst))")
    ROW_HEALTH_FAILED=$((ROW_HEALTH_FAILED + failed))
    [ "$rss" -gt "$ROW_RSS_MB" ] && ROW_RSS_MB=$rss
  fi
  [ -n "$died" ] && ROW_DEATHS="$ROW_DEATHS$died; "
  MONITOR=; SERVER_PID=; REAL_PID=
}
# server_alive: whether the server still runs (for checks in the middle of a row).
server_alive() { kill -0 "$REAL_PID" 2>/dev/null; }
metric() { # NAME [PORT]: the sum of a metric's samples, or "absent"
  curl -s --max-time 5 "http://127.0.0.1:${2:-$PORT}/metrics" | awk -v name="$1" '
    $1 == name || index($1, name "{") == 1 { found = 1; sum += $NF }
    END { if (found) print sum + 0; else print "absent" }'
}

# ---------------------------------------------------------------- rows
# Each row sets VERDICT (PASS, FAIL or SKIP) and DETAIL (what was measured).
verdict() { VERDICT=$1; DETAIL=$2; }
fails=()
note_fail() { fails+=("$1"); }
finish() { # PASS-DETAIL: FAIL with the collected reasons, else PASS
  if [ ${#fails[@]} -gt 0 ]; then
    local joined= reason
    for reason in "${fails[@]}"; do joined="$joined${joined:+; }$reason"; done
    verdict FAIL "$joined [measured: $1]"
  else
    verdict PASS "$1"
  fi
}

row_1() {
  local dir png; dir=$(folder row1)
  png=$(input thin.png png 1 2000000 --grey)
  cp "$png" "$dir/Thin.png"
  start_server row1 "$dir" || { verdict FAIL "the server did not start: $START_ERROR"; return; }
  local report= path answer status
  for path in /fill/Thin@3x.png /tile/Thin@3x.png /fill/Thin@2x.png /variants/Thin@3x.png; do
    answer=$(http "$(unsafe "$path")")
    status=${answer%% *}
    report="$report ${path#/} → $status in $(echo "$answer" | awk '{printf "%d", $2 * 1000}') ms;"
    case "$path" in
      /fill/*@3x*|/tile/*) [[ "$status" =~ ^4 ]] || note_fail "${path#/} answered $status, not 4xx (413 expected): $(head -c 100 "$WORK/body")" ;;
    esac
    [[ "$status" =~ ^5|^000 ]] && note_fail "${path#/} answered $status"
  done
  server_alive || note_fail "the server is gone after the requests"
  [ "$(code /healthz)" = 200 ] || note_fail "/healthz after the requests did not answer 200"
  stop_server
  finish "master $(stat -c %s "$png") bytes;${report%;}"
}

# A slow render: the `slow` recipe (fill 1000×1000 pt with a smart crop, 3x) of a
# 2000×60000 PNG, which the catalog's plan gives it (rendered as build renders it).
slow_folder() { # ROW [SERVE_KEY_LINE…]
  local dir; dir=$(TOP='rules:
  - match: "Slow*"
    recipes: [slow]
recipes:
  slow: { kind: fill, size: [1000, 1000], gravity: attention, scales: [3], format: png }' folder "$@")
  cp "$(input slow.png png 2000 90000 --level 1)" "$dir/Slow.png"
  cp "$(input tiny.png png 8 8 --noise 7)" "$dir/Tiny.png"
  echo "$dir"
}

row_2() {
  local dir; dir=$(slow_folder row2)
  start_server row2 "$dir" "$JOBS_FLAG" 2 || { verdict FAIL "the server did not start: $START_ERROR"; return; }
  local slow_started slow_out tiny_started tiny tiny_done
  slow_started=$(now)
  ( trap - EXIT INT TERM; exec curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 60 \
      "http://127.0.0.1:$PORT$(unsafe /slow/Slow@3x.png)" >"$WORK/row2.slow" ) &
  local client=$!; PIDS+=("$client")
  sleep 0.3
  tiny_started=$(now)
  tiny=$(http "$(unsafe /fill:10x10/Tiny@1x.png)")
  tiny_done=$(now)
  wait "$client"
  local slow_status slow_s slow_end tiny_ms
  read -r slow_status slow_s <"$WORK/row2.slow"
  slow_end=$("$PYTHON" -c "print($slow_started + $slow_s)")
  tiny_ms=$(ms "$tiny_started" "$tiny_done")
  local still_running=no
  "$PYTHON" -c "import sys; sys.exit(0 if $slow_end > $tiny_done else 1)" && still_running=yes
  [ "$slow_status" = 200 ] || note_fail "the slow render answered $slow_status"
  [ "${tiny%% *}" = 200 ] || note_fail "the trivial render answered ${tiny%% *}"
  if [ "$tiny_ms" -ge 1000 ]; then
    note_fail "the trivial render took $tiny_ms ms behind the slow one (< 1000 expected)"
  else
    # A trivial render stalled behind the slow one would wait until the slow one ends: the
    # row can tell a stall from none only when that is well over 1 s after it was asked.
    local left; left=$("$PYTHON" -c "print(round($slow_end - $tiny_started, 2))")
    "$PYTHON" -c "import sys; sys.exit(0 if $left >= 1.2 else 1)" \
      || note_fail "inconclusive: the slow render ended ${left}s after the trivial one was asked (the row needs ≥ 1.2 s; it took ${slow_s}s)"
    [ "$still_running" = yes ] || note_fail "inconclusive: the slow render had finished before the trivial one"
  fi
  stop_server
  finish "slow render ${slow_status} in $(printf '%.2f' "$slow_s") s; trivial render asked 0.3 s later: ${tiny%% *} in $tiny_ms ms, slow one still running then: $still_running ($JOBS_FLAG 2)"
}

row_3() {
  local dir; dir=$(slow_folder row3 "timeout: 1")
  start_server row3 "$dir" "$JOBS_FLAG" 2 || { verdict FAIL "the server did not start: $START_ERROR"; return; }
  local answer status seconds
  answer=$(http "$(unsafe /slow/Slow@3x.png)")
  status=${answer%% *}; seconds=$(echo "$answer" | cut -d' ' -f2)
  local answered; answered=$(now)
  local at_answer; at_answer=$(metric thumbforge_renders_in_flight)
  local cancelled=absent waited=0
  while [ "$waited" -lt 2000 ]; do
    cancelled=$(metric thumbforge_renders_cancelled_total)
    [ "$cancelled" != absent ] && [ "${cancelled%.*}" -ge 1 ] 2>/dev/null && break
    sleep 0.1
    waited=$(ms "$answered" "$(now)")
  done
  local in_flight; in_flight=$(metric thumbforge_renders_in_flight)
  in_flight="$at_answer at the answer, $in_flight after $waited ms"
  [ "$status" = 503 ] || note_fail "the slow render answered $status after ${seconds}s, not 503"
  if [ "$cancelled" = absent ]; then
    note_fail "/metrics has no thumbforge_renders_cancelled_total within 2 s of the answer (renders in flight: $in_flight)"
  elif [ "${cancelled%.*}" -lt 1 ]; then
    note_fail "thumbforge_renders_cancelled_total is $cancelled 2 s after the answer (renders in flight: $in_flight)"
  fi
  stop_server
  finish "slow render → $status after ${seconds}s; thumbforge_renders_cancelled_total $cancelled after $waited ms; renders in flight: $in_flight"
}

# judge_swap MODE PHASE JSON OLD_DIR: checks each answer of attack.py swap (or of later
# GETs): 413 is right; a 200 is wrong when its pixels are the swapped-in master's colour
# (blue); it is tolerated when its bytes equal the same output's before the swap (right
# after it), and as stale when its pixels are the old master's (red) right after the swap,
# or at any time after the stealth swap (nothing tells the server that file changed). A 503
# with Retry-After (the master changed since the scan: come back after the reload) is
# tolerated right after the swap, and after the stealth swap; any other 5xx fails.
judge_swap() {
  local mode=$1 phase=$2 answers=$3 old=$4 count i path status body colour
  count=$(echo "$answers" | "$PYTHON" -c 'import json,sys; print(len(json.load(sys.stdin)))')
  for i in $(seq 0 $((count - 1))); do
    path=$(echo "$answers" | json "$i.path"); status=$(echo "$answers" | json "$i.status")
    body=$(echo "$answers" | json "$i.body")
    SWAP_REPORT="$SWAP_REPORT ${path#/unsafe/}→$status"
    case "$status" in
      413) ;;
      200)
        local key; key=$(echo "$path" | tr '/:@' '___')
        if [ "$phase" = immediate ] && [ -f "$old/$key" ] && cmp -s "$body" "$old/$key"; then
          SWAP_REPORT="$SWAP_REPORT(old bytes)"
          continue
        fi
        local size; size=$(vipsheader -f width "$body" 2>/dev/null)x$(vipsheader -f height "$body" 2>/dev/null)
        colour=$(vips getpoint "$body" 0 0 2>/dev/null | awk '{print $1 " " $2 " " $3}')
        case "$colour" in
          "0 0 255") note_fail "$mode swap, $phase: $path answered 200 with a render of the swapped-in 2000×2000 master ($size, its colour)" ;;
          "255 0 0")
            if [ "$phase" = immediate ] || [ "$mode" = stealth ]; then
              SWAP_REPORT="$SWAP_REPORT(stale: the old master's pixels, $size)"
            else
              note_fail "$mode swap, $phase: $path answered 200 from the replaced master's pixels, though the reload had run ($size)"
            fi ;;
          *) note_fail "$mode swap, $phase: $path answered 200 with unexpected pixels '$colour' ($size)" ;;
        esac ;;
      503)
        local retry; retry=$(echo "$answers" | json "$i.retry_after" 2>/dev/null)
        if [ -n "$retry" ] && [ "$retry" != None ] && { [ "$phase" = immediate ] || [ "$mode" = stealth ]; }; then
          SWAP_REPORT="$SWAP_REPORT(Retry-After: $retry)"
        else
          note_fail "$mode swap, $phase: $path answered 503 (Retry-After: ${retry:-none})"
        fi ;;
      5*|000|error*) note_fail "$mode swap, $phase: $path answered $status" ;;
      *)
        local text=$body
        [ -f "$body" ] && text=$(head -c 100 "$body")
        note_fail "$mode swap, $phase: $path answered $status, not 413: $text" ;;
    esac
  done
}

row_4() {
  local dir; dir=$(TOP="limit-input-pixels: 1000000" folder row4)
  local name
  # Two masters of 600×600 red pixels, each padded to 64 KB.
  for name in Swap Stealth; do
    "${GEN[@]}" png "$dir/$name.png" 600 600 --colour FF0000 --pad-to 65536
  done
  touch -d '-1 hour' "$dir/Swap.png" "$dir/Stealth.png"
  start_server row4 "$dir" || { verdict FAIL "the server did not start: $START_ERROR"; return; }
  local old=$WORK/row4-old; mkdir -p "$old"
  for name in Swap Stealth; do
    local path; path=$(unsafe "/fill:100x100/$name@1x.png")
    [ "$(code "$path")" = 200 ] || note_fail "before the swap, $path answered $(code "$path")"
    cp "$WORK/body" "$old/$(echo "$path" | tr '/:@' '___')"
  done
  SWAP_REPORT=
  local mode replacement answers
  for mode in plain stealth; do
    name=Swap; [ $mode = stealth ] && name=Stealth
    replacement=$WORK/row4-$name-new.png
    if [ $mode = plain ]; then
      "${GEN[@]}" png "$replacement" 2000 2000 --colour 0000FF
    else
      # Same size and modification time as the master it replaces.
      "${GEN[@]}" png "$replacement" 2000 2000 --colour 0000FF --pad-to "$(stat -c %s "$dir/$name.png")"
      touch -r "$dir/$name.png" "$replacement"
    fi
    SWAP_REPORT="$SWAP_REPORT $mode swap, at once:"
    answers=$("${PY[@]}" swap --port "$PORT" --master "$dir/$name.png" --replacement "$replacement" \
      --save "$WORK" "$(unsafe "/fill:100x100/$name@1x.png")" "$(unsafe "/fill:120x120/$name@1x.png")" \
      "$(unsafe "/variants/$name@3x.png")" "$(unsafe "/variants/$name@2x.png")")
    local first_ms; first_ms=$(echo "$answers" | json 0.after_swap_ms)
    mkdir -p "$WORK/row4-$mode"
    # Keep the saved bodies apart (the next swap reuses the names).
    answers=$(echo "$answers" | "$PYTHON" -c '
import json, os, shutil, sys
answers = json.load(sys.stdin)
for a in answers:
    if a["status"] == 200:
        moved = os.path.join(sys.argv[1], os.path.basename(a["body"]))
        shutil.move(a["body"], moved)
        a["body"] = moved
print(json.dumps(answers))' "$WORK/row4-$mode")
    judge_swap $mode immediate "$answers" "$old"
    SWAP_REPORT="$SWAP_REPORT (first answer ${first_ms} ms after the rename); after 2 s:"
    sleep 2
    local later=() path
    for path in "/fill:100x100/$name@1x.png" "/fill:140x140/$name@1x.png" "/variants/$name@3x.png" "/variants/$name@1x.png"; do
      local saved=$WORK/row4-$mode/later-$(echo "$path" | tr '/:@' '___')
      local answer; answer=$(curl -s -o "$saved" -D "$saved.headers" -w '%{http_code}' --max-time 30 \
        "http://127.0.0.1:$PORT$(unsafe "$path")")
      local retry; retry=$(tr -d '\r' <"$saved.headers" | awk -F': ' 'tolower($1) == "retry-after" { print $2 }')
      later+=("{\"path\": \"$(unsafe "$path")\", \"status\": $answer, \"body\": \"$saved\", \"retry_after\": \"$retry\"}")
    done
    judge_swap $mode "after 2 s" "[$(IFS=,; echo "${later[*]}")]" "$old"
    SWAP_REPORT="$SWAP_REPORT;"
  done
  server_alive || note_fail "the server is gone"
  stop_server
  finish "${SWAP_REPORT% ;}"
}

row_5() {
  local dir; dir=$(folder row5 "untrusted-sources: true")
  local secret=$WORK/attack-secret.png
  "${GEN[@]}" png "$secret" 16 16 --colour 00FF00
  "${GEN[@]}" svg "$dir/Evil.svg" "file://$secret"
  "${GEN[@]}" bmp "$dir/Fake.png" 64 48
  "${GEN[@]}" png "$dir/Plain.png" 64 64 --noise 5
  local traced=no
  SERVE_WRAP=()
  if command -v strace >/dev/null; then
    SERVE_WRAP=(strace -f -y -e trace=open,openat -o "$WORK/row5.strace")
    traced=yes
  fi
  start_server row5 "$dir"; local started=$?
  SERVE_WRAP=()
  [ $started = 0 ] || { verdict FAIL "the server did not start: $START_ERROR"; return; }
  local report= path status
  for path in /variants/Evil@2x.png /fill/Evil@2x.png /fill:64x64/Evil@1x.png \
    /variants/Fake@2x.png /fill/Fake@1x.png /fill:64x64/Fake@1x.png; do
    status=$(code "$(unsafe "$path")")
    report="$report ${path#/}→$status"
    [[ "$status" =~ ^4 ]] || note_fail "${path#/} answered $status, not 4xx"
  done
  local control; control=$(code "$(unsafe /fill/Plain@1x.png)")
  report="$report; control fill/Plain@1x.png→$control"
  [ "$control" = 200 ] || note_fail "the plain PNG answered $control (the server does not render at all?)"
  stop_server
  if [ $traced = yes ]; then
    local opens outside attempted secret_hits libdirs
    # The folders of the binary's own shared libraries (a debug build links the Swift
    # runtime from the toolchain's folder).
    mapfile -t libdirs < <(ldd "$TF" 2>/dev/null | awk '$3 ~ /^\// { sub(/[^\/]*$/, "", $3); print $3 }' | sort -u)
    opens=$("${PY[@]}" opens "$WORK/row5.strace" --secret "$secret" --allow "$dir/" "$WORK/row5/cache/" \
      /usr/ /lib/ /lib64/ /lib32/ /etc/ld.so. /proc/ /sys/ /dev/ /etc/fonts/ /etc/localtime \
      /etc/nsswitch.conf /etc/hosts /etc/host.conf /etc/gai.conf /etc/resolv.conf /etc/passwd \
      /etc/group /var/cache/fontconfig/ "$TF" "${libdirs[@]}")
    outside=$(echo "$opens" | json opened_outside)
    attempted=$(echo "$opens" | json attempted_outside | "$PYTHON" -c 'import json,sys; print(len(json.load(sys.stdin)))')
    secret_hits=$(echo "$opens" | json secret)
    report="$report; strace: $(echo "$opens" | json calls) opens, outside the folder/cache/system: $outside (plus $attempted failed attempts)"
    local why=
    [[ "$outside" == *ImageMagick* ]] && why=" (ImageMagick's configuration: its loader, an untrusted one, ran on a master)"
    [ "$outside" = "[]" ] || note_fail "files outside the folder, the cache and the system's were opened: $outside$why"
    [ "$secret_hits" = "[]" ] && report="$report, the outside file never" \
      || note_fail "the file outside the folder was opened: $secret_hits"
  else
    report="$report; strace not installed: opened files not checked"
  fi
  finish "${report# }"
}

row_6() {
  local dir; dir=$(folder row6)
  SERVE_NOFILE=1024
  start_server row6 "$dir"; local started=$?
  SERVE_NOFILE=
  [ $started = 0 ] || { verdict FAIL "the server did not start: $START_ERROR"; return; }
  local own; own=$(ulimit -n)
  local count=1500
  [ "$own" -lt 1600 ] && count=$((own - 100))
  local result
  result=$("${PY[@]}" slowloris --port "$PORT" --count "$count" --trickle 100 --hold 15)
  local established open stalled trickling health_ms health_failed
  established=$(echo "$result" | json established)
  open=$(echo "$result" | json still_open)
  stalled=$(echo "$result" | json still_open_stalled)
  trickling=$(echo "$result" | json still_open_trickling)
  health_ms=$(echo "$result" | json healthz.worst_ms)
  health_failed=$(echo "$result" | json healthz.failed)
  local limit=$((established / 100))
  [ "$open" -le "$limit" ] || note_fail "$open of $established connections still open after 15 s ($stalled stalled, $trickling trickling; open after 5 s: $(echo "$result" | json open_after_5s), after 10 s: $(echo "$result" | json open_after_10s))"
  "$PYTHON" -c "import sys; sys.exit(0 if $health_ms <= 1000 and $health_failed == 0 else 1)" \
    || note_fail "/healthz during the attack: worst $health_ms ms, $health_failed failed of $(echo "$result" | json healthz.polls) ($(echo "$result" | json healthz.statuses))"
  server_alive || note_fail "the server is gone"
  stop_server
  finish "$count connections (server ulimit -n 1024), $established established ($(echo "$result" | json unestablished) never accepted by the kernel); still open after 15 s: $open ($stalled stalled, $trickling of $(echo "$result" | json trickling) trickling); /healthz meanwhile worst $health_ms ms, $health_failed failed"
}

row_7() {
  local dir; dir=$(folder row7)
  cp "$(input noise-4000.png png 4000 4000 --noise 11)" "$dir/Big.png"
  start_server row7 "$dir" || { verdict FAIL "the server did not start: $START_ERROR"; return; }
  local path; path=$(unsafe /fit:1000x1000/Big@3x.png)
  local warm; warm=$(http "$path")
  [ "${warm%% *}" = 200 ] || { note_fail "the output answered ${warm%% *}"; stop_server; finish "$warm"; return; }
  local size=${warm##* }
  local before_rss; before_rss=$(($(awk '/VmHWM/ {print $2}' "/proc/$REAL_PID/status") / 1024))
  local result; result=$("${PY[@]}" slowread --port "$PORT" --path "$path" --clients 50 --rate 1024 --seconds 12)
  local current; current=$(($(awk '/VmRSS/ {print $2}' "/proc/$REAL_PID/status" 2>/dev/null || echo 0) / 1024))
  server_alive || note_fail "the server is gone"
  stop_server
  [ "$ROW_RSS_MB" -lt 600 ] || note_fail "peak RSS $ROW_RSS_MB MB with 50 slow readers (< 600 expected; $before_rss MB before them, $current MB at their end)"
  [ "$ROW_RSS_MB" -lt $((before_rss + 100)) ] || note_fail "the 50 slow readers added $((ROW_RSS_MB - before_rss)) MB to the peak RSS (< 100 MB expected: about a chunk and a write buffer each; $before_rss MB before them, $current MB at their end)"
  [ "$(echo "$result" | json statuses)" = '{"200": 50}' ] || note_fail "the readers got $(echo "$result" | json statuses) ($(echo "$result" | json errors))"
  finish "output $((size / 1048576)) MB ($size bytes); 50 readers at 1 KB/s for 12 s: $(echo "$result" | json statuses), read $(echo "$result" | json read_min)–$(echo "$result" | json read_max) bytes each; RSS $before_rss MB before them, $current MB at their end, peak $ROW_RSS_MB MB"
}

row_8() {
  # The outputs are over the default serve.max-output-pixels (they would all be 413): raised,
  # so that the memory budget is what bounds the flood. One render is estimated at about
  # 570 MB by the README's model (8 B × 36 MP + 12 B × 20–26 MP): one at a time fits.
  local dir; dir=$(folder row8 "memory-budget: 1024" "max-output-pixels: 30000000" "queue: 16" "timeout: 15")
  local i
  # Large in pixels, small on disk: 6000×6000 RGBA masters of one colour each (144 MB
  # decoded), fit boxes of 1500–1699 pt at 3x (outputs of 20–26 MP).
  local colours=(C04040 40C040 4040C0 C0C040)
  for i in 1 2 3 4; do
    cp "$(input "large-rgba-$i.png" png 6000 6000 --alpha --colour "${colours[$((i - 1))]}")" "$dir/Big$i.png"
  done
  "$PYTHON" - "$WORK/row8.paths" <<'EOF'
import sys
with open(sys.argv[1], "w") as out:
    for i in range(200):
        out.write(f"/unsafe/fit:{1500 + i}x{1500 + i}/Big{1 + i % 4}@3x.png\n")
EOF
  local budget=1024 note=
  # 8 render workers: without a memory budget, as many large renders at once as that.
  if ! start_server row8 "$dir" "$JOBS_FLAG" 8; then
    note_fail "the server did not start with serve.memory-budget: $budget: $START_ERROR"
    # Still measured without the key, for the record.
    sed -i '/memory-budget/d' "$dir/thumbforge.yml"
    start_server row8-nobudget "$dir" "$JOBS_FLAG" 8 || { verdict FAIL "${fails[*]}; without the key it did not start either: $START_ERROR"; return; }
    note=" (measured without serve.memory-budget, which the binary refused)"
  fi
  local result; result=$("${PY[@]}" flood --port "$PORT" --paths "$WORK/row8.paths" --timeout 45)
  local statuses; statuses=$(echo "$result" | json statuses)
  echo "$statuses" | "$PYTHON" -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if set(s) <= {"200","429","503"} else 1)' \
    || note_fail "answers other than 200/429/503: $statuses"
  server_alive || note_fail "the server is gone after the flood"
  stop_server
  [ "$ROW_RSS_MB" -lt $((budget + 150)) ] || note_fail "peak RSS $ROW_RSS_MB MB (< $((budget + 150)) expected)$note"
  finish "200 concurrent distinct renders (fit 1500–1699 pt at 3x of four 6000×6000 RGBA PNGs, $JOBS_FLAG 8, queue 16, timeout 15 s): $statuses, slowest answer after $(echo "$result" | json slowest_s) s; peak RSS $ROW_RSS_MB MB$note"
}

row_9() {
  local report=
  # ---- (a) (b) (d): one signed server
  local dir; dir=$(folder row9)
  "${GEN[@]}" png "$dir/Secret-Plan.png" 300 200 --noise 31
  "${GEN[@]}" png "$dir/Small@1x.png" 40 40 --noise 32
  local nfc nfd
  nfc=$("$PYTHON" -c 'print("Caf\u00e9")'); nfd=$("$PYTHON" -c 'print("Cre\u0300me")')
  "${GEN[@]}" png "$dir/$nfc.png" 120 90 --noise 33
  "${GEN[@]}" png "$dir/$nfd.png" 120 90 --noise 34
  THUMBFORGE_KEY=$("$PYTHON" -c 'import secrets; print(secrets.token_hex(32))')
  THUMBFORGE_SALT=$("$PYTHON" -c 'import secrets; print(secrets.token_hex(16))')
  export THUMBFORGE_KEY THUMBFORGE_SALT
  if start_server row9 "$dir"; then
    # (a)
    local sizes names path status leaks=
    sizes=$(stat -c %s "$dir"/*.png | tr '\n' ' ')
    for path in /fill/No-Such-Asset@2x.png /fill/Secret-Pla@2x.png /fill/secret-plan@2x.png \
      /fill/Secret-Plan.png@2x.png /variants/Small@3x.png /variants/Secret-Plan~dark@2x.png; do
      status=$(code "$(signed "$path")")
      report="$report ${path#/}→$status"
      [ "$status" = 404 ] || continue
      local body; body=$(cat "$WORK/body")
      local file
      for file in "$dir"/*.png "$dir"/*.yml; do
        file=$(basename "$file")
        # A name the request itself carries is only echoed back.
        [[ "$path" == *"$file"* ]] && continue
        [[ "$body" == *"$file"* ]] && leaks="$leaks $path names '$file': '$body';"
      done
      local size
      for size in $sizes; do [[ "$body" == *"$size"* ]] && leaks="$leaks $path gives the byte size $size: '$body';"; done
      echo "$body" | grep -qiE '[0-9]+ ?(bytes|B|KB|KiB|MB|MiB)\b' && leaks="$leaks $path has a size: '$body';"
      [[ "$body" == *"$WORK"* || "$body" == *"/tmp/"* ]] && leaks="$leaks $path has a path: '$body';"
    done
    [ -z "$leaks" ] || note_fail "(a)${leaks%;}"
    # (b)
    local good sig rest
    good=$(signed /fill/Secret-Plan@2x.png)
    sig=${good#/}; sig=${sig%%/*}; rest=${good#/"$sig"}
    local plain padded encoded char index
    plain=$(code "$good")
    padded=$(code "/$sig=$rest")
    index=$("$PYTHON" -c 'import sys; s=sys.argv[1]; print(next((i for i,c in enumerate(s) if c in "-_"), 0))' "$sig")
    char=${sig:$index:1}
    encoded=$(code "/${sig:0:$index}%$(printf '%02X' "'$char")${sig:$((index + 1))}$rest")
    # 43 Base64 characters carry 258 bits for the 256 of the MAC: the last one has two
    # unused bits, so three other spellings decode to the same bytes.
    local twin twin_code
    twin=$("$PYTHON" -c 'import sys; a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
s = sys.argv[1]; print(s[:-1] + a[a.index(s[-1]) ^ 1])' "$sig")
    twin_code=$(code "/$twin$rest")
    report="$report; (b) signed $plain, with '=' $padded, with '$char' as %$(printf '%02X' "'$char") $encoded, with the last character's unused bit set ('${sig: -1}' → '${twin: -1}') $twin_code"
    [ "$plain" = 200 ] || note_fail "(b) the correctly signed path answered $plain"
    [ "$padded" = 403 ] || note_fail "(b) the signature with '=' added answered $padded, not 403"
    [ "$encoded" = 403 ] || note_fail "(b) the signature with '$char' as %$(printf '%02X' "'$char") answered $encoded, not 403"
    [ "$twin_code" = 403 ] || note_fail "(b) the signature with its last character '${sig: -1}' as '${twin: -1}' (same bytes, non-canonical Base64) answered $twin_code, not 403"
    # (d)
    local spellings=() pct
    for name in "$nfc" "$nfd"; do
      for form in NFC NFD; do
        pct=$("$PYTHON" -c 'import sys, unicodedata, urllib.parse; print(urllib.parse.quote(unicodedata.normalize(sys.argv[2], sys.argv[1])))' "$name" "$form")
        spellings+=("$form:$pct")
      done
    done
    local round answers=
    for round in before after; do
      if [ $round = after ]; then
        touch "$dir/Small@1x.png"; sleep 2.5
      fi
      local spelling hashes=() line=
      for spelling in "${spellings[@]}"; do
        status=$(code "$(signed "/fill/${spelling#*:}@2x.png")")
        hashes+=("$status:$(sha256sum "$WORK/body" | cut -c1-12)")
        line="$line ${spelling%%:*}→$status"
      done
      answers="$answers $round reload:$line;"
      [ "${hashes[0]}" = "${hashes[1]}" ] && [ "${hashes[2]}" = "${hashes[3]}" ] \
        || note_fail "(d) $round the reload, NFC and NFD spellings differ (${hashes[*]})"
      for spelling in "${hashes[@]}"; do
        [ "${spelling%%:*}" = 200 ] || { note_fail "(d) $round the reload, a spelling answered ${spelling%%:*} (Café on disk NFC, Crème NFD: ${hashes[*]})"; break; }
      done
    done
    report="$report; (d) Café (NFC on disk), Crème (NFD on disk), each asked NFC and NFD:${answers%;}"
    stop_server
  else
    note_fail "(a, b, d) the signed server did not start: $START_ERROR"
  fi
  # ---- (c): a 1-byte key
  local cdir; cdir=$(folder row9c)
  THUMBFORGE_KEY=01 THUMBFORGE_SALT=01
  if start_server row9c "$cdir"; then
    note_fail "(c) THUMBFORGE_KEY=01 (1 byte) was accepted: the server started and answers /healthz"
    report="$report; (c) 1-byte key: started"
    stop_server
  else
    report="$report; (c) 1-byte key: ${START_ERROR:0:160}"
    grep -q '32 bytes' "$SERVER_LOG" || note_fail "(c) the refusal does not mention 32 bytes: $(tail -n 1 "$SERVER_LOG")"
  fi
  unset THUMBFORGE_KEY THUMBFORGE_SALT
  # ---- (e): 300 small renders into a 1 MB cache
  local edir; edir=$(folder row9e "cache-size: 1")
  cp "$(input tiny.png png 8 8 --noise 7)" "$edir/Tiny.png"
  if start_server row9e "$edir"; then
    local i bad=0 total=0
    for i in $(seq 300); do
      answer=$(http "$(unsafe "/fill:$((i % 50 + 1))x$((i / 50 + 1))/Tiny@1x.png")")
      [ "${answer%% *}" = 200 ] || bad=$((bad + 1))
      total=$((total + ${answer##* }))
    done
    local du files cache_bytes
    du=$(du -sk "$WORK/row9e/cache" | cut -f1)
    files=$(find "$WORK/row9e/cache" -type f | wc -l)
    cache_bytes=$(metric thumbforge_cache_bytes)
    report="$report; (e) 300 renders ($bad not 200, $total bytes sent): cache folder du -sk $du KB, $files files, thumbforge_cache_bytes $cache_bytes"
    [ "$du" -le 1126 ] || note_fail "(e) du -sk of the 1 MB cache is $du KB after 300 small renders ($files files, thumbforge_cache_bytes $cache_bytes)"
    stop_server
  else
    note_fail "(e) the server did not start: $START_ERROR"
  fi
  finish "(a)${report# }"
}

row_10() {
  local nginx; nginx=$(command -v nginx || echo /usr/sbin/nginx)
  if [ ! -x "$nginx" ]; then
    if command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
      echo "==> installing nginx with apt-get" >&2
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; } >/dev/null 2>&1
    fi
    nginx=$(command -v nginx || echo /usr/sbin/nginx)
    [ -x "$nginx" ] || { verdict SKIP "nginx is not installed and could not be installed"; return; }
  fi
  local dir; dir=$(folder row10)
  cp "$(input tiny.png png 8 8 --noise 7)" "$dir/Tiny.png"
  THUMBFORGE_KEY=$("$PYTHON" -c 'import secrets; print(secrets.token_hex(32))')
  THUMBFORGE_SALT=$("$PYTHON" -c 'import secrets; print(secrets.token_hex(16))')
  export THUMBFORGE_KEY THUMBFORGE_SALT
  start_server row10 "$dir" || { unset THUMBFORGE_KEY THUMBFORGE_SALT; verdict FAIL "the server did not start: $START_ERROR"; return; }
  local n=$WORK/nginx lb_port; lb_port=$(free_port)
  mkdir -p "$n/tmp" "$n/cache"
  sed -e "s|server 127.0.0.1:8081 |server 127.0.0.1:$PORT |" \
    -e "s|server 127.0.0.1:8082 |server 127.0.0.1:$PORT |" \
    -e "s|^\( *\)listen 80;|\1listen 127.0.0.1:$lb_port;|" \
    -e "s|/var/cache/nginx/thumbforge|$n/cache|" \
    -e "s|/var/log/nginx/thumbforge.access.log|$n/access.log|" \
    Examples/nginx/thumbforge.conf >"$n/thumbforge.conf"
  local user_line=
  [ "$(id -u)" -eq 0 ] && user_line="user root root;"
  cat >"$n/nginx.conf" <<EOF
$user_line
daemon off;
worker_processes 1;
pid $n/nginx.pid;
error_log $n/error.log notice;
events { worker_connections 256; }
http {
    default_type application/octet-stream;
    client_body_temp_path $n/tmp/body;
    proxy_temp_path $n/tmp/proxy;
    fastcgi_temp_path $n/tmp/fastcgi;
    uwsgi_temp_path $n/tmp/uwsgi;
    scgi_temp_path $n/tmp/scgi;
    include $n/thumbforge.conf;
}
EOF
  spawn "$nginx" -p "$n/" -c "$n/nginx.conf" -e "$n/error.log"
  local nginx_pid=$SPAWNED
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$lb_port/healthz" && break; sleep 0.1; done
  local report= path status before after
  # Requests the replica logged, but the monitor's /healthz.
  replica_requests() { grep ' GET /' "$SERVER_LOG" | grep -vc ' GET /healthz '; }
  before=$(replica_requests)
  for path in /unsafe/fill/Tiny@1x.png / /metrics /readyz; do
    status=$(code "$path" "$lb_port")
    report="$report $path→$status"
    [ "$status" = 404 ] || note_fail "$path through nginx answered $status, not 404"
    [ "$status" = 404 ] && ! grep -q '<center>nginx' "$WORK/body" && note_fail "the 404 of $path is not nginx's own: $(head -c 80 "$WORK/body")"
  done
  sleep 0.2
  after=$(replica_requests)
  [ "$after" = "$before" ] || note_fail "$((after - before)) of them reached the replica"
  status=$(code "$(signed /fill/Tiny@1x.png)" "$lb_port")
  report="$report; signed fill/Tiny@1x.png→$status"
  [ "$status" = 200 ] || note_fail "the signed path through nginx answered $status, not 200"
  kill -QUIT "$nginx_pid" 2>/dev/null; wait "$nginx_pid" 2>/dev/null
  stop_server
  unset THUMBFORGE_KEY THUMBFORGE_SALT
  finish "nginx $("$nginx" -v 2>&1 | sed 's|.*/||'):${report}; reached the replica: $((after - before))"
}

row_12() {
  # The Kubernetes example's pod: 1.5 GiB, 2 render workers, every serve setting at its
  # default, so serve.memory-budget comes from the cgroup (half the limit less
  # decoded-cache: 512 MB). A flood of the largest renders that budget admits from
  # 6000×6000 RGBA masters: outputs of 5.5–7.3 MP, each estimated at up to 492 MB by the
  # README's model (8 B × 36 MP + 28 B × 7.3 MP), so one at a time; larger ones are 413.
  local root=/sys/fs/cgroup/memory cg
  cg=$root/thumbforge-attack-$$
  if [ ! -w "$root" ] || ! mkdir "$cg" 2>/dev/null; then
    verdict SKIP "no writable cgroup v1 memory controller at $root"
    return
  fi
  local limit=$((1536 * 1048576))
  echo "$limit" >"$cg/memory.limit_in_bytes"
  [ -w "$cg/memory.memsw.limit_in_bytes" ] && echo "$limit" >"$cg/memory.memsw.limit_in_bytes"
  local dir; dir=$(folder row12 "queue: 16" "timeout: 30")
  local i colours=(C04040 40C040 4040C0 C0C040)
  for i in 1 2 3 4; do
    cp "$(input "large-rgba-$i.png" png 6000 6000 --alpha --colour "${colours[$((i - 1))]}")" "$dir/Big$i.png"
  done
  "$PYTHON" -c '
import sys
with open(sys.argv[1], "w") as out:
    for i in range(120):
        out.write(f"/unsafe/fit:{900 - i}x{900 - i}/Big{1 + i % 4}@3x.png\n")
' "$WORK/row12.paths"
  SERVE_WRAP=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg")
  if ! start_server row12 "$dir" "$JOBS_FLAG" 2; then
    SERVE_WRAP=()
    rmdir "$cg" 2>/dev/null
    verdict FAIL "the server did not start in a 1.5 GiB cgroup: $START_ERROR"
    return
  fi
  SERVE_WRAP=()
  local result; result=$("${PY[@]}" flood --port "$PORT" --paths "$WORK/row12.paths" --timeout 60)
  local statuses; statuses=$(echo "$result" | json statuses)
  local budget; budget=$(metric thumbforge_render_memory_budget_bytes)
  echo "$statuses" | "$PYTHON" -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if set(s) <= {"200","429","503"} and "200" in s else 1)' \
    || note_fail "answers other than 200/429/503 (or no 200 at all): $statuses"
  server_alive || note_fail "the server is gone after the flood (OOM-killed?)"
  local peak oom
  peak=$(($(cat "$cg/memory.max_usage_in_bytes") / 1048576))
  oom=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.oom_control" 2>/dev/null)
  stop_server
  rmdir "$cg" 2>/dev/null
  [ "${oom:-0}" = 0 ] || note_fail "the cgroup's OOM killer ran ($oom)"
  [ "$ROW_RSS_MB" -lt 1536 ] || note_fail "peak RSS $ROW_RSS_MB MB, over the pod's 1536 MB"
  finish "120 concurrent renders of 5.5–7.3 MP outputs in a 1.5 GiB cgroup, $JOBS_FLAG 2, defaults (budget $(( ${budget%.*} / 1048576 )) MB from the cgroup): $statuses; cgroup peak (RSS and page cache) $peak MB, OOM kills ${oom:-?}"
}

row_11() {
  local dir; dir=$(folder row11)
  local metrics_port; metrics_port=$(free_port)
  start_server row11 "$dir" --metrics-port "$metrics_port" --metrics-host 127.0.0.1 \
    || { verdict FAIL "the server did not start with --metrics-port $metrics_port --metrics-host 127.0.0.1: $START_ERROR"; return; }
  local public private lines
  public=$(code /metrics)
  private=$(code /metrics "$metrics_port")
  lines=$(grep -c '^thumbforge_' "$WORK/body" || true)
  [ "$public" = 404 ] || note_fail "/metrics on the public port answered $public, not 404"
  [ "$private" = 200 ] && [ "$lines" -gt 0 ] || note_fail "/metrics on the metrics port answered $private with $lines thumbforge_ lines"
  stop_server
  finish "/metrics: public port $public, metrics port $private ($lines thumbforge_ lines)"
}

# ---------------------------------------------------------------- run
TITLES=(
  ""
  "1x2000000 PNG through fill/tile @3x"
  "no global stall behind a slow render"
  "render past serve.timeout is cancelled"
  "master swapped after start"
  "untrusted-sources: SVG href, BMP as .png"
  "slowloris, 1500 connections"
  "50 slow readers of a large output"
  "flood of 200 large renders"
  "small leaks (404 bodies, signatures, key, NFC/NFD, cache du)"
  "nginx example: only signed paths"
  "--metrics-port"
  "Kubernetes example's memory limit under a flood"
)
PASSED=0; FAILED=0; SKIPPED=0
RUN_HEALTH_MS=0; RUN_HEALTH_ROW=-; RUN_RSS_MB=0; RUN_RSS_ROW=-
echo "==> $TF_SOURCE ($("$TF" --version 2>/dev/null)), temporary folder $WORK" >&2
for row in 1 2 3 4 5 6 7 8 9 10 11 12; do
  [ -n "$ONLY" ] && [[ "$ONLY" != *",$row,"* ]] && continue
  echo "==> row $row: ${TITLES[$row]}" >&2
  ROW_HEALTH_MS=0; ROW_HEALTH_FAILED=0; ROW_RSS_MB=0; ROW_DEATHS=; fails=(); MONITOR=
  started=$(now)
  "row_$row"
  [ -n "$MONITOR" ] && stop_server   # a row that returned early
  if [ "$VERDICT" != SKIP ]; then
    extra=
    "$PYTHON" -c "import sys; sys.exit(0 if $ROW_HEALTH_MS <= 1000 else 1)" \
      || extra="$extra; /healthz took $ROW_HEALTH_MS ms (> 1000)"
    [ "$ROW_HEALTH_FAILED" -gt 0 ] && extra="$extra; $ROW_HEALTH_FAILED /healthz polls failed"
    [ -n "$ROW_DEATHS" ] && extra="$extra; ${ROW_DEATHS%; }"
    if [ -n "$extra" ]; then
      [ "$VERDICT" = PASS ] && DETAIL="[measured: $DETAIL]" && extra=${extra#; }
      VERDICT=FAIL; DETAIL="${extra}${extra:+; }$DETAIL"
      DETAIL=${DETAIL#; }
    fi
    DETAIL="$DETAIL | /healthz worst $ROW_HEALTH_MS ms, peak RSS $ROW_RSS_MB MB, $(ms "$started" "$(now)" | awk '{printf "%.1f", $1 / 1000}') s"
    "$PYTHON" -c "import sys; sys.exit(0 if $ROW_HEALTH_MS > $RUN_HEALTH_MS else 1)" \
      && RUN_HEALTH_MS=$ROW_HEALTH_MS && RUN_HEALTH_ROW=$row
    [ "$ROW_RSS_MB" -gt "$RUN_RSS_MB" ] && RUN_RSS_MB=$ROW_RSS_MB && RUN_RSS_ROW=$row
  fi
  case "$VERDICT" in
    PASS) PASSED=$((PASSED + 1)); printf 'row %-2s %-58s PASS  %s\n' "$row" "${TITLES[$row]}" "$DETAIL" ;;
    FAIL) FAILED=$((FAILED + 1)); printf 'row %-2s %-58s FAIL  %s\n' "$row" "${TITLES[$row]}" "$DETAIL" ;;
    SKIP) SKIPPED=$((SKIPPED + 1)); printf 'row %-2s %-58s SKIP (%s)\n' "$row" "${TITLES[$row]}" "$DETAIL" ;;
  esac
done
echo "attack: /healthz worst $RUN_HEALTH_MS ms (row $RUN_HEALTH_ROW); peak RSS $RUN_RSS_MB MB (row $RUN_RSS_ROW)"
echo "attack: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" = 0 ]
