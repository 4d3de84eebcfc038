//===- GraphicsDifferential.h - Draws: GraphicsPipeline vs lavapipe -*- C++
//-*-//
//
// The differential harness of the graphics pipeline: one GraphicsJob
// (VulkanGraphicsRunner.h) is rendered on lavapipe and by
// spirv2llvm::GraphicsPipeline::draw, each into its own copy of the
// attachments (same initial contents), and the attachments, storage
// buffers and storage images are compared texel by texel.
//
//   GraphicsJob J = ...;                      // images of the reference
//   ClonedJob Mine = cloneJob(J);             // same contents, own images
//   llvm::Error E1 = Runner.run(J);
//   Status E2 = drawWithGraphicsPipeline(Mine.Job);
//   std::string Diff = compareJobs(J, Mine.Job, Tolerance);  // "" if equal
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_VULKAN_GRAPHICSDIFFERENTIAL_H
#define SPIRV2LLVM_TESTS_VULKAN_GRAPHICSDIFFERENTIAL_H

#include "VulkanGraphicsRunner.h"

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace spirv2llvm::vk {

/// A copy of a job with its own images and buffers (same contents); the
/// Desc is shared.
struct ClonedJob {
  GraphicsJob Job;
  std::vector<std::unique_ptr<Image>> Images;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> Buffers;
};

inline std::unique_ptr<Image> cloneImage(const Image *I) {
  if (!I)
    return nullptr;
  Result<Image> C = Image::create(I->desc());
  if (!C)
    return nullptr;
  std::memcpy(C->bytes().data(), I->bytes().data(), I->bytes().size());
  return std::make_unique<Image>(std::move(*C));
}

inline ClonedJob cloneJob(const GraphicsJob &J) {
  ClonedJob C;
  C.Job = J;
  auto Clone = [&](Image *I) -> Image * {
    if (!I)
      return nullptr;
    C.Images.push_back(cloneImage(I));
    return C.Images.back().get();
  };
  for (Image *&I : C.Job.Color)
    I = Clone(I);
  C.Job.DepthStencil = Clone(C.Job.DepthStencil);
  for (Image *&I : C.Job.Resolve)
    I = Clone(I);
  for (GraphicsImage &I : C.Job.Images)
    I.Img = Clone(I.Img);
  for (GraphicsBuffer &B : C.Job.Buffers) {
    C.Buffers.push_back(std::make_unique<std::vector<uint8_t>>(*B.Data));
    B.Data = C.Buffers.back().get();
  }
  return C;
}

/// Renders \p J with spirv2llvm::GraphicsPipeline: one draw() per
/// DrawCommand, in order, into the job's own images.
inline Status drawWithGraphicsPipeline(const GraphicsJob &J,
                                       unsigned Threads = 0) {
  Result<std::unique_ptr<GraphicsPipeline>> P =
      GraphicsPipeline::create(*J.Desc);
  if (!P)
    return P.status();
  Framebuffer Fb;
  for (Image *I : J.Color)
    Fb.Color.push_back(I ? &I->descriptor() : nullptr);
  Fb.DepthStencil = J.DepthStencil ? &J.DepthStencil->descriptor() : nullptr;
  for (Image *I : J.Resolve)
    Fb.Resolve.push_back(I ? &I->descriptor() : nullptr);
  DrawResources R;
  for (const std::vector<uint8_t> &V : J.VertexBuffers)
    R.VertexBuffers.push_back({V.data(), V.size()});
  R.IndexData = J.IndexData.empty() ? nullptr : J.IndexData.data();
  R.IndexSize = J.IndexData.size();
  R.Index = J.Index;
  R.PushConstants = J.PushConstants;
  for (const GraphicsBuffer &B : J.Buffers)
    R.bindArrayElement(B.Set, B.Binding, B.ArrayElement, B.Data->data(),
                       B.Data->size());
  for (const GraphicsImage &I : J.Images) {
    const s2l_image *Img = I.Img ? &I.Img->descriptor() : nullptr;
    switch (I.Kind) {
    case VkImageKind::Sampler:
      R.bindSamplerArrayElement(I.Set, I.Binding, I.ArrayElement, &I.Sampler);
      break;
    case VkImageKind::CombinedImageSampler:
      R.bindCombinedImageSamplerArrayElement(I.Set, I.Binding, I.ArrayElement,
                                             Img, &I.Sampler);
      break;
    default:
      R.bindImageArrayElement(I.Set, I.Binding, I.ArrayElement, Img);
      break;
    }
  }
  for (const DrawCommand &C : J.Draws)
    if (Status S = (*P)->draw(Fb, R, C, Threads); !S.ok())
      return S;
  return Status::success();
}

/// "" when every texel of \p Ref and \p Got agrees within \p Tolerance
/// (per component, in the format's unit: LSBs for normalized formats,
/// absolute for float ones, exactly for integers and stencil); else the
/// number of differing texels and the first few, with coordinates.
inline std::string compareImages(const std::string &What, const Image &Ref,
                                 const Image &Got, double Tolerance) {
  const ImageDesc &D = Ref.desc();
  const FormatInfo &F = Ref.formatInfo();
  std::string Out;
  unsigned Bad = 0;
  for (uint32_t Y = 0; Y < D.Height; ++Y)
    for (uint32_t X = 0; X < D.Width; ++X)
      for (uint32_t S = 0; S < D.Samples; ++S) {
        bool Differs = false;
        std::string Values;
        if (F.view() == ViewKind::Float) {
          Float4 A{}, B{};
          (void)Ref.readTexel(0, X, Y, 0, S, A);
          (void)Got.readTexel(0, X, Y, 0, S, B);
          // Normalized formats: compare in LSBs of the widest component.
          double Unit = 1;
          for (unsigned C = 0; C < F.NumComponents; ++C)
            if (F.Components[C].Numeric == NumericKind::UNorm ||
                F.Components[C].Numeric == NumericKind::SRGB)
              Unit = 1.0 / ((1u << F.Components[C].Bits) - 1);
          for (int C = 0; C < 4; ++C)
            Differs |= !(std::fabs(double(A[C]) - B[C]) <= Tolerance * Unit) &&
                       !(std::isnan(A[C]) && std::isnan(B[C]));
          Values =
              llvm::formatv("({0}, {1}, {2}, {3}) vs ({4}, {5}, {6}, {7})",
                            A[0], A[1], A[2], A[3], B[0], B[1], B[2], B[3]);
        }
        if (F.view() != ViewKind::Float || F.hasStencil()) {
          UInt4 A{}, B{};
          (void)Ref.readTexel(0, X, Y, 0, S, A);
          (void)Got.readTexel(0, X, Y, 0, S, B);
          if (A != B) {
            Differs = true;
            Values +=
                llvm::formatv(" ({0}, {1}, {2}, {3}) vs ({4}, {5}, {6}, "
                              "{7})",
                              A[0], A[1], A[2], A[3], B[0], B[1], B[2], B[3]);
          }
        }
        if (!Differs)
          continue;
        if (++Bad <= 8)
          Out += llvm::formatv("  {0} ({1}, {2}) sample {3}: lavapipe {4}\n",
                               What, X, Y, S, Values);
      }
  if (!Bad)
    return "";
  return llvm::formatv("{0}: {1} of {2} texels differ\n", What, Bad,
                       uint64_t(D.Width) * D.Height * D.Samples)
             .str() +
         Out;
}

/// Compares every attachment, storage buffer and storage image of the
/// two renders of one job ("" when all agree).
inline std::string compareJobs(const GraphicsJob &Ref, const GraphicsJob &Got,
                               double Tolerance) {
  std::string Out;
  for (size_t I = 0; I < Ref.Color.size(); ++I)
    if (Ref.Color[I])
      Out += compareImages(llvm::formatv("colour {0}", I), *Ref.Color[I],
                           *Got.Color[I], Tolerance);
  if (Ref.DepthStencil)
    Out += compareImages("depth/stencil", *Ref.DepthStencil, *Got.DepthStencil,
                         Tolerance);
  for (size_t I = 0; I < Ref.Resolve.size(); ++I)
    if (Ref.Resolve[I])
      Out += compareImages(llvm::formatv("resolve {0}", I), *Ref.Resolve[I],
                           *Got.Resolve[I], Tolerance);
  for (size_t I = 0; I < Ref.Images.size(); ++I)
    if (Ref.Images[I].Kind == VkImageKind::StorageImage)
      Out += compareImages(llvm::formatv("storage image {0}", I),
                           *Ref.Images[I].Img, *Got.Images[I].Img, Tolerance);
  for (size_t I = 0; I < Ref.Buffers.size(); ++I)
    if (!Ref.Buffers[I].IsUniform &&
        *Ref.Buffers[I].Data != *Got.Buffers[I].Data)
      Out += llvm::formatv("storage buffer at set {0} binding {1} differs\n",
                           Ref.Buffers[I].Set, Ref.Buffers[I].Binding);
  return Out;
}

} // namespace spirv2llvm::vk

#endif
