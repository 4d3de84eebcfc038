//===- ImageDifferential.h - Shaders with images: JIT vs lavapipe -*- C++
//-*-===//
//
// The differential harness for shaders that use images, samplers and texel
// buffers: one GLSL compute shader and its bindings (buffers as
// VkBufferSpec, images/samplers/texel buffers as VkImageSpec, whose packed
// Data is also the s2l_image layout) run on lavapipe (VulkanComputeRunner)
// and through spirv2llvm's JIT (ComputeShader with DispatchResources::
// bindImage/bindSampler/bindCombinedImageSampler on s2l_image descriptors
// filled by packedImageLayout); afterwards every buffer and every image is
// compared.
//
//   ImageDiffCase C;
//   C.Glsl = "...";  C.Buffers = {...};  C.Images = {...};
//   auto Words = compileCase(C);
//   auto Ref = runOnLavapipe(Runner, *Words, C);
//   auto Got = runOnJit(*Words, C, /*Width=*/4, Backend::Simd);
//   std::string Diff = compareResults(C, *Ref, *Got);   // "" when equal
//
// While the translator rejects images, runOnJit fails with its
// "unsupported: images, samplers ..." message; isUnsupportedImages() says
// so, and tests skip on it (and only on it).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_VULKAN_IMAGEDIFFERENTIAL_H
#define SPIRV2LLVM_TESTS_VULKAN_IMAGEDIFFERENTIAL_H

#include "VulkanComputeRunner.h"

#include "frontend/Frontend.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace spirv2llvm::vk {

struct ImageDiffCase {
  std::string Name;
  std::string Glsl; ///< a compute shader, entry point main
  std::vector<VkBufferSpec> Buffers;
  std::vector<VkImageSpec> Images;
  std::vector<uint8_t> PushConstants;
  std::array<uint32_t, 3> Groups{1, 1, 1};
  /// 0: buffers and images compare byte for byte. Otherwise the buffers
  /// hold 32-bit floats that may differ by this much (filtering precision,
  /// see ImageOpLavapipeTest.cpp); images still compare exactly.
  double FloatTolerance = 0;
};

/// The contents after the dispatch, in the order of the case's lists.
struct ImageDiffResult {
  std::vector<std::vector<uint8_t>> Buffers, Images;
};

inline llvm::Expected<std::vector<uint32_t>>
compileCase(const ImageDiffCase &C) {
  frontend::GlslOptions Opts;
  Opts.Stage = frontend::ShaderStage::Compute;
  Opts.TargetEnv = SPV_ENV_VULKAN_1_2;
  Opts.FileName = C.Name + ".comp";
  return frontend::compileGlsl(C.Glsl, Opts);
}

inline llvm::Expected<ImageDiffResult>
runOnLavapipe(VulkanComputeRunner &Runner, const std::vector<uint32_t> &Words,
              const ImageDiffCase &C) {
  VkDispatch D;
  D.Spirv = Words;
  D.Buffers = C.Buffers;
  D.Images = C.Images;
  D.PushConstants = C.PushConstants;
  D.GroupsX = C.Groups[0];
  D.GroupsY = C.Groups[1];
  D.GroupsZ = C.Groups[2];
  if (llvm::Error E = Runner.run(D))
    return std::move(E);
  ImageDiffResult R;
  for (VkBufferSpec &B : D.Buffers)
    R.Buffers.push_back(std::move(B.Data));
  for (VkImageSpec &I : D.Images)
    R.Images.push_back(std::move(I.Data));
  return R;
}

/// True for the translator's (or runtime's) refusal of images: the one
/// failure image tests skip on until the translator supports them.
inline bool isUnsupportedImages(llvm::StringRef Message) {
  return Message.contains("unsupported") &&
         (Message.contains("image") || Message.contains("sampler") ||
          Message.contains("opaque"));
}

