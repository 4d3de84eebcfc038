#!/usr/bin/env bash
# CI: the embedder's minimal configuration. Builds the library, the C
# example and the command line with glslang, Vulkan, the tests and the
# benchmarks off (CMake is not even allowed to find glslang or Vulkan), so
# only LLVM and SPIRV-Tools are used, then checks that this build
# translates and runs SPIR-V, installs, and refuses GLSL with a clear error.
# Environment: MINIMAL_BUILD_DIR (default build-minimal), JOBS (default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${MINIMAL_BUILD_DIR:-build-minimal}
JOBS=${JOBS:-2}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSPIRV2LLVM_WITH_GLSLANG=OFF -DSPIRV2LLVM_WITH_VULKAN=OFF \
  -DSPIRV2LLVM_WITH_PNG=OFF -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON \
  -DSPIRV2LLVM_BUILD_TESTS=OFF -DSPIRV2LLVM_BUILD_BENCH=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_glslang=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_Vulkan=ON >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target spirv2llvm s2l-example-c \
  spirv2llvm_shared Spirv2llvmPasses

fail() { echo "test-minimal: $*" >&2; exit 1; }
s2l=$BUILD/bin/spirv2llvm
spvasm=shaders/examples/saxpy.spvasm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# SPIR-V in, IR out; object code for the host.
# (Output captured first: with pipefail, `cmd | grep -q` fails whenever grep
# exits before cmd has written everything.)
ir=$("$s2l" "$spvasm" -O2)
grep -q "define .*@s2l_main" <<<"$ir" || fail "no IR for $spvasm"
"$s2l" "$spvasm" --emit=obj -o "$tmp/saxpy.o"
[ -s "$tmp/saxpy.o" ] || fail "no object file"
# Run it: y = 2 * x + 1 over 4096 elements.
"$s2l" run "$spvasm" --buffer 0:16K:init=iota_f32 --buffer 1:16K:init=fill_f32:1 \
  --push-f32 2 --push-u32 4096 --dispatch 64 --dump "1:$tmp/y.bin" --quiet
python3 - "$tmp/y.bin" <<'PY' || fail "saxpy gave wrong results"
import struct, sys
y = struct.unpack("4096f", open(sys.argv[1], "rb").read())
bad = [i for i in range(4096) if y[i] != 2.0 * i + 1.0]
sys.exit(1 if bad else 0)
PY
# The C API on the same shader.
"$BUILD/bin/s2l-example-c" --shader "$spvasm" --threads 2 >/dev/null
# GLSL is refused with a message, exit 1.
set +e
msg=$("$s2l" shaders/examples/saxpy.comp 2>&1)
rc=$?
set -e
[ $rc -eq 1 ] || fail "GLSL input exited $rc, expected 1"
grep -q "built without glslang" <<<"$msg" || fail "unclear GLSL message: $msg"
# And it installs.
cmake --install "$BUILD" --prefix "$tmp/prefix" >/dev/null
[ -e "$tmp/prefix/include/spirv2llvm-c/spirv2llvm.h" ] || fail "install incomplete"
echo "test-minimal: ok (LLVM and SPIRV-Tools only)"
