//===- SubpassLoadExecTest.cpp - Input attachments, executed --------------===//
//
// A subpass load (OpImageRead of a SubpassData image, GLSL subpassLoad)
// reads the input attachment at the fragment's integer position plus its
// coordinate, an offset (SPIR-V "OpImageRead"; glslang always gives (0, 0),
// so the offset case is SPIR-V assembly). The shaders here do not declare
// FragCoord: the translator adds it to the interface, and the caller fills
// it as a rasterizer would (pixel centres, x + 0.5). Each lane's result is
// compared with the texels read back through Image::readTexel, at W = 4, 8
// and 16 (2x2 quads, as the rasterizer calls) and in the one-invocation
// back end (W = 1, one call per pixel). Then the bad inputs: a subpass
// load outside a fragment shader.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Image.h"
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

// Color = 0.5 * Prev[pixel + (1, -1)] + PrevMS[pixel], sample 2. The
// bindings are not the attachment indices: the descriptor is found at
// set/binding, as in Vulkan.
const char *SubpassAsm = R"(
               OpCapability Shader
               OpCapability InputAttachment
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main" %Color %Prev %PrevMS
               OpExecutionMode %main OriginUpperLeft
               OpDecorate %Color Location 0
               OpDecorate %Prev DescriptorSet 0
               OpDecorate %Prev Binding 1
               OpDecorate %Prev InputAttachmentIndex 2
               OpDecorate %PrevMS DescriptorSet 0
               OpDecorate %PrevMS Binding 3
               OpDecorate %PrevMS InputAttachmentIndex 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
    %out_ptr = OpTypePointer Output %v4float
      %Color = OpVariable %out_ptr Output
        %img = OpTypeImage %float SubpassData 0 0 0 2 Unknown
    %img_ptr = OpTypePointer UniformConstant %img
       %Prev = OpVariable %img_ptr UniformConstant
      %imgms = OpTypeImage %float SubpassData 0 0 1 2 Unknown
  %imgms_ptr = OpTypePointer UniformConstant %imgms
     %PrevMS = OpVariable %imgms_ptr UniformConstant
        %int = OpTypeInt 32 1
      %v2int = OpTypeVector %int 2
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
     %int_m1 = OpConstant %int -1
      %int_2 = OpConstant %int 2
       %zero = OpConstantComposite %v2int %int_0 %int_0
        %off = OpConstantComposite %v2int %int_1 %int_m1
       %half = OpConstant %float 0.5
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %a = OpLoad %img %Prev
         %ta = OpImageRead %v4float %a %off
         %ha = OpVectorTimesScalar %v4float %ta %half
          %b = OpLoad %imgms %PrevMS
         %tb = OpImageRead %v4float %b %zero Sample %int_2
          %c = OpFAdd %v4float %ha %tb
               OpStore %Color %c
               OpReturn
               OpFunctionEnd
)";

std::unique_ptr<JitShader> compileAsm(const std::string &Source, unsigned W,
                                      std::string &Error,
                                      bool Validate = true,
                                      const char *Name = "subpass.spvasm",
                                      bool Inline = true) {
  TranslateOptions Opts;
  Opts.Validate = Validate;
  Opts.Inline = Inline;
  if (W == 1)
    Opts.Backend = Backend::Invocation;
  else
    Opts.Width = W;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      Name, Opts);
  if (!T) {
    Error = llvm::toString(T.takeError());
    return nullptr;
  }
  auto J = JitShader::create(std::move(*T), 2);
  if (!J) {
    Error = J.status().message();
    return nullptr;
  }
  return std::move(*J);
}

Image makeImage(uint32_t W, uint32_t H, uint32_t Samples) {
  auto I = Image::create(
      {Format::R32G32B32A32_SFLOAT, S2L_VIEW_2D, W, H, 1, 1, 1, Samples});
  EXPECT_TRUE(bool(I)) << I.status().message();
  return std::move(*I);
}

/// Texel (X, Y) of \p I, or zero outside it (robust access: RGBA32F has
/// alpha, so all four components are zero).
Float4 texelOrZero(const Image &I, int X, int Y, uint32_t Sample) {
  Float4 V{};
  if (X < 0 || Y < 0 || uint32_t(X) >= I.desc().Width ||
      uint32_t(Y) >= I.desc().Height)
    return V;
  EXPECT_TRUE(I.readTexel(0, uint32_t(X), uint32_t(Y), 0, Sample, V).ok());
  return V;
}

class SubpassExec : public testing::TestWithParam<unsigned> {};

