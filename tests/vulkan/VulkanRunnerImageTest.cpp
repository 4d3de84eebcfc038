//===- VulkanRunnerImageTest.cpp - Images in the lavapipe runner ----------===//
//
// The runner's images, samplers and texel buffers on their own: that every
// level and layer of the packed layout (packedImageLayout) reaches the
// shader where abi.h says it is, that storage writes come back in that
// layout, that cube faces, separate samplers, descriptor arrays and texel
// buffers are bound as asked, and the diagnostics for what lavapipe cannot
// do. Integer formats throughout, so that values compare exactly.
//
//===----------------------------------------------------------------------===//
#include "VulkanComputeRunner.h"

#include "frontend/Frontend.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;

namespace {

// VkFormat numbers (the runner's interface does not include vulkan.h).
constexpr uint32_t R8G8B8A8_UINT = 41, R32_UINT = 98, R32_SFLOAT = 100,
                   BC1_RGB_UNORM_BLOCK = 131;

std::string errorText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

std::vector<uint32_t> compileCompute(llvm::StringRef Source) {
  frontend::GlslOptions Opts;
  Opts.Stage = frontend::ShaderStage::Compute;
  Opts.TargetEnv = SPV_ENV_VULKAN_1_2;
  Opts.FileName = "image.comp";
  llvm::Expected<std::vector<uint32_t>> Words =
      frontend::compileGlsl(Source, Opts);
  if (!Words) {
    ADD_FAILURE() << llvm::toString(Words.takeError());
    return {};
  }
  return std::move(*Words);
}

std::vector<uint32_t> words(const std::vector<uint8_t> &B) {
  std::vector<uint32_t> W(B.size() / 4);
  std::memcpy(W.data(), B.data(), W.size() * 4);
  return W;
}

std::vector<uint8_t> randomBytes(size_t N, unsigned Seed) {
  std::mt19937 Rng(Seed);
  std::vector<uint8_t> B(N);
  for (uint8_t &X : B)
    X = uint8_t(Rng());
  return B;
}

class VulkanRunnerImageTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    auto R = VulkanComputeRunner::create();
    if (!R) {
      Why = llvm::toString(R.takeError());
      return;
    }
    Runner = std::move(*R);
  }
  static void TearDownTestSuite() { Runner.reset(); }
  void SetUp() override {
    if (!Runner)
      GTEST_SKIP() << "no lavapipe: " << Why;
  }
  static std::unique_ptr<VulkanComputeRunner> Runner;
  static std::string Why;
};
std::unique_ptr<VulkanComputeRunner> VulkanRunnerImageTest::Runner;
std::string VulkanRunnerImageTest::Why;

/// Packs (level, layer, y, x) of an image in the packed layout's order, so
/// that the shader's output buffer equals the image's Data word for word.
TEST_F(VulkanRunnerImageTest, EveryLevelAndLayerOfASampledArray) {
  VkImageSpec I;
  I.Kind = VkImageKind::SampledImage;
  I.Format = R32_UINT;
  I.ViewType = S2L_VIEW_2D_ARRAY;
  I.Width = 5;
  I.Height = 3;
  I.Layers = 2;
  I.Levels = 3;
  uint64_t Bytes = 0;
  llvm::Expected<s2l_image> L = packedImageLayout(I, &Bytes);
  ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
  // 5x3, 2x1, 1x1; two layers each.
  EXPECT_EQ(Bytes, (15u + 2u + 1u) * 2u * 4u);
  EXPECT_EQ(L->level[1].offset, 15u * 2u * 4u);
  EXPECT_EQ(L->level[1].row_pitch, 8u);
  EXPECT_EQ(L->level[1].slice_pitch, 8u);
  I.Data = randomBytes(Bytes, 1);
  const std::vector<uint8_t> Initial = I.Data;
  VkDispatch D;
  D.Spirv = compileCompute(R"(#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 3) uniform utexture2DArray Tex;
layout(set = 1, binding = 0) buffer Out { uint V[]; };
void main() {
  uint N = 0;
  for (int L = 0; L < textureQueryLevels(Tex); ++L) {
    ivec3 S = textureSize(Tex, L);
    for (int Z = 0; Z < S.z; ++Z)
      for (int Y = 0; Y < S.y; ++Y)
        for (int X = 0; X < S.x; ++X)
          V[N++] = texelFetch(Tex, ivec3(X, Y, Z), L).r;
  }
}
)");
  I.Binding = 3;
  D.Images.push_back(I);
  D.Buffers.push_back({1, 0, false, std::vector<uint8_t>(Bytes, 0)});
  ASSERT_EQ(errorText(Runner->run(D)), "");
  EXPECT_EQ(words(D.Buffers[0].Data), words(Initial));
  // Read back too, unchanged.
  EXPECT_EQ(D.Images[0].Data, Initial);
}

