//===- ImageExecTest.cpp - Images and samplers through the JIT ------------===//
//
// Compute shaders with storage images, combined and separate samplers,
// arrays of textures and image atomics, run through the JIT at W = 4, 8
// and 16 and in the one-invocation back end (W = 1), against references
// worked out here from the texel bytes (the lavapipe comparisons are in
// tests/vulkan). Covers what codegen adds: handles through descriptors,
// uniform and per-lane descriptor indices, out-of-range indices reading
// zero, per-lane calls under masks (stores of inactive lanes dropped),
// the result shapes of loads, fetches, samples and size queries, texel
// pointers for atomics, and the dispatch-time binding checks.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "spirv2llvm/Image.h"
#include "spirv2llvm/Jit.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace spirv2llvm;

namespace {

std::unique_ptr<ComputeShader> compile(const std::string &Source, unsigned W) {
  return exectest::compileAtWidth(Source, W);
}

Image makeImage(Format F, uint32_t W, uint32_t H, uint32_t Levels = 1) {
  ImageDesc D;
  D.Fmt = F;
  D.Width = W;
  D.Height = H;
  D.Levels = Levels;
  auto I = Image::create(D);
  EXPECT_TRUE(I.ok()) << I.status().message();
  return std::move(*I);
}

/// A W x H image of \p Levels levels of random bytes (a linear
/// congruential generator on \p Seed).
Image randomImage(Format F, uint32_t W, uint32_t H, uint32_t Levels,
                  uint32_t &Seed) {
  Image I = makeImage(F, W, H, Levels);
  for (uint8_t &Byte : I.bytes()) {
    Seed = Seed * 1664525u + 1013904223u;
    Byte = uint8_t(Seed >> 24);
  }
  return I;
}

/// The byte of component C of texel (X, Y) of level L in the test images.
uint8_t pattern(uint32_t L, uint32_t X, uint32_t Y, uint32_t C) {
  return uint8_t(X * 40 + Y * 7 + C * 50 + L * 100 + 3);
}

void fillRGBA8(Image &I, uint32_t Levels) {
  for (uint32_t L = 0; L < Levels; ++L) {
    const s2l_image_level &Lv = I.descriptor().level[L];
    for (uint32_t Y = 0; Y < Lv.height; ++Y)
      for (uint32_t X = 0; X < Lv.width; ++X)
        for (uint32_t C = 0; C < 4; ++C)
          I.texelAddress(L, X, Y, 0)[C] = pattern(L, X, Y, C);
  }
}

struct ImageExec : testing::TestWithParam<unsigned> {
  unsigned W() const { return GetParam(); }
};

const char *LoadStoreSource = R"(#version 450
  layout(local_size_x = 8, local_size_y = 4) in;
  layout(set = 0, binding = 0, rgba8) uniform readonly image2D Src;  // 6x3
  layout(set = 0, binding = 1, r32ui) uniform uimage2D Dst;          // 8x4
  layout(set = 0, binding = 2) uniform sampler2D Tex;  // 4x4, 2 levels
  layout(set = 0, binding = 3) buffer Out {
    vec4 loaded[32];
    vec4 fetched[32];
    vec4 sampled[32];
    ivec4 sizes;
    int levels;
  } o;
  void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    o.loaded[i] = imageLoad(Src, p);      // x >= 6 is outside: zero
    if ((i % 3u) != 2u)                   // divergent: a third stores nothing
      imageStore(Dst, p + ivec2(0, 1), uvec4(i * 3u + 1u)); // row 4: dropped
    o.fetched[i] = texelFetch(Tex, p.yx, int(i & 1u));
    o.sampled[i] = textureLod(Tex, (vec2(p) + 0.5) / 4.0, 0.0);
    if (i == 0u) {
      o.sizes = ivec4(textureSize(Tex, 0), textureSize(Tex, 1));
      o.levels = textureQueryLevels(Tex);
    }
    imageAtomicAdd(Dst, ivec2(7, 0), 1u);
  })";

struct LoadStoreOut {
  float Loaded[32][4];
  float Fetched[32][4];
  float Sampled[32][4];
  int32_t Sizes[4];
  int32_t Levels;
  int32_t Pad[3];
};

