#!/usr/bin/env bash
# Installs libvips-dev if missing, builds the package and its tests, then runs the everyday
# tier of the suite. `--slow` runs the whole suite: the everyday tier and the slow one (the
# plugin's cold build of a package that depends on ThumbForge, the long property, shard and
# kill cases). Other arguments go to `swift test` (e.g. --filter NAME).
#
# A compiler warning in our own code (Sources/, Tests/, Plugins/, Fuzz/) fails the run after
# the tests, so a new one cannot land; the build's output is kept in .build/test-build.log.
# Only what this build compiled is seen: a cold build (CI's fresh clone) sees everything.
#
# The run has a time limit (THUMBFORGE_TEST_TIMEOUT seconds, default 1800, several times
# what the suite takes): a test that hangs ends the run with exit 124 and a message, instead
# of holding CI until its own limit. `timeout` puts the run in a process group of its own,
# so servers and tools that tests started are stopped with it. The script prints how long
# the build and the tests took.
set -euo pipefail
cd "$(dirname "$0")/.."

tier=everyday
arguments=()
for argument in "$@"; do
  if [ "$argument" = --slow ]; then tier=slow; else arguments+=("$argument"); fi
done
export THUMBFORGE_TEST_TIER=$tier

Scripts/install-deps.sh
started=$SECONDS
echo "==> swift build --build-tests"
mkdir -p .build
swift build --build-tests 2>&1 | tee .build/test-build.log
built=$SECONDS
limit=${THUMBFORGE_TEST_TIMEOUT:-1800}
echo "==> swift test, $tier tier (at most ${limit}s)"
status=0
timeout --kill-after=30 "$limit" swift test --skip-build "${arguments[@]}" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "test.sh: the test run took longer than ${limit}s and was stopped; a test hangs" \
    "(look for a '◇ … started' line with no matching result above)" >&2
fi
echo "test.sh: build $((built - started)) s, swift test ($tier tier) $((SECONDS - built)) s"

root=$(pwd -P)
warnings=$(grep -E "^($root|$PWD)/(Sources|Tests|Plugins|Fuzz)/[^:]+:[0-9]+:([0-9]+:)? warning:" \
  .build/test-build.log | sort -u || true)
if [ -n "$warnings" ]; then
  echo "$warnings" >&2
  echo "test.sh: $(echo "$warnings" | wc -l) compiler warning(s) in our own code (above)" >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
