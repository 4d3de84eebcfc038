//===- GraphicsPipelineTest.cpp - The rasterizer against the rules --------===//
//
// Draws through the public Graphics.h API at W = 4, 8 and 16 and checks
// pixels against references computed here from Vulkan's rules (pixel
// centres at +0.5, top-left fill rule, barycentric interpolation, depth
// and blend equations), not against earlier output. The comparison with
// lavapipe per state group is tests/vulkan/GraphicsDifferentialTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"

#include "GraphicsTestUtil.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace spirv2llvm;
using namespace spirv2llvm::testutil;

namespace {

const char *PosColorVS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() { gl_Position = vec4(pos, 0.0, 1.0); vcolor = color; }
)";


using Vertex = ColorVertex;

class GraphicsPipelineTest : public ::testing::TestWithParam<unsigned> {
protected:
  GraphicsPipelineDesc desc(const char *VS = PosColorVS,
                            const char *FS = ColorFS) {
    GraphicsPipelineDesc D;
    D.Vertex.Spirv = glsl(VS, frontend::ShaderStage::Vertex);
    D.Fragment = ShaderStageDesc{glsl(FS, frontend::ShaderStage::Fragment)};
    D.VertexBindings = {{0, sizeof(Vertex), VertexInputRate::Vertex}};
    D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0},
                          {1, 0, Format::R32G32B32A32_SFLOAT, 8}};
    D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
    D.Width = GetParam();
    return D;
  }
};

/// Pixel centre (X + 0.5, Y + 0.5) inside triangle ABC (screen pixels,
/// y down) by Vulkan's rules: strictly inside, or on a top or left edge.
bool covers(const double (*V)[2], double Px, double Py) {
  double Area = (V[1][0] - V[0][0]) * (V[2][1] - V[0][1]) -
                (V[2][0] - V[0][0]) * (V[1][1] - V[0][1]);
  int O[3] = {0, 1, 2};
  if (Area < 0)
    std::swap(O[1], O[2]);
  for (int K = 0; K < 3; ++K) {
    const double *A = V[O[K]], *B = V[O[(K + 1) % 3]];
    double E = (B[0] - A[0]) * (Py - A[1]) - (B[1] - A[1]) * (Px - A[0]);
    double Dx = B[0] - A[0], Dy = B[1] - A[1];
    bool TopLeft = (Dy == 0 && Dx > 0) || Dy < 0;
    if (E < 0 || (E == 0 && !TopLeft))
      return false;
  }
  return true;
}

TEST_P(GraphicsPipelineTest, TriangleCoverageFollowsTheFillRule) {
  auto P = GraphicsPipeline::create(desc());
  ASSERT_TRUE(bool(P)) << P.status().message();
  const uint32_t W = 37, H = 29; // not multiples of tiles or quads
  Image Color = image(Format::R32G32B32A32_SFLOAT, W, H);
  // Vertices in NDC chosen to put edges through pixel centres: x = -1 +
  // 2 * px / W.
  std::vector<Vertex> V = {{-1 + 2 * 3.5f / W, -1 + 2 * 2.5f / H, 1, 0, 0, 1},
                           {-1 + 2 * 30.5f / W, -1 + 2 * 9.5f / H, 1, 0, 0, 1},
                           {-1 + 2 * 12.5f / W, -1 + 2 * 26.5f / H, 1, 0, 0, 1}};
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vertex)}};
  Framebuffer Fb;
  Fb.Color = {&Color.descriptor()};
  Status S = (*P)->draw(Fb, R, DrawCommand{3});
  ASSERT_TRUE(S.ok()) << S.message();
  double Screen[3][2];
  for (int K = 0; K < 3; ++K) {
    // What the rasterizer sees: NDC to pixels, snapped to 1/256.
    Screen[K][0] = std::round((V[K].X + 1) * W / 2 * 256) / 256;
    Screen[K][1] = std::round((V[K].Y + 1) * H / 2 * 256) / 256;
  }
  unsigned Inside = 0;
  for (uint32_t Y = 0; Y < H; ++Y)
    for (uint32_t X = 0; X < W; ++X) {
      bool In = covers(Screen, X + 0.5, Y + 0.5);
      Inside += In;
      EXPECT_EQ(pixel(Color, X, Y)[0], In ? 1.0f : 0.0f)
          << "pixel " << X << "," << Y;
    }
  EXPECT_GT(Inside, 100u);
}

