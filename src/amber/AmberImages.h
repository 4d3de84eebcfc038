//===- AmberImages.h - Amber images and samplers as descriptors -*- C++ -*-===//
//
// A compute pipeline's image, sampler and texel buffer bindings: each
// bound buffer becomes an s2l_image descriptor laid out by
// spirv2llvm::Image (one level, texels tightly packed, as Amber stores
// them) whose data is the buffer's own bytes, so that a buffer bound both
// as a storage buffer and as a texel buffer is one memory, as in Vulkan,
// and EXPECT reads what the shader stored; each SAMPLER an s2l_sampler.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_AMBERIMAGES_H
#define SPIRV2LLVM_AMBER_AMBERIMAGES_H

#include "amber/AmberScript.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/Image.h"

#include "llvm/Support/Error.h"

#include <list>
#include <memory>

namespace spirv2llvm::amber {

/// What the descriptors of one dispatch point to; must outlive it.
class ImageBindings {
public:
  /// Binds \p P's image, sampler and texel buffer bindings into \p R;
  /// \p Info is the shader's reflection (see bind()).
  llvm::Error bind(Script &S, const PipelineDecl &P, const ComputeInfo &Info,
                   DispatchResources &R);
private:
  llvm::Expected<const s2l_image *> image(Script &S, const BindDecl &B,
                                          const std::string &Buffer);
  llvm::Expected<const s2l_sampler *> sampler(Script &S,
                                              const std::string &Name);
  std::list<s2l_image> Images;
  std::list<s2l_sampler> Samplers;
  s2l_sampler DefaultSampler{};
};

/// Makes levels 1 and up of an image buffer with MIP_LEVELS from its level
/// 0, as Amber's Vulkan engine does when it uploads an image with data:
/// each level blitted from the one above with a linear filter
/// (spirv2llvm/MipChain.h). The buffer's Data grows to the whole chain.
/// Fails, naming the buffer, for formats a linear blit refuses (integer,
/// depth/stencil) and for more levels than the size has.
llvm::Error fillMipLevels(BufferDecl &Buf);

/// Whether a binding is an image, sampler or texel buffer.
bool isImageBinding(BindKind K);

} // namespace spirv2llvm::amber

#endif
