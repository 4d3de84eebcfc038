//===- ImageMultisampleExecTest.cpp - Multisampled images through the JIT -===//
//
// Storage images with MS = 1 (shaderStorageImageMultisample): ImageRead,
// ImageWrite and texel-pointer atomics with the Sample operand, the sample
// count query, and OpImageFetch of a sampled 2D MS image, at W = 4, 8 and
// 16 and in the one-invocation back end (W = 1). Each texel's samples lie
// one after the other (spirv2llvm::Image's layout); a sample index outside
// the image's count reads zero and drops writes (robust image access).
// References are worked out here from the texel bytes.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "spirv2llvm/Image.h"
#include "spirv2llvm/Jit.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace spirv2llvm;

namespace {

std::unique_ptr<ComputeShader> compile(const std::string &Source, unsigned W) {
  return exectest::compileAtWidth(Source, W);
}

Image makeMsImage(Format F, uint32_t W, uint32_t H, uint32_t Samples) {
  ImageDesc D;
  D.Fmt = F;
  D.Width = W;
  D.Height = H;
  D.Samples = Samples;
  auto I = Image::create(D);
  EXPECT_TRUE(I.ok()) << I.status().message();
  return std::move(*I);
}

/// The byte of component C of sample S of texel (X, Y): every sample of
/// every texel differs, so reading the wrong sample shows.
uint8_t pattern(uint32_t X, uint32_t Y, uint32_t S, uint32_t C,
                uint32_t Salt) {
  return uint8_t(X * 40 + Y * 7 + S * 90 + C * 50 + Salt);
}

void fill(Image &I, uint32_t W, uint32_t H, uint32_t Samples, uint32_t Salt) {
  for (uint32_t Y = 0; Y < H; ++Y)
    for (uint32_t X = 0; X < W; ++X)
      for (uint32_t S = 0; S < Samples; ++S)
        for (uint32_t C = 0; C < 4; ++C)
          I.texelAddress(0, X, Y, 0, S)[C] = pattern(X, Y, S, C, Salt);
}

struct ImageMultisampleExec : testing::TestWithParam<unsigned> {
  unsigned W() const { return GetParam(); }
};

// 16 invocations, one per (texel, sample) of a 4x2 image with 2 samples.
const char *Source = R"(#version 450
  layout(local_size_x = 8, local_size_y = 2) in;
  layout(set = 0, binding = 0, rgba8) uniform image2DMS Ms;        // 4x2, 2
  layout(set = 0, binding = 1, r32ui) uniform uimage2DMS Counts;   // 2x1, 4
  layout(set = 0, binding = 2) uniform sampler2DMS Tex;            // 4x2, 2
  layout(set = 0, binding = 3) buffer Out {
    vec4 before[16];
    vec4 after[16];
    vec4 outside[16];
    vec4 fetched[16];
    int samples;
    int texSamples;
  } o;
  void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 4u, (i / 4u) % 2u);
    int s = int(i / 8u);
    o.before[i] = imageLoad(Ms, p, s);
    o.outside[i] = imageLoad(Ms, p, s + 2);   // samples 2, 3: zero
    o.fetched[i] = texelFetch(Tex, p, 1 - s);
    if (i % 3u != 2u)                         // divergent: masked writes
      imageStore(Ms, p, s, vec4(i, 2u * i, 3u * i, 255u) / 255.0);
    imageStore(Ms, p, s + 2, vec4(1.0));      // outside: dropped
    o.after[i] = imageLoad(Ms, p, s);         // its own write, if any
    imageAtomicAdd(Counts, ivec2(i % 2u, 0), int(i % 4u), i + 1u);
    if (i == 0u) {
      o.samples = imageSamples(Ms);
      o.texSamples = textureSamples(Tex);
    }
  })";

struct Out {
  float Before[16][4];
  float After[16][4];
  float Outside[16][4];
  float Fetched[16][4];
  int32_t Samples, TexSamples;
  int32_t Pad[2];
};

TEST_P(ImageMultisampleExec, ReadWriteAtomicFetchPerSample) {
  auto S = compile(Source, W());
  ASSERT_TRUE(S);
  Image Ms = makeMsImage(Format::R8G8B8A8_UNORM, 4, 2, 2);
  fill(Ms, 4, 2, 2, 3);
  Image Counts = makeMsImage(Format::R32_UINT, 2, 1, 4);
  std::memset(Counts.bytes().data(), 0, Counts.bytes().size());
  Image Tex = makeMsImage(Format::R8G8B8A8_UNORM, 4, 2, 2);
  fill(Tex, 4, 2, 2, 11);
  s2l_sampler Nearest = {};
  Nearest.max_anisotropy = 1;
  Out O;
  std::memset(&O, 0xab, sizeof(O));
  DispatchResources R;
  R.bindImage(0, 0, &Ms.descriptor());
  R.bindImage(0, 1, &Counts.descriptor());
  R.bindCombinedImageSampler(0, 2, &Tex.descriptor(), &Nearest);
  R.bind(0, 3, &O, sizeof(O));
  Status St = S->dispatch({1, 1, 1}, R, 1);
  ASSERT_TRUE(St.ok()) << St.message();

  auto Unorm = [](uint32_t B) { return float(B) / 255.0f; };
  for (uint32_t I = 0; I < 16; ++I) {
    uint32_t X = I % 4, Y = (I / 4) % 2, Smp = I / 8;
    bool Wrote = I % 3 != 2;
    uint32_t Written[4] = {I, 2 * I, 3 * I, 255};
    for (uint32_t C = 0; C < 4; ++C) {
      EXPECT_FLOAT_EQ(O.Before[I][C], Unorm(pattern(X, Y, Smp, C, 3)))
          << "before " << I << "." << C;
      EXPECT_FLOAT_EQ(O.Outside[I][C], 0.0f) << "outside " << I << "." << C;
      EXPECT_FLOAT_EQ(O.Fetched[I][C], Unorm(pattern(X, Y, 1 - Smp, C, 11)))
          << "fetched " << I << "." << C;
      float After = Wrote ? Unorm(Written[C]) : Unorm(pattern(X, Y, Smp, C, 3));
      EXPECT_FLOAT_EQ(O.After[I][C], After) << "after " << I << "." << C;
      // The image itself: this sample written (or kept), the other
      // sample of the texel untouched by this invocation's write.
      uint8_t Byte = Ms.texelAddress(0, X, Y, 0, Smp)[C];
      EXPECT_EQ(Byte, Wrote ? Written[C] : pattern(X, Y, Smp, C, 3))
          << "texel (" << X << ", " << Y << ") sample " << Smp << "." << C;
    }
  }
  // Counts (x, sample): invocation i adds i + 1 at (i % 2, i % 4).
  for (uint32_t X = 0; X < 2; ++X)
    for (uint32_t Smp = 0; Smp < 4; ++Smp) {
      uint32_t Want = 0;
      for (uint32_t I = 0; I < 16; ++I)
        if (I % 2 == X && I % 4 == Smp)
          Want += I + 1;
      uint32_t Got;
      std::memcpy(&Got, Counts.texelAddress(0, X, 0, 0, Smp), 4);
      EXPECT_EQ(Got, Want) << "count (" << X << ") sample " << Smp;
    }
  EXPECT_EQ(O.Samples, 2);
  EXPECT_EQ(O.TexSamples, 2);
}

INSTANTIATE_TEST_SUITE_P(Widths, ImageMultisampleExec,
                         testing::Values(1u, 4u, 8u, 16u),
                         [](const testing::TestParamInfo<unsigned> &I) {
                           return "W" + std::to_string(I.param);
                         });

} // namespace
