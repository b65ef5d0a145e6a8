#!/usr/bin/env bash
# Checks the serving topology of Examples/: nginx (Debian's package, installed with apt-get
# when missing, run as a foreground master from a temporary prefix with its own pid, log,
# cache and temp paths, so no system configuration is touched and no daemon stays) in front of
# two `thumbforge serve` replicas on free loopback ports, configured with
# Examples/nginx/thumbforge.conf itself (only the replicas' ports, the listen address and
# the cache and log paths substituted). Builds ThumbForge in release (or takes the binary
# from THUMBFORGE_BIN), copies Assets/ and builds its catalog in a temporary folder, runs
# the replicas with fresh signing keys (THUMBFORGE_KEY/SALT; every image path below is
# signed, as the example forwards nothing else), then checks and prints:
#   (a) distinct renders through nginx are spread over both replicas (their /metrics);
#   (b) a repeated request is a cache hit (X-Cache-Status: HIT), If-None-Match gives 304,
#       and an expired entry is revalidated with the replica by ETag (REVALIDATED, 304);
#   (c) under load (wrk, installed with apt-get when missing), one replica stopped with
#       SIGTERM mid-run loses no request: no non-2xx/3xx answer, no socket error, and the
#       stopped replica exits 0;
#   (d) unsigned and non-image paths (/unsafe/…, /, /metrics, /readyz, a signature with
#       %-encoding or one character short, //…) are answered 404 by nginx and reach no
#       replica; a forged signature of the right shape reaches one and gets its 403.
# Exits non-zero on any failure; prints a summary with the figures.
#
#   [THUMBFORGE_BIN=PATH] Scripts/replicas-check.sh [--duration S] [--connections C] [--keep]
#                                                   [--json FILE]
#
# --duration: the load run in seconds (default 8; SIGTERM after 40% of it); --connections:
# wrk's connections to nginx (default 16); --keep: keep the temporary folder (logs, nginx
# configuration) and print where it is; --json: append (c)'s figures to FILE as one JSON line
# (Scripts/bench/replicas.py records them).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. Scripts/lib.sh
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH

DURATION=8
CONNECTIONS=16
KEEP=0
JSON=
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION=$2; shift ;;
    --connections) CONNECTIONS=$2; shift ;;
    --keep) KEEP=1 ;;
    --json) JSON=$2; shift ;;
    -h|--help) script_help "$0"; exit 0 ;;
    *) echo "replicas-check.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

# ---------------------------------------------------------------- tools
Scripts/install-deps.sh
# Debian's nginx package would start a system nginx on port 80 where services may start;
# this script never uses it (containers usually forbid it through policy-rc.d anyway).
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { apt_install nginx; NGINX=$(command -v nginx || echo /usr/sbin/nginx); }
command -v wrk >/dev/null || apt_install wrk

release_binary