TEST_P(ImageExec, LoadStoreFetchSampleQueryAtomic) {
  auto S = compile(LoadStoreSource, W());
  ASSERT_TRUE(S);
  Image Src = makeImage(Format::R8G8B8A8_UNORM, 6, 3);
  fillRGBA8(Src, 1);
  Image Dst = makeImage(Format::R32_UINT, 8, 4);
  Image Tex = makeImage(Format::R8G8B8A8_UNORM, 4, 4, 2);
  fillRGBA8(Tex, 2);
  s2l_sampler Nearest = {};
  Nearest.address_mode[0] = Nearest.address_mode[1] =
      Nearest.address_mode[2] = 2; // VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
  Nearest.max_lod = 1000;
  Nearest.max_anisotropy = 1;
  LoadStoreOut Out;
  std::memset(&Out, 0xab, sizeof(Out));
  DispatchResources R;
  R.bindImage(0, 0, &Src.descriptor());
  R.bindImage(0, 1, &Dst.descriptor());
  R.bindCombinedImageSampler(0, 2, &Tex.descriptor(), &Nearest);
  R.bind(0, 3, &Out, sizeof(Out));
  Status St = S->dispatch({1, 1, 1}, R, 1);
  ASSERT_TRUE(St.ok()) << St.message();

  auto Unorm = [](uint8_t B) { return float(B) / 255.0f; };
  for (uint32_t I = 0; I < 32; ++I) {
    uint32_t X = I % 8, Y = I / 8;
    for (uint32_t C = 0; C < 4; ++C) {
      float Want = X < 6 && Y < 3 ? Unorm(pattern(0, X, Y, C)) : 0.0f;
      EXPECT_FLOAT_EQ(Out.Loaded[I][C], Want) << "loaded " << I << "." << C;
      // texelFetch(Tex, (Y, X), I & 1): level 1 is 2x2.
      uint32_t L = I & 1, Size = L ? 2 : 4;
      Want = Y < Size && X < Size ? Unorm(pattern(L, Y, X, C)) : 0.0f;
      EXPECT_FLOAT_EQ(Out.Fetched[I][C], Want) << "fetched " << I << "." << C;
      // Nearest at texel centres; clamp to edge beyond x = 3.
      Want = Unorm(pattern(0, std::min(X, 3u), Y, C));
      EXPECT_FLOAT_EQ(Out.Sampled[I][C], Want) << "sampled " << I << "." << C;
    }
  }
  EXPECT_EQ(Out.Sizes[0], 4);
  EXPECT_EQ(Out.Sizes[1], 4);
  EXPECT_EQ(Out.Sizes[2], 2);
  EXPECT_EQ(Out.Sizes[3], 2);
  EXPECT_EQ(Out.Levels, 2);
  for (uint32_t Y = 0; Y < 4; ++Y)
    for (uint32_t X = 0; X < 8; ++X) {
      uint32_t Got;
      std::memcpy(&Got, Dst.texelAddress(0, X, Y, 0), 4);
      uint32_t Want = 0;
      if (Y >= 1) {
        uint32_t I = (Y - 1) * 8 + X;
        Want = I % 3 != 2 ? I * 3 + 1 : 0;
      } else if (X == 7) {
        Want = 32; // every invocation's atomic add
      }
      EXPECT_EQ(Got, Want) << "Dst(" << X << ", " << Y << ")";
    }
}

const char *ArraySource = R"(#version 450
  #extension GL_EXT_nonuniform_qualifier : require
  layout(local_size_x = 16) in;
  layout(set = 0, binding = 0) uniform texture2D Texs[3];
  layout(set = 0, binding = 1) uniform sampler Smp;
  layout(set = 0, binding = 2) buffer Out {
    vec4 per_lane[16];
    vec4 uni;
  } o;
  layout(push_constant) uniform P { int which; } pc;
  void main() {
    uint i = gl_LocalInvocationIndex;
    int e = int(i % 5u) - 1;   // -1 and 3 are outside the array: zero
    o.per_lane[i] = texelFetch(sampler2D(Texs[nonuniformEXT(e)], Smp),
                               ivec2(i & 1u, 0), 0);
    if (i == 0u)
      o.uni = textureLod(sampler2D(Texs[pc.which], Smp), vec2(0.75, 0.5), 0.0);
  })";

TEST_P(ImageExec, SeparateSamplersAndArraysOfTextures) {
  auto S = compile(ArraySource, W());
  ASSERT_TRUE(S);
  std::vector<Image> Texs;
  for (uint32_t K = 0; K < 3; ++K) {
    Texs.push_back(makeImage(Format::R32G32B32A32_SFLOAT, 2, 1));
    for (uint32_t X = 0; X < 2; ++X)
      for (uint32_t C = 0; C < 4; ++C) {
        float V = float(K * 100 + X * 10 + C);
        std::memcpy(Texs[K].texelAddress(0, X, 0, 0) + 4 * C, &V, 4);
      }
  }
  s2l_sampler Smp = {};
  Smp.max_lod = 1000;
  Smp.max_anisotropy = 1;
  float Out[17][4];
  std::memset(Out, 0xab, sizeof(Out));
  DispatchResources R;
  for (uint32_t K = 0; K < 3; ++K)
    R.bindImageArrayElement(0, 0, K, &Texs[K].descriptor());
  R.bindSampler(0, 1, &Smp);
  R.bind(0, 2, Out, sizeof(Out));
  int32_t Which = 2;
  R.PushConstants.resize(4);
  std::memcpy(R.PushConstants.data(), &Which, 4);
  Status St = S->dispatch({1, 1, 1}, R, 1);
  ASSERT_TRUE(St.ok()) << St.message();
  for (uint32_t I = 0; I < 16; ++I) {
    int E = int(I % 5) - 1;
    for (uint32_t C = 0; C < 4; ++C) {
      float Want = E >= 0 && E < 3 ? float(E * 100 + (I & 1) * 10 + C) : 0.0f;
      EXPECT_EQ(Out[I][C], Want) << "lane " << I << "." << C;
    }
  }
  // Nearest at u = 0.75 of a 2-wide image: texel 1 of element 2.
  for (uint32_t C = 0; C < 4; ++C)
    EXPECT_EQ(Out[16][C], float(200 + 10 + C));
}