TEST_P(SubpassExec, ReadsAtTheFragmentPositionPlusTheOffset) {
  const unsigned W = GetParam();
  std::string Error;
  auto J = compileAsm(SubpassAsm, W, Error);
  ASSERT_TRUE(J) << Error;
  const InterfaceLayout &L = J->layout();
  // The shader declares no FragCoord: the translator added one.
  const InterfaceVariable *Pos = nullptr;
  for (const InterfaceVariable &V : L.Inputs)
    if (V.BuiltIn == 15 /* FragCoord */)
      Pos = &V;
  ASSERT_TRUE(Pos) << "no FragCoord input in the layout";
  const InterfaceVariable *Out = L.findOutputLocation(0);
  ASSERT_TRUE(Out);

  // 5x3 attachments, every texel and sample different; the pixels cover
  // them and one more row and column, so offsets reach past every edge.
  Image A = makeImage(5, 3, 1), Ms = makeImage(5, 3, 4);
  for (uint32_t Y = 0; Y < 3; ++Y)
    for (uint32_t X = 0; X < 5; ++X) {
      ASSERT_TRUE(A.writeTexel(0, X, Y, 0, 0,
                               Float4{float(X) + 0.25f, float(Y) + 0.5f,
                                      float(10 * X + Y), 2.0f})
                      .ok());
      for (uint32_t S = 0; S < 4; ++S)
        ASSERT_TRUE(Ms.writeTexel(0, X, Y, 0, S,
                                  Float4{float(100 * S), float(X * Y),
                                         float(S), float(X + 1)})
                        .ok());
    }
  s2l_descriptor Set0[4] = {{nullptr, 0},
                            {const_cast<s2l_image *>(&A.descriptor()), sizeof(s2l_image)},
                            {nullptr, 0},
                            {const_cast<s2l_image *>(&Ms.descriptor()), sizeof(s2l_image)}};
  const s2l_descriptor *Sets[1] = {Set0};

  // Pixels in the order a rasterizer calls: 2x2 quads, W/4 per call (one
  // pixel per call at W = 1).
  std::vector<std::pair<int, int>> Pixels;
  for (int QY = 0; QY < 4; QY += 2)
    for (int QX = 0; QX < 6; QX += 2)
      for (int I = 0; I < 4; ++I)
        Pixels.push_back({QX + (I & 1), QY + (I >> 1)});
  std::vector<uint8_t> In(L.InputSize), OutBuf(L.OutputSize);
  for (size_t First = 0; First < Pixels.size(); First += W) {
    for (unsigned Lane = 0; Lane < W; ++Lane) {
      auto [X, Y] = Pixels[First + Lane];
      float P[4] = {float(X) + 0.5f, float(Y) + 0.5f, 0.5f, 1.0f};
      for (unsigned C = 0; C < 4; ++C)
        std::memcpy(&In[Pos->ComponentOffsets[C] + 4 * Lane], &P[C], 4);
    }
    s2l_group_args Args = {};
    Args.active_mask = (1u << W) - 1;
    Args.inputs = In.data();
    Args.outputs = OutBuf.data();
    Args.descriptor_sets = Sets;
    J->run(Args);
    for (unsigned Lane = 0; Lane < W; ++Lane) {
      auto [X, Y] = Pixels[First + Lane];
      Float4 Ta = texelOrZero(A, X + 1, Y - 1, 0);
      Float4 Tb = texelOrZero(Ms, X, Y, 2);
      for (unsigned C = 0; C < 4; ++C) {
        float Got;
        std::memcpy(&Got, &OutBuf[Out->ComponentOffsets[C] + 4 * Lane], 4);
        EXPECT_EQ(Got, 0.5f * Ta[C] + Tb[C])
            << "pixel (" << X << ", " << Y << ") component " << C;
      }
    }
  }
}

