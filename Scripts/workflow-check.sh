#!/usr/bin/env bash
# Audits the GitHub Actions workflows (.github/workflows, and Examples/github-actions,
# which users copy) with zizmor, offline: actions
# pinned to commits, no credentials left in checkouts, no template injection, least
# permissions. zizmor comes from PyPI into a folder of its own (pip, installed with apt-get
# when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/lib.sh

tools=${THUMBFORGE_TOOLS:-${TMPDIR:-/tmp}/thumbforge-tools}
if [ ! -x "$tools/zizmor/bin/zizmor" ]; then
  python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
  echo "==> pip install zizmor (into $tools/zizmor)"
  python3 -m pip install --quiet --disable-pip-version-check --target "$tools/zizmor" zizmor
fi
PYTHONPATH="$tools/zizmor" "$tools/zizmor/bin/zizmor" --offline .github/workflows/ \
  Examples/github-actions/*.yml