TEST_P(ImageExec, BindingChecks) {
  auto S = compile(ArraySource, W());
  ASSERT_TRUE(S);
  float Out[17][4];
  s2l_sampler Smp = {};
  DispatchResources R;
  R.bind(0, 2, Out, sizeof(Out));
  R.PushConstants.resize(4);
  Status St = S->dispatch({1, 1, 1}, R, 1);
  ASSERT_FALSE(St.ok());
  EXPECT_NE(St.message().find("bindArrayElement"), std::string::npos)
      << St.message();
  Image T = makeImage(Format::R8_UNORM, 1, 1);
  R.bindImageArrayElement(0, 0, 0, &T.descriptor());
  St = S->dispatch({1, 1, 1}, R, 1);
  ASSERT_FALSE(St.ok());
  EXPECT_NE(St.message().find("no sampler bound at set 0, binding 1"),
            std::string::npos)
      << St.message();
  // A buffer where the shader has a sampler.
  R.bind(0, 1, Out, sizeof(Out));
  St = S->dispatch({1, 1, 1}, R, 1);
  ASSERT_FALSE(St.ok());
  EXPECT_NE(St.message().find("is a sampler in the shader"), std::string::npos)
      << St.message();
  R.bindSampler(0, 1, &Smp);
  St = S->dispatch({1, 1, 1}, R, 1);
  EXPECT_TRUE(St.ok()) << St.message();
}

// Storage images of a declared format are read and written inline in the
// SIMD back end (simd/EmitImage.cpp); the one-invocation back end calls
// s2l_image_op. Both must give the same bits: random texels (NaNs and
// infinities included) are read back, and random values, out-of-range
// ones included, are written, in rgba8, rgba32f, r32i and rg32ui images of
// every dimension the inline path takes; coordinates run past the edges.
TEST(ImageInlineExec, StorageAccessMatchesTheRuntime) {
  const char *Src = R"(#version 450
    layout(local_size_x = 8, local_size_y = 4) in;
    layout(set = 0, binding = 0, rgba8) uniform image2D A;
    layout(set = 0, binding = 1, rgba32f) uniform image2DArray Bimg;
    layout(set = 0, binding = 2, r32i) uniform iimage1D C;
    layout(set = 0, binding = 3, rg32ui) uniform uimage3D D;
    layout(set = 0, binding = 4) buffer In { vec4 v[32]; } inb;
    layout(set = 0, binding = 5) buffer Out {
      vec4 a[32]; vec4 b[32]; ivec4 c[32]; uvec4 d[32];
    } o;
    void main() {
      ivec2 p = ivec2(gl_LocalInvocationID.xy) - ivec2(1, 0);
      uint i = gl_LocalInvocationIndex;
      o.a[i] = imageLoad(A, p);
      o.b[i] = imageLoad(Bimg, ivec3(p, int(i % 3u)));
      o.c[i] = imageLoad(C, p.x);
      o.d[i] = imageLoad(D, ivec3(p, 1));
      barrier();
      imageStore(A, p.yx, inb.v[i]);
      imageStore(Bimg, ivec3(p.yx, 1), inb.v[i] * 3.0);
      if (p.y == 0)
        imageStore(C, p.x + 3, ivec4(floatBitsToInt(inb.v[i].x)));
      imageStore(D, ivec3(p.y, p.x, 0), uvec4(i, ~i, 5u, 6u));
    })";
  struct Outputs {
    float A[32][4], B[32][4];
    int32_t C[32][4];
    uint32_t D[32][4];
  };
  auto RunAt = [&](unsigned W, std::vector<std::vector<uint8_t>> &Images,
                   Outputs &Out) {
    auto S = compile(Src, W);
    ASSERT_TRUE(S);
    uint32_t Seed = 12345;
    auto Next = [&] {
      Seed = Seed * 1664525u + 1013904223u;
      return Seed;
    };
    std::vector<Image> Imgs;
    auto Make = [&](Format F, uint32_t View, uint32_t Wd, uint32_t H,
                    uint32_t Dp, uint32_t Layers) {
      ImageDesc D;
      D.Fmt = F;
      D.ViewType = View;
      D.Width = Wd;
      D.Height = H;
      D.Depth = Dp;
      D.Layers = Layers;
      auto I = Image::create(D);
      EXPECT_TRUE(I.ok()) << I.status().message();
      for (uint8_t &Byte : I->bytes())
        Byte = uint8_t(Next() >> 24);
      Imgs.push_back(std::move(*I));
    };
    Make(Format::R8G8B8A8_UNORM, S2L_VIEW_2D, 5, 3, 1, 1);
    Make(Format::R32G32B32A32_SFLOAT, S2L_VIEW_2D_ARRAY, 6, 4, 1, 2);
    Make(Format::R32_SINT, S2L_VIEW_1D, 9, 1, 1, 1);
    Make(Format::R32G32_UINT, S2L_VIEW_3D, 4, 3, 2, 1);
    float In[32][4];
    const float Special[] = {0.0f, -0.0f, 1.0f, 0.5f, 0.25f, 1.0f / 128,
                             -2.0f, 7.0f, __builtin_nanf(""),
                             __builtin_inff(), -__builtin_inff()};
    for (auto &V : In)
      for (float &C : V)
        C = Next() % 3 == 0 ? Special[Next() % std::size(Special)]
                            : float(int32_t(Next() % 2000) - 500) / 1000.0f;
    std::memset(&Out, 0, sizeof(Out));
    DispatchResources R;
    for (uint32_t K = 0; K < 4; ++K)
      R.bindImage(0, K, &Imgs[K].descriptor());
    R.bind(0, 4, In, sizeof(In));
    R.bind(0, 5, &Out, sizeof(Out));
    Status St = S->dispatch({1, 1, 1}, R, 1);
    ASSERT_TRUE(St.ok()) << St.message();
    for (Image &I : Imgs)
      Images.emplace_back(I.bytes().begin(), I.bytes().end());
  };
  std::vector<std::vector<uint8_t>> Ref;
  Outputs RefOut;
  RunAt(1, Ref, RefOut);
  for (unsigned W : {4u, 8u, 16u}) {
    std::vector<std::vector<uint8_t>> Got;
    Outputs GotOut;
    RunAt(W, Got, GotOut);
    ASSERT_EQ(Got.size(), Ref.size());
    for (size_t K = 0; K < Ref.size(); ++K)
      EXPECT_EQ(Got[K], Ref[K]) << "image " << K << " at W " << W;
    EXPECT_EQ(std::memcmp(&GotOut, &RefOut, sizeof(Outputs)), 0)
        << "loads differ at W " << W;
  }
}