inline llvm::Expected<ImageDiffResult>
runOnJit(const std::vector<uint32_t> &Words, const ImageDiffCase &C,
         unsigned Width, Backend Bk) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Binary;
  Opts.Backend = Bk;
  if (Bk == Backend::Simd)
    Opts.Width = Width;
  Opts.TargetEnv = "vulkan1.2";
  // lavapipe (Mesa 22.3) rounds every multiply and add on its own; a fused
  // coordinate lands on the other side of a texel edge (the
  // address-mode cases).
  Opts.Contract = false;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Words.data()),
                              Words.size() * 4),
      C.Name + ".spv", Opts);
  if (!T)
    return T.takeError();
  auto S = ComputeShader::create(std::move(*T));
  if (!S)
    return llvm::createStringError(S.status().message());

  ImageDiffResult R;
  for (const VkBufferSpec &B : C.Buffers)
    R.Buffers.push_back(B.Data);
  for (const VkImageSpec &I : C.Images)
    R.Images.push_back(I.Data);
  // Descriptors point into R's vectors, which do not move from here on.
  std::vector<s2l_image> Descs(C.Images.size());
  std::map<std::pair<uint32_t, uint32_t>, unsigned> Elements;
  for (const VkBufferSpec &B : C.Buffers)
    ++Elements[{B.Set, B.Binding}];
  for (const VkImageSpec &I : C.Images)
    ++Elements[{I.Set, I.Binding}];

  DispatchResources Res;
  Res.PushConstants = C.PushConstants;
  for (size_t K = 0; K < C.Buffers.size(); ++K) {
    const VkBufferSpec &B = C.Buffers[K];
    if (B.DeviceAddress)
      return llvm::createStringError(
          "runOnJit: device-address buffers are not supported here");
    if (Elements[{B.Set, B.Binding}] > 1 || B.ArrayElement > 0)
      Res.bindArrayElement(B.Set, B.Binding, B.ArrayElement,
                           R.Buffers[K].data(), R.Buffers[K].size());
    else
      Res.bind(B.Set, B.Binding, R.Buffers[K].data(), R.Buffers[K].size());
  }
  for (size_t K = 0; K < C.Images.size(); ++K) {
    const VkImageSpec &I = C.Images[K];
    const s2l_image *Img = nullptr;
    if (I.Kind != VkImageKind::Sampler) {
      auto L = packedImageLayout(I);
      if (!L)
        return L.takeError();
      Descs[K] = *L;
      Descs[K].data = R.Images[K].data();
      Img = &Descs[K];
    }
    bool Array = Elements[{I.Set, I.Binding}] > 1 || I.ArrayElement > 0;
    switch (I.Kind) {
    case VkImageKind::Sampler:
      if (Array)
        Res.bindSamplerArrayElement(I.Set, I.Binding, I.ArrayElement,
                                    &I.Sampler);
      else
        Res.bindSampler(I.Set, I.Binding, &I.Sampler);
      break;
    case VkImageKind::CombinedImageSampler:
      if (Array)
        Res.bindCombinedImageSamplerArrayElement(
            I.Set, I.Binding, I.ArrayElement, Img, &I.Sampler);
      else
        Res.bindCombinedImageSampler(I.Set, I.Binding, Img, &I.Sampler);
      break;
    default:
      if (Array)
        Res.bindImageArrayElement(I.Set, I.Binding, I.ArrayElement, Img);
      else
        Res.bindImage(I.Set, I.Binding, Img);
      break;
    }
  }
  if (Status E = (*S)->dispatch(C.Groups, Res, /*Threads=*/2); !E.ok())
    return llvm::createStringError(E.message());
  return R;
}

/// "" when equal; otherwise the first differences, by buffer/image and
/// byte (or float, with a tolerance).
inline std::string compareResults(const ImageDiffCase &C,
                                  const ImageDiffResult &Lavapipe,
                                  const ImageDiffResult &Jit) {
  std::string Out;
  unsigned Shown = 0;
  auto Note = [&](const std::string &S) {
    if (Shown++ < 12)
      Out += S + "\n";
  };
  auto CompareBytes = [&](const char *What, size_t Index,
                          const std::vector<uint8_t> &A,
                          const std::vector<uint8_t> &B, bool Floats) {
    if (A.size() != B.size()) {
      Note(std::string(What) + " " + std::to_string(Index) + ": sizes " +
           std::to_string(A.size()) + " and " + std::to_string(B.size()));
      return;
    }
    size_t Step = Floats ? 4 : 1;
    for (size_t K = 0; K + Step <= A.size(); K += Step) {
      if (!Floats) {
        if (A[K] != B[K])
          Note(std::string(What) + " " + std::to_string(Index) + " byte " +
               std::to_string(K) + ": lavapipe " + std::to_string(A[K]) +
               ", spirv2llvm " + std::to_string(B[K]));
        continue;
      }
      float X, Y;
      std::memcpy(&X, &A[K], 4);
      std::memcpy(&Y, &B[K], 4);
      if (std::bit_cast<uint32_t>(X) != std::bit_cast<uint32_t>(Y) &&
          !(std::fabs(double(X) - double(Y)) <= C.FloatTolerance))
        Note(std::string(What) + " " + std::to_string(Index) + " float " +
             std::to_string(K / 4) + ": lavapipe " + std::to_string(X) +
             ", spirv2llvm " + std::to_string(Y));
    }
  };
  for (size_t K = 0; K < Lavapipe.Buffers.size(); ++K)
    CompareBytes("buffer", K, Lavapipe.Buffers[K], Jit.Buffers[K],
                 C.FloatTolerance > 0);
  for (size_t K = 0; K < Lavapipe.Images.size(); ++K)
    CompareBytes("image", K, Lavapipe.Images[K], Jit.Images[K], false);
  if (Shown > 12)
    Out += "... " + std::to_string(Shown - 12) + " more\n";
  return Out;
}

} // namespace spirv2llvm::vk

#endif