TEST_F(VulkanRunnerImageTest, StorageImageLoadsAndStores3D) {
  VkImageSpec I;
  I.Kind = VkImageKind::StorageImage;
  I.Format = R8G8B8A8_UINT;
  I.ViewType = S2L_VIEW_3D;
  I.Width = 4;
  I.Height = 3;
  I.Depth = 2;
  I.Data = randomBytes(4 * 3 * 2 * 4, 2);
  const std::vector<uint8_t> Initial = I.Data;
  VkDispatch D;
  D.Spirv = compileCompute(R"(#version 450
layout(local_size_x = 4, local_size_y = 3, local_size_z = 2) in;
layout(set = 0, binding = 0, rgba8ui) uniform uimage3D Img;
layout(set = 0, binding = 1) buffer Out { uint V[]; };
void main() {
  ivec3 P = ivec3(gl_LocalInvocationID);
  uvec4 Old = imageLoad(Img, P);
  V[gl_LocalInvocationIndex] = Old.r | Old.g << 8 | Old.b << 16 | Old.a << 24;
  imageStore(Img, P, uvec4(P, 200u + Old.r % 50u));
}
)");
  D.Images.push_back(I);
  D.Buffers.push_back({0, 1, false, std::vector<uint8_t>(24 * 4, 0)});
  ASSERT_EQ(errorText(Runner->run(D)), "");
  EXPECT_EQ(words(D.Buffers[0].Data), words(Initial));
  const std::vector<uint8_t> &Got = D.Images[0].Data;
  for (uint32_t Z = 0; Z < 2; ++Z)
    for (uint32_t Y = 0; Y < 3; ++Y)
      for (uint32_t X = 0; X < 4; ++X) {
        size_t At = ((Z * 3 + Y) * 4 + X) * 4;
        EXPECT_EQ(Got[At], X);
        EXPECT_EQ(Got[At + 1], Y);
        EXPECT_EQ(Got[At + 2], Z);
        EXPECT_EQ(Got[At + 3], 200 + Initial[At] % 50)
            << X << "," << Y << "," << Z;
      }
}

/// Face f of a cube holds f + 1 everywhere; sampling along each axis must
/// land on the face Vulkan's cube map face selection names.
TEST_F(VulkanRunnerImageTest, CubeFacesWithASeparateSampler) {
  VkImageSpec Tex;
  Tex.Kind = VkImageKind::SampledImage;
  Tex.Format = R32_SFLOAT;
  Tex.ViewType = S2L_VIEW_CUBE;
  Tex.Width = Tex.Height = 2;
  Tex.Layers = 6;
  for (int F = 0; F < 6; ++F)
    for (int K = 0; K < 4; ++K) {
      float V = float(F + 1);
      const auto *P = reinterpret_cast<const uint8_t *>(&V);
      Tex.Data.insert(Tex.Data.end(), P, P + 4);
    }
  VkImageSpec Samp;
  Samp.Kind = VkImageKind::Sampler;
  Samp.Binding = 1;
  Samp.Sampler.address_mode[0] = Samp.Sampler.address_mode[1] =
      Samp.Sampler.address_mode[2] = 2; // clamp to edge
  VkDispatch D;
  D.Spirv = compileCompute(R"(#version 450
layout(local_size_x = 6) in;
layout(set = 0, binding = 0) uniform textureCube Tex;
layout(set = 0, binding = 1) uniform sampler Samp;
layout(set = 0, binding = 2) buffer Out { float V[]; };
const vec3 Dirs[6] = vec3[](vec3(1, .2, .3), vec3(-1, .2, .3), vec3(.2, 1, .3),
                            vec3(.2, -1, .3), vec3(.2, .3, 1), vec3(.2, .3, -1));
void main() {
  uint I = gl_LocalInvocationIndex;
  V[I] = textureLod(samplerCube(Tex, Samp), Dirs[I], 0.0).r;
}
)");
  D.Images = {Tex, Samp};
  D.Buffers.push_back({0, 2, false, std::vector<uint8_t>(24, 0)});
  ASSERT_EQ(errorText(Runner->run(D)), "");
  std::vector<float> V(6);
  std::memcpy(V.data(), D.Buffers[0].Data.data(), 24);
  for (int F = 0; F < 6; ++F)
    EXPECT_EQ(V[F], float(F + 1)) << "face " << F;
}

