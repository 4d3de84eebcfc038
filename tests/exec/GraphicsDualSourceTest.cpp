//===- GraphicsDualSourceTest.cpp - Dual-source blending ------------------===//
//
// A fragment shader with a second output at location 0, Index 1
// (layout(index = 1)) blends into attachment 0 through the SRC1 factors,
// at W = 4, 8 and 16. The expected texels are Vulkan's blend equation
// evaluated here on dyadic values (exact in float), per pixel over a
// destination that differs from pixel to pixel. Vulkan's rules on where
// SRC1 factors may appear are errors.
//
//===----------------------------------------------------------------------===//
#include "GraphicsTestUtil.h"

#include <cstring>

using namespace spirv2llvm;
using namespace spirv2llvm::testutil;

namespace {

const char *VS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() { gl_Position = vec4(pos, 0.5, 1.0); vcolor = color; }
)";

/// Source 0 the vertex colour, source 1 another colour made from it.
const char *DualFS = R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0, index = 0) out vec4 src0;
layout(location = 0, index = 1) out vec4 src1;
void main() {
  src0 = vcolor;
  src1 = vec4(1.0) - vcolor.wzyx * 0.5;
}
)";

constexpr uint32_t FbW = 12, FbH = 8;
const Float4 Src = {0.5f, 0.25f, 0.75f, 0.375f};

Float4 src1Of(const Float4 &S) {
  return {1 - S[3] * 0.5f, 1 - S[2] * 0.5f, 1 - S[1] * 0.5f, 1 - S[0] * 0.5f};
}

/// The destination of pixel (X, Y): dyadic, different per pixel.
Float4 dst(uint32_t X, uint32_t Y) {
  return {float(X % 4) / 4, float(Y % 4) / 4, 0.5f,
          0.5f + 0.25f * float(X % 2)};
}

/// Vulkan 1.3 "Blend Factors", for the factors these tests use; \p C is
/// the component (3: alpha, where the colour factors take alpha).
float factor(BlendFactor F, const Float4 &S, const Float4 &S1, const Float4 &D,
             int C) {
  switch (F) {
  case BlendFactor::Zero:
    return 0;
  case BlendFactor::One:
    return 1;
  case BlendFactor::Src1Color:
    return S1[C];
  case BlendFactor::OneMinusSrc1Color:
    return 1 - S1[C];
  case BlendFactor::Src1Alpha:
    return S1[3];
  case BlendFactor::OneMinusSrc1Alpha:
    return 1 - S1[3];
  case BlendFactor::DstColor:
    return D[C];
  default:
    ADD_FAILURE() << "factor " << uint32_t(F);
    return 0;
  }
}

class GraphicsDualSourceTest : public ::testing::TestWithParam<unsigned> {
protected:
  GraphicsPipelineDesc desc(const char *FS = DualFS) {
    GraphicsPipelineDesc D;
    D.Vertex.Spirv = glsl(VS, frontend::ShaderStage::Vertex);
    D.Fragment =
        ShaderStageDesc{glsl(FS, frontend::ShaderStage::Fragment), {}, {}};
    D.VertexBindings = {{0, sizeof(ColorVertex), VertexInputRate::Vertex}};
    D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0},
                          {1, 0, Format::R32G32B32A32_SFLOAT, 8}};
    D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
    D.Width = GetParam();
    return D;
  }
  static std::string createError(const GraphicsPipelineDesc &D) {
    auto P = GraphicsPipeline::create(D);
    return P ? std::string() : P.status().message();
  }
};

