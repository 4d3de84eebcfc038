//===- GraphicsViewportTest.cpp - Several viewports (multiViewport) -------===//
//
// The vertex shader's ViewportIndex (GL_ARB_shader_viewport_layer_array,
// SPIR-V ShaderViewportIndexLayerEXT) picks the viewport and scissor of
// each primitive from its provoking vertex, at W = 4, 8 and 16; pixels and
// depths are worked out here from Vulkan's viewport transform. Bad
// viewport state and Layer are errors.
//
//===----------------------------------------------------------------------===//
#include "GraphicsTestUtil.h"

#include <cstring>

using namespace spirv2llvm;
using namespace spirv2llvm::testutil;

namespace {

/// NDC positions; the viewport index and a colour per vertex.
const char *IndexVS = R"(#version 450
#extension GL_ARB_shader_viewport_layer_array : require
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() {
  gl_Position = vec4(pos, 0.5, 1.0);
  gl_ViewportIndex = int(color.a);
  vcolor = color;
}
)";

/// Red from the vertex, green from the fragment's ViewportIndex (plus 1,
/// so that 0 is not the background), alpha the depth.
const char *IndexFS = R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0) out vec4 o;
void main() { o = vec4(vcolor.r, float(gl_ViewportIndex) + 1.0, 0, gl_FragCoord.z); }
)";

constexpr uint32_t FbW = 24, FbH = 20;

class GraphicsViewportTest : public ::testing::TestWithParam<unsigned> {
protected:
  GraphicsPipelineDesc desc(const char *VS = IndexVS,
                            const char *FS = IndexFS) {
    GraphicsPipelineDesc D;
    D.Vertex.Spirv = glsl(VS, frontend::ShaderStage::Vertex);
    D.Fragment =
        ShaderStageDesc{glsl(FS, frontend::ShaderStage::Fragment), {}, {}};
    D.VertexBindings = {{0, sizeof(ColorVertex), VertexInputRate::Vertex}};
    D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0},
                          {1, 0, Format::R32G32B32A32_SFLOAT, 8}};
    D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
    D.Width = GetParam();
    // Left half at depth 0..0.5, right half at depth 0.5..1.
    D.Viewports = {{0, 0, 12, 20, 0, 0.5f}, {12, 0, 12, 20, 0.5f, 1}};
    D.Scissors = {{0, 0, 24, 20}, {0, 4, 24, 8}};
    return D;
  }
  Image draw(const GraphicsPipelineDesc &D, const std::vector<ColorVertex> &V) {
    Image Color = image(Format::R32G32B32A32_SFLOAT, FbW, FbH);
    auto P = GraphicsPipeline::create(D);
    EXPECT_TRUE(bool(P)) << P.status().message();
    if (!P)
      return Color;
    DrawResources R;
    R.VertexBuffers = {{V.data(), V.size() * sizeof(ColorVertex)}};
    Framebuffer Fb;
    Fb.Color = {&Color.descriptor()};
    Status S = (*P)->draw(Fb, R, DrawCommand{uint32_t(V.size())});
    EXPECT_TRUE(S.ok()) << S.message();
    return Color;
  }
  /// NDC rectangle [X0, X1] x [Y0, Y1] in viewport \p Index, red \p R.
  static void rect(std::vector<ColorVertex> &V, float X0, float Y0, float X1,
                   float Y1, float R, float Index) {
    V.insert(V.end(), {{X0, Y0, R, 0, 0, Index},
                       {X1, Y0, R, 0, 0, Index},
                       {X0, Y1, R, 0, 0, Index},
                       {X1, Y0, R, 0, 0, Index},
                       {X1, Y1, R, 0, 0, Index},
                       {X0, Y1, R, 0, 0, Index}});
  }
};

