//===- ImageJitDifferentialTest.cpp - Image shaders: JIT vs lavapipe ------===//
//
// Compute shaders with images, samplers and texel buffers, run on lavapipe
// and through the JIT (ImageDifferential.h) at W = 4 and 8 and with the
// one-invocation back end; every buffer and image must match. Until the
// translator supports images, each case skips with the translator's
// "unsupported" message (and only then: any other failure fails).
//
//===----------------------------------------------------------------------===//
#include "ImageDifferential.h"

#include "spirv2llvm/ImageFormat.h"

#include <gtest/gtest.h>

#include <random>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;

namespace {

enum : uint32_t {
  R8G8B8A8_UNORM = 37,
  R32_UINT = 98,
  D32_SFLOAT = 126,
  R32G32B32A32_SFLOAT = 109,
};

/// Floats k/1024 in [0, 1): exact in every float format and in filtering.
std::vector<uint8_t> floatTexels(size_t Bytes, std::mt19937 &Rng) {
  std::vector<uint8_t> B(Bytes);
  for (size_t K = 0; K + 4 <= Bytes; K += 4) {
    float V = float(Rng() % 1024) / 1024.0f;
    std::memcpy(&B[K], &V, 4);
  }
  return B;
}

VkImageSpec image(VkImageKind Kind, uint32_t Format, uint32_t View, uint32_t W,
                  uint32_t H, uint32_t Layers, uint32_t Levels,
                  std::mt19937 &Rng) {
  VkImageSpec S;
  S.Kind = Kind;
  S.Format = Format;
  S.ViewType = View;
  S.Width = W;
  S.Height = H;
  S.Layers = Layers;
  S.Levels = Levels;
  uint64_t Bytes = 0;
  if (auto L = packedImageLayout(S, &Bytes); !L)
    ADD_FAILURE() << llvm::toString(L.takeError());
  S.Data = floatTexels(Bytes, Rng);
  if (Format == R32_UINT)
    for (uint8_t &X : S.Data)
      X = uint8_t(Rng());
  return S;
}

s2l_sampler sampler(uint32_t Filter, uint32_t Mip, uint32_t Address) {
  s2l_sampler S{};
  S.mag_filter = S.min_filter = Filter;
  S.mipmap_mode = Mip;
  S.address_mode[0] = S.address_mode[1] = S.address_mode[2] = Address;
  S.max_lod = 16;
  S.max_anisotropy = 1;
  return S;
}

VkBufferSpec buffer(uint32_t Binding, size_t Bytes) {
  return {0, Binding, false, std::vector<uint8_t>(Bytes, 0)};
}

std::vector<ImageDiffCase> makeCases() {
  std::mt19937 Rng(9);
  std::vector<ImageDiffCase> Cases;
  {
    ImageDiffCase C;
    C.Name = "texel_fetch_levels";
    C.Glsl = R"(#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform texture2D Tex;
layout(set = 0, binding = 1) buffer Out { vec4 R[]; };
void main() {
  ivec2 P = ivec2(gl_GlobalInvocationID.xy);
  uint I = gl_GlobalInvocationID.y * 16u + gl_GlobalInvocationID.x;
  int Level = int(I % 3u);
  R[I] = texelFetch(Tex, P >> Level, Level) +
         texelFetch(Tex, P - 4, 0); // partly out of range: zero
}
)";
    C.Images = {image(VkImageKind::SampledImage, R32G32B32A32_SFLOAT,
                      S2L_VIEW_2D, 16, 8, 1, 3, Rng)};
    C.Images[0].Binding = 0;
    C.Buffers = {buffer(1, 16 * 8 * 16)};
    C.Groups = {2, 2, 1};
    Cases.push_back(C);
  }
  {
    ImageDiffCase C;
    C.Name = "image_load_store";
    C.Glsl = R"(#version 450
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba32f) uniform image2DArray Img;
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer Texels;
void main() {
  ivec3 P = ivec3(gl_GlobalInvocationID);
  vec4 V = imageLoad(Img, P);
  imageStore(Img, P, V.wzyx * 2.0 + 1.0);
  int I = P.z * 16 + P.y * 4 + P.x;
  imageStore(Texels, I, imageLoad(Texels, I) * 3u + uint(I));
}
)";
    C.Images = {image(VkImageKind::StorageImage, R32G32B32A32_SFLOAT,
                      S2L_VIEW_2D_ARRAY, 4, 4, 2, 1, Rng),
                image(VkImageKind::StorageTexelBuffer, R32_UINT,
                      S2L_VIEW_BUFFER, 32, 1, 1, 1, Rng)};
    C.Images[1].Binding = 1;
    C.Groups = {1, 1, 2};
    Cases.push_back(C);
  }
  {
    ImageDiffCase C;
    C.Name = "sample_trilinear";
    C.Glsl = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D Tex;
layout(set = 0, binding = 1) buffer Out { vec4 R[]; };
void main() {
  uint I = gl_GlobalInvocationID.x;
  vec2 UV = vec2(float(I % 8u) + 0.3, float(I / 8u) + 0.6) / 5.0 - 0.4;
  R[I] = textureLod(Tex, UV, float(I % 13u) * 0.3);
}
)";
    C.Images = {image(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                      S2L_VIEW_2D, 16, 16, 1, 5, Rng)};
    C.Images[0].Sampler = sampler(1, 1, 1);
    C.Buffers = {buffer(1, 64 * 16)};
    // Filtering precision (ImageOpLavapipeTest.cpp): 2 * 2^-8 + 2^-4.
    C.FloatTolerance = 2.0 / 256 + 1.0 / 16 + 1e-5;
    Cases.push_back(C);
  }
  {
    ImageDiffCase C;
    C.Name = "cube_separate_sampler_and_gather";
    C.Glsl = R"(#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform textureCube Cube;
layout(set = 0, binding = 1) uniform sampler Nearest;
layout(set = 1, binding = 0) uniform sampler2D Tex;
layout(set = 0, binding = 2) buffer Out { vec4 R[]; };
void main() {
  uint I = gl_GlobalInvocationID.x;
  float A = float(I) * 0.7 + 0.1;
  vec3 Dir = vec3(cos(A), sin(A * 1.3), sin(A) * 0.8);
  R[2u * I] = textureLod(samplerCube(Cube, Nearest), Dir, 0.0);
  vec2 UV = vec2(float(I % 8u) + 0.25, float(I / 8u) + 0.75) / 6.0;
  R[2u * I + 1u] = I % 4u == 0u ? textureGather(Tex, UV, 0)
                                : textureGather(Tex, UV, 1);
}
)";
    C.Images = {image(VkImageKind::SampledImage, R32G32B32A32_SFLOAT,
                      S2L_VIEW_CUBE, 4, 4, 6, 1, Rng),
                VkImageSpec{},
                image(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                      S2L_VIEW_2D, 6, 6, 1, 1, Rng)};
    C.Images[1].Kind = VkImageKind::Sampler;
    C.Images[1].Binding = 1;
    C.Images[1].Sampler = sampler(0, 0, 2);
    C.Images[2].Set = 1;
    C.Images[2].Sampler = sampler(1, 0, 0);
    C.Buffers = {buffer(2, 64 * 16)};
    Cases.push_back(C);
  }
  {
    ImageDiffCase C;
    C.Name = "queries";
    C.Glsl = R"(#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform texture2DArray Tex;
layout(set = 0, binding = 1) uniform utextureBuffer Texels;
layout(set = 0, binding = 2, rgba32f) uniform readonly image2DArray Img;
layout(set = 0, binding = 3) buffer Out { ivec4 R[]; };
void main() {
  R[0] = ivec4(textureSize(Tex, 0), textureQueryLevels(Tex));
  R[1] = ivec4(textureSize(Texels), imageSize(Img));
}
)";
    C.Images = {image(VkImageKind::SampledImage, R32G32B32A32_SFLOAT,
                      S2L_VIEW_2D_ARRAY, 8, 4, 3, 2, Rng),
                image(VkImageKind::UniformTexelBuffer, R32_UINT,
                      S2L_VIEW_BUFFER, 21, 1, 1, 1, Rng),
                image(VkImageKind::StorageImage, R32G32B32A32_SFLOAT,
                      S2L_VIEW_2D_ARRAY, 5, 3, 2, 1, Rng)};
    C.Images[1].Binding = 1;
    C.Images[2].Binding = 2;
    C.Buffers = {buffer(3, 32)};
    Cases.push_back(C);
  }
  {
    // Each address mode and a border colour, on 5 combined samplers
    // indexed with constants (lavapipe has no dynamic indexing), nearest
    // and linear.
    ImageDiffCase C;
    C.Name = "address_modes_sampler_array";
    C.Glsl = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D Tex[5];
layout(set = 0, binding = 1) buffer Out { vec4 R[]; };
void main() {
  uint I = gl_GlobalInvocationID.x;
  vec2 UV = vec2(float(I % 8u) * 0.61 - 1.93, float(I / 8u) * 0.57 - 1.71);
  R[5u * I + 0u] = textureLod(Tex[0], UV, 0.0);
  R[5u * I + 1u] = textureLod(Tex[1], UV, 0.0);
  R[5u * I + 2u] = textureLod(Tex[2], UV, 0.0);
  R[5u * I + 3u] = textureLod(Tex[3], UV, 0.0);
  R[5u * I + 4u] = textureLod(Tex[4], UV, 0.0);
}
)";
    for (uint32_t Mode = 0; Mode < 5; ++Mode) {
      VkImageSpec I = image(VkImageKind::CombinedImageSampler,
                            R32G32B32A32_SFLOAT, S2L_VIEW_2D, 5, 3, 1, 1, Rng);
      I.Sampler = sampler(Mode % 2, 0, Mode);
      I.Sampler.border_color = 4;
      I.ArrayElement = Mode;
      C.Images.push_back(I);
    }
    C.Buffers = {buffer(1, 5 * 64 * 16)};
    C.FloatTolerance = 2.0 / 256 + 1e-5;
    Cases.push_back(C);
  }
  {
    ImageDiffCase C;
    C.Name = "unorm8_store_and_shadow";
    C.Glsl = R"(#version 450
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image3D Img;
layout(set = 0, binding = 1) uniform sampler2DShadow Depth;
layout(set = 0, binding = 2) buffer Out { float R[]; };
void main() {
  ivec3 P = ivec3(gl_GlobalInvocationID);
  float X = float(P.x + 4 * P.y + 16 * P.z);
  imageStore(Img, P, vec4(X / 37.0 - 0.3, sin(X), X * 0.013, 0.5));
  vec2 UV = (vec2(P.xy) + vec2(0.3, 0.7)) / 4.0;
  R[P.x + 4 * P.y + 16 * P.z] = textureLod(Depth, vec3(UV, X / 48.0), 0.0);
}
)";
    C.Images = {image(VkImageKind::StorageImage, R8G8B8A8_UNORM, S2L_VIEW_3D, 4,
                      4, 1, 1, Rng),
                image(VkImageKind::CombinedImageSampler, D32_SFLOAT,
                      S2L_VIEW_2D, 4, 4, 1, 1, Rng)};
    C.Images[0].Depth = 3;
    C.Images[0].Data.resize(4 * 4 * 3 * 4);
    C.Images[1].Binding = 1;
    C.Images[1].Sampler = sampler(0, 0, 2);
    C.Images[1].Sampler.compare_enable = 1;
    C.Images[1].Sampler.compare_op = 3; // less or equal
    C.Buffers = {buffer(2, 48 * 4)};
    C.Groups = {1, 1, 3};
    Cases.push_back(C);
  }
  return Cases;
}