// 2D RGBA8 and BGRA8 samples of one-level images run inline in the SIMD back end
// when the bound sampler allows (simd/EmitInlineSample.cpp), and must give
// the runtime's bits (the one-invocation back end calls s2l_image_op):
// nearest and linear filters, repeat and clamp to edge on either axis, at
// coordinates past the edges, on texel boundaries, huge, infinite and NaN,
// in divergent control flow. Samplers and images the inline path does not
// take (mirrored repeat, border, different min and mag filters, two levels,
// another format) go through the fallback call, with the same results.
TEST(ImageInlineExec, SamplesMatchTheRuntime) {
  const char *Src = R"(#version 450
    layout(local_size_x = 8, local_size_y = 8) in;
    layout(set = 0, binding = 0) uniform sampler2D Tex;
    layout(set = 0, binding = 1) buffer In { vec2 uv[64]; } inb;
    layout(set = 0, binding = 2) buffer Out {
      vec4 lod0[64]; vec4 grad[64]; vec4 shifted[64];
    } o;
    void main() {
      uint i = gl_LocalInvocationIndex;
      vec2 uv = inb.uv[i];
      o.lod0[i] = textureLod(Tex, uv, 0.0);
      if (i % 3u != 1u)   // divergent: a third of the lanes do not sample
        o.grad[i] = textureGrad(Tex, uv.yx * 1.5, vec2(0.4, 0.0),
                                vec2(0.0, 0.3));
      o.shifted[i] = textureLod(Tex, uv + vec2(0.25 / 7.0, 0.5), 0.0);
    })";
  // The inline path is in the code (the runtime checks decide per
  // instruction whether it runs).
  {
    TranslateOptions Opts;
    Opts.Width = 8;
    auto T = translateBytes(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Src),
                                std::strlen(Src)),
        "sample.comp", Opts);
    ASSERT_TRUE(!!T) << llvm::toString(T.takeError());
    std::string IR;
    llvm::raw_string_ostream OS(IR);
    T->IR->print(OS, nullptr);
    EXPECT_NE(IR.find("sample.inline"), std::string::npos);
    EXPECT_NE(IR.find("@llvm.masked.gather.v8i32"), std::string::npos);
  }
  struct Config {
    const char *Name;
    uint32_t Mag, Min, U, V, Levels;
    Format Fmt;
  } Configs[] = {
      {"nearest clamp", 0, 0, 2, 2, 1, Format::R8G8B8A8_UNORM},
      {"linear clamp", 1, 1, 2, 2, 1, Format::R8G8B8A8_UNORM},
      {"linear repeat", 1, 1, 0, 0, 1, Format::R8G8B8A8_UNORM},
      {"nearest repeat/clamp", 0, 0, 0, 2, 1, Format::R8G8B8A8_UNORM},
      {"linear clamp/repeat", 1, 1, 2, 0, 1, Format::R8G8B8A8_UNORM},
      {"linear bgra8 repeat", 1, 1, 0, 0, 1, Format::B8G8R8A8_UNORM},
      {"nearest bgra8 clamp", 0, 0, 2, 2, 1, Format::B8G8R8A8_UNORM},
      // The fallback.
      {"linear mirrored repeat", 1, 1, 1, 2, 1, Format::R8G8B8A8_UNORM},
      {"linear border", 1, 1, 3, 3, 1, Format::R8G8B8A8_UNORM},
      {"mag linear, min nearest", 1, 0, 2, 2, 1, Format::R8G8B8A8_UNORM},
      {"linear, two levels", 1, 1, 0, 2, 2, Format::R8G8B8A8_UNORM},
      {"linear rgba16f", 1, 1, 0, 0, 1, Format::R16G16B16A16_SFLOAT},
  };
  uint32_t Seed = 777;
  auto Next = [&] {
    Seed = Seed * 1664525u + 1013904223u;
    return Seed;
  };
  float In[64][2];
  const float Special[] = {0.0f,         -0.0f,        1.0f,
                           0.5f / 7,     1.0f / 7,     3.0f / 5,
                           1e-8f,        -1e-8f,       1e9f,
                           -1e9f,        __builtin_nanf(""),
                           __builtin_inff(), -__builtin_inff(), 2.0f};
  for (auto &P : In)
    for (float &C : P)
      C = Next() % 3 == 0 ? Special[Next() % std::size(Special)]
                          : float(int32_t(Next() % 6000) - 2500) / 1000.0f;
  struct Outputs {
    float Lod0[64][4], Grad[64][4], Shifted[64][4];
  };
  for (const Config &C : Configs) {
    SCOPED_TRACE(C.Name);
    Image Img = randomImage(C.Fmt, 7, 5, C.Levels, Seed);
    if (C.Fmt == Format::R16G16B16A16_SFLOAT)
      for (size_t K = 1; K < Img.bytes().size(); K += 2)
        Img.bytes()[K] &= 0x3b; // finite halves below 1
    s2l_sampler Smp = {};
    Smp.mag_filter = C.Mag;
    Smp.min_filter = C.Min;
    Smp.address_mode[0] = C.U;
    Smp.address_mode[1] = C.V;
    Smp.address_mode[2] = 2;
    Smp.border_color = 4; // opaque white
    Smp.max_lod = 1000;
    Smp.max_anisotropy = 1;
    auto Run = [&](unsigned W, Outputs &Out) {
      auto S = compile(Src, W);
      ASSERT_TRUE(S);
      std::memset(&Out, 0xab, sizeof(Out));
      DispatchResources R;
      R.bindCombinedImageSampler(0, 0, &Img.descriptor(), &Smp);
      R.bind(0, 1, In, sizeof(In));
      R.bind(0, 2, &Out, sizeof(Out));
      Status St = S->dispatch({1, 1, 1}, R, 1);
      ASSERT_TRUE(St.ok()) << St.message();
    };
    Outputs Ref, Got;
    Run(1, Ref);
    // Inactive lanes wrote nothing; the others wrote finite texels.
    for (uint32_t I = 0; I < 64; ++I) {
      uint32_t Bits;
      std::memcpy(&Bits, &Ref.Grad[I][0], 4);
      EXPECT_EQ(Bits == 0xabababab, I % 3 == 1) << "lane " << I;
      EXPECT_TRUE(std::isfinite(Ref.Lod0[I][0])) << "lane " << I;
    }
    for (unsigned W : {4u, 8u, 16u}) {
      Run(W, Got);
      for (uint32_t I = 0; I < 64; ++I)
        for (uint32_t K = 0; K < 4; ++K) {
          auto Same = [](float A, float B) {
            return std::memcmp(&A, &B, 4) == 0;
          };
          EXPECT_TRUE(Same(Got.Lod0[I][K], Ref.Lod0[I][K]))
              << "W " << W << " lod0 " << I << "." << K << ": "
              << Got.Lod0[I][K] << " vs " << Ref.Lod0[I][K] << " at ("
              << In[I][0] << ", " << In[I][1] << ")";
          EXPECT_TRUE(Same(Got.Grad[I][K], Ref.Grad[I][K]))
              << "W " << W << " grad " << I << "." << K;
          EXPECT_TRUE(Same(Got.Shifted[I][K], Ref.Shifted[I][K]))
              << "W " << W << " shifted " << I << "." << K;
        }
    }
  }
}

