#!/usr/bin/env bash
# Installs libvips-dev if missing, builds the package and its tests, then runs the whole test
# suite. Arguments go to `swift test` (e.g. --filter NAME).
#
# The run has a time limit (THUMBFORGE_TEST_TIMEOUT seconds, default 1800, several times
# what the suite takes; README, Quick start): a test that hangs ends the run with exit 124 and a message,
# instead of holding CI until its own limit. `timeout` puts the run in a process group of
# its own, so servers and tools that tests started are stopped with it.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
echo "==> swift build --build-tests"
swift build --build-tests
limit=${THUMBFORGE_TEST_TIMEOUT:-1800}
echo "==> swift test (at most ${limit}s)"
status=0
timeout --kill-after=30 "$limit" swift test --skip-build "$@" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "test.sh: the test run took longer than ${limit}s and was stopped; a test hangs" \
    "(look for a '◇ … started' line with no matching result above)" >&2
fi
exit "$status"