TEST_P(GraphicsPipelineTest, SharedEdgeIsDrawnOnce) {
  // Two triangles of a quad with additive blending: a pixel covered twice
  // would read 2.
  GraphicsPipelineDesc D = desc();
  ColorBlendAttachment A;
  A.BlendEnable = true;
  A.SrcColor = A.DstColor = A.SrcAlpha = A.DstAlpha = BlendFactor::One;
  D.Blend.Attachments = {A};
  auto P = GraphicsPipeline::create(D);
  ASSERT_TRUE(bool(P)) << P.status().message();
  Image Color = image(Format::R32G32B32A32_SFLOAT, 16, 16);
  std::vector<Vertex> V = {{-1, -1, 1, 0, 0, 0}, {1, -1, 1, 0, 0, 0},
                           {-1, 1, 1, 0, 0, 0},  {1, 1, 1, 0, 0, 0}};
  GraphicsPipelineDesc &St = (*P)->state();
  St.Topology = PrimitiveTopology::TriangleStrip;
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vertex)}};
  Framebuffer Fb;
  Fb.Color = {&Color.descriptor()};
  ASSERT_TRUE((*P)->draw(Fb, R, DrawCommand{4}).ok());
  for (uint32_t Y = 0; Y < 16; ++Y)
    for (uint32_t X = 0; X < 16; ++X)
      ASSERT_EQ(pixel(Color, X, Y)[0], 1.0f) << X << "," << Y;
}

TEST_P(GraphicsPipelineTest, VaryingsInterpolateBarycentrically) {
  auto P = GraphicsPipeline::create(desc());
  ASSERT_TRUE(bool(P)) << P.status().message();
  const uint32_t W = 64, H = 64;
  Image Color = image(Format::R32G32B32A32_SFLOAT, W, H);
  // A right triangle covering the lower-left half: (0,0) (64,0) (0,64)
  // in pixels, red/green/blue at the corners.
  std::vector<Vertex> V = {{-1, -1, 1, 0, 0, 1},
                           {1, -1, 0, 1, 0, 1},
                           {-1, 1, 0, 0, 1, 1}};
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vertex)}};
  Framebuffer Fb;
  Fb.Color = {&Color.descriptor()};
  ASSERT_TRUE((*P)->draw(Fb, R, DrawCommand{3}).ok());
  for (auto [X, Y] : {std::pair{0u, 0u}, {10u, 20u}, {40u, 3u}, {5u, 57u}}) {
    double Px = X + 0.5, Py = Y + 0.5;
    // Weights of the three corners at the centre (w = 1: linear).
    double G = Px / W, B = Py / H, Rd = 1 - G - B;
    Float4 C = pixel(Color, X, Y);
    EXPECT_NEAR(C[0], Rd, 1e-5) << X << "," << Y;
    EXPECT_NEAR(C[1], G, 1e-5);
    EXPECT_NEAR(C[2], B, 1e-5);
  }
}

TEST_P(GraphicsPipelineTest, PerspectiveCorrectInterpolation) {
  // The same screen triangle with w = 1, 2, 4 at its corners: a varying
  // is interpolated as (sum l_i a_i / w_i) / (sum l_i / w_i).
  const char *VS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
layout(location = 1) noperspective out float lin;
void main() {
  float w = color.w;
  gl_Position = vec4(pos * w, 0.0, w);
  vcolor = vec4(color.xyz, 1.0);
  lin = color.x;
}
)";
  const char *FS = R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 1) noperspective in float lin;