TEST_P(GraphicsViewportTest, ViewportIndexPicksViewportScissorAndDepth) {
  // The same full-NDC quad through viewport 1 (right half, scissored to
  // rows 4..11) and the left half of NDC through viewport 0.
  std::vector<ColorVertex> V;
  rect(V, -1, -1, 1, 1, 0.25f, 1);
  rect(V, -1, -1, 0, 1, 0.75f, 0);
  Image Img = draw(desc(), V);
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      Float4 P = pixel(Img, X, Y);
      Float4 Want = {0, 0, 0, 0};
      if (X < 6) // NDC x in [-1, 0] of a 12-pixel viewport at 0
        Want = {0.75f, 1, 0, 0.25f}; // depth 0 + 0.5 * 0.5
      else if (X >= 12 && Y >= 4 && Y < 12)
        Want = {0.25f, 2, 0, 0.75f}; // depth 0.5 + 0.5 * 0.5
      for (int C = 0; C < 4; ++C)
        ASSERT_EQ(P[C], Want[C]) << X << "," << Y << " component " << C;
    }
}

TEST_P(GraphicsViewportTest, DepthClampUsesEachViewportsRange) {
  // z = 1.5 maps beyond both depth ranges (0 + 1.5 * 0.5, 0.5 + 1.5 * 0.5);
  // depth clamping keeps the primitives and clamps to each range's end.
  const char *FarVS = R"(#version 450
#extension GL_ARB_shader_viewport_layer_array : require
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() {
  gl_Position = vec4(pos, 1.5, 1.0);
  gl_ViewportIndex = int(color.a);
  vcolor = color;
}
)";
  GraphicsPipelineDesc D = desc(FarVS);
  D.Rasterization.DepthClampEnable = true;
  D.DepthStencilFormat = Format::D32_SFLOAT;
  D.DepthStencil.DepthTestEnable = true;
  D.DepthStencil.DepthWriteEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Always;
  std::vector<ColorVertex> V;
  rect(V, -1, -1, 1, 1, 1, 0);
  rect(V, -1, -1, 1, 1, 1, 1);
  Image Color = image(Format::R32G32B32A32_SFLOAT, FbW, FbH);
  Image Depth = image(Format::D32_SFLOAT, FbW, FbH);
  auto P = GraphicsPipeline::create(D);
  ASSERT_TRUE(bool(P)) << P.status().message();
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(ColorVertex)}};
  Framebuffer Fb;
  Fb.Color = {&Color.descriptor()};
  Fb.DepthStencil = &Depth.descriptor();
  Status S = (*P)->draw(Fb, R, DrawCommand{uint32_t(V.size())});
  ASSERT_TRUE(S.ok()) << S.message();
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      bool In1 = X >= 12 && Y >= 4 && Y < 12;
      float Want = X < 12 ? 0.5f : In1 ? 1.0f : 0.0f;
      ASSERT_EQ(pixel(Depth, X, Y)[0], Want) << X << "," << Y;
      ASSERT_EQ(pixel(Color, X, Y)[3], Want) << X << "," << Y;
    }
}

TEST_P(GraphicsViewportTest, ProvokingVertexChoosesTheViewport) {
  // One triangle over the whole NDC square whose first vertex says 1 and
  // the others 0: the first vertex provokes by default, the last with
  // ProvokingVertexFirst = false.
  std::vector<ColorVertex> V = {
      {-1, -1, 1, 0, 0, 1}, {3, -1, 1, 0, 0, 0}, {-1, 3, 1, 0, 0, 0}};
  for (bool First : {true, false}) {
    GraphicsPipelineDesc D = desc();
    D.Rasterization.ProvokingVertexFirst = First;
    Image Img = draw(D, V);
    for (uint32_t Y = 0; Y < FbH; ++Y)
      for (uint32_t X = 0; X < FbW; ++X) {
        bool In = First ? (X >= 12 && Y >= 4 && Y < 12) : X < 12;
        ASSERT_EQ(pixel(Img, X, Y)[1], In ? (First ? 2.0f : 1.0f) : 0.0f)
            << X << "," << Y << (First ? " first" : " last");
      }
  }
}

