//===- ImageImplicitLodExecTest.cpp - texture() of mip chains, inline -----===//
//
// In fragment shaders, texture() of a mip-mapped 2D RGBA8 image runs inline
// (simd/EmitInlineSample.cpp): the level of detail from the coordinates'
// fine derivatives over each 2x2 quad, libm's log2f as the runtime takes
// it, then the explicit-Lod mip path. It must give the runtime's bits: the
// reference here is s2l_image_op itself, called per lane with the
// gradients the call path passes (the same quad differences, computed in
// float here), for footprints that minify into every level, magnify, are
// anisotropic, degenerate (zero derivatives), NaN and infinite, under
// samplers the inline path takes (trilinear, nearest mipmaps, bias, lod
// clamps, repeat) and one it does not (anisotropy: the fallback call),
// with and without a Bias operand.
// W = 4, 8 and 16; a partial mask runs helper lanes for the derivatives.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Image.h"
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

const char *Frag = R"(#version 450
layout(location = 0) in vec2 uv;
layout(set = 0, binding = 0) uniform sampler2D Tex;
layout(location = 0) out vec4 o;
void main() { o = texture(Tex, uv); }
)";

// The same with a Bias operand per lane (added to the sampler's bias
// before the clamp to +-16).
const char *FragBias = R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) in float b;
layout(set = 0, binding = 0) uniform sampler2D Tex;
layout(location = 0) out vec4 o;
void main() { o = texture(Tex, uv, b); }
)";

std::unique_ptr<JitShader> compileFrag(const char *Src, unsigned W,
                                       std::string *IR) {
  TranslateOptions Opts;
  Opts.Width = W;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Src),
                              std::strlen(Src)),
      "implicit.frag", Opts);
  EXPECT_TRUE(!!T) << llvm::toString(T.takeError());
  if (!T)
    return nullptr;
  if (IR) {
    llvm::raw_string_ostream OS(*IR);
    T->IR->print(OS, nullptr);
  }
  auto J = JitShader::create(std::move(*T), 2);
  EXPECT_TRUE(!!J) << J.status().message();
  return J ? std::move(*J) : nullptr;
}

/// A W x H RGBA8 image with \p Levels levels of random bytes.
Image randomMips(uint32_t W, uint32_t H, uint32_t Levels, uint32_t &Seed) {
  auto I = Image::create(
      {Format::R8G8B8A8_UNORM, S2L_VIEW_2D, W, H, 1, 1, Levels, 1});
  EXPECT_TRUE(I.ok()) << I.status().message();
  for (uint8_t &B : I->bytes()) {
    Seed = Seed * 1664525u + 1013904223u;
    B = uint8_t(Seed >> 24);
  }
  return std::move(*I);
}

/// Quad q's coordinates: a base point and per-pixel steps along x and y,
/// from footprints of every kind.
void quadCoords(unsigned Q, uint32_t &Seed, float UV[4][2]) {
  auto Next = [&] {
    Seed = Seed * 1664525u + 1013904223u;
    return Seed >> 8;
  };
  // Steps in normalized units: 1/64 of a 16-texel side is a quarter
  // texel (magnified); 1 is 16 texels (past the last level).
  const float Steps[] = {0.0f,  1.0f / 64, 1.0f / 16, 0.1f, 0.23f,
                         0.5f,  1.0f,      -0.3f,     3.0f, 1e-7f};
  float U0 = float(int(Next() % 4000) - 1000) / 1000.0f;
  float V0 = float(int(Next() % 4000) - 1000) / 1000.0f;
  float Dux = Steps[Next() % std::size(Steps)];
  float Dvx = Next() % 3 ? 0.0f : Steps[Next() % std::size(Steps)];
  float Duy = Next() % 3 ? 0.0f : Steps[Next() % std::size(Steps)];
  float Dvy = Steps[Next() % std::size(Steps)];
  for (unsigned I = 0; I < 4; ++I) {
    float X = float(I & 1), Y = float(I >> 1);
    UV[I][0] = U0 + X * Dux + Y * Duy;
    UV[I][1] = V0 + X * Dvx + Y * Dvy;
  }
  // A few quads with special values in one pixel.
  const float Special[] = {__builtin_nanf(""), __builtin_inff(), 1e30f};
  if (Q % 7 == 3)
    UV[Next() % 4][Next() % 2] = Special[Next() % std::size(Special)];
}

/// What the call path computes for lane \p L of quad coordinates \p UV:
/// s2l_image_op with the fine differences as gradients.
Float4 reference(const float UV[4][2], unsigned L, const Image &Img,
                 const s2l_sampler &Smp, const float *Bias) {
  s2l_image_operands O = {};
  O.op = S2L_IMAGE_OP_SAMPLE;
  O.flags = S2L_IMAGE_HAS_GRAD;
  if (Bias) {
    O.flags |= S2L_IMAGE_HAS_BIAS;
    O.bias = *Bias;
  }
  O.dim = 1; // 2D
  O.kind = S2L_IMAGE_FLOAT;
  O.coord[0] = UV[L][0];
  O.coord[1] = UV[L][1];
  for (unsigned K = 0; K < 2; ++K) {
    O.grad_x[K] = UV[L | 1][K] - UV[L & ~1u][K];
    O.grad_y[K] = UV[L | 2][K] - UV[L & ~2u][K];
  }
  uint32_t R[4];
  s2l_image_op(&O, &Img.descriptor(), &Smp, R);
  return {std::bit_cast<float>(R[0]), std::bit_cast<float>(R[1]),
          std::bit_cast<float>(R[2]), std::bit_cast<float>(R[3])};
}

