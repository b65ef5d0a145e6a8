#!/usr/bin/env bash
# Hostile-request suite: `thumbforge serve` as a real process on free loopback ports, over
# temporary asset folders with generated hostile masters, attacked by the rows that
# Scripts/attack/suite.py runs (`--help` lists them; their requests, checks and verdicts are
# in Scripts/attack/rows_*.py). This script builds or locates the binary, installs the
# tools, and starts and stops the servers when the suite asks: each `thumbforge serve` (with
# fewer descriptors, under strace or in a cgroup when asked) with a /healthz monitor beside
# it (Scripts/attack/attack.py monitor), and nginx. One line per row: PASS, FAIL or SKIP
# (reason), with what was measured; exits 1 if any row failed. Every row in one run takes
# minutes on a 2-core machine.
#
#   [THUMBFORGE_BIN=PATH] Scripts/attack.sh [--only N,M,…] [--keep]
#
# Takes the binary from THUMBFORGE_BIN (default: `swift build -c release --product
# thumbforge`, run each time). Installs the vips CLI (Scripts/install-deps.sh) and, as root
# when missing, strace (row 5's check of the files opened), curl and procps, and for row 10
# nginx. --only: run only these rows; --keep: keep the temporary folder (inputs, server
# logs, strace output) and print where it is. CI (.ci/run) runs it on the release build, as
# deployed (a debug build's NIO and Hummingbird are unoptimised: under row 6 its /healthz
# comes close to the 1 s bound, the release build's stays far below it).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. Scripts/lib.sh
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
# The interpreter itself, not a wrapper (pyenv's shims are scripts): background helpers
# are then the processes whose ids are kept, and start faster.
PYTHON=$(python3 -c 'import sys; print(sys.executable)')

ONLY=
KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) ONLY=$2; shift ;;
    --keep) KEEP=1 ;;
    -h|--help)
      script_help "$0"
      echo
      "$PYTHON" Scripts/attack/suite.py --help | sed -n '/^The hostile/,/^options:/p' | sed '$d'
      exit 0 ;;
    *) echo "attack.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

# ---------------------------------------------------------------- tools and binary
Scripts/install-deps.sh >&2
missing=()
command -v strace >/dev/null || missing+=(strace)
command -v curl >/dev/null || missing+=(curl)
command -v pgrep >/dev/null || missing+=(procps)
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "==> installing ${missing[*]} with apt-get" >&2
  apt_install "${missing[@]}" >/dev/null 2>&1 || true
fi
release_binary
# Our own descriptor limit, for 1 500 client sockets (the server gets 1024 in row 6).
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# Rows sign their own paths; the caller's keys must not reach unsigned servers.
unset THUMBFORGE_KEY THUMBFORGE_SALT

WORK=$(mktemp -d /tmp/thumbforge-attack.XXXXXX)
MAIN_PID=$BASHPID
# descendants PID: the live processes below PID (children first). Only these are ever
# signalled: a recorded id whose process has ended may already belong to someone else's
# process (pid_max is 32768 here), which must not be killed.
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
  } 2>/dev/null || true
  if [ "$KEEP" = 1 ]; then echo "==> kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A copy of the binary: a rebuild during the run changes nothing here.
TF_SOURCE=$TF
mkdir -p "$WORK/bin" && cp "$TF" "$WORK/bin/thumbforge"
TF=$WORK/bin/thumbforge

# ---------------------------------------------------------------- servers
# The suite asks on its standard output, one request a line of tab-separated words, and
# reads the answer (one line, likewise) on its standard input:
#   serve NAME DIR [nofile=N] [strace=FILE] [cgroup=DIR] [key=HEX salt=HEX] -- ARG…
#       `thumbforge serve DIR --port PORT ARG…` on a free port, in WORK, with N descriptors,
#       under `strace -f -y -e trace=open,openat -o FILE`, in the cgroup folder DIR, with
#       THUMBFORGE_KEY/SALT; waits for /healthz (60 s at most) and starts its monitor:
#       "ok PORT PID LOG MONITOR" (PID: the server's own, also under strace), or
#       "failed LOG WHY" (the server is then gone)
#   stop                      stops the monitor and the server (SIGTERM, SIGKILL after
#                             3 s): "stopped", or "died STATUS" when it had died before
#   nginx-install             "ok", or "missing" (neither there nor installable)
#   nginx PORT                nginx with Examples/nginx/thumbforge.conf in front of the
#                             server on PORT, on a free port: "ok PORT VERSION", or "failed WHY"
#   nginx-stop                "stopped"
SERVER_PID=; REAL_PID=; MONITOR=; MONITOR_FILE=; NGINX=; NGINX_PID=

answer() { (IFS=$'\t'; echo "$*") >&"$TO_SUITE"; }

# spawn COMMAND…: runs COMMAND in the background as a process of its own (exec'd, without
# this script's traps or its pipes to the suite); its id in SPAWNED.
spawn() {
  ( trap - EXIT INT TERM; exec "$@" {FROM_SUITE}<&- {TO_SUITE}>&- ) &
  SPAWNED=$!
}

# last_lines LOG N: the last N non-blank lines of LOG on one line.
last_lines() { grep -v '^\s*$' "$1" | tail -n "$2" | tr '\n' ' ' || true; }