# ---------------------------------------------------------------- folder, replicas, nginx
WORK=$(mktemp -d)
REPLICA_PIDS=()
NGINX_PID=
cleanup() {
  local pid
  for pid in "${REPLICA_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  [ -n "$NGINX_PID" ] && kill -QUIT "$NGINX_PID" 2>/dev/null || true
  for pid in "${REPLICA_PIDS[@]}" $NGINX_PID; do wait "$pid" 2>/dev/null || true; done
  if [ "$KEEP" = 1 ]; then echo "==> kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

FAILURES=0
fail() { echo "FAIL: $*" >&2; FAILURES=$((FAILURES + 1)); }

cp -r Assets "$WORK/Assets"
echo "==> thumbforge build (the catalog the replicas send from)"
"$TF" build "$WORK/Assets" --quiet
# One configuration per replica (--config): the folder's own, plus a result cache of each
# replica's own outside the folder (as each Kubernetes pod has its emptyDir), ad-hoc boxes
# for distinct renders, and a short max-age so that (b) can see nginx revalidate by ETag.
MAX_AGE=3
for i in 1 2; do
  cat Assets/thumbforge.yml - >"$WORK/replica-$i.yml" <<EOF
serve:
  ad-hoc: true
  cache: $WORK/serve-cache-$i
  cache-control: public, max-age=$MAX_AGE
EOF
done
# The replicas sign with fresh keys: nginx forwards only signed image paths.
THUMBFORGE_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
THUMBFORGE_SALT=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export THUMBFORGE_KEY THUMBFORGE_SALT
# sign_paths: signs each path read (one a line, from its leading /, already percent-encoded
# as sent) as serve verifies it (README, Signatures): /SIGNATURE/PATH.
sign_paths() { python3 Scripts/attack/attack.py sign; }
sign() { echo "$1" | sign_paths; }
# The same signature as `thumbforge sign` gives, or every signed request below would be 403.
[ "$(sign /tile/Resorts/les-arcs@2x.jpg)" = "$("$TF" sign tile/Resorts/les-arcs@2x.jpg)" ] || {
  echo "replicas-check.sh: this script's signature differs from 'thumbforge sign'" >&2
  exit 1
}
PORTS=()
for i in 1 2; do
  port=$(free_port)
  PORTS+=("$port")
  "$TF" serve "$WORK/Assets" --config "$WORK/replica-$i.yml" --port "$port" --jobs 1 \
    2>"$WORK/replica-$i.log" &
  REPLICA_PIDS+=($!)
done
for port in "${PORTS[@]}"; do wait_http "$port" /healthz; done

NGINX_PORT=$(free_port)
nginx_prefix "$WORK/nginx" "$NGINX_PORT" "${PORTS[0]}" "${PORTS[1]}" 1024
NGINX_ARGS=(-p "$WORK/nginx/" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log")
"$NGINX" -t -q "${NGINX_ARGS[@]}"
"$NGINX" "${NGINX_ARGS[@]}" &
NGINX_PID=$!
wait_http "$NGINX_PORT" /healthz
echo "==> nginx $("$NGINX" -v 2>&1 | sed 's|.*/||') on 127.0.0.1:$NGINX_PORT → replicas on ${PORTS[0]} and ${PORTS[1]}"

LB=http://127.0.0.1:$NGINX_PORT
# image_requests PORT: image requests the replica has answered (its /metrics counter,
# every status and outcome except the "-" of /metrics, /healthz and the like).
image_requests() {
  curl -sf "http://127.0.0.1:$1/metrics" \
    | awk '/^thumbforge_requests_total\{/ && !/outcome="-"/ { n += $NF } END { print n + 0 }'
}
# header FILE NAME: a header's value from curl -D output.
header() { tr -d '\r' <"$1" | awk -v name="$(echo "$2" | tr 'A-Z' 'a-z')" -F': ' \
  'tolower($1) == name { print $2 }' | tail -n 1; }

# ---------------------------------------------------------------- (a) spread
SPREAD_N=40
before=("$(image_requests "${PORTS[0]}")" "$(image_requests "${PORTS[1]}")")
statuses=$(for i in $(seq "$SPREAD_N"); do
  echo "/fill:$((100 + i))x80/Resorts/les-arcs@1x.jpg"
done | sign_paths | while read -r path; do
  curl -s -o /dev/null -w '%{http_code}\n' "$LB$path"
done | sort | uniq -c | tr -s ' ' | tr '\n' ',')
after=("$(image_requests "${PORTS[0]}")" "$(image_requests "${PORTS[1]}")")
spread=($((after[0] - before[0])) $((after[1] - before[1])))
echo "==> (a) $SPREAD_N distinct renders through nginx: statuses${statuses%,}; replica 1 answered ${spread[0]}, replica 2 answered ${spread[1]}"
[ "$statuses" = " $SPREAD_N 200," ] || fail "(a) not every render was answered 200:$statuses"
[ $((spread[0] + spread[1])) = "$SPREAD_N" ] \
  || fail "(a) the replicas answered $((spread[0] + spread[1])) requests, not $SPREAD_N"
for i in 0 1; do
  [ "${spread[$i]}" -ge $((SPREAD_N / 4)) ] || fail "(a) replica $((i + 1)) answered only ${spread[$i]} of $SPREAD_N"
done

# ---------------------------------------------------------------- (b) cache
P=$(sign /tile/Resorts/les-arcs@2x.jpg)
curl -s -o "$WORK/b1.jpg" -D "$WORK/b1.h" "$LB$P"
curl -s -o "$WORK/b2.jpg" -D "$WORK/b2.h" "$LB$P"
first=$(header "$WORK/b1.h" X-Cache-Status)
second=$(header "$WORK/b2.h" X-Cache-Status)
etag=$(header "$WORK/b2.h" ETag)
replica_etag=$(curl -s -o /dev/null -D - "http://127.0.0.1:${PORTS[0]}$P" | tr -d '\r' \
  | awk -F': ' 'tolower($1) == "etag" { print $2 }')
conditional=$(curl -s -o /dev/null -w '%{http_code}' -D "$WORK/b3.h" -H "If-None-Match: $etag" "$LB$P")
conditional_cache=$(header "$WORK/b3.h" X-Cache-Status)
echo "==> (b) $P twice: $first then $second (ETag $etag, the replica's: $replica_etag); If-None-Match → $conditional ($conditional_cache)"
[ "$first" = MISS ] || fail "(b) the first request was $first, not MISS"
[ "$second" = HIT ] || fail "(b) the repeated request was $second, not HIT"
cmp -s "$WORK/b1.jpg" "$WORK/b2.jpg" || fail "(b) the cached body differs from the first"
[ -n "$etag" ] && [ "$etag" = "$replica_etag" ] || fail "(b) nginx's ETag '$etag' is not the replica's '$replica_etag'"
[ "$conditional" = 304 ] || fail "(b) If-None-Match through nginx gave $conditional, not 304"
# After max-age the entry is stale: nginx asks a replica with If-None-Match, gets 304.
sleep $((MAX_AGE + 1))
conditional_upstream=$(cat "$WORK"/replica-*.log | grep -c "GET $P 304" || true)
curl -s -o "$WORK/b4.jpg" -D "$WORK/b4.h" "$LB$P"
revalidated=$(header "$WORK/b4.h" X-Cache-Status)
conditional_upstream=$(( $(cat "$WORK"/replica-*.log | grep -c "GET $P 304" || true) - conditional_upstream ))
echo "==> (b) after max-age=$MAX_AGE s: $revalidated (the replicas answered nginx's conditional request with 304: $conditional_upstream)"
[ "$revalidated" = REVALIDATED ] || fail "(b) the expired entry was $revalidated, not REVALIDATED"
[ "$conditional_upstream" = 1 ] || fail "(b) no replica answered 304 to nginx's revalidation"
cmp -s "$WORK/b1.jpg" "$WORK/b4.jpg" || fail "(b) the revalidated body differs"

# ---------------------------------------------------------------- (d) only signed paths
# Before (c), while both replicas run: "reached no replica" is read from both logs.
SIG=${P#/}; SIG=${SIG%%/*}
REST=${P#/"$SIG"}
refused_paths=(
  /unsafe/tile/Resorts/les-arcs@2x.jpg / /metrics /readyz /Resorts/les-arcs.jpg
  "/%$(printf '%02X' "'${SIG:0:1}")${SIG:1}$REST"   # the signature's first character %-encoded
  "/${SIG:1}$REST"                                  # one character short
  "/$SIG=$REST"                                     # with padding
  "/$SIG"                                           # no / after it
  "//$SIG$REST"                                     # behind an empty segment
)
replica_lines() { cat "$WORK"/replica-*.log | grep -c ' GET /' || true; }
lines_before=$(replica_lines)
refused_report=
for path in "${refused_paths[@]}"; do
  code=$(curl -s -o "$WORK/d.body" -w '%{http_code}' --path-as-is "$LB$path")
  refused_report="$refused_report $code"
  [ "$code" = 404 ] || fail "(d) $path through nginx answered $code, not 404"
  grep -q '<center>nginx' "$WORK/d.body" \
    || fail "(d) the answer to $path is not nginx's own 404 page: $(head -c 200 "$WORK/d.body")"
done
reached=$(($(replica_lines) - lines_before))
# A forged signature of the right shape (43 characters) passes nginx; the replica refuses it.
forged="/$(printf 'A%.0s' $(seq 43))$REST"
forged_code=$(curl -s -o /dev/null -w '%{http_code}' "$LB$forged")
sleep 0.2
forged_logged=$(cat "$WORK"/replica-*.log | grep -cF " GET $forged 403" || true)
echo "==> (d) ${#refused_paths[@]} unsigned or malformed paths through nginx:$refused_report; of them reached a replica: $reached; a forged 43-character signature → $forged_code (logged 403 by a replica: $forged_logged)"
[ "$reached" = 0 ] || fail "(d) $reached refused paths reached a replica"
[ "$forged_code" = 403 ] && [ "$forged_logged" = 1 ] \
  || fail "(d) a forged signature answered $forged_code through nginx, logged 403 by a replica $forged_logged time(s) (expected 403, once)"

# ---------------------------------------------------------------- (c) SIGTERM under load
# Distinct ad-hoc boxes of the four resort photos: every request a miss in nginx's cache
# and a render on a replica (none was asked before); one in 8 a large one (2000 pixels
# wide), so that renders of some length are in flight when SIGTERM arrives.
python3 - <<'EOF' | sign_paths >"$WORK/paths.txt"
photos = ["alpe-dhuez", "les-arcs", "snowbird", "whistler-blackcomb"]
for i in range(60000):
    w, h = 40 + i % 600, 30 + (i // 600) % 400
    if i % 8 == 0:
        print(f"/fit:1000x{h + 100}/Resorts/{photos[i % 4]}@2x.jpg")
    else:
        print(f"/fill:{w}x{h}/Resorts/{photos[i % 4]}@1x.jpg")
EOF
before=("$(image_requests "${PORTS[0]}")" "$(image_requests "${PORTS[1]}")")
lines_before=$(wc -l <"$WORK/nginx/access.log")
STOP_AFTER=$(python3 -c "print(round($DURATION * 0.4, 1))")
echo "==> (c) wrk, $CONNECTIONS connections, ${DURATION}s of distinct renders through nginx; SIGTERM to replica 1 after ${STOP_AFTER}s"
PATHS=$WORK/paths.txt THREADS=2 wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 20s \
  -s Scripts/loadtest/paths.lua "$LB" >"$WORK/wrk.txt" 2>&1 &
WRK_PID=$!
sleep "$STOP_AFTER"
stopped_at_requests=$(image_requests "${PORTS[0]}")
logged_before=$(grep -c 'GET /[A-Za-z0-9_-]\{43\}/' "$WORK/replica-1.log" || true)
kill -TERM "${REPLICA_PIDS[0]}"
stop_started=$(date +%s.%N)
replica_status=0
wait "${REPLICA_PIDS[0]}" || replica_status=$?
stop_seconds=$(python3 -c "print(f'{$(date +%s.%N) - $stop_started:.2f}')")
REPLICA_PIDS=("${REPLICA_PIDS[1]}")
# Requests replica 1 had accepted and answered after SIGTERM (the drain's work).
finished_after=$(($(grep -c 'GET /[A-Za-z0-9_-]\{43\}/' "$WORK/replica-1.log" || true) - logged_before))
wait "$WRK_PID" || fail "(c) wrk failed: $(cat "$WORK/wrk.txt")"
result=$(tail -n 1 "$WORK/wrk.txt")
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])['$1'])" "$result"; }
requests=$(field requests); rps=$(field rps); errors=$(field errors)
status_errors=$(field status_errors); timeouts=$(field timeouts)
socket_errors=$((errors - status_errors))
second_share=$(($(image_requests "${PORTS[1]}") - before[1]))
first_share=$((stopped_at_requests - before[0]))
# nginx's view of the same run: the answers it gave, and the requests a replica failed
# (503 while draining, or a connection closed or refused: 502) that it sent to the other.
tail -n +"$((lines_before + 1))" "$WORK/nginx/access.log" >"$WORK/nginx/load.log"
# Fields: address, [time zone], "method path protocol", status…
nginx_bad=$(awk '$7 !~ /^[23]/' "$WORK/nginx/load.log" | wc -l)
retried=$(grep -c 'upstream_status=[0-9]*, ' "$WORK/nginx/load.log" || true)
retried_503=$(grep -c 'upstream_status=503, ' "$WORK/nginx/load.log" || true)
drained=$(grep -c ' 503$' "$WORK/replica-1.log" || true)
echo "==> (c) $requests requests ($rps/s); replica 1 answered $first_share before SIGTERM, replica 2 $second_share in all; non-2xx/3xx: $status_errors, socket errors: $socket_errors (timeouts $timeouts); nginx answered $nginx_bad non-2xx/3xx; retried on the other replica: $retried (after a 503: $retried_503; replica 1 answered 503 while draining: $drained); replica 1 answered $finished_after in flight after SIGTERM and exited $replica_status ${stop_seconds}s after it"
[ "$status_errors" = 0 ] || fail "(c) $status_errors responses were not 2xx/3xx"
[ "$socket_errors" = 0 ] || fail "(c) $socket_errors socket errors (connect/read/write/timeout)"
[ "$nginx_bad" = 0 ] || fail "(c) nginx logged $nginx_bad answers that were not 2xx/3xx"
[ "$replica_status" = 0 ] || fail "(c) the stopped replica exited $replica_status, not 0"
[ "$first_share" -gt 0 ] && [ "$second_share" -gt 0 ] || fail "(c) the load did not reach both replicas"

echo
echo "replicas-check summary:"
echo "  (a) spread:   $SPREAD_N distinct renders → replica 1: ${spread[0]}, replica 2: ${spread[1]}"
echo "  (b) cache:    1st $first, 2nd $second; If-None-Match → $conditional; after max-age → $revalidated"
echo "  (d) signed:   refused paths:$refused_report (reached a replica: $reached); forged signature → $forged_code"
echo "  (c) SIGTERM:  $requests requests at $rps/s, non-2xx/3xx $status_errors, socket errors $socket_errors, retried $retried, $finished_after finished while draining, replica exit $replica_status in ${stop_seconds}s"
if [ -n "$JSON" ]; then
  echo "{\"connections\": $CONNECTIONS, \"seconds\": $DURATION, \"requests\": $requests, \"rps\": $rps, \"non_2xx_3xx\": $status_errors, \"socket_errors\": $socket_errors, \"retried\": $retried, \"answered_while_draining\": $finished_after, \"replica_exit\": $replica_status, \"stop_seconds\": $stop_seconds, \"failures\": $FAILURES}" >>"$JSON"
fi
if [ "$FAILURES" -ne 0 ]; then
  echo "replicas-check: $FAILURES check(s) failed" >&2
  KEEP=1
  exit 1
fi
echo "replicas-check: ok"
