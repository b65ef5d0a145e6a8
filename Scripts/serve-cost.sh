#!/usr/bin/env bash
# What one warm `serve` answer costs in CPU instructions, for the current build and the
# baseline of the last `Scripts/loadtest.sh --baseline REV`, counted by callgrind.
#
#   Scripts/serve-cost.sh [--connections "4 64"] [--duration S]
#
# Throughput on a shared 2-core machine varies widely between runs; instructions per
# request barely do, so a change's cost to the warm path is
# measured here. Runs each server under valgrind's callgrind on the load test's folder and
# warm paths (run Scripts/loadtest.sh --baseline REV first: it builds both binaries and
# writes the folder), answers each path once, zeroes the counters, drives it with wrk for
# S seconds (default 10) at each connection count, and divides the instructions the server
# executed by the requests answered. Installs valgrind with apt-get when it is missing.
# Results: bench-work/serve-cost.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. Scripts/lib.sh
CONNECTIONS="4 64"
DURATION=10
while [ $# -gt 0 ]; do
  case "$1" in
    --connections) CONNECTIONS=$2; shift ;;
    --duration) DURATION=$2; shift ;;
    -h|--help) script_help "$0"; exit 0 ;;
    *) echo "serve-cost.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

WORK=$ROOT/bench-work/loadtest
CURRENT=$ROOT/.build-bench/release/thumbforge
BASELINE=$ROOT/.build-bench-baseline/release/thumbforge
for needed in "$CURRENT" "$BASELINE" "$WORK/Assets/thumbforge.yml" "$WORK/paths/warm-serve.txt"; do
  [ -e "$needed" ] || {
    echo "serve-cost.sh: $needed is missing: run Scripts/loadtest.sh --baseline REV first" >&2
    exit 1
  }
done
command -v valgrind >/dev/null || apt_install valgrind

OUT=$ROOT/bench-work/serve-cost
rm -rf "$OUT" && mkdir -p "$OUT"
# Debian's valgrind 3.19 cannot read Swift 6's DWARF 5: count on copies without debug info.
objcopy --strip-debug "$CURRENT" "$OUT/serve.bin"
objcopy --strip-debug "$BASELINE" "$OUT/baseline.bin"

# Prints "REQUESTS INSTRUCTIONS" for one server: BINARY PORT CONNECTIONS LABEL.
measure() {
  local binary=$1 port=$2 connections=$3 label=$4
  rm -rf "$WORK/serve-cache"
  (cd "$WORK" && exec valgrind --tool=callgrind --callgrind-out-file="$OUT/$label.%p" \
    "$binary" serve Assets --port "$port" >/dev/null 2>"$OUT/$label.log") &
  local pid=$!
  wait_http "$port" /healthz 600 0.2 || true
  while read -r path; do curl -s -o /dev/null "http://127.0.0.1:$port$path"; done \
    <"$WORK/paths/warm-serve.txt"
  # `exec`: the subshell's process is valgrind's, which runs the server in itself.
  callgrind_control -z "$pid" >/dev/null 2>&1
  PATHS=$WORK/paths/warm-serve.txt THREADS=1 wrk -t1 -c"$connections" -d"${DURATION}s" \
    -s Scripts/loadtest/paths.lua "http://127.0.0.1:$port" | tail -n 1 >"$OUT/$label.wrk"
  callgrind_control -d "$pid" >/dev/null 2>&1
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  local dump
  dump=$(ls "$OUT/$label".*.1 | head -n 1)
  python3 - "$dump" "$OUT/$label.wrk" <<'EOF'
import json, sys
summary = next(int(l.split()[1]) for l in open(sys.argv[1]) if l.startswith("summary:"))
print(json.loads(open(sys.argv[2]).read())["requests"], summary)
EOF
}

{
  echo "Instructions per warm answer (callgrind), wrk 1 thread, ${DURATION} s per run."
  echo
  echo "| connections | serve | baseline | serve / baseline |"
  echo "|---|---|---|---|"
  for connections in $CONNECTIONS; do
    read -r n1 i1 < <(measure "$OUT/serve.bin" 18181 "$connections" "serve-$connections")
    read -r n2 i2 < <(measure "$OUT/baseline.bin" 18182 "$connections" "baseline-$connections")
    python3 -c "import sys; a=$i1/$n1; b=$i2/$n2; print(f'| $connections | {a:,.0f} | {b:,.0f} | {a/b:.3f}× |')"
  done
} | tee "$ROOT/bench-work/serve-cost.md"
