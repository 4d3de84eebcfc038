#!/usr/bin/env bash
# Quick start, step 1: install what is missing, build, and translate the
# design document's shader (shaders/examples/bitreverse.frag) to LLVM IR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/deps.sh
bash scripts/build.sh
echo
echo "== build/bin/spirv2llvm shaders/examples/bitreverse.frag -O2"
./build/bin/spirv2llvm shaders/examples/bitreverse.frag -O2
