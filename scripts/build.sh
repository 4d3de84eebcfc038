#!/usr/bin/env bash
# Configures and builds spirv2llvm in build/ (Release, Ninja, two jobs:
# the machines this runs on have two cores). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
