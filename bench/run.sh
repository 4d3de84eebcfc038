#!/usr/bin/env bash
# Runs the benchmark suite and prints its tables (docs/performance.md).
#
#   bash bench/run.sh [--quick] [s2l-bench options...]
#
#  1. s2l-bench: every shader of bench/shaders/ on spirv2llvm and on
#     lavapipe, at 1 thread and at all cores (exit status 1 if outputs
#     disagree);
#  2. s2l-image-bench: bilinear, trilinear, texelFetch and imageStore on
#     spirv2llvm and on lavapipe, and the cost of one s2l_image_op call
#     (exit status 1 if outputs disagree beyond filtering tolerance);
#  3. s2l-graphics-bench: the rasterizer (fill rate, small triangles, a lit
#     MSAA mesh) on spirv2llvm at W = 4/8/16 and on lavapipe (exit status
#     1 if the pictures disagree);
#  4. s2l-translate-bench: translation speed (SPIR-V words per second) and
#     JIT compile time per shader over the glslang corpus of
#     ../shared/corpus, built into a temporary directory (skipped, with a
#     note, when the corpus or glslangValidator is missing). Building the
#     corpus takes minutes; S2L_CORPUS_DIR=DIR reuses (or fills, once) DIR.
# --quick shortens both (for a smoke test; the numbers are noisier).
# Builds the two programs first if build/ exists (BUILD_DIR overrides).
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
QUICK=0
ARGS=()
for a in "$@"; do
  if [ "$a" = "--quick" ]; then QUICK=1; else ARGS+=("$a"); fi
done

if [ -f "$BUILD/build.ninja" ] || [ -f "$BUILD/Makefile" ]; then
  cmake --build "$BUILD" --target s2l-bench s2l-image-bench s2l-graphics-bench s2l-translate-bench -j2 >/dev/null ||
    { echo "run.sh: build failed" >&2; exit 2; }
fi
BIN=$BUILD/bin
[ -x "$BIN/s2l-bench" ] || { echo "run.sh: $BIN/s2l-bench missing: build first" >&2; exit 2; }

echo "## Throughput against lavapipe"
echo
if [ $QUICK -eq 1 ]; then ARGS=(--seconds 0.05 "${ARGS[@]}"); fi
"$BIN/s2l-bench" "${ARGS[@]+"${ARGS[@]}"}"
status=$?

echo
echo "## Images"
echo
IMG_ARGS=()
if [ $QUICK -eq 1 ]; then IMG_ARGS=(--seconds 0.05 --reps 3 --size 256); fi
"$BIN/s2l-image-bench" "${IMG_ARGS[@]+"${IMG_ARGS[@]}"}" || status=1

echo
echo "## Graphics"
echo
GFX_ARGS=()
if [ $QUICK -eq 1 ]; then GFX_ARGS=(--seconds 0.05 --reps 3 --scale 0.25); fi
"$BIN/s2l-graphics-bench" "${GFX_ARGS[@]+"${GFX_ARGS[@]}"}" || status=1

echo
echo "## Translation speed"
echo
CORPUS_SCRIPT=$ROOT/../shared/corpus/build-glslang-corpus.sh
SPV=${S2L_CORPUS_DIR:-}
if [ -z "$SPV" ] || [ -z "$(ls "$SPV" 2>/dev/null)" ]; then
  if [ ! -f "$CORPUS_SCRIPT" ] || ! command -v glslangValidator >/dev/null; then
    echo "(skipped: needs $CORPUS_SCRIPT and glslangValidator)"
    exit $status
  fi
  if [ -z "$SPV" ]; then
    TMP=$(mktemp -d)
    trap 'rm -rf "$TMP"' EXIT
    SPV=$TMP/spv
  fi
  bash "$CORPUS_SCRIPT" "$SPV" >"$SPV.log" 2>&1
  tail -1 "$SPV.log"
fi
TB=("$BIN/s2l-translate-bench" "$SPV" --benchmark_counters_tabular=true)
if [ $QUICK -eq 1 ]; then
  TB+=(--jit=none --benchmark_min_time=0.1)
fi
"${TB[@]}" 2>&1 | grep -v '^\*\*\*WARNING'
exit $status
