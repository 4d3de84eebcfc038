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
//   std::string Diff = compareJobs(J, Mine.Job, {1, 1e-5});  // "" if equal
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_VULKAN_GRAPHICSDIFFERENTIAL_H
#define SPIRV2LLVM_TESTS_VULKAN_GRAPHICSDIFFERENTIAL_H

#include "VulkanGraphicsRunner.h"

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
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
  for (GraphicsInputAttachment &I : C.Job.InputAttachments)
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
  // A (set, binding) given once at element 0 is a single descriptor; more
  // elements make it an array (GraphicsPipeline tells them apart).
  std::map<std::pair<uint32_t, uint32_t>, unsigned> Elements;
  for (const GraphicsBuffer &B : J.Buffers)
    Elements[{B.Set, B.Binding}] += 1 + (B.ArrayElement != 0);
  for (const GraphicsImage &I : J.Images)
    Elements[{I.Set, I.Binding}] += 1 + (I.ArrayElement != 0);
  auto IsArray = [&](uint32_t Set, uint32_t Binding) {
    return Elements[{Set, Binding}] > 1;
  };
  for (const GraphicsBuffer &B : J.Buffers) {
    if (IsArray(B.Set, B.Binding))
      R.bindArrayElement(B.Set, B.Binding, B.ArrayElement, B.Data->data(),
                         B.Data->size());
    else
      R.bind(B.Set, B.Binding, B.Data->data(), B.Data->size());
  }
  for (const GraphicsImage &I : J.Images) {
    const s2l_image *Img = I.Img ? &I.Img->descriptor() : nullptr;
    bool Array = IsArray(I.Set, I.Binding);
    switch (I.Kind) {
    case VkImageKind::Sampler:
      if (Array)
        R.bindSamplerArrayElement(I.Set, I.Binding, I.ArrayElement, &I.Sampler);
      else
        R.bindSampler(I.Set, I.Binding, &I.Sampler);
      break;
    case VkImageKind::CombinedImageSampler:
      if (Array)
        R.bindCombinedImageSamplerArrayElement(I.Set, I.Binding, I.ArrayElement,
                                               Img, &I.Sampler);
      else
        R.bindCombinedImageSampler(I.Set, I.Binding, Img, &I.Sampler);
      break;
    default:
      if (Array)
        R.bindImageArrayElement(I.Set, I.Binding, I.ArrayElement, Img);
      else
        R.bindImage(I.Set, I.Binding, Img);
      break;
    }
  }
  // Input attachments are images at their set and binding, as in Vulkan
  // (the attachment number is the render pass's business).
  for (const GraphicsInputAttachment &I : J.InputAttachments)
    R.bindImage(I.Set, I.Binding, I.Img ? &I.Img->descriptor() : nullptr);
  for (const DrawCommand &C : J.Draws)
    if (Status S = (*P)->draw(Fb, R, C, Threads); !S.ok())
      return S;
  return Status::success();
}

/// How far two renders may be apart: normalized formats (UNORM, SNORM,
/// SRGB, unorm depth) in LSBs of the format, float formats (SFLOAT,
/// UFLOAT, D32) relative to the reference value (absolute below 1).
/// Integer formats and stencil always compare exactly.
struct Tolerance {
  double Lsb = 1;
  double Float = 1e-5;
};

/// "" when every texel of \p Ref and \p Got agrees within \p Tol
/// (per component); else the
/// number of differing texels and the first few, with coordinates.
inline std::string compareImages(const std::string &What, const Image &Ref,
                                 const Image &Got, const Tolerance &Tol) {
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
          // Normalized formats: LSBs of the widest normalized component
          // (a relative epsilon: k/255 - (k-1)/255 in floats may exceed
          // 1/255 by an ulp); float formats: relative.
          unsigned NormBits = 0;
          for (unsigned C = 0; C < F.NumComponents; ++C)
            if (F.Components[C].Numeric == NumericKind::UNorm ||
                F.Components[C].Numeric == NumericKind::SNorm ||
                F.Components[C].Numeric == NumericKind::SRGB)
              NormBits = std::max<unsigned>(NormBits, F.Components[C].Bits);
          for (int C = 0; C < 4; ++C) {
            double Allowed =
                NormBits ? Tol.Lsb / double((uint64_t(1) << NormBits) - 1) *
                               (1 + 1e-5)
                         : Tol.Float * std::max(1.0, std::fabs(double(A[C])));
            Differs |= !(std::fabs(double(A[C]) - B[C]) <= Allowed) &&
                       !(std::isnan(A[C]) && std::isnan(B[C]));
          }
          Values =
              llvm::formatv("({0:F4}, {1:F4}, {2:F4}, {3:F4}) vs "
                            "({4:F4}, {5:F4}, {6:F4}, {7:F4})",
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
                               const Tolerance &Tol) {
  std::string Out;
  for (size_t I = 0; I < Ref.Color.size(); ++I)
    if (Ref.Color[I])
      Out += compareImages(llvm::formatv("colour {0}", I), *Ref.Color[I],
                           *Got.Color[I], Tol);
  if (Ref.DepthStencil)
    Out += compareImages("depth/stencil", *Ref.DepthStencil, *Got.DepthStencil,
                         Tol);
  for (size_t I = 0; I < Ref.Resolve.size(); ++I)
    if (Ref.Resolve[I])
      Out += compareImages(llvm::formatv("resolve {0}", I), *Ref.Resolve[I],
                           *Got.Resolve[I], Tol);
  for (size_t I = 0; I < Ref.Images.size(); ++I)
    if (Ref.Images[I].Kind == VkImageKind::StorageImage)
      Out += compareImages(llvm::formatv("storage image {0}", I),
                           *Ref.Images[I].Img, *Got.Images[I].Img, Tol);
  for (size_t I = 0; I < Ref.Buffers.size(); ++I)
    if (!Ref.Buffers[I].IsUniform &&
        *Ref.Buffers[I].Data != *Got.Buffers[I].Data)
      Out += llvm::formatv("storage buffer at set {0} binding {1} differs\n",
                           Ref.Buffers[I].Set, Ref.Buffers[I].Binding);
  return Out;
}

} // namespace spirv2llvm::vk

#endif