const std::vector<ImageDiffCase> &cases() {
  static const std::vector<ImageDiffCase> C = makeCases();
  return C;
}

VulkanComputeRunner *runner() {
  // Robust access: some cases read out of range on purpose.
  static std::unique_ptr<VulkanComputeRunner> R = [] {
    VkRunnerOptions O;
    O.RobustAccess = true;
    auto Created = VulkanComputeRunner::create(O);
    if (!Created) {
      llvm::consumeError(Created.takeError());
      return std::unique_ptr<VulkanComputeRunner>();
    }
    return std::move(*Created);
  }();
  return R.get();
}

struct Param {
  size_t Index;
  unsigned Width;
  Backend Bk;
};

class ImageJitDifferential : public testing::TestWithParam<Param> {};

TEST_P(ImageJitDifferential, SameBuffersAndImages) {
  ASSERT_TRUE(runner()) << "cannot create the vulkan runner";
  const ImageDiffCase &C = cases()[GetParam().Index];
  auto Words = compileCase(C);
  ASSERT_TRUE(bool(Words)) << llvm::toString(Words.takeError());
  auto Ref = runOnLavapipe(*runner(), *Words, C);
  ASSERT_TRUE(bool(Ref)) << "lavapipe: " << llvm::toString(Ref.takeError());
  // The shader must have written something, or the comparison is empty.
  bool Changed = false;
  for (size_t K = 0; K < C.Buffers.size(); ++K)
    Changed |= Ref->Buffers[K] != C.Buffers[K].Data;
  for (size_t K = 0; K < C.Images.size(); ++K)
    Changed |= Ref->Images[K] != C.Images[K].Data;
  ASSERT_TRUE(Changed) << "lavapipe's run changed nothing";
  auto Got = runOnJit(*Words, C, GetParam().Width, GetParam().Bk);
  if (!Got) {
    std::string Message = llvm::toString(Got.takeError());
    if (isUnsupportedImages(Message))
      GTEST_SKIP() << "the translator does not support images yet: " << Message;
    FAIL() << "spirv2llvm: " << Message;
  }
  std::string Diff = compareResults(C, *Ref, *Got);
  EXPECT_EQ(Diff, "") << C.Name;
}