// textureLod of mip chains runs inline too (per-lane levels, their fields
// gathered from the descriptor, two levels blended with linear mipmaps):
// lods below 0, between levels, past the chain, NaN and infinite, with
// the sampler's bias (clamped to +-16), min and max lod, both mipmap modes
// and both filters; bit for bit what s2l_image_op gives.
TEST(ImageInlineExec, MipChainsMatchTheRuntime) {
  const char *Src = R"(#version 450
    layout(local_size_x = 8, local_size_y = 8) in;
    layout(set = 0, binding = 0) uniform sampler2D Tex;
    layout(set = 0, binding = 1) buffer In { vec4 uvl[64]; } inb;
    layout(set = 0, binding = 2) buffer Out { vec4 s[64]; vec4 t[64]; } o;
    void main() {
      uint i = gl_LocalInvocationIndex;
      vec4 a = inb.uvl[i];
      o.s[i] = textureLod(Tex, a.xy, a.z);
      if (i % 4u != 3u)
        o.t[i] = textureLod(Tex, a.yx * 2.0 - 0.5, a.w);
    })";
  struct Config {
    const char *Name;
    uint32_t Filter, MipMode, Mode;
    float Bias, MinLod, MaxLod;
  } Configs[] = {
      {"trilinear clamp", 1, 1, 2, 0, 0, 1000},
      {"trilinear repeat, bias 0.5, lods 0.25-2.5", 1, 1, 0, 0.5f, 0.25f, 2.5f},
      {"bilinear, nearest mipmaps", 1, 0, 2, 0, 0, 1000},
      {"nearest, linear mipmaps, bias -20", 0, 1, 0, -20, -1000, 1000},
      {"nearest, nearest mipmaps, bias 20", 0, 0, 2, 20, 0, 3.5f},
  };
  uint32_t Seed = 4242;
  float In[64][4];
  const float Lods[] = {-1.0f, 0.0f, 0.3f, 0.5f, 0.75f, 1.0f, 1.5f, 2.7f,
                        3.0f, 10.0f, __builtin_nanf(""), __builtin_inff(),
                        -__builtin_inff(), 1.25f, 18.0f, -18.0f};
  for (auto &P : In) {
    for (int K = 0; K < 2; ++K) {
      Seed = Seed * 1664525u + 1013904223u;
      P[K] = float(int32_t(Seed >> 16) % 3000) / 1000.0f - 1.0f;
    }
    for (int K = 2; K < 4; ++K) {
      Seed = Seed * 1664525u + 1013904223u;
      P[K] = Lods[(Seed >> 16) % std::size(Lods)];
    }
  }
  for (const Config &C : Configs) {
    SCOPED_TRACE(C.Name);
    Image Img = randomImage(Format::R8G8B8A8_UNORM, 16, 8, 4, Seed);
    s2l_sampler Smp = {};
    Smp.mag_filter = Smp.min_filter = C.Filter;
    Smp.mipmap_mode = C.MipMode;
    Smp.address_mode[0] = Smp.address_mode[1] = C.Mode;
    Smp.address_mode[2] = 2;
    Smp.mip_lod_bias = C.Bias;
    Smp.min_lod = C.MinLod;
    Smp.max_lod = C.MaxLod;
    Smp.max_anisotropy = 1;
    struct Outputs {
      float S[64][4], T[64][4];
    };
    auto Run = [&](unsigned W, Outputs &Out) {
      auto S = compile(Src, W);
      ASSERT_TRUE(S);
      std::memset(&Out, 0xab, sizeof(Out));
      DispatchResources R;
      R.bindCombinedImageSampler(0, 0, &Img.descriptor(), &Smp);
      R.bind(0, 1, In, sizeof(In));
      R.bind(0, 2, &Out, sizeof(Out));
      Status St = S->dispatch({1, 1, 1}, R, 1);
      ASSERT_TRUE(St.ok()) << St.message();
    };
    Outputs Ref, Got;
    Run(1, Ref);
    for (unsigned W : {4u, 8u, 16u}) {
      Run(W, Got);
      for (uint32_t I = 0; I < 64; ++I)
        for (uint32_t K = 0; K < 4; ++K) {
          EXPECT_EQ(std::memcmp(&Got.S[I][K], &Ref.S[I][K], 4), 0)
              << "W " << W << " s " << I << "." << K << ": " << Got.S[I][K]
              << " vs " << Ref.S[I][K] << " lod " << In[I][2];
          EXPECT_EQ(std::memcmp(&Got.T[I][K], &Ref.T[I][K], 4), 0)
              << "W " << W << " t " << I << "." << K << ": " << Got.T[I][K]
              << " vs " << Ref.T[I][K] << " lod " << In[I][3];
        }
    }
  }
}

