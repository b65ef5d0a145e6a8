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
#   Scripts/fuzz.sh --property SECONDS [TARGET…]
#     runs the pipeline property test (Tests/ThumbForgeCLITests/PipelinePropertyTests.swift)
#     on random seeds for SECONDS (debug build, swift test), printing each failing seed with
#     its reproducer and the number of cases; then the TARGETs given, if any. Log:
#     .build-fuzz/logs/property.log. Reproduce a seed:
#     THUMBFORGE_PROPERTY_SEED=S swift test --filter PipelineProperty
#
# A target's maximum input length is read from Fuzz/<target>/max_len when present
# (default 65536). Reproduce a crash: .build-fuzz/<target> .build-fuzz/artifacts/<target>/crash-…
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=60
targets=()
property=
while [ $# -gt 0 ]; do
  case "$1" in
  --property)
    property=${2:?--property needs a number of seconds}
    shift 2
    ;;
  --seconds)
    seconds=${2:?--seconds needs a number}
    shift 2
    ;;
  --smoke)
    seconds=20
    shift
    ;;
  -h | --help)
    sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
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
out=.build-fuzz
mkdir -p "$out/logs"
status=0
summary=()
if [ -n "$property" ]; then
  command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
  echo "==> pipeline property: build"
  if ! swift build --build-tests >"$out/logs/property.build.log" 2>&1; then
    tail -n 30 "$out/logs/property.build.log" >&2
    echo "fuzz.sh: the tests do not build (see $out/logs/property.build.log)" >&2
    exit 1
  fi
  echo "==> pipeline property: random seeds for ${property}s"
  log="$out/logs/property.log"
  code=0
  THUMBFORGE_PROPERTY_SECONDS="$property" swift test --skip-build --filter PipelineProperty \
    >"$log" 2>&1 || code=$?
  { grep -E '^pipeline property: seed [0-9]+ FAILED' "$log" || true; } | cut -c1-400
  line=$({ grep -E '^pipeline property: [0-9]+ cases' "$log" || true; } | tail -n 1)
  if [ -z "$line" ]; then
    line="pipeline property: did not finish (exit $code; see $log)"
    status=1
  elif [ $code -ne 0 ] || ! grep -qE ' 0 failed' <<<"$line"; then
    status=1
    line="$line — FAILED (see $log)"
  fi
  echo "$line"
  summary+=("$line")
  if [ ${#targets[@]} -eq 0 ]; then
    echo "==> fuzz summary"
    printf '  %s\n' "${summary[@]}"
    exit $status
  fi
fi
if [ ${#targets[@]} -eq 0 ]; then
  for script in Fuzz/*/build.sh; do
    [ -e "$script" ] && targets+=("$(basename "$(dirname "$script")")")
  done
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz.sh: no targets under Fuzz/" >&2
  exit 2
fi

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