/// The harness itself, on a shader the translator already runs (buffers
/// only): so that its JIT side is known to work before images arrive, and
/// a difference is known to show.
TEST(ImageJitDifferentialHarness, BuffersOnlyShaderRunsAndCompares) {
  ASSERT_TRUE(runner()) << "cannot create the vulkan runner";
  ImageDiffCase C;
  C.Name = "buffers_only";
  C.Glsl = R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer In { float A[]; };
layout(set = 1, binding = 2) buffer Out { float B[]; };
void main() {
  uint I = gl_GlobalInvocationID.x;
  B[I] = A[I] * 3.0 + float(I);
}
)";
  std::mt19937 Rng(1);
  C.Buffers = {{0, 0, false, floatTexels(64 * 4, Rng)}, {1, 2, false, {}}};
  C.Buffers[1].Data.assign(64 * 4, 0);
  C.Groups = {4, 1, 1};
  auto Words = compileCase(C);
  ASSERT_TRUE(bool(Words)) << llvm::toString(Words.takeError());
  auto Ref = runOnLavapipe(*runner(), *Words, C);
  ASSERT_TRUE(bool(Ref)) << llvm::toString(Ref.takeError());
  auto Got = runOnJit(*Words, C, 4, Backend::Simd);
  ASSERT_TRUE(bool(Got)) << llvm::toString(Got.takeError());
  EXPECT_NE(Ref->Buffers[1], C.Buffers[1].Data);
  EXPECT_EQ(compareResults(C, *Ref, *Got), "");
  Got->Buffers[1][5] ^= 1;
  EXPECT_NE(compareResults(C, *Ref, *Got).find("buffer 1 byte 5"),
            std::string::npos);
}

std::vector<Param> params(unsigned W, Backend Bk) {
  std::vector<Param> P;
  for (size_t I = 0; I < cases().size(); ++I)
    P.push_back({I, W, Bk});
  return P;
}

std::string paramName(const testing::TestParamInfo<Param> &Info) {
  return cases()[Info.param.Index].Name;
}

INSTANTIATE_TEST_SUITE_P(W4, ImageJitDifferential,
                         testing::ValuesIn(params(4, Backend::Simd)),
                         paramName);
INSTANTIATE_TEST_SUITE_P(W8, ImageJitDifferential,
                         testing::ValuesIn(params(8, Backend::Simd)),
                         paramName);
INSTANTIATE_TEST_SUITE_P(W16, ImageJitDifferential,
                         testing::ValuesIn(params(16, Backend::Simd)),
                         paramName);
INSTANTIATE_TEST_SUITE_P(Invocation, ImageJitDifferential,
                         testing::ValuesIn(params(1, Backend::Invocation)),
                         paramName);

} // namespace
