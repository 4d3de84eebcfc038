//===- RunImages.h - `run --image` and `--sampler` --------------*- C++ -*-===//
//
// The image and sampler resources of `spirv2llvm run`: parsing
//
//   --image   [SET.]BINDING[[INDEX]]:WxH[xD][:FORMAT][:levels=N][:layers=N]
//                                   [:samples=N][:view=VIEW][:init=KIND]
//   --image   [SET.]BINDING[[INDEX]]:FILE.png[:FORMAT]
//   --sampler [SET.]BINDING[[INDEX]][:KEY=VALUE,...]
//
// creating the images (after the shader's reflection, which supplies the
// view and format when the option leaves them out) and writing an image
// out for --dump (a PNG, or the raw bytes). docs/cli.md describes the
// syntax and the defaults.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_DRIVER_RUNIMAGES_H
#define SPIRV2LLVM_DRIVER_RUNIMAGES_H

#include "BufferInit.h"

#include "spirv2llvm/Image.h"
#include "spirv2llvm/Interface.h"
#include "spirv2llvm/abi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace spirv2llvm {

/// One --image.
struct RunImage {
  uint32_t Set = 0, Binding = 0;
  std::optional<uint32_t> Index;
  /// Unset parts come from the shader (resolveImage).
  std::optional<Format> Fmt;
  std::optional<uint32_t> ViewType;
  std::optional<uint32_t> Layers;
  uint32_t Width = 0, Height = 0, Depth = 1, Levels = 1, Samples = 1;
  /// A PNG file to load level 0 from (then Width and Height are its own).
  std::string PngPath;
  BufferInit Init;
  /// The option's value as given, for messages.
  std::string Spec;
};

/// One --sampler: the s2l_sampler it binds.
struct RunSampler {
  uint32_t Set = 0, Binding = 0;
  std::optional<uint32_t> Index;
  s2l_sampler Sampler{};
  std::string Spec;
};

/// Parses [SET.]BINDING[[INDEX]].
bool parseBindingRef(llvm::StringRef S, uint32_t &Set, uint32_t &Binding,
                     std::optional<uint32_t> &Index);

/// Parses --image's value; the error does not repeat the option.
llvm::Expected<RunImage> parseImageSpec(llvm::StringRef V);
/// Parses --sampler's value; the error does not repeat the option.
llvm::Expected<RunSampler> parseSamplerSpec(llvm::StringRef V);

/// The default sampler: nearest filtering and mipmapping, clamp to edge,
/// normalized coordinates, no comparison, LOD range [0, 1000] (Vulkan's
/// VK_LOD_CLAMP_NONE), transparent black border.
s2l_sampler defaultSampler();

/// The view type the shader's image type asks for (Dim and Arrayed), or
/// nullopt for a binding that is not an image.
std::optional<uint32_t> viewForShader(const ComputeInfo::Binding &B);
/// "2d", "cube array", ... as --image spells view types.
const char *viewOptionName(uint32_t ViewType);

/// Creates the image \p I describes: view and format default to what the
/// shader's binding \p B (may be null: unused) declares, then 2D and
/// R8G8B8A8_UNORM; the bytes are initialized from the PNG or the init
/// pattern. The error does not repeat the option.
llvm::Expected<Image> createRunImage(const RunImage &I,
                                     const ComputeInfo::Binding *B);

/// Writes \p Img to \p Path: a PNG when the path ends in ".png" (level 0,
/// sample 0, layers and depth slices stacked top to bottom; 8-bit
/// UNORM/sRGB formats as RGBA8, all others as RGBA16), else every byte as
/// laid out in memory.
llvm::Error dumpImage(const Image &Img, const std::string &Path);

} // namespace spirv2llvm

#endif