TEST_F(VulkanRunnerImageTest, TexelBuffersAndDescriptorArrays) {
  VkImageSpec In;
  In.Kind = VkImageKind::UniformTexelBuffer;
  In.Format = R32_UINT;
  In.Width = 8;
  In.Data = randomBytes(32, 3);
  VkImageSpec Out = In;
  Out.Kind = VkImageKind::StorageTexelBuffer;
  Out.Binding = 1;
  Out.Data.assign(32, 0);
  // Two sampled images in one binding, told apart by their content.
  // Indexed by constants: lavapipe (Mesa 22.3) lacks
  // shaderSampledImageArrayDynamicIndexing, and a dynamic index silently
  // reads wrong texels there.
  VkImageSpec A;
  A.Kind = VkImageKind::SampledImage;
  A.Format = R32_UINT;
  A.Binding = 2;
  A.Data = randomBytes(4, 4);
  VkImageSpec B = A;
  B.ArrayElement = 1;
  B.Data = randomBytes(4, 5);
  VkDispatch D;
  D.Spirv = compileCompute(R"(#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform utextureBuffer In;
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer Out;
layout(set = 0, binding = 2) uniform utexture2D Arr[2];
void main() {
  int I = int(gl_LocalInvocationIndex);
  uint Add = (I & 1) == 0 ? texelFetch(Arr[0], ivec2(0), 0).r
                           : texelFetch(Arr[1], ivec2(0), 0).r;
  imageStore(Out, I, uvec4(texelFetch(In, I).r + Add));
}
)");
  D.Images = {In, Out, A, B};
  ASSERT_EQ(errorText(Runner->run(D)), "");
  std::vector<uint32_t> Src = words(In.Data), Got = words(D.Images[1].Data);
  uint32_t Add[2] = {words(A.Data)[0], words(B.Data)[0]};
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(Got[I], Src[I] + Add[I & 1])
        << I << " src " << Src[I] << " add " << Add[I & 1] << " in "
        << words(D.Images[0].Data)[I];
}

TEST_F(VulkanRunnerImageTest, Diagnostics) {
  VkDispatch D;
  D.Spirv = compileCompute(R"(#version 450
layout(local_size_x = 1) in;
void main() {}
)");
  VkImageSpec I;
  I.Kind = VkImageKind::StorageImage;
  I.Format = BC1_RGB_UNORM_BLOCK;
  I.Width = I.Height = 4;
  I.Data.assign(8, 0);
  D.Images = {I};
  EXPECT_NE(errorText(Runner->run(D))
                .find("storage image at set 0 binding 0: BC1_RGB_UNORM_BLOCK "
                      "does not support storage images"),
            std::string::npos);
  D.Images[0].Kind = VkImageKind::SampledImage;
  D.Images[0].Data.assign(7, 0);
  EXPECT_NE(errorText(Runner->run(D))
                .find("7 bytes of data; the packed "
                      "layout of BC1_RGB_UNORM_BLOCK has "
                      "8"),
            std::string::npos);
  D.Images[0].ViewType = S2L_VIEW_CUBE;
  EXPECT_NE(errorText(Runner->run(D)).find("layers do not fit the view type"),
            std::string::npos);
  D.Images[0].ViewType = S2L_VIEW_2D;
  D.Images[0].Levels = 4;
  EXPECT_NE(errorText(Runner->run(D)).find("at most 3 levels"),
            std::string::npos);
  D.Images[0].Levels = 1;
  D.Images[0].Data.assign(8, 0);
  D.Images.push_back(D.Images[0]);
  EXPECT_EQ(errorText(Runner->run(D)),
            "two descriptors at set 0 binding 0 element 0");
  D.Images.pop_back();
  EXPECT_EQ(errorText(Runner->run(D)), "");
}

} // namespace
