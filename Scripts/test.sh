#!/usr/bin/env bash
# Installs libvips-dev if missing, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
echo "==> swift test"
swift test "$@"
