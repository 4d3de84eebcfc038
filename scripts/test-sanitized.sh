#!/usr/bin/env bash
# CI, second half: the whole test suite under AddressSanitizer and
# UndefinedBehaviorSanitizer, then each libFuzzer target for a bounded time.
# Any sanitizer report, test failure or fuzzer finding fails.
#
# One build dir serves both ($ASAN_BUILD_DIR, default build-asan): clang-19
# with SPIRV2LLVM_FUZZERS=ON, which implies SPIRV2LLVM_SANITIZE and adds
# coverage instrumentation and the fuzz targets.
# Environment: ASAN_BUILD_DIR, JOBS (default 2), FUZZ_SECONDS (default 60
# per target; 0 skips fuzzing), FUZZ_SEED (default 1).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${ASAN_BUILD_DIR:-build-asan}
JOBS=${JOBS:-2}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
                                          -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# -O1, as the sanitizers recommend: compiling with ASan at -O3 costs about
# twice as long (DifferentialTest.cpp alone takes minutes).
CC=clang-19 CXX=clang++-19 cmake -S . -B "$BUILD" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DSPIRV2LLVM_FUZZERS=ON \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DSPIRV2LLVM_BUILD_TESTS=ON "${launcher[@]}" >/dev/null
cmake --build "$BUILD" -j "$JOBS"

# Leaks are findings, except in third-party code we do not build: the
# suppressions name only Mesa's lavapipe and the Vulkan loader (see the file).
SUPP=$PWD/tests/sanitizers/lsan.supp
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0
export LSAN_OPTIONS=suppressions=$SUPP:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure \
  --timeout 900 "$@"

if [ "$FUZZ_SECONDS" -gt 0 ]; then
  # Own options: libFuzzer sets its own leak checking per input. A fixed
  # seed (FUZZ_SEED) makes a CI finding reproduce with the same command;
  # longer runs by hand (scripts/fuzz.sh) use a random one.
  unset ASAN_OPTIONS LSAN_OPTIONS
  FUZZ_BUILD_DIR=$BUILD FUZZ_BUILD_TESTS=ON JOBS=$JOBS \
    FUZZ_ARGS="-seed=${FUZZ_SEED:-1} ${FUZZ_ARGS:-}" \
    bash scripts/fuzz.sh "$FUZZ_SECONDS"
fi