serve() {
  local name=$1 dir=$2 nofile= strace_out= cgroup= key= salt=
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    case $1 in
      nofile=*) nofile=${1#*=} ;;
      strace=*) strace_out=${1#*=} ;;
      cgroup=*) cgroup=${1#*=} ;;
      key=*) key=${1#*=} ;;
      salt=*) salt=${1#*=} ;;
    esac
    shift
  done
  [ $# -gt 0 ] && shift
  local wrap=()
  [ -n "$strace_out" ] && wrap=(strace -f -y -e trace=open,openat -o "$strace_out")
  [ -n "$cgroup" ] && wrap=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cgroup")
  local port log=$WORK/$name.log
  port=$(free_port)
  (
    trap - EXIT INT TERM
    [ -n "$nofile" ] && ulimit -n "$nofile"
    [ -n "$key" ] && export THUMBFORGE_KEY=$key THUMBFORGE_SALT=$salt
    cd "$WORK" && exec ${wrap[@]+"${wrap[@]}"} "$TF" serve "$dir" --port "$port" "$@" \
      {FROM_SUITE}<&- {TO_SUITE}>&-
  ) 2>"$log" &
  SERVER_PID=$!
  local i status
  for i in $(seq 600); do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      status=0
      wait "$SERVER_PID" || status=$?
      SERVER_PID=
      answer failed "$log" "exited $status at start: $(last_lines "$log" 2 | cut -c1-300)"
      return
    fi
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz" && break
    sleep 0.1
  done
  REAL_PID=$SERVER_PID
  if [ ${#wrap[@]} -gt 0 ]; then
    REAL_PID=$(cut -d' ' -f1 "/proc/$SERVER_PID/task/$SERVER_PID/children" 2>/dev/null || true)
    [ -n "$REAL_PID" ] || REAL_PID=$(pgrep -P "$SERVER_PID" | head -n 1 || true)
    # A wrapper that execs the server (the cgroup's) is the server.
    [ -n "$REAL_PID" ] || REAL_PID=$SERVER_PID
  fi
  if ! curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz"; then
    kill -KILL "$REAL_PID" "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
    answer failed "$log" "no answer on /healthz after 60 s"
    return
  fi
  MONITOR_FILE=$WORK/$name.monitor
  spawn "$PYTHON" "$ROOT/Scripts/attack/attack.py" monitor --port "$port" --pid "$REAL_PID" \
    --out "$MONITOR_FILE"
  MONITOR=$SPAWNED
  answer ok "$port" "$REAL_PID" "$log" "$MONITOR_FILE"
}

stop() {
  [ -n "$SERVER_PID" ] || { answer stopped; return; }
  # The monitor's first poll is written before it is stopped (and it has started for sure).
  for _ in $(seq 50); do [ -f "$MONITOR_FILE" ] && break; sleep 0.05; done
  kill -TERM "$MONITOR" 2>/dev/null || true
  wait "$MONITOR" 2>/dev/null || true
  local status=0
  if ! kill -0 "$REAL_PID" 2>/dev/null || grep -q '"alive": false' "$MONITOR_FILE" 2>/dev/null; then
    wait "$SERVER_PID" 2>/dev/null || status=$?
    answer died "$status"
  else
    kill -TERM "$REAL_PID" 2>/dev/null || true
    for _ in $(seq 30); do kill -0 "$REAL_PID" 2>/dev/null || break; sleep 0.1; done
    # Still ours (not an ended process's id taken by another): our child, or strace's.
    if descendants "$MAIN_PID" | grep -qx "$REAL_PID"; then
      kill -KILL "$REAL_PID" 2>/dev/null || true
    fi
    wait "$SERVER_PID" 2>/dev/null || true
    answer stopped
  fi
  SERVER_PID=; REAL_PID=; MONITOR=
}

nginx_install() {
  NGINX=$(command -v nginx || echo /usr/sbin/nginx)
  if [ ! -x "$NGINX" ] && command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
    echo "==> installing nginx with apt-get" >&2
    apt_install nginx >/dev/null 2>&1 || true
    NGINX=$(command -v nginx || echo /usr/sbin/nginx)
  fi
  if [ -x "$NGINX" ]; then answer ok; else answer missing; fi
}

nginx_start() {
  local dir=$WORK/nginx port
  port=$(free_port)
  if ! nginx_prefix "$dir" "$port" "$1" "$1" 256 2>"$WORK/nginx-prefix.err"; then
    answer failed "$(cat "$WORK/nginx-prefix.err")"
    return
  fi
  spawn "$NGINX" -p "$dir/" -c "$dir/nginx.conf" -e "$dir/error.log"
  NGINX_PID=$SPAWNED
  wait_http "$port" /healthz 100 2>/dev/null || true
  answer ok "$port" "$("$NGINX" -v 2>&1 | sed 's|.*/||')"
}

nginx_stop() {
  kill -QUIT "$NGINX_PID" 2>/dev/null || true
  wait "$NGINX_PID" 2>/dev/null || true
  NGINX_PID=
  answer stopped
}

# ---------------------------------------------------------------- run
echo "==> $TF_SOURCE ($("$TF" --version 2>/dev/null)), temporary folder $WORK" >&2
exec {RESULTS}>&1
coproc SUITE {
  exec "$PYTHON" "$ROOT/Scripts/attack/suite.py" --work "$WORK" --binary "$TF" \
    --results-fd "$RESULTS" ${ONLY:+--only "$ONLY"}
}
SUITE_ID=$SUITE_PID
exec {FROM_SUITE}<&"${SUITE[0]}" {TO_SUITE}>&"${SUITE[1]}"
while IFS=$'\t' read -r -a request <&"$FROM_SUITE"; do
  case ${request[0]:-} in
    serve) serve "${request[@]:1}" ;;
    stop) stop ;;
    nginx-install) nginx_install ;;
    nginx) nginx_start "${request[1]}" ;;
    nginx-stop) nginx_stop ;;
    *) echo "attack.sh: unknown request from the suite: ${request[*]}" >&2; exit 1 ;;
  esac
done
status=0
wait "$SUITE_ID" || status=$?
exit "$status"
