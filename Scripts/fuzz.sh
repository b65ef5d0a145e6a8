#!/usr/bin/env bash
# Builds and runs the libFuzzer targets under Fuzz/: every Fuzz/<target>/build.sh OUT_BINARY
# (C targets compiled with clang, Swift ones with their own build.sh) into .build-fuzz/,
# then runs each for N seconds from its committed seeds (Fuzz/<target>/seeds) plus the
# inputs earlier runs found (.build-fuzz/corpus/<target>, not committed). Crash inputs go
# to .build-fuzz/artifacts/<target>/. Prints executions and the final cov:/ft: per target;
# exits non-zero when a target fails to build or any run finds a crash, leak or timeout.
#
#   Scripts/fuzz.sh [--seconds N] [--smoke] [TARGET…]
#     --seconds N   run each target N seconds (default 60)
#     --smoke       20 seconds each (CI)
#     TARGET…       only these (names of Fuzz/ folders); default: all
#
# A target's maximum input length is read from Fuzz/<target>/max_len when present
# (default 65536). Reproduce a crash: .build-fuzz/<target> .build-fuzz/artifacts/<target>/crash-…
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=60
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
  --seconds)
    seconds=${2:?--seconds needs a number}
    shift 2
    ;;
  --smoke)
    seconds=20
    shift
    ;;
  -h | --help)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "fuzz.sh: unknown option $1" >&2
    exit 2
    ;;
  *)
    targets+=("$1")
    shift
    ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  for script in Fuzz/*/build.sh; do
    [ -e "$script" ] && targets+=("$(basename "$(dirname "$script")")")
  done
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz.sh: no targets under Fuzz/" >&2
  exit 2
fi

out=.build-fuzz
mkdir -p "$out/logs"
status=0
summary=()
for target in "${targets[@]}"; do
  dir="Fuzz/$target"
  if [ ! -f "$dir/build.sh" ]; then
    echo "fuzz.sh: no $dir/build.sh" >&2
    status=1
    summary+=("$target: no such target")
    continue
  fi
  echo "==> fuzz $target: build"
  if ! bash "$dir/build.sh" "$out/$target" >"$out/logs/$target.build.log" 2>&1; then
    tail -n 30 "$out/logs/$target.build.log" >&2
    status=1
    summary+=("$target: BUILD FAILED (see $out/logs/$target.build.log)")
    continue
  fi
  corpus="$out/corpus/$target"
  artifacts="$out/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  seeds=()
  [ -d "$dir/seeds" ] && seeds+=("$dir/seeds")
  max_len=65536
  [ -f "$dir/max_len" ] && max_len=$(tr -dc '0-9' <"$dir/max_len")
  echo "==> fuzz $target: ${seconds}s"
  log="$out/logs/$target.log"
  "$out/$target" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len="$max_len" \
    -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    >"$log" 2>&1
  code=$?
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  final=$(grep -E '(DONE|pulse|NEW|REDUCE|INITED).*cov:' "$log" | tail -n 1 |
    grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  line="$target: ${executions:-?} executions, ${final:-cov: ? ft: ?}"
  if [ $code -ne 0 ] || ls "$artifacts" 2>/dev/null | grep -qE '^(crash|leak|timeout|oom)-'; then
    status=1
    line="$line — FAILED (exit $code; artifacts in $artifacts, log $log)"
    grep -E 'ERROR: |SUMMARY: |runtime error|^==[0-9]+==' "$log" | head -n 20 >&2
  fi
  echo "$line"
  summary+=("$line")
done
echo "==> fuzz summary"
printf '  %s\n' "${summary[@]}"
exit $status