TEST_P(GraphicsViewportTest, IndexOutOfRangeUsesViewportZero) {
  // Vulkan leaves it undefined; here viewport 0 (Viewports.cpp).
  std::vector<ColorVertex> V;
  rect(V, -1, -1, 1, 1, 1, 7);
  Image Img = draw(desc(), V);
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X)
      ASSERT_EQ(pixel(Img, X, Y)[1], X < 12 ? 1.0f : 0.0f) << X << "," << Y;
}

TEST_P(GraphicsViewportTest,
       WithoutViewportIndexEveryPrimitiveUsesViewportZero) {
  const char *VS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() { gl_Position = vec4(pos, 0.5, 1.0); vcolor = color; }
)";
  std::vector<ColorVertex> V;
  rect(V, -1, -1, 1, 1, 1, 1); // the "1" is not written as an index
  Image Img = draw(desc(VS), V);
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X)
      ASSERT_EQ(pixel(Img, X, Y)[1], X < 12 ? 1.0f : 0.0f) << X << "," << Y;
}

TEST_P(GraphicsViewportTest, BadViewportStateAndLayerAreErrors) {
  auto CreateError = [&](const GraphicsPipelineDesc &D) {
    auto P = GraphicsPipeline::create(D);
    return P ? std::string() : P.status().message();
  };
  GraphicsPipelineDesc D = desc();
  D.Viewports.assign(17, Viewport{0, 0, 8, 8});
  D.Scissors.clear();
  EXPECT_EQ(CreateError(D), "17 viewports (at most 16)");
  D = desc();
  D.Scissors.assign(17, Rect2D{0, 0, 8, 8});
  D.Viewports.clear();
  EXPECT_EQ(CreateError(D), "17 scissors (at most 16)");
  D = desc();
  D.Scissors.pop_back();
  EXPECT_EQ(CreateError(D), "2 viewports but 1 scissors (Vulkan needs one "
                            "scissor per viewport)");
  // 16 of each is the limit, not beyond it.
  D = desc();
  D.Viewports.resize(16, Viewport{0, 0, 8, 8});
  D.Scissors.resize(16, Rect2D{0, 0, 8, 8});
  EXPECT_EQ(CreateError(D), "");

  // The state is dynamic: a draw checks it again.
  auto P = GraphicsPipeline::create(desc());
  ASSERT_TRUE(bool(P)) << P.status().message();
  std::vector<ColorVertex> V(3);
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(ColorVertex)}};
  Image Img = image(Format::R32G32B32A32_SFLOAT, 4, 4);
  Framebuffer Fb;
  Fb.Color = {&Img.descriptor()};
  (*P)->state().Viewports.push_back({0, 0, 4, 4});
  Status S = (*P)->draw(Fb, R, DrawCommand{3});
  EXPECT_EQ(S.message(), "3 viewports but 2 scissors (Vulkan needs one "
                         "scissor per viewport)");
  (*P)->state().Scissors.push_back({0, 0, 4, 4});
  (*P)->state().Viewports[1].Width = 0;
  S = (*P)->draw(Fb, R, DrawCommand{3});
  EXPECT_NE(S.message().find("viewport 1 has size 0"), std::string::npos)
      << S.message();

  // Layer: framebuffers have one layer here.
  const char *LayerVS = R"(#version 450
#extension GL_ARB_shader_viewport_layer_array : require
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() {
  gl_Position = vec4(pos, 0.5, 1.0);
  gl_Layer = int(color.a);
  vcolor = color;
}
)";
  EXPECT_NE(CreateError(desc(LayerVS)).find("vertex shader writes Layer"),
            std::string::npos)
      << CreateError(desc(LayerVS));
}

INSTANTIATE_TEST_SUITE_P(Widths, GraphicsViewportTest,
                         ::testing::Values(4u, 8u, 16u));

} // namespace