/// Runs \p Src (Frag or FragBias) at width \p W over random quads under
/// every sampler configuration and compares each lane with reference().
void checkAgainstTheRuntime(const char *Src, unsigned W, bool WithBias) {
  std::string IR;
  auto J = compileFrag(Src, W, &IR);
  ASSERT_TRUE(J);
  // The inline mip path is in the code, with libm's log2f per lane.
  EXPECT_NE(IR.find("sample.mip"), std::string::npos);
  EXPECT_NE(IR.find("@log2f("), std::string::npos);
  const InterfaceLayout &L = J->layout();
  const InterfaceVariable *In = L.findInputLocation(0);
  const InterfaceVariable *BiasIn = L.findInputLocation(1);
  const InterfaceVariable *Out = L.findOutputLocation(0);
  ASSERT_TRUE(In && Out && (BiasIn || !WithBias));
  const float Biases[] = {-20.0f, -1.3f, 0.0f,  0.6f,
                          2.5f,   17.0f, -0.4f, __builtin_nanf("")};

  struct Config {
    const char *Name;
    uint32_t Filter, MipMode, Mode;
    float Bias, MinLod, MaxLod, Aniso;
  } Configs[] = {
      {"trilinear clamp", 1, 1, 2, 0, 0, 1000, 1},
      {"trilinear repeat, bias 0.7, lods 0.5-2.25", 1, 1, 0, 0.7f, 0.5f,
       2.25f, 1},
      {"bilinear, nearest mipmaps", 1, 0, 2, 0, 0, 1000, 1},
      {"nearest, linear mipmaps, bias -1.5", 0, 1, 0, -1.5f, -1000, 1000, 1},
      {"nearest, nearest mipmaps, bias 20", 0, 0, 2, 20, 0, 3.5f, 1},
      // The fallback call (anisotropy is not inline).
      {"trilinear, anisotropy 4", 1, 1, 2, 0, 0, 1000, 4},
  };
  uint32_t Seed = 2024;
  Image Img = randomMips(16, 16, 5, Seed);
  for (const Config &C : Configs) {
    SCOPED_TRACE(C.Name);
    s2l_sampler Smp = {};
    Smp.mag_filter = Smp.min_filter = C.Filter;
    Smp.mipmap_mode = C.MipMode;
    Smp.address_mode[0] = Smp.address_mode[1] = C.Mode;
    Smp.address_mode[2] = 2;
    Smp.mip_lod_bias = C.Bias;
    Smp.min_lod = C.MinLod;
    Smp.max_lod = C.MaxLod;
    Smp.max_anisotropy = C.Aniso;
    s2l_combined_image_sampler Pair = {&Img.descriptor(), &Smp};
    s2l_descriptor Set0[1] = {{&Pair, sizeof(Pair)}};
    const s2l_descriptor *Sets[1] = {Set0};
    for (unsigned Call = 0; Call < 12; ++Call) {
      float UV[16][4][2], Bias[16];
      std::vector<uint8_t> InBuf(L.InputSize), OutBuf(L.OutputSize);
      for (unsigned Q = 0; Q < W / 4; ++Q) {
        quadCoords(Call * 4 + Q, Seed, UV[Q]);
        for (unsigned I = 0; I < 4; ++I)
          for (unsigned K = 0; K < 2; ++K)
            std::memcpy(&InBuf[In->ComponentOffsets[K] + 4 * (4 * Q + I)],
                        &UV[Q][I][K], 4);
      }
      for (unsigned Lane = 0; Lane < W && WithBias; ++Lane) {
        Bias[Lane] = Biases[(Lane * 5 + Call) % std::size(Biases)];
        std::memcpy(&InBuf[BiasIn->ComponentOffsets[0] + 4 * Lane],
                    &Bias[Lane], 4);
      }
      s2l_group_args Args = {};
      // Every third call leaves lanes out: they run as helpers.
      Args.active_mask = Call % 3 == 2 ? 0x9669u & ((1u << W) - 1)
                                       : (1u << W) - 1;
      Args.inputs = InBuf.data();
      Args.outputs = OutBuf.data();
      Args.descriptor_sets = Sets;
      J->run(Args);
      for (unsigned Lane = 0; Lane < W; ++Lane) {
        if (!(Args.active_mask >> Lane & 1))
          continue;
        Float4 Want = reference(UV[Lane / 4], Lane % 4, Img, Smp,
                                WithBias ? &Bias[Lane] : nullptr);
        for (unsigned K = 0; K < 4; ++K) {
          float Got;
          std::memcpy(&Got, &OutBuf[Out->ComponentOffsets[K] + 4 * Lane], 4);
          EXPECT_EQ(std::bit_cast<uint32_t>(Got),
                    std::bit_cast<uint32_t>(Want[K]))
              << "call " << Call << " lane " << Lane << " component " << K
              << ": " << Got << " vs " << Want[K] << " at ("
              << UV[Lane / 4][Lane % 4][0] << ", "
              << UV[Lane / 4][Lane % 4][1] << ")";
        }
      }
    }
  }
}

class ImplicitLodExec : public testing::TestWithParam<unsigned> {};

TEST_P(ImplicitLodExec, MatchesTheRuntime) {
  checkAgainstTheRuntime(Frag, GetParam(), false);
}

TEST_P(ImplicitLodExec, WithBiasMatchesTheRuntime) {
  checkAgainstTheRuntime(FragBias, GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(Widths, ImplicitLodExec,
                         testing::Values(4u, 8u, 16u));

} // namespace
