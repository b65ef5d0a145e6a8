#!/usr/bin/env bash
# Installs libvips-dev (and the vips CLI, xxd and python3 that some tests use) and libssl-dev
# (OpenSSL's libcrypto, for SHA-256 and HMAC; libvips-dev brings it on Debian) with apt-get
# when missing.
set -euo pipefail

if pkg-config --exists vips libcrypto 2>/dev/null && command -v vips >/dev/null 2>&1 \
  && command -v xxd >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  exit 0
fi
packages=(libvips-dev libvips-tools libssl-dev pkg-config xxd python3)
if [ "$(id -u)" -eq 0 ]; then
  sudo_cmd=()
elif command -v sudo >/dev/null 2>&1; then
  sudo_cmd=(sudo)
else
  echo "error: libvips-dev is missing and this user can neither run apt-get as root nor sudo." >&2
  echo "       Install it yourself: apt-get install ${packages[*]}" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: libvips-dev is missing and apt-get is not available; install libvips (>= 8.14) with your package manager." >&2
  exit 1
fi
echo "==> installing ${packages[*]} with apt-get"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${packages[@]}" >/dev/null