// texelFetch of a 2D RGBA8 image at a uniform level runs inline as well;
// coordinates outside the level, levels past the chain and other formats
// must give what s2l_image_op gives.
TEST(ImageInlineExec, FetchesMatchTheRuntime) {
  const char *Src = R"(#version 450
    layout(local_size_x = 8, local_size_y = 8) in;
    layout(set = 0, binding = 0) uniform sampler2D Tex;
    layout(set = 0, binding = 1) buffer Out { vec4 f[64]; vec4 g[64]; } o;
    layout(push_constant) uniform P { int lod; } pc;
    void main() {
      ivec2 p = ivec2(gl_LocalInvocationID.xy) * 2 - ivec2(3, 2);
      uint i = gl_LocalInvocationIndex;
      o.f[i] = texelFetch(Tex, p, pc.lod);
      if (i % 5u < 3u)
        o.g[i] = texelFetch(Tex, p.yx + ivec2(1, 0), 0);
    })";
  struct Config {
    const char *Name;
    Format Fmt;
    uint32_t Levels;
    int32_t Lod;
  } Configs[] = {
      {"rgba8 level 0", Format::R8G8B8A8_UNORM, 1, 0},
      {"rgba8 level 1 of 2", Format::R8G8B8A8_UNORM, 2, 1},
      {"rgba8 level 2 of 2", Format::R8G8B8A8_UNORM, 2, 2},
      {"rgba8 level -1", Format::R8G8B8A8_UNORM, 2, -1},
      {"bgra8 level 1 of 2", Format::B8G8R8A8_UNORM, 2, 1},
      {"rgba16f", Format::R16G16B16A16_SFLOAT, 1, 0},
  };
  uint32_t Seed = 99;
  for (const Config &C : Configs) {
    SCOPED_TRACE(C.Name);
    Image Img = randomImage(C.Fmt, 9, 6, C.Levels, Seed);
    s2l_sampler Smp = {};
    Smp.max_lod = 1000;
    Smp.max_anisotropy = 1;
    struct Outputs {
      float F[64][4], G[64][4];
    };
    auto Run = [&](unsigned W, Outputs &Out) {
      auto S = compile(Src, W);
      ASSERT_TRUE(S);
      std::memset(&Out, 0xab, sizeof(Out));
      DispatchResources R;
      R.bindCombinedImageSampler(0, 0, &Img.descriptor(), &Smp);
      R.bind(0, 1, &Out, sizeof(Out));
      R.PushConstants.resize(4);
      std::memcpy(R.PushConstants.data(), &C.Lod, 4);
      Status St = S->dispatch({1, 1, 1}, R, 1);
      ASSERT_TRUE(St.ok()) << St.message();
    };
    Outputs Ref, Got;
    Run(1, Ref);
    if (C.Lod == 0 && C.Fmt == Format::R8G8B8A8_UNORM) {
      // The reference itself: texel bytes / 255 inside, zero outside.
      for (uint32_t I = 0; I < 64; ++I) {
        int32_t X = int32_t(I % 8) * 2 - 3, Y = int32_t(I / 8) * 2 - 2;
        bool In = X >= 0 && X < 9 && Y >= 0 && Y < 6;
        for (uint32_t K = 0; K < 4; ++K)
          EXPECT_EQ(Ref.F[I][K],
                    In ? float(Img.texelAddress(0, X, Y, 0)[K]) / 255.0f
                       : 0.0f)
              << "lane " << I << "." << K;
      }
    }
    for (unsigned W : {4u, 8u, 16u}) {
      Run(W, Got);
      EXPECT_EQ(std::memcmp(&Got, &Ref, sizeof(Got)), 0) << "W " << W;
    }
  }
}

