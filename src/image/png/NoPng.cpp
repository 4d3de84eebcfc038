//===- NoPng.cpp - PNG files when built without libpng ---------------------===//
//
// Built instead of Png.cpp with -DSPIRV2LLVM_WITH_PNG=OFF (the embedder's
// minimal build): every PNG call fails saying so.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/PngImage.h"

namespace spirv2llvm {

namespace {
Status noPng(const std::string &Name) {
  return Status::error(Name + ": unsupported: PNG files (this spirv2llvm was "
                              "built without libpng, "
                              "-DSPIRV2LLVM_WITH_PNG=OFF)",
                       StatusCode::InvalidInput);
}
} // namespace

Result<Rgba8Image> readPng(const std::string &Path) { return noPng(Path); }

Result<Rgba8Image> readPngBytes(std::span<const uint8_t>,
                                const std::string &Name) {
  return noPng(Name);
}

Status writePngRGBA8(const std::string &Path, uint32_t, uint32_t,
                     std::span<const uint8_t>) {
  return noPng(Path);
}

Status writePngRGBA16(const std::string &Path, uint32_t, uint32_t,
                      std::span<const uint16_t>) {
  return noPng(Path);
}

} // namespace spirv2llvm
