# Shared by the C targets' build.sh: the compiler and flags of a libFuzzer build with
# AddressSanitizer and UndefinedBehaviorSanitizer (any undefined behaviour aborts).
FUZZ_CC=${FUZZ_CC:-/opt/swift/usr/bin/clang}
[ -x "$FUZZ_CC" ] || FUZZ_CC=clang
FUZZ_CFLAGS=(-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
  -fno-sanitize-recover=undefined)
# lld beside that clang (ld.gold prints hundreds of warnings about ASan's symbols).
if [ -x "$(dirname "$(command -v "$FUZZ_CC")")/ld.lld" ]; then FUZZ_CFLAGS+=(-fuse-ld=lld); fi
