#!/usr/bin/env bash
# CI, third part: the thread stress test (tests/stress/ThreadStress.cpp)
# built with ThreadSanitizer. Only that target and the libraries it links
# are built ($TSAN_BUILD_DIR, default build-tsan; clang-19 at -O1), to keep
# CI's time budget. Any data race report fails (halt_on_error).
# Environment: TSAN_BUILD_DIR, JOBS (default 2), TSAN_THREADS (4),
# TSAN_REPS (2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${TSAN_BUILD_DIR:-build-tsan}
JOBS=${JOBS:-2}

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
                                          -DCMAKE_C_COMPILER_LAUNCHER=ccache)
CC=clang-19 CXX=clang++-19 cmake -S . -B "$BUILD" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DSPIRV2LLVM_TSAN=ON \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DSPIRV2LLVM_BUILD_TESTS=ON -DSPIRV2LLVM_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target s2l-thread-stress

# Suppressions: third-party code only, each with its reason (see the file).
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/sanitizers/tsan.supp"
"$BUILD"/bin/s2l-thread-stress --threads "${TSAN_THREADS:-4}" \
  --reps "${TSAN_REPS:-2}"
