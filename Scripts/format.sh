#!/usr/bin/env bash
# Formats every Swift file with the toolchain's swift-format and the repo's .swift-format.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format --in-place --recursive --configuration .swift-format Package.swift Sources Tests Fuzz Plugins
