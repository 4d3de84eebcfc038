#!/usr/bin/env bash
# Quick start, step 2: the whole test suite (unit, lit/FileCheck IR tests,
# execution tests). Installs and builds first if needed. Ends with ctest's
# summary line; exits non-zero if any test fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/deps.sh
bash scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" -j "${JOBS:-2}" --output-on-failure "$@"
