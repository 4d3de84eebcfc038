//===- TexelBufferLavapipeTest.cpp - 3-component texel buffers on lavapipe ===//
//
// The 3-component 8- and 16-bit formats (R8G8B8, B8G8R8, R16G16B16) are
// uniform-texel-buffer formats only on lavapipe (no sampled or storage
// image support), so ImageFormatLavapipeTest cannot reach them. Here random
// bytes go into a uniform texel buffer of each, a compute shader
// texelFetches every texel into a storage buffer, and the values are
// compared with decodeTexel: the component order in memory (B8G8R8: blue
// in the first byte, which Amber's `b8g8r8-snorm` conformance script
// depends on, docs/amber.md) and the conversions, against Mesa's.
//
// Float views exactly, except UNORM/SNORM within 1e-6 (lavapipe multiplies
// by 1/(2^b - 1)) and NaN equal to NaN; integer views bit for bit.
//
//===----------------------------------------------------------------------===//
#include "VulkanComputeRunner.h"

#include "frontend/Frontend.h"
#include "spirv2llvm/ImageFormat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;

namespace {

std::vector<uint32_t> fetchShader(ViewKind V) {
  const char *Prefix = V == ViewKind::SInt   ? "i"
                       : V == ViewKind::UInt ? "u"
                                             : "";
  std::string Source = std::string(R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform )") +
                       Prefix + R"(samplerBuffer T;
layout(set = 0, binding = 1) buffer Out { )" +
                       Prefix + R"(vec4 o[16]; };
void main() {
  uint i = gl_LocalInvocationIndex;
  o[i] = texelFetch(T, int(i));
}
)";
  frontend::GlslOptions Opts;
  Opts.Stage = frontend::ShaderStage::Compute;
  Opts.TargetEnv = SPV_ENV_VULKAN_1_2;
  Opts.FileName = "texel_buffer.comp";
  llvm::Expected<std::vector<uint32_t>> Words =
      frontend::compileGlsl(Source, Opts);
  if (!Words) {
    ADD_FAILURE() << llvm::toString(Words.takeError());
    return {};
  }
  return std::move(*Words);
}

class TexelBufferLavapipe : public ::testing::Test {
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
std::unique_ptr<VulkanComputeRunner> TexelBufferLavapipe::Runner;
std::string TexelBufferLavapipe::Why;

TEST_F(TexelBufferLavapipe, ThreeComponentFormatsReadAsDecodeTexel) {
  const Format Formats[] = {
      Format::R8G8B8_UNORM,     Format::R8G8B8_SNORM,
      Format::R8G8B8_UINT,      Format::R8G8B8_SINT,
      Format::B8G8R8_UNORM,     Format::B8G8R8_SNORM,
      Format::B8G8R8_UINT,      Format::B8G8R8_SINT,
      Format::R16G16B16_UNORM,  Format::R16G16B16_SNORM,
      Format::R16G16B16_UINT,   Format::R16G16B16_SINT,
      Format::R16G16B16_SFLOAT,
  };
  std::mt19937 Rng(16);
  for (Format F : Formats) {
    const FormatInfo *Info = formatInfo(F);
    ASSERT_NE(Info, nullptr);
    SCOPED_TRACE(std::string(Info->Name));
    ViewKind V = Info->view();
    VkImageSpec T;
    T.Kind = VkImageKind::UniformTexelBuffer;
    T.Format = uint32_t(F);
    T.Width = 16;
    T.Data.resize(16 * Info->BlockBytes);
    for (uint8_t &B : T.Data)
      B = uint8_t(Rng());
    VkBufferSpec Out;
    Out.Binding = 1;
    Out.Data.assign(16 * 16, 0);
    VkDispatch D;
    D.Spirv = fetchShader(V);
    D.Images = {T};
    D.Buffers = {Out};
    llvm::Error E = Runner->run(D);
    ASSERT_FALSE(E) << llvm::toString(std::move(E));
    const std::vector<uint8_t> &Got = D.Buffers[0].Data;
    for (uint32_t I = 0; I < 16; ++I) {
      const uint8_t *Texel = &T.Data[I * Info->BlockBytes];
      const uint8_t *Lane = &Got[I * 16];
      if (V == ViewKind::Float) {
        Float4 Want, Have;
        ASSERT_TRUE(decodeTexel(F, Texel, Want).ok());
        std::memcpy(&Have, Lane, 16);
        for (unsigned C = 0; C < 4; ++C) {
          if (std::isnan(Want[C])) {
            EXPECT_TRUE(std::isnan(Have[C])) << "texel " << I << "." << C;
            continue;
          }
          float Tol = Info->Components[0].Numeric == NumericKind::UNorm ||
                              Info->Components[0].Numeric == NumericKind::SNorm
                          ? 1e-6f
                          : 0.0f;
          EXPECT_NEAR(Have[C], Want[C], Tol) << "texel " << I << "." << C;
        }
      } else {
        UInt4 Want, Have;
        if (V == ViewKind::SInt) {
          Int4 S;
          ASSERT_TRUE(decodeTexel(F, Texel, S).ok());
          for (unsigned C = 0; C < 4; ++C)
            Want[C] = uint32_t(S[C]);
        } else {
          ASSERT_TRUE(decodeTexel(F, Texel, Want).ok());
        }
        std::memcpy(&Have, Lane, 16);
        for (unsigned C = 0; C < 4; ++C)
          EXPECT_EQ(Have[C], Want[C]) << "texel " << I << "." << C;
      }
    }
  }
}

} // namespace
