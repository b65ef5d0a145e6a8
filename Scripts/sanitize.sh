#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer (with LeakSanitizer) and under
# ThreadSanitizer, each in its own scratch path (.build-asan, .build-tsan). Suppressions,
# each with its reason: Scripts/sanitizers/lsan.supp and Scripts/sanitizers/tsan.supp. The
# command-line tests run the thumbforge binary built with the same sanitizer, and the
# options below reach it through the environment.
#
#   Scripts/sanitize.sh [address|thread]…     (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
Scripts/install-deps.sh
kinds=("$@")
[ ${#kinds[@]} -eq 0 ] && kinds=(address thread)
status=0
for kind in "${kinds[@]}"; do
  case $kind in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *) echo "sanitize.sh: unknown sanitizer '$kind' (address or thread)" >&2; exit 2 ;;
  esac
  echo "==> swift test --sanitize=$kind (scratch path $scratch)"
  if ! LSAN_OPTIONS="suppressions=$PWD/Scripts/sanitizers/lsan.supp:print_suppressions=0" \
    ASAN_OPTIONS="detect_leaks=1" \
    TSAN_OPTIONS="suppressions=$PWD/Scripts/sanitizers/tsan.supp:halt_on_error=0" \
    swift test --sanitize="$kind" --scratch-path "$scratch"; then
    echo "sanitize.sh: the suite failed under $kind" >&2
    status=1
  fi
done
exit $status
