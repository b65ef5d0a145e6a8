#!/usr/bin/env bash
# Sharded builds on this machine: wall time of 1, 2 and 4 shards (each shard its own
# process, all started at once, then `merge`), each shard alone (what one machine of N
# would take), and `merge` on a folder of many small sources.
#
#   Scripts/bench-shards.sh [--corpus DIR] [--tiny DIR] [--reps N]
#     --corpus DIR  the folder to build (default: bench-work/corpus/large-100, made by
#                   Scripts/bench.sh --only build,peers,corpus; 100 photos and the flags)
#     --tiny DIR    the folder of many small sources for the merge figure (default:
#                   bench-work/corpus/tiny-10000)
#     --reps N      repetitions of each measurement; the median is reported (default 3)
#
# Results: bench-work/shards.md (a table for the README) and bench-work/shards.jsonl. The
# builds' outputs (bench-work/runs/shards) are removed at the end: several GB.
# Every build starts from an empty output (a full build); the machine should be otherwise idle.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench-work
CORPUS=$WORK/corpus/large-100
TINY=$WORK/corpus/tiny-10000
REPS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus) CORPUS=$(cd "$2" && pwd); shift ;;
    --tiny) TINY=$(cd "$2" && pwd); shift ;;
    --reps) REPS=$2; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | grep '^#' | cut -c3-; exit 0 ;;
    *) echo "bench-shards.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
for dir in "$CORPUS" "$TINY"; do
  [ -d "$dir" ] || { echo "bench-shards.sh: $dir is missing: run Scripts/bench.sh --only build,peers,corpus first" >&2; exit 1; }
done

Scripts/install-deps.sh
static=()
[ "$(uname -s)" = Linux ] && static=(--static-swift-stdlib)
echo "==> swift build -c release --product thumbforge --scratch-path .build-bench ${static[*]}"
swift build -c release --product thumbforge --scratch-path .build-bench "${static[@]}" 2>&1 | tail -n 1
TF=$ROOT/.build-bench/release/thumbforge
RUNS=$WORK/runs/shards
RESULTS=$WORK/shards.jsonl
: >"$RESULTS"

now() { date +%s.%N; }
record() { # record KIND SHARDS REP SECONDS
  printf '{"kind":"%s","shards":%s,"rep":%s,"seconds":%.3f}\n' "$1" "$2" "$3" "$4" >>"$RESULTS"
}

# all_at_once FOLDER N REP: N shard processes started together, then merge; records the
# wall time of the shards and of the merge, and checks the result against a single build.
all_at_once() {
  local folder=$1 n=$2 rep=$3 out=$RUNS/parallel-$n-$rep
  local start pids=() i
  start=$(now)
  for i in $(seq 1 "$n"); do
    "$TF" build "$folder" -q --shard "$i/$n" --part "$out/parts/$i" --jobs "$(( n >= 2 ? 1 : 2 ))" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  local built
  built=$(now)
  "$TF" merge -q "$out"/parts/* --output "$out/merged/Assets.xcassets"
  local merged
  merged=$(now)
  record parallel "$n" "$rep" "$(echo "$built - $start" | bc)"
  record merge-parallel "$n" "$rep" "$(echo "$merged - $built" | bc)"
}

# alone FOLDER N: each shard of N run alone with every core (one machine of N), one rep each.
alone() {
  local folder=$1 n=$2 rep=$3 out=$RUNS/alone-$n-$rep i start
  for i in $(seq 1 "$n"); do
    start=$(now)
    "$TF" build "$folder" -q --shard "$i/$n" --part "$out/parts/$i"
    record "alone-$i" "$n" "$rep" "$(echo "$(now) - $start" | bc)"
  done
}

echo "==> $CORPUS: single build and 1/2/4 shards, $REPS repetition(s)"
# Every run writes into a folder of its own, all removed before and after: ext4 allocates
# inodes slowly for a while after a large tree is deleted, which would slow the run after it.
rm -rf "$RUNS"
trap 'rm -rf "$RUNS"' EXIT
for rep in $(seq 1 "$REPS"); do
  start=$(now)
  "$TF" build "$CORPUS" -q --output "$RUNS/single-$rep/Assets.xcassets"
  record single 1 "$rep" "$(echo "$(now) - $start" | bc)"
  for n in 1 2 4; do all_at_once "$CORPUS" "$n" "$rep"; done
  for n in 2 4; do alone "$CORPUS" "$n" "$rep"; done
done
for n in 1 2 4; do
  diff -r -x '.thumbforge-*' "$RUNS/single-1" "$RUNS/parallel-$n-1/merged" >/dev/null \
    || { echo "bench-shards.sh: $n shards merged differ from the single build" >&2; exit 1; }
done
echo "    merged catalogs of 1, 2 and 4 shards equal the single build"

echo "==> $TINY: merge of 4 shards, $REPS repetition(s)"
out=$RUNS/tiny
for i in 1 2 3 4; do "$TF" build "$TINY" -q --shard "$i/4" --part "$out/parts/$i"; done
sources=$(find "$TINY" -type f ! -name thumbforge.yml | wc -l)
for rep in $(seq 1 "$REPS"); do
  start=$(now)
  "$TF" merge -q "$out"/parts/* --output "$out/merged-$rep/Assets.xcassets"
  record merge-tiny 4 "$rep" "$(echo "$(now) - $start" | bc)"
done

python3 - "$RESULTS" "$WORK/shards.md" "$CORPUS" "$sources" "$(nproc)" <<'EOF'
import json, statistics, sys, os
results, report, corpus, sources, cores = sys.argv[1:6]
rows = [json.loads(line) for line in open(results)]
def median(kind, shards):
    values = [r["seconds"] for r in rows if r["kind"] == kind and r["shards"] == shards]
    return statistics.median(values) if values else None
single = median("single", 1)
lines = [f"Corpus `{os.path.relpath(corpus)}`, {cores} cores; medians of "
         f"{len([r for r in rows if r['kind'] == 'single'])} runs.", "",
         "| shards | all on this machine: shards | + merge | total | vs one build | slowest shard alone | projected on N machines (slowest + merge) |",
         "|---|---|---|---|---|---|---|"]
for n in (1, 2, 4):
    built, merge = median("parallel", n), median("merge-parallel", n)
    alone = [median(f"alone-{i}", n) for i in range(1, n + 1)] if n > 1 else [single]
    slowest = max(alone)
    lines.append(f"| {n} | {built:.2f} s | {merge:.2f} s | {built + merge:.2f} s | "
                 f"{single / (built + merge):.2f}× | {slowest:.2f} s | {slowest + merge:.2f} s "
                 f"({single / (slowest + merge):.2f}×) |")
lines += ["", f"One build without sharding: {single:.2f} s. Merge of 4 parts of "
          f"{sources} sources: {median('merge-tiny', 4):.2f} s."]
open(report, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