TEST_P(GraphicsDualSourceTest, EverySrc1FactorBlendsWithTheSecondOutput) {
  // Each SRC1 factor as a source and as a destination factor, of colour
  // and of alpha.
  const BlendFactor F[4] = {
      BlendFactor::Src1Color, BlendFactor::OneMinusSrc1Color,
      BlendFactor::Src1Alpha, BlendFactor::OneMinusSrc1Alpha};
  for (int K = 0; K < 4; ++K) {
    ColorBlendAttachment B;
    B.BlendEnable = true;
    B.SrcColor = F[K];
    B.DstColor = F[(K + 1) % 4];
    B.SrcAlpha = F[(K + 2) % 4];
    B.DstAlpha = K % 2 ? BlendFactor::DstColor : F[(K + 3) % 4];
    B.AlphaOp = K == 3 ? BlendOp::ReverseSubtract : BlendOp::Add;
    GraphicsPipelineDesc D = desc();
    D.Blend.Attachments = {B};
    auto P = GraphicsPipeline::create(D);
    ASSERT_TRUE(bool(P)) << P.status().message();

    Image Color = image(Format::R32G32B32A32_SFLOAT, FbW, FbH);
    for (uint32_t Y = 0; Y < FbH; ++Y)
      for (uint32_t X = 0; X < FbW; ++X)
        ASSERT_TRUE(Color.writeTexel(0, X, Y, 0, 0, dst(X, Y)).ok());
    std::vector<ColorVertex> V;
    for (auto [X, Y] : {std::pair{-1, -1}, {3, -1}, {-1, 3}})
      V.push_back({float(X), float(Y), Src[0], Src[1], Src[2], Src[3]});
    DrawResources R;
    R.VertexBuffers = {{V.data(), V.size() * sizeof(ColorVertex)}};
    Framebuffer Fb;
    Fb.Color = {&Color.descriptor()};
    Status S = (*P)->draw(Fb, R, DrawCommand{3});
    ASSERT_TRUE(S.ok()) << S.message();

    Float4 S1 = src1Of(Src);
    for (uint32_t Y = 0; Y < FbH; ++Y)
      for (uint32_t X = 0; X < FbW; ++X) {
        Float4 Dv = dst(X, Y), Got = pixel(Color, X, Y);
        for (int C = 0; C < 4; ++C) {
          bool A = C == 3;
          float Fs = factor(A ? B.SrcAlpha : B.SrcColor, Src, S1, Dv, C);
          float Fd = factor(A ? B.DstAlpha : B.DstColor, Src, S1, Dv, C);
          float Want = (A && B.AlphaOp == BlendOp::ReverseSubtract)
                           ? Dv[C] * Fd - Src[C] * Fs
                           : Src[C] * Fs + Dv[C] * Fd;
          ASSERT_EQ(Got[C], Want) << "case " << K << " pixel " << X << "," << Y
                                  << " component " << C;
        }
      }
  }
}

TEST_P(GraphicsDualSourceTest, Src1FactorsFollowVulkansRules) {
  ColorBlendAttachment B;
  B.BlendEnable = true;
  B.DstColor = BlendFactor::OneMinusSrc1Alpha;
  // No output with Index 1.
  GraphicsPipelineDesc D = desc(ColorFS);
  D.Blend.Attachments = {B};
  EXPECT_EQ(createError(D),
            "colour attachment 0: a SRC1 blend factor needs a fragment "
            "shader output with Index 1 at location 0 (layout(location = 0, "
            "index = 1) in GLSL)");
  // On attachment 1 (maxFragmentDualSrcAttachments is 1).
  D = desc();
  D.ColorFormats = {Format::R32G32B32A32_SFLOAT, Format::R8G8B8A8_UNORM};
  D.Blend.Attachments = {ColorBlendAttachment(), B};
  EXPECT_EQ(createError(D), "colour attachment 1: a SRC1 blend factor "
                            "(dual-source blending) is only allowed on "
                            "attachment 0");
  // A second source anywhere but location 0.
  const char *Loc1 = R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0) out vec4 src0;
layout(location = 1, index = 1) out vec4 src1;
void main() { src0 = vcolor; src1 = vcolor; }
)";
  D = desc(Loc1);
  D.ColorFormats = {Format::R32G32B32A32_SFLOAT, Format::R8G8B8A8_UNORM};
  EXPECT_NE(createError(D).find("has Index 1 at location 1"), std::string::npos)
      << createError(D);
  // Without a SRC1 factor the second output is allowed and unused.
  EXPECT_EQ(createError(desc()), "");
}

INSTANTIATE_TEST_SUITE_P(Widths, GraphicsDualSourceTest,
                         ::testing::Values(4u, 8u, 16u));

} // namespace