TEST_P(SubpassExec, ReadsInACalleeWithoutInlining) {
  // A function kept as a function (--no-inline) reads the position from
  // the group's arguments too.
  const char *Src = R"(#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput In;
layout(location = 0) out vec4 o;
vec4 readIt(float Scale) { return subpassLoad(In) * Scale; }
void main() { o = readIt(2.0); }
)";
  const unsigned W = GetParam();
  std::string Error;
  auto J = compileAsm(Src, W, Error, true, "callee.frag", /*Inline=*/false);
  ASSERT_TRUE(J) << Error;
  const InterfaceLayout &L = J->layout();
  const InterfaceVariable *Pos = nullptr;
  for (const InterfaceVariable &V : L.Inputs)
    if (V.BuiltIn == 15 /* FragCoord */)
      Pos = &V;
  const InterfaceVariable *Out = L.findOutputLocation(0);
  ASSERT_TRUE(Pos && Out);
  Image A = makeImage(4, 4, 1);
  for (uint32_t Y = 0; Y < 4; ++Y)
    for (uint32_t X = 0; X < 4; ++X)
      ASSERT_TRUE(
          A.writeTexel(0, X, Y, 0, 0, Float4{float(X), float(Y), 1, 0.5f})
              .ok());
  s2l_descriptor Set0[1] = {
      {const_cast<s2l_image *>(&A.descriptor()), sizeof(s2l_image)}};
  const s2l_descriptor *Sets[1] = {Set0};
  std::vector<uint8_t> In(L.InputSize), OutBuf(L.OutputSize);
  // Pixels (1, 2), (2, 2), (1, 3), (2, 3), ... one quad per 4 lanes.
  auto PixelOf = [](unsigned Lane) {
    return std::pair<int, int>{1 + int(Lane & 1) + 2 * int(Lane / 4 % 2),
                               int(Lane >> 1 & 1) + 2 * int(Lane / 8)};
  };
  for (unsigned Lane = 0; Lane < std::max(W, 1u); ++Lane) {
    auto [X, Y] = PixelOf(Lane);
    float P[2] = {float(X) + 0.5f, float(Y) + 0.5f};
    std::memcpy(&In[Pos->ComponentOffsets[0] + 4 * Lane], &P[0], 4);
    std::memcpy(&In[Pos->ComponentOffsets[1] + 4 * Lane], &P[1], 4);
  }
  s2l_group_args Args = {};
  Args.active_mask = (1u << W) - 1;
  Args.inputs = In.data();
  Args.outputs = OutBuf.data();
  Args.descriptor_sets = Sets;
  J->run(Args);
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    auto [X, Y] = PixelOf(Lane);
    Float4 T = texelOrZero(A, X, Y, 0);
    for (unsigned C = 0; C < 4; ++C) {
      float Got;
      std::memcpy(&Got, &OutBuf[Out->ComponentOffsets[C] + 4 * Lane], 4);
      EXPECT_EQ(Got, T[C] * 2.0f)
          << "lane " << Lane << " pixel (" << X << ", " << Y << ")";
    }
  }
}

TEST_P(SubpassExec, OutsideAFragmentShaderIsAnError) {
  // spirv-val rejects SubpassData outside fragment shaders; without the
  // validator the translator must say so rather than read anywhere.
  std::string Source = SubpassAsm;
  auto Replace = [&](const std::string &From, const std::string &To) {
    size_t At = Source.find(From);
    ASSERT_NE(At, std::string::npos) << From;
    Source.replace(At, From.size(), To);
  };
  Replace("OpEntryPoint Fragment %main \"main\" %Color",
          "OpEntryPoint GLCompute %main \"main\"");
  Replace("OpExecutionMode %main OriginUpperLeft",
          "OpExecutionMode %main LocalSize 1 1 1");
  Replace("               OpStore %Color %c\n", "");
  std::string Error;
  auto J = compileAsm(Source, GetParam(), Error, /*Validate=*/false);
  EXPECT_FALSE(J);
  EXPECT_NE(Error.find("OpImageRead: a subpass load (SubpassData image) "
                       "outside a fragment shader"),
            std::string::npos)
      << Error;
}

TEST_P(SubpassExec, OnlyReadsOfSubpassData) {
  // A query of a SubpassData image (spirv-val refuses it) is not a read.
  std::string Source = SubpassAsm;
  size_t At = Source.find("%ta = OpImageRead %v4float %a %off");
  ASSERT_NE(At, std::string::npos);
  Source.replace(At, std::string("%ta = OpImageRead %v4float %a %off").size(),
                 "%ta = OpImageFetch %v4float %a %off");
  std::string Error;
  auto J = compileAsm(Source, GetParam(), Error, /*Validate=*/false);
  EXPECT_FALSE(J);
  EXPECT_NE(Error.find("can only be read with OpImageRead"), std::string::npos)
      << Error;
}

INSTANTIATE_TEST_SUITE_P(Widths, SubpassExec,
                         testing::Values(1u, 4u, 8u, 16u),
                         [](const testing::TestParamInfo<unsigned> &I) {
                           return I.param == 1
                                      ? std::string("invocation")
                                      : "w" + std::to_string(I.param);
                         });

} // namespace
