#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and uses it as an outside
# project would (docs/architecture.md, README "Using the installed
# library"):
#  1. what is installed: library, headers, CMake package, pkg-config file,
#     the spirv2llvm command and the opt plugin;
#  2. examples/ configured with find_package(spirv2llvm) and built; both
#     examples run;
#  3. the C example compiled as C11 with only `pkg-config --cflags --libs
#     spirv2llvm` (no LLVM include path), and run;
#  4. the runtime headers (Jit.h, Compute.h, CompileCache.h, Status.h,
#     Interface.h, abi.h) compile as C++ with only the installed include
#     folder on the path;
#  5. the installed command translates a shader.
#
# usage: run.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
shader=$src/shaders/examples/saxpy.comp

fail() { echo "install test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name 'libspirv2llvm.so' | head -1)")
[ -n "$libdir" ] && [ -d "$libdir" ] || fail "libspirv2llvm.so not installed"
for f in include/spirv2llvm/spirv2llvm.h include/spirv2llvm/Compute.h \
         include/spirv2llvm/Status.h include/spirv2llvm-c/spirv2llvm.h \
         bin/spirv2llvm; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done
[ -n "$(find "$prefix" -name spirv2llvmConfig.cmake)" ] || fail "no CMake package"
pc=$(find "$prefix" -name spirv2llvm.pc | head -1)
[ -n "$pc" ] || fail "no pkg-config file"
[ -n "$(find "$prefix" -name libSpirv2llvmPasses.so)" ] || fail "no opt plugin"
[ "$(ls "$prefix/include" | tr '\n' ' ')" = "spirv2llvm spirv2llvm-c " ] ||
  fail "include/ holds more than the public headers: $(ls "$prefix/include")"

# 2. find_package
cmake -S "$src/examples" -B "$tmp/ex" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; fail "configuring examples/ failed"; }
cmake --build "$tmp/ex" >"$tmp/build.log" 2>&1 ||
  { tail -50 "$tmp/build.log"; fail "building examples/ failed"; }
"$tmp/ex/compute" --shader "$shader" --threads 2
"$tmp/ex/compute_c" --shader "$shader" --threads 2
# The examples must use the installed library, not the build tree's.
# (Output captured first: with pipefail, `ldd | grep -q` fails whenever grep
# exits before ldd has written everything.)
libs=$(ldd "$tmp/ex/compute_c")
grep -q "$prefix" <<<"$libs" ||
  fail "compute_c does not load the installed libspirv2llvm: $libs"

# 3. pkg-config, C11, no LLVM on the include path
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --cflags --libs spirv2llvm)
case "$flags" in *llvm-19*|*/llvm/*) fail "pkg-config flags mention LLVM: $flags";; esac
cc -std=c11 -pedantic -Wall -Werror "$src/examples/compute_c.c" $flags -lm \
   -o "$tmp/compute_c_pc"
LD_LIBRARY_PATH=$libdir "$tmp/compute_c_pc" --shader "$shader" --threads 2

# 4. runtime headers without LLVM
cat > "$tmp/runtime.cpp" <<'EOF'
#include "spirv2llvm/CompileCache.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/Status.h"
#include "spirv2llvm/abi.h"
#include "spirv2llvm/Interface.h"
int main() {
  spirv2llvm::DispatchResources R;
  R.bind(0, 0, nullptr, 0);
  spirv2llvm::Status S = spirv2llvm::Status::error("x");
  // No directory: a disabled cache, not an error.
  if (spirv2llvm::CompileCache::open("")->enabled())
    return 1;
  return S.ok() ? 1 : 0;
}
EOF
c++ -std=c++17 -Wall -Werror -I"$prefix/include" -c "$tmp/runtime.cpp" \
    -o "$tmp/runtime.o" || fail "runtime headers need more than include/"
c++ "$tmp/runtime.o" -L"$libdir" -lspirv2llvm -o "$tmp/runtime" ||
  fail "linking the runtime headers' users failed"
LD_LIBRARY_PATH=$libdir "$tmp/runtime" || fail "runtime test program failed"

# 5. the installed command
ir=$("$prefix/bin/spirv2llvm" "$shader" -O2)
grep -q "define .*@s2l_main" <<<"$ir" ||
  fail "the installed spirv2llvm does not translate"
echo "install test: ok ($prefix)"
