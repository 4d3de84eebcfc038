#!/usr/bin/env bash
# Fuzz the whole translate path with libFuzzer (see docs/robustness.md).
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#   SECONDS  run time of each target (default 60)
#   TARGET   validate | novalidate | amber | image (default: all, one
#            after the other; amber: the AmberScript and VkScript parsers,
#            seeded from tests/amber; image: the image runtime,
#            s2l_image_op, on images, samplers and operands made from the
#            bytes)
#
# Builds the fuzz targets in their own build dir ($FUZZ_BUILD_DIR, default
# build-fuzz; clang-19, -fsanitize=fuzzer,address,undefined), builds a seed
# corpus of SPIR-V modules (the glslang corpus of ../shared/corpus and the
# repository's shaders and test inputs), then runs each target for SECONDS.
# New inputs accumulate in $FUZZ_BUILD_DIR/fuzz-corpus/TARGET across runs;
# findings are written to $FUZZ_BUILD_DIR/fuzz-artifacts/TARGET/.
# Ends with libFuzzer's final stats of each target (executions, coverage);
# exits non-zero if any target found a crash, leak, timeout or OOM.
#
# Environment: FUZZ_BUILD_DIR, JOBS (build jobs, default 2), FUZZ_ARGS
# (extra libFuzzer options), SHARED (default: ../shared beside the repo).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
SECONDS_PER_TARGET=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(validate novalidate amber image)
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-2}
SHARED=${SHARED:-$ROOT/../shared}
[ -d "$SHARED" ] || SHARED=/work/shared

# --- build --------------------------------------------------------------------
# Tests are left out unless FUZZ_BUILD_TESTS=ON (scripts/test-sanitized.sh
# shares its build dir with the sanitized test suite).
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
                                          -DCMAKE_C_COMPILER_LAUNCHER=ccache)
CC=clang-19 CXX=clang++-19 cmake -S . -B "$BUILD" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DSPIRV2LLVM_FUZZERS=ON \
  -DSPIRV2LLVM_BUILD_TESTS=${FUZZ_BUILD_TESTS:-OFF} "${launcher[@]}" >/dev/null
for t in "${TARGETS[@]}"; do
  cmake --build "$BUILD" -j "$JOBS" --target "s2l-fuzz-$t"
done

# --- seed corpus --------------------------------------------------------------
SEEDS=$BUILD/fuzz-seeds
if [ ! -f "$SEEDS/.done" ]; then
  rm -rf "$SEEDS"; mkdir -p "$SEEDS"
  if [ -x "$SHARED/corpus/build-glslang-corpus.sh" ]; then
    # Valid modules only; the targets' mutations supply the invalid ones.
    "$SHARED/corpus/build-glslang-corpus.sh" "$SEEDS" >/dev/null || true
  else
    echo "fuzz: $SHARED/corpus not found; seeding from the repository only" >&2
  fi
  n=0
  while IFS= read -r f; do
    n=$((n + 1)); out="$SEEDS/repo-$n-$(basename "$f").spv"
    case "$f" in
      *.spvasm) spirv-as --target-env vulkan1.3 "$f" -o "$out" 2>/dev/null ||
                spirv-as "$f" -o "$out" 2>/dev/null || true ;;
      *) glslangValidator -V --target-env vulkan1.3 "$f" -o "$out" \
           >/dev/null 2>&1 || true ;;
    esac
  done < <(find shaders tests/lit tests/corpus/repro -type f \
             \( -name '*.spvasm' -o -name '*.comp' -o -name '*.frag' \
                -o -name '*.vert' \) | sort)
  find "$SEEDS" -name '*.spv' -size 0 -delete
  touch "$SEEDS/.done"
fi
echo "fuzz: $(find "$SEEDS" -name '*.spv' | wc -l) seed modules in $SEEDS"
# The Amber parsers' seeds: the hand-written scripts of both formats
# (remade only when the amber target runs, so that runs of the other
# targets side by side do not race on the directory).
AMBER_SEEDS=$BUILD/fuzz-seeds-amber
if [[ " ${TARGETS[*]} " == *" amber "* ]]; then
  rm -rf "$AMBER_SEEDS"; mkdir -p "$AMBER_SEEDS"
  cp tests/amber/scripts/* "$AMBER_SEEDS"/
  find tests/amber/inputs -name '*.amber' -o -name '*.vkscript' |
    xargs -I{} cp {} "$AMBER_SEEDS"/
fi

# --- run ----------------------------------------------------------------------
# -timeout: one input taking 20 s is a hang; -rss_limit_mb bounds memory;
# -max_len covers the largest seeds (a few hundred KiB).
status=0
for t in "${TARGETS[@]}"; do
  corpus=$BUILD/fuzz-corpus/$t
  artifacts=$BUILD/fuzz-artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  log=$BUILD/fuzz-$t.log
  echo "fuzz: s2l-fuzz-$t for ${SECONDS_PER_TARGET}s (log: $log)"
  # The fuzzer exits non-zero on a finding; keep going to report both.
  set +e
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$BUILD/bin/s2l-fuzz-$t" -max_total_time="$SECONDS_PER_TARGET" \
      -timeout=20 -rss_limit_mb=3072 -max_len=524288 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" ${FUZZ_ARGS:-} \
      "$corpus" $(case "$t" in amber) echo "$AMBER_SEEDS" ;;
                               image) ;; # built from bytes, no seeds
                               *) echo "$SEEDS" ;; esac) \
      >"$log" 2>&1
  rc=$?
  set -e
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  echo "fuzz: $t: exit $rc; ${done_line:-no DONE line}; executions ${execs:-?}"
  if [ $rc -ne 0 ]; then
    status=1
    echo "fuzz: $t FOUND A PROBLEM; the report:" >&2
    grep -E -A40 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|fuzz: ' \
      "$log" | head -80 >&2 || tail -40 "$log" >&2
    ls -1 "$artifacts" >&2
  fi
done
exit $status