layout(location = 0) out vec4 o;
void main() { o = vec4(vcolor.x, lin, 0.0, 1.0); }
)";
  auto P = GraphicsPipeline::create(desc(VS, FS));
  ASSERT_TRUE(bool(P)) << P.status().message();
  const uint32_t W = 32, H = 32;
  Image Color = image(Format::R32G32B32A32_SFLOAT, W, H);
  std::vector<Vertex> V = {{-1, -1, 1, 0, 0, 1},
                           {1, -1, 0, 0, 0, 2},
                           {-1, 1, 0, 0, 0, 4}};
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vertex)}};
  Framebuffer Fb;
  Fb.Color = {&Color.descriptor()};
  ASSERT_TRUE((*P)->draw(Fb, R, DrawCommand{3}).ok());
  for (auto [X, Y] : {std::pair{1u, 1u}, {12u, 7u}, {3u, 20u}}) {
    double L1 = (X + 0.5) / W, L2 = (Y + 0.5) / H, L0 = 1 - L1 - L2;
    double Persp = (L0 * 1 / 1) / (L0 / 1 + L1 / 2 + L2 / 4);
    Float4 C = pixel(Color, X, Y);
    EXPECT_NEAR(C[0], Persp, 1e-5) << X << "," << Y;
    EXPECT_NEAR(C[1], L0, 1e-5) << X << "," << Y;
  }
}

TEST_P(GraphicsPipelineTest, DepthTestKeepsTheNearerSurface) {
  const char *VS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() { gl_Position = vec4(pos, color.w, 1.0); vcolor = vec4(color.rgb, 1); }
)";
  GraphicsPipelineDesc D = desc(VS);
  D.DepthStencilFormat = Format::D32_SFLOAT;
  D.DepthStencil.DepthTestEnable = true;
  D.DepthStencil.DepthWriteEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Less;
  auto P = GraphicsPipeline::create(D);
  ASSERT_TRUE(bool(P)) << P.status().message();
  Image Color = image(Format::R32G32B32A32_SFLOAT, 20, 20);
  Image Depth = image(Format::D32_SFLOAT, 20, 20);
  for (uint32_t Y = 0; Y < 20; ++Y)
    for (uint32_t X = 0; X < 20; ++X)
      ASSERT_TRUE(Depth.writeTexel(0, X, Y, 0, 0, Float4{1, 0, 0, 0}).ok());
  // A full-screen red quad at depth 0.5, then a green one at 0.25 over
  // the left half, then a blue one at 0.75 everywhere (hidden).
  auto Quad = [](float X0, float X1, float R, float G, float B, float Z) {
    return std::vector<Vertex>{{X0, -1, R, G, B, Z}, {X1, -1, R, G, B, Z},
                               {X0, 1, R, G, B, Z},  {X1, -1, R, G, B, Z},
                               {X1, 1, R, G, B, Z},  {X0, 1, R, G, B, Z}};
  };
  std::vector<Vertex> V = Quad(-1, 1, 1, 0, 0, 0.5f);
  for (auto Q : {Quad(-1, 0, 0, 1, 0, 0.25f), Quad(-1, 1, 0, 0, 1, 0.75f)})
    V.insert(V.end(), Q.begin(), Q.end());
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vertex)}};
  Framebuffer Fb;
  Fb.Color = {&Color.descriptor()};
  Fb.DepthStencil = &Depth.descriptor();
  Status S = (*P)->draw(Fb, R, DrawCommand{uint32_t(V.size())});
  ASSERT_TRUE(S.ok()) << S.message();
  for (uint32_t Y = 0; Y < 20; ++Y)
    for (uint32_t X = 0; X < 20; ++X) {
      Float4 C = pixel(Color, X, Y), Z{};
      ASSERT_TRUE(Depth.readTexel(0, X, Y, 0, 0, Z).ok());
      bool Left = X < 10;
      EXPECT_EQ(C[0], Left ? 0.0f : 1.0f) << X << "," << Y;
      EXPECT_EQ(C[1], Left ? 1.0f : 0.0f) << X << "," << Y;
      EXPECT_EQ(C[2], 0.0f);
      EXPECT_EQ(Z[0], Left ? 0.25f : 0.5f);
    }
}

