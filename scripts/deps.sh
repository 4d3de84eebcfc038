#!/usr/bin/env bash
# Installs, from Debian 12's own packages, whatever spirv2llvm needs that
# the machine lacks. Safe to run again: does nothing when all is present.
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ python3 pkg-config
  llvm-19-dev llvm-19-tools clang-19 libclang-rt-19-dev
  spirv-tools spirv-headers glslang-dev glslang-tools
  libgtest-dev libbenchmark-dev libpng-dev
  mesa-vulkan-drivers libvulkan-dev vulkan-tools
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