TEST(ImageInlineExec, Rgba8WritesRoundAndClamp) {
  const char *Src = R"(#version 450
    layout(local_size_x = 8) in;
    layout(set = 0, binding = 0, rgba8) uniform writeonly image2D A;
    layout(set = 0, binding = 1) buffer In { vec4 v[8]; } inb;
    void main() {
      uint i = gl_LocalInvocationIndex;
      imageStore(A, ivec2(i, 0), inb.v[i]);
    })";
  // Each value times 255 is exact in float, so the expected byte is the
  // spec's round-to-nearest(-even) of it, worked out by hand.
  const float V[8] = {0.5f, 0.25f, 0.125f, 1.0f / 128, 3.0f / 512, -0.0f,
                      2.0f, __builtin_nanf("")};
  const uint8_t Want[8] = {128, 64, 32, 2, 1, 0, 255, 0};
  for (unsigned W : {1u, 8u}) {
    auto S = compile(Src, W);
    ASSERT_TRUE(S);
    Image A = makeImage(Format::R8G8B8A8_UNORM, 8, 1);
    float In[8][4];
    for (unsigned I = 0; I < 8; ++I)
      for (unsigned C = 0; C < 4; ++C)
        In[I][C] = V[(I + C) % 8];
    DispatchResources R;
    R.bindImage(0, 0, &A.descriptor());
    R.bind(0, 1, In, sizeof(In));
    Status St = S->dispatch({1, 1, 1}, R, 1);
    ASSERT_TRUE(St.ok()) << St.message();
    for (unsigned I = 0; I < 8; ++I)
      for (unsigned C = 0; C < 4; ++C)
        EXPECT_EQ(A.texelAddress(0, I, 0, 0)[C], Want[(I + C) % 8])
            << "W " << W << ", texel " << I << "." << C;
  }
}

TEST(ImageInlineExec, DeclaredFormatMustMatch) {
  const char *Src = R"(#version 450
    layout(local_size_x = 4) in;
    layout(set = 0, binding = 0, rgba8) uniform writeonly image2D A;
    void main() { imageStore(A, ivec2(gl_LocalInvocationIndex, 0), vec4(1)); })";
  auto S = compile(Src, 4);
  ASSERT_TRUE(S);
  Image A = makeImage(Format::B8G8R8A8_UNORM, 4, 1);
  DispatchResources R;
  R.bindImage(0, 0, &A.descriptor());
  Status St = S->dispatch({1, 1, 1}, R, 1);
  ASSERT_FALSE(St.ok());
  EXPECT_NE(St.message().find("has format B8G8R8A8_UNORM, the shader "
                              "declares R8G8B8A8_UNORM"),
            std::string::npos)
      << St.message();
}

// GLSL's samplerBuffer is an OpTypeSampledImage of a Buffer image, but
// Vulkan binds a uniform texel buffer there (no sampler): reflection says
// so and the descriptor is the image alone, in both back ends.
TEST(ImageTexelBufferExec, SamplerBufferIsAUniformTexelBuffer) {
  const char *Src = R"(#version 450
    layout(local_size_x = 8) in;
    layout(set = 0, binding = 0) uniform samplerBuffer Tb;
    layout(set = 0, binding = 1) buffer Out { vec4 v[8]; } o;
    void main() {
      int i = int(gl_LocalInvocationIndex);
      o.v[i] = texelFetch(Tb, i - 2);   // -2, -1 and 5.. are outside
    })";
  for (unsigned W : {1u, 8u}) {
    auto S = compile(Src, W);
    ASSERT_TRUE(S);
    ASSERT_EQ(S->info().Bindings.size(), 2u);
    const ComputeInfo::Binding &Bd = S->info().Bindings[0].Binding == 0
                                         ? S->info().Bindings[0]
                                         : S->info().Bindings[1];
    EXPECT_EQ(Bd.Kind, ComputeInfo::DescriptorKind::UniformTexelBuffer);
    ImageDesc D;
    D.Fmt = Format::R32_SFLOAT;
    D.ViewType = S2L_VIEW_BUFFER;
    D.Width = 3;
    auto Tb = Image::create(D);
    ASSERT_TRUE(Tb.ok()) << Tb.status().message();
    for (uint32_t X = 0; X < 3; ++X) {
      float V = 10.0f + float(X);
      std::memcpy(Tb->texelAddress(0, X, 0, 0), &V, 4);
    }
    float Out[8][4];
    DispatchResources R;
    R.bindImage(0, 0, &Tb->descriptor());
    R.bind(0, 1, Out, sizeof(Out));
    Status St = S->dispatch({1, 1, 1}, R, 1);
    ASSERT_TRUE(St.ok()) << St.message();
    for (int I = 0; I < 8; ++I) {
      int X = I - 2;
      bool In = X >= 0 && X < 3;
      EXPECT_EQ(Out[I][0], In ? 10.0f + float(X) : 0.0f) << "W " << W << ", " << I;
      EXPECT_EQ(Out[I][1], 0.0f);
      EXPECT_EQ(Out[I][3], 1.0f) << "alpha of R32_SFLOAT, in range or not";
    }
  }
}