TEST_P(GraphicsPipelineTest, ThreadCountDoesNotChangeTheImage) {
  // Many overlapping triangles with blending: the order per pixel must be
  // the draw order whatever the threads. Depths beyond [0, 1] make some
  // cross the near and far planes.
  const char *VS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() { gl_Position = vec4(pos, color.w, 1.0); vcolor = vec4(color.rgb, 0.5); }
)";
  GraphicsPipelineDesc D = desc(VS);
  ColorBlendAttachment A;
  A.BlendEnable = true;
  A.SrcColor = BlendFactor::SrcAlpha;
  A.DstColor = BlendFactor::OneMinusSrcAlpha;
  D.Blend.Attachments = {A};
  auto P = GraphicsPipeline::create(D);
  ASSERT_TRUE(bool(P)) << P.status().message();
  std::vector<Vertex> V;
  uint32_t Seed = 1;
  auto Rand = [&] {
    Seed = Seed * 1664525 + 1013904223;
    return float(Seed >> 8) / float(1 << 24);
  };
  for (int T = 0; T < 300; ++T)
    for (int K = 0; K < 3; ++K)
      V.push_back({Rand() * 2.4f - 1.2f, Rand() * 2.4f - 1.2f, Rand(), Rand(),
                   Rand(), Rand() * 2 - 0.5f});
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vertex)}};
  Image One = image(Format::R32G32B32A32_SFLOAT, 200, 150);
  Image Many = image(Format::R32G32B32A32_SFLOAT, 200, 150);
  Framebuffer Fb;
  Fb.Color = {&One.descriptor()};
  ASSERT_TRUE((*P)->draw(Fb, R, DrawCommand{uint32_t(V.size())}, 1).ok());
  Fb.Color = {&Many.descriptor()};
  ASSERT_TRUE((*P)->draw(Fb, R, DrawCommand{uint32_t(V.size())}, 4).ok());
  ASSERT_EQ(std::memcmp(One.bytes().data(), Many.bytes().data(),
                        One.bytes().size()),
            0);
  EXPECT_GT((*P)->stats().ClippedPrimitives, 0u);
}

TEST_P(GraphicsPipelineTest, BadInputGetsAClearError) {
  auto P = GraphicsPipeline::create(desc());
  ASSERT_TRUE(bool(P));
  Image Wrong = image(Format::R8G8B8A8_UNORM, 8, 8);
  std::vector<Vertex> V(3);
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vertex)}};
  Framebuffer Fb;
  Fb.Color = {&Wrong.descriptor()};
  Status S = (*P)->draw(Fb, R, DrawCommand{3});
  EXPECT_FALSE(S.ok());
  EXPECT_NE(S.message().find("R8G8B8A8_UNORM"), std::string::npos)
      << S.message();
  // A fragment input no vertex output feeds.
  const char *FS = R"(#version 450
layout(location = 3) in vec4 missing;
layout(location = 0) out vec4 o;
void main() { o = missing; }
)";
  auto Q = GraphicsPipeline::create(desc(PosColorVS, FS));
  ASSERT_FALSE(bool(Q));
  EXPECT_NE(Q.status().message().find("location 3"), std::string::npos)
      << Q.status().message();
  // Indexed draw without an index buffer.
  Image Color = image(Format::R32G32B32A32_SFLOAT, 8, 8);
  Fb.Color = {&Color.descriptor()};
  DrawCommand C{3};
  C.Indexed = true;
  EXPECT_FALSE((*P)->draw(Fb, R, C).ok());
}

INSTANTIATE_TEST_SUITE_P(Widths, GraphicsPipelineTest,
                         ::testing::Values(4u, 8u, 16u));

} // namespace