// Integer coordinates of cube images are (x, y, 6 * layer + face), three
// components whether the cube is arrayed or not.
TEST(ImageCubeExec, CubeArrayLoadsTakeTheLayerFace) {
  const char *Src = R"(#version 450
    layout(local_size_x = 12) in;
    layout(set = 0, binding = 0, r32f) uniform readonly imageCubeArray C;
    layout(set = 0, binding = 1, r32f) uniform readonly imageCube One;
    layout(set = 0, binding = 2) buffer Out { float a[12]; float b[12]; } o;
    void main() {
      int i = int(gl_LocalInvocationIndex);
      o.a[i] = imageLoad(C, ivec3(1, 0, i)).x;
      o.b[i] = imageLoad(One, ivec3(0, 1, i)).x;  // faces 6.. are outside
    })";
  for (unsigned W : {1u, 8u}) {
    auto S = compile(Src, W);
    ASSERT_TRUE(S);
    auto Make = [](uint32_t View, uint32_t Layers) {
      ImageDesc D;
      D.Fmt = Format::R32_SFLOAT;
      D.ViewType = View;
      D.Width = D.Height = 2;
      D.Layers = Layers;
      auto I = Image::create(D);
      EXPECT_TRUE(I.ok()) << I.status().message();
      for (uint32_t L = 0; L < Layers; ++L)
        for (uint32_t Y = 0; Y < 2; ++Y)
          for (uint32_t X = 0; X < 2; ++X) {
            float V = float(100 * L + 10 * Y + X);
            std::memcpy(I->texelAddress(0, X, Y, L), &V, 4);
          }
      return std::move(*I);
    };
    Image C = Make(S2L_VIEW_CUBE_ARRAY, 12), One = Make(S2L_VIEW_CUBE, 6);
    float Out[24];
    DispatchResources R;
    R.bindImage(0, 0, &C.descriptor());
    R.bindImage(0, 1, &One.descriptor());
    R.bind(0, 2, Out, sizeof(Out));
    Status St = S->dispatch({1, 1, 1}, R, 1);
    ASSERT_TRUE(St.ok()) << St.message();
    for (int I = 0; I < 12; ++I) {
      EXPECT_EQ(Out[I], float(100 * I + 1)) << "W " << W << ", a " << I;
      EXPECT_EQ(Out[12 + I], I < 6 ? float(100 * I + 10) : 0.0f)
          << "W " << W << ", b " << I;
    }
  }
}

// Implicit LOD in a fragment shader: texture() takes the level from the
// coordinate's derivatives over each 2x2 quad. Quad q steps uv by 2^q
// texels per pixel in x and y, so lambda = q exactly and the nearest
// mipmap level is q; each level holds its own number.
TEST(ImageFragmentExec, ImplicitLodFromQuadDerivatives) {
  for (unsigned W : {4u, 8u, 16u}) {
    TranslateOptions Opts;
    Opts.Width = W;
    std::string Src = R"(#version 450
      layout(location = 0) in vec2 uv;
      layout(location = 0) out vec4 color;
      layout(set = 0, binding = 0) uniform sampler2D Tex;
      void main() { color = texture(Tex, uv); })";
    auto T = translateBytes(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Src.data()),
                                Src.size()),
        "lod.frag", Opts);
    ASSERT_TRUE(!!T) << llvm::toString(T.takeError());
    auto J = JitShader::create(std::move(*T), 2);
    ASSERT_TRUE(!!J) << J.status().message();
    const InterfaceLayout &L = (*J)->layout();
    const InterfaceVariable *UV = L.findInputLocation(0);
    const InterfaceVariable *Color = L.findOutputLocation(0);
    ASSERT_TRUE(UV && Color);

    ImageDesc D;
    D.Fmt = Format::R32_SFLOAT;
    D.Width = D.Height = 16;
    D.Levels = 5;
    auto Tex = Image::create(D);
    ASSERT_TRUE(Tex.ok()) << Tex.status().message();
    for (uint32_t Lv = 0; Lv < 5; ++Lv) {
      uint32_t Size = 16u >> Lv;
      for (uint32_t Y = 0; Y < Size; ++Y)
        for (uint32_t X = 0; X < Size; ++X) {
          float V = float(Lv);
          std::memcpy(Tex->texelAddress(Lv, X, Y, 0), &V, 4);
        }
    }
    s2l_sampler Smp = {};
    Smp.max_lod = 1000;
    Smp.max_anisotropy = 1;
    Smp.address_mode[0] = Smp.address_mode[1] = Smp.address_mode[2] = 0;
    s2l_combined_image_sampler Combined = {&Tex->descriptor(), &Smp};
    s2l_descriptor Set0[1] = {{&Combined, sizeof(Combined)}};
    const s2l_descriptor *Sets[1] = {Set0};

    std::vector<uint8_t> In(L.InputSize), Out(L.OutputSize);
    for (unsigned Lane = 0; Lane < W; ++Lane) {
      unsigned Q = Lane / 4;
      float Step = float(1u << Q) / 16.0f;
      float U = 0.125f + Step * float(Lane & 1);
      float V = 0.25f + Step * float((Lane >> 1) & 1);
      std::memcpy(&In[UV->ComponentOffsets[0] + 4 * Lane], &U, 4);
      std::memcpy(&In[UV->ComponentOffsets[1] + 4 * Lane], &V, 4);
    }
    s2l_group_args Args = {};
    Args.active_mask = W == 32 ? ~0u : (1u << W) - 1;
    Args.inputs = In.data();
    Args.outputs = Out.data();
    Args.descriptor_sets = Sets;
    (*J)->run(Args);
    for (unsigned Lane = 0; Lane < W; ++Lane) {
      float R;
      std::memcpy(&R, &Out[Color->ComponentOffsets[0] + 4 * Lane], 4);
      EXPECT_EQ(R, float(Lane / 4)) << "W " << W << ", lane " << Lane;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, ImageExec, testing::Values(1u, 4u, 8u, 16u),
                         [](const testing::TestParamInfo<unsigned> &I) {
                           return "W" + std::to_string(I.param);
                         });

} // namespace
