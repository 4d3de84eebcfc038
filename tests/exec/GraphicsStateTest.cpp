//===- GraphicsStateTest.cpp - Fixed-function state of the rasterizer -----===//
//
// One test per state group of Graphics.h (topologies and restart,
// instancing, indirect draws, culling, points, lines, clip distances,
// stencil, multisampling and resolve), each checked against pixels worked
// out here from Vulkan's rules, at W = 4, 8 and 16.
//
//===----------------------------------------------------------------------===//
#include "GraphicsTestUtil.h"

#include <cmath>
#include <cstring>

using namespace spirv2llvm;
using namespace spirv2llvm::testutil;

namespace {

/// Position in pixels of a W x H framebuffer, converted to NDC by the
/// vertex shader through push constants: what the tests write is pixels.
const char *PixelVS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
layout(push_constant) uniform PC { vec2 size; float pointSize; } pc;
void main() {
  gl_Position = vec4(pos / pc.size * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = pc.pointSize;
  vcolor = color;
}
)";


using Vtx = ColorVertex;

class GraphicsStateTest : public ::testing::TestWithParam<unsigned> {
protected:
  static constexpr uint32_t FbW = 24, FbH = 20;
  GraphicsPipelineDesc desc(const char *VS = PixelVS,
                            const char *FS = ColorFS) {
    GraphicsPipelineDesc D;
    D.Vertex.Spirv = glsl(VS, frontend::ShaderStage::Vertex);
    D.Fragment = ShaderStageDesc{glsl(FS, frontend::ShaderStage::Fragment)};
    D.VertexBindings = {{0, sizeof(Vtx), VertexInputRate::Vertex}};
    D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0},
                          {1, 0, Format::R32G32B32A32_SFLOAT, 8}};
    D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
    D.Width = GetParam();
    return D;
  }
  /// Draws \p V with \p D into a fresh FbW x FbH image (and \p Depth).
  Image draw(const GraphicsPipelineDesc &D, const std::vector<Vtx> &V,
             DrawCommand Cmd, float PointSize = 1,
             const std::vector<uint32_t> *Indices = nullptr,
             Image *DepthStencil = nullptr) {
    Image Color = image(D.ColorFormats[0], FbW, FbH, D.Multisample.Samples);
    auto P = GraphicsPipeline::create(D);
    EXPECT_TRUE(bool(P)) << P.status().message();
    if (!P)
      return Color;
    DrawResources R;
    R.VertexBuffers = {{V.data(), V.size() * sizeof(Vtx)}};
    float PC[3] = {float(FbW), float(FbH), PointSize};
    R.PushConstants.resize(sizeof PC);
    std::memcpy(R.PushConstants.data(), PC, sizeof PC);
    if (Indices) {
      R.IndexData = Indices->data();
      R.IndexSize = Indices->size() * 4;
    }
    Framebuffer Fb;
    Fb.Color = {&Color.descriptor()};
    if (DepthStencil)
      Fb.DepthStencil = &DepthStencil->descriptor();
    Status S = (*P)->draw(Fb, R, Cmd);
    EXPECT_TRUE(S.ok()) << S.message();
    return Color;
  }
  /// The rectangle [X0, X1) x [Y0, Y1) of pixels as two triangles.
  static std::vector<Vtx> rect(float X0, float Y0, float X1, float Y1,
                               Float4 C) {
    return {{X0, Y0, C[0], C[1], C[2], C[3]}, {X1, Y0, C[0], C[1], C[2], C[3]},
            {X0, Y1, C[0], C[1], C[2], C[3]}, {X1, Y0, C[0], C[1], C[2], C[3]},
            {X1, Y1, C[0], C[1], C[2], C[3]}, {X0, Y1, C[0], C[1], C[2], C[3]}};
  }
};

TEST_P(GraphicsStateTest, StripRestartStartsANewStrip) {
  GraphicsPipelineDesc D = desc();
  D.Topology = PrimitiveTopology::TriangleStrip;
  D.PrimitiveRestartEnable = true;
  // Two strips of two triangles each: columns [2, 8) and [14, 20). Without
  // the restart the strip would also fill [8, 14).
  std::vector<Vtx> V;
  for (float X0 : {2.0f, 14.0f})
    for (float X : {X0, X0 + 6})
      for (float Y : {4.0f, 16.0f})
        V.push_back({X, Y, 1, 0, 0, 1});
  std::vector<uint32_t> I = {0, 1, 2, 3, 0xffffffffu, 4, 5, 6, 7};
  DrawCommand C{uint32_t(I.size())};
  C.Indexed = true;
  Image Img = draw(D, V, C, 1, &I);
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      bool In = Y >= 4 && Y < 16 &&
                ((X >= 2 && X < 8) || (X >= 14 && X < 20));
      ASSERT_EQ(pixel(Img, X, Y)[0], In ? 1.0f : 0.0f) << X << "," << Y;
    }
}

TEST_P(GraphicsStateTest, InstancesReadPerInstanceAttributes) {
  GraphicsPipelineDesc D = desc();
  // Binding 1, per instance: an offset added to x by the shader.
  const char *VS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 2) in float dx;
layout(location = 0) out vec4 vcolor;
layout(push_constant) uniform PC { vec2 size; float pointSize; } pc;
void main() {
  gl_Position = vec4((pos + vec2(dx, 0)) / pc.size * 2.0 - 1.0, 0.0, 1.0);
  vcolor = color * float(gl_InstanceIndex);
}
)";
  D = desc(VS);
  D.VertexBindings.push_back({1, 4, VertexInputRate::Instance});
  D.VertexAttributes.push_back({2, 1, Format::R32_SFLOAT, 0});
  auto P = GraphicsPipeline::create(D);
  ASSERT_TRUE(bool(P)) << P.status().message();
  std::vector<Vtx> V = rect(0, 0, 4, 4, {1, 0, 0, 1});
  float Offsets[3] = {2, 8, 16};
  Image Img = image(Format::R32G32B32A32_SFLOAT, FbW, FbH);
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vtx)},
                     {Offsets, sizeof Offsets}};
  float PC[3] = {float(FbW), float(FbH), 1};
  R.PushConstants.assign(reinterpret_cast<uint8_t *>(PC),
                         reinterpret_cast<uint8_t *>(PC) + sizeof PC);
  Framebuffer Fb;
  Fb.Color = {&Img.descriptor()};
  DrawCommand C{6};
  C.InstanceCount = 2;
  C.FirstInstance = 1; // instances 1 and 2: offsets 8 and 16
  Status S = (*P)->draw(Fb, R, C);
  ASSERT_TRUE(S.ok()) << S.message();
  for (uint32_t X = 0; X < FbW; ++X) {
    float Want = X >= 8 && X < 12 ? 1 : X >= 16 && X < 20 ? 2 : 0;
    EXPECT_EQ(pixel(Img, X, 1)[0], Want) << X;
  }
}

TEST_P(GraphicsStateTest, IndirectDrawsReadTheirCommands) {
  GraphicsPipelineDesc D = desc();
  auto P = GraphicsPipeline::create(D);
  ASSERT_TRUE(bool(P));
  std::vector<Vtx> V = rect(0, 0, 8, 8, {1, 0, 0, 1});
  auto More = rect(10, 10, 20, 20, {0, 1, 0, 1});
  V.insert(V.end(), More.begin(), More.end());
  // Two commands, 20 bytes apart: the first draws vertices 0-5, the
  // second 6-11.
  uint32_t Cmds[10] = {6, 1, 0, 0, 0xdead, 6, 1, 6, 0, 0xbeef};
  Image Img = image(Format::R32G32B32A32_SFLOAT, FbW, FbH);
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vtx)}};
  float PC[3] = {float(FbW), float(FbH), 1};
  R.PushConstants.assign(reinterpret_cast<uint8_t *>(PC),
                         reinterpret_cast<uint8_t *>(PC) + sizeof PC);
  Framebuffer Fb;
  Fb.Color = {&Img.descriptor()};
  Status S = (*P)->drawIndirect(Fb, R, Cmds, sizeof Cmds, 2, 20, false);
  ASSERT_TRUE(S.ok()) << S.message();
  EXPECT_EQ(pixel(Img, 3, 3)[0], 1.0f);
  EXPECT_EQ(pixel(Img, 15, 15)[1], 1.0f);
  EXPECT_EQ(pixel(Img, 9, 9)[0] + pixel(Img, 9, 9)[1], 0.0f);
  // A command beyond the buffer is an error.
  EXPECT_FALSE((*P)->drawIndirect(Fb, R, Cmds, sizeof Cmds, 3, 20, false).ok());
}

TEST_P(GraphicsStateTest, CullModeDropsTheFacing) {
  // In pixel coordinates (y down), (0,0) (8,0) (0,8) winds clockwise on
  // screen: with FrontFace::CounterClockwise it is a back face.
  std::vector<Vtx> V = {{0, 0, 1, 0, 0, 1}, {8, 0, 1, 0, 0, 1},
                        {0, 8, 1, 0, 0, 1}};
  GraphicsPipelineDesc D = desc();
  D.Rasterization.Cull = CullMode::Back;
  EXPECT_EQ(pixel(draw(D, V, DrawCommand{3}), 1, 1)[0], 0.0f);
  D.Rasterization.Cull = CullMode::Front;
  EXPECT_EQ(pixel(draw(D, V, DrawCommand{3}), 1, 1)[0], 1.0f);
  D.Rasterization.Front = FrontFace::Clockwise;
  EXPECT_EQ(pixel(draw(D, V, DrawCommand{3}), 1, 1)[0], 0.0f);
}

TEST_P(GraphicsStateTest, PointsAreSquaresOfPointSize) {
  GraphicsPipelineDesc D = desc();
  D.Topology = PrimitiveTopology::PointList;
  // A 4-pixel point centred at (10, 8): pixels [8, 12) x [6, 10).
  std::vector<Vtx> V = {{10, 8, 1, 0, 0, 1}};
  Image Img = draw(D, V, DrawCommand{1}, 4);
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      bool In = X >= 8 && X < 12 && Y >= 6 && Y < 10;
      ASSERT_EQ(pixel(Img, X, Y)[0], In ? 1.0f : 0.0f) << X << "," << Y;
    }
}

TEST_P(GraphicsStateTest, PointCoordRunsAcrossThePoint) {
  const char *FS = R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0) out vec4 o;
void main() { o = vec4(gl_PointCoord, 0, 1); }
)";
  GraphicsPipelineDesc D = desc(PixelVS, FS);
  D.Topology = PrimitiveTopology::PointList;
  std::vector<Vtx> V = {{10, 8, 1, 0, 0, 1}};
  Image Img = draw(D, V, DrawCommand{1}, 4);
  // Pixel (8 + i, 6 + j) has its centre at ((i + 0.5) / 4, (j + 0.5) / 4).
  for (uint32_t J = 0; J < 4; ++J)
    for (uint32_t I = 0; I < 4; ++I) {
      Float4 C = pixel(Img, 8 + I, 6 + J);
      EXPECT_FLOAT_EQ(C[0], (I + 0.5f) / 4);
      EXPECT_FLOAT_EQ(C[1], (J + 0.5f) / 4);
    }
}

TEST_P(GraphicsStateTest, HorizontalLineCoversOneRow) {
  GraphicsPipelineDesc D = desc();
  D.Topology = PrimitiveTopology::LineList;
  // From (2, 5.5) to (20, 5.5), width 1: the rectangle y in [5, 6) covers
  // the centres of row 5 for x in [2, 20).
  std::vector<Vtx> V = {{2, 5.5f, 1, 0, 0, 1}, {20, 5.5f, 1, 0, 0, 1}};
  Image Img = draw(D, V, DrawCommand{2});
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      bool In = Y == 5 && X >= 2 && X < 20;
      ASSERT_EQ(pixel(Img, X, Y)[0], In ? 1.0f : 0.0f) << X << "," << Y;
    }
  // Width 3: rows 4 to 6.
  D.Rasterization.LineWidth = 3;
  Image Wide = draw(D, V, DrawCommand{2});
  for (uint32_t Y = 0; Y < FbH; ++Y)
    EXPECT_EQ(pixel(Wide, 10, Y)[0], Y >= 4 && Y <= 6 ? 1.0f : 0.0f) << Y;
}

TEST_P(GraphicsStateTest, LinesInterpolateAlongTheSegment) {
  GraphicsPipelineDesc D = desc();
  D.Topology = PrimitiveTopology::LineList;
  std::vector<Vtx> V = {{0, 5.5f, 0, 0, 0, 1}, {20, 5.5f, 1, 0, 0, 1}};
  Image Img = draw(D, V, DrawCommand{2});
  for (uint32_t X = 0; X < 20; ++X)
    EXPECT_NEAR(pixel(Img, X, 5)[0], (X + 0.5) / 20, 1e-5) << X;
}

TEST_P(GraphicsStateTest, PolygonModeLineDrawsTheEdges) {
  GraphicsPipelineDesc D = desc();
  D.Rasterization.Polygon = PolygonMode::Line;
  std::vector<Vtx> V = rect(2.5f, 2.5f, 18.5f, 14.5f, {1, 0, 0, 1});
  V.resize(3); // one triangle: (2.5,2.5) (18.5,2.5) (2.5,14.5)
  Image Img = draw(D, V, DrawCommand{3});
  EXPECT_EQ(pixel(Img, 10, 2)[0], 1.0f); // top edge
  EXPECT_EQ(pixel(Img, 2, 8)[0], 1.0f);  // left edge
  EXPECT_EQ(pixel(Img, 6, 6)[0], 0.0f);  // inside: not filled
}

TEST_P(GraphicsStateTest, ClipDistancesCutPrimitives) {
  const char *VS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
layout(push_constant) uniform PC { vec2 size; float pointSize; } pc;
void main() {
  gl_Position = vec4(pos / pc.size * 2.0 - 1.0, 0.0, 1.0);
  gl_ClipDistance[0] = 12.0 - pos.x; // keep x <= 12
  vcolor = color;
}
)";
  GraphicsPipelineDesc D = desc(VS);
  Image Img = draw(D, rect(0, 0, FbW, FbH, {1, 0, 0, 1}), DrawCommand{6});
  for (uint32_t X = 0; X < FbW; ++X)
    EXPECT_EQ(pixel(Img, X, 7)[0], X < 12 ? 1.0f : 0.0f) << X;
}

TEST_P(GraphicsStateTest, StencilMasksASecondDraw) {
  GraphicsPipelineDesc D = desc();
  D.DepthStencilFormat = Format::D24_UNORM_S8_UINT;
  D.DepthStencil.StencilTestEnable = true;
  // First draw: always pass, replace with 5, no colour written.
  D.DepthStencil.Front.Compare = CompareOp::Always;
  D.DepthStencil.Front.PassOp = StencilOp::Replace;
  D.DepthStencil.Front.Reference = 5;
  D.DepthStencil.Back = D.DepthStencil.Front;
  ColorBlendAttachment NoWrite;
  NoWrite.WriteMask = 0;
  D.Blend.Attachments = {NoWrite};
  Image DS = image(Format::D24_UNORM_S8_UINT, FbW, FbH);
  Image First = draw(D, rect(0, 0, 12, FbH, {1, 0, 0, 1}), DrawCommand{6}, 1,
                     nullptr, &DS);
  EXPECT_EQ(pixel(First, 3, 3)[0], 0.0f);
  // Second draw everywhere, only where the stencil equals 5; increments.
  D.DepthStencil.Front.Compare = CompareOp::Equal;
  D.DepthStencil.Front.PassOp = StencilOp::IncrementAndClamp;
  D.DepthStencil.Back = D.DepthStencil.Front;
  D.Blend.Attachments.clear();
  Image Second = draw(D, rect(0, 0, FbW, FbH, {0, 1, 0, 1}), DrawCommand{6},
                      1, nullptr, &DS);
  for (uint32_t X = 0; X < FbW; ++X) {
    EXPECT_EQ(pixel(Second, X, 9)[1], X < 12 ? 1.0f : 0.0f) << X;
    UInt4 St{};
    ASSERT_TRUE(DS.readTexel(0, X, 9, 0, 0, St).ok());
    EXPECT_EQ(St[0], X < 12 ? 6u : 0u) << X;
  }
}

TEST_P(GraphicsStateTest, MultisampleEdgesResolveToCoverage) {
  // A vertical edge at x = 10.5: pixel 10 has its 4x samples at x offsets
  // 0.375, 0.875, 0.125, 0.625 (sixteenths 6, 14, 2, 10): two inside.
  GraphicsPipelineDesc D = desc();
  D.Multisample.Samples = 4;
  D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
  auto P = GraphicsPipeline::create(D);
  ASSERT_TRUE(bool(P)) << P.status().message();
  Image Ms = image(Format::R32G32B32A32_SFLOAT, FbW, FbH, 4);
  Image Res = image(Format::R32G32B32A32_SFLOAT, FbW, FbH);
  std::vector<Vtx> V = rect(0, 0, 10.5f, FbH, {1, 1, 1, 1});
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vtx)}};
  float PC[3] = {float(FbW), float(FbH), 1};
  R.PushConstants.assign(reinterpret_cast<uint8_t *>(PC),
                         reinterpret_cast<uint8_t *>(PC) + sizeof PC);
  Framebuffer Fb;
  Fb.Color = {&Ms.descriptor()};
  Fb.Resolve = {&Res.descriptor()};
  Status S = (*P)->draw(Fb, R, DrawCommand{6});
  ASSERT_TRUE(S.ok()) << S.message();
  EXPECT_EQ(pixel(Res, 9, 5)[0], 1.0f);
  EXPECT_EQ(pixel(Res, 10, 5)[0], 0.5f);
  EXPECT_EQ(pixel(Res, 11, 5)[0], 0.0f);
  // The samples themselves: 0 and 2 (x offsets 0.375, 0.125) inside.
  EXPECT_EQ(pixel(Ms, 10, 5, 0)[0], 1.0f);
  EXPECT_EQ(pixel(Ms, 10, 5, 1)[0], 0.0f);
  EXPECT_EQ(pixel(Ms, 10, 5, 2)[0], 1.0f);
  EXPECT_EQ(pixel(Ms, 10, 5, 3)[0], 0.0f);
}

TEST_P(GraphicsStateTest, SampleShadingRunsPerSample) {
  const char *FS = R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0) out vec4 o;
void main() { o = vec4(float(gl_SampleID) / 4.0, gl_SamplePosition, 1); }
)";
  GraphicsPipelineDesc D = desc(PixelVS, FS);
  D.Multisample.Samples = 4;
  Image Ms = draw(D, rect(0, 0, FbW, FbH, {1, 1, 1, 1}), DrawCommand{6});
  auto Loc = standardSampleLocations(4);
  for (uint32_t S = 0; S < 4; ++S) {
    Float4 C = pixel(Ms, 7, 3, S);
    EXPECT_EQ(C[0], S / 4.0f);
    EXPECT_EQ(C[1], Loc[S][0]);
    EXPECT_EQ(C[2], Loc[S][1]);
  }
}

TEST_P(GraphicsStateTest, ScissorAndViewportLimitThePixels) {
  GraphicsPipelineDesc D = desc();
  D.Scissors = {{4, 2, 10, 6}};
  Image Img = draw(D, rect(0, 0, FbW, FbH, {1, 0, 0, 1}), DrawCommand{6});
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      bool In = X >= 4 && X < 14 && Y >= 2 && Y < 8;
      ASSERT_EQ(pixel(Img, X, Y)[0], In ? 1.0f : 0.0f) << X << "," << Y;
    }
}

TEST_P(GraphicsStateTest, FlatVaryingsComeFromEachPrimitive) {
  // Small triangles of a grid, each with its own flat value from its
  // provoking (first) vertex: a call holding quads of several of them
  // would give them one value (flat inputs are scalar in the translator).
  const char *VS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) flat out int id;
layout(push_constant) uniform PC { vec2 size; float pointSize; } pc;
void main() {
  gl_Position = vec4(pos / pc.size * 2.0 - 1.0, 0.0, 1.0);
  id = int(color.r);
}
)";
  const char *FS = R"(#version 450
layout(location = 0) flat in int id;
layout(location = 0) out vec4 o;
void main() { o = vec4(float(id), 0, 0, 1); }
)";
  GraphicsPipelineDesc D = desc(VS, FS);
  std::vector<Vtx> V;
  // 3x3-pixel cells at odd offsets (quads straddle cells), two triangles
  // each: the top-left one (id 2k) and the bottom-right one (id 2k + 1).
  int K = 0;
  for (int CY = 0; CY < 6; ++CY)
    for (int CX = 0; CX < 8; ++CX, ++K) {
      float X0 = CX * 3.0f, Y0 = CY * 3.0f, X1 = X0 + 3, Y1 = Y0 + 3;
      float A = 2.0f * K, B = A + 1;
      V.insert(V.end(), {{X0, Y0, A, 0, 0, 1}, {X1, Y0, 0, 0, 0, 1},
                         {X0, Y1, 0, 0, 0, 1}, {X1, Y1, B, 0, 0, 1},
                         {X0, Y1, 0, 0, 0, 1}, {X1, Y0, 0, 0, 0, 1}});
    }
  Image Img = draw(D, V, DrawCommand{uint32_t(V.size())});
  for (uint32_t Y = 0; Y < 18; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      uint32_t CX = X / 3, CY = Y / 3;
      // Centre (x, y) within the cell: the diagonal x + y = 3 belongs to
      // the lower-right triangle? Its edge goes up-right from (0,3) to
      // (3,0) for the first triangle: (x + y < 3) is the top-left one.
      double Fx = X + 0.5 - CX * 3.0, Fy = Y + 0.5 - CY * 3.0;
      float Want = 2.0f * (CY * 8 + CX) + (Fx + Fy < 3 ? 0 : 1);
      ASSERT_EQ(pixel(Img, X, Y)[0], Want) << X << "," << Y;
    }
}

TEST_P(GraphicsStateTest, DerivativesSeeWholeQuadsAtEdges) {
  // r = x in pixels, so dFdx(r) = 1 and dFdy(r) = 0 in every covered
  // pixel, including those whose quad is cut by the slanted edge (the
  // uncovered pixels run as helpers).
  const char *FS = R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0) out vec4 o;
void main() { o = vec4(dFdx(vcolor.r), dFdy(vcolor.r), 0, 1); }
)";
  GraphicsPipelineDesc D = desc(PixelVS, FS);
  std::vector<Vtx> V = {{0, 0, 0, 0, 0, 1}, {23, 0, 23, 0, 0, 1},
                        {0, 17, 0, 0, 0, 1}};
  Image Img = draw(D, V, DrawCommand{3});
  unsigned Covered = 0;
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      Float4 C = pixel(Img, X, Y);
      if (C[3] == 0)
        continue;
      ++Covered;
      ASSERT_NEAR(C[0], 1.0f, 1e-4) << X << "," << Y;
      ASSERT_NEAR(C[1], 0.0f, 1e-4) << X << "," << Y;
    }
  EXPECT_GT(Covered, 150u);
}

TEST_P(GraphicsStateTest, LimitsAndUnsupportedStateAreErrors) {
  auto CreateError = [&](GraphicsPipelineDesc D) {
    auto P = GraphicsPipeline::create(D);
    return P ? std::string() : P.status().message();
  };
  GraphicsPipelineDesc D = desc();
  D.Multisample.Samples = 3;
  EXPECT_NE(CreateError(D).find("3 samples"), std::string::npos);
  D = desc();
  D.Viewports.assign(GraphicsLimits::MaxViewports + 1, Viewport{0, 0, 8, 8});
  EXPECT_NE(CreateError(D).find("17 viewports"), std::string::npos);
  D = desc();
  ColorBlendAttachment A;
  A.BlendEnable = true;
  A.SrcColor = BlendFactor::Src1Color;
  D.Blend.Attachments = {A};
  // No output with Index 1 (GraphicsDualSourceTest has the rest).
  EXPECT_NE(CreateError(D).find("Index 1"), std::string::npos);
  D = desc();
  D.ColorFormats.assign(9, Format::R8G8B8A8_UNORM);
  EXPECT_NE(CreateError(D).find("9 colour attachments"), std::string::npos);
  D = desc();
  D.VertexAttributes.pop_back(); // location 1 (color) has no attribute
  EXPECT_NE(CreateError(D).find("location 1"), std::string::npos)
      << CreateError(D);

  auto P = GraphicsPipeline::create(desc());
  ASSERT_TRUE(bool(P));
  std::vector<Vtx> V(3);
  DrawResources R;
  R.VertexBuffers = {{V.data(), V.size() * sizeof(Vtx)}};
  R.PushConstants.resize(12);
  // A framebuffer beyond the limit: refused before anything is written.
  Image Small = image(Format::R32G32B32A32_SFLOAT, 4, 4);
  s2l_image Huge = Small.descriptor();
  Huge.level[0].width = 20000;
  Framebuffer Fb;
  Fb.Color = {&Huge};
  Status S = (*P)->draw(Fb, R, DrawCommand{3});
  EXPECT_NE(S.message().find("16384"), std::string::npos) << S.message();
  // Too many vertices for one draw.
  Fb.Color = {&Small.descriptor()};
  DrawCommand Big{1u << 20};
  Big.InstanceCount = 1u << 10;
  S = (*P)->draw(Fb, R, Big);
  EXPECT_NE(S.message().find("instances"), std::string::npos) << S.message();
  // Too many vertices in one instance: what a draw holds in memory.
  S = (*P)->draw(Fb, R, DrawCommand{(1u << 24) + 1});
  EXPECT_NE(S.message().find("per instance"), std::string::npos)
      << S.message();
  // Attachments of different sizes.
  GraphicsPipelineDesc DD = desc();
  DD.DepthStencilFormat = Format::D32_SFLOAT;
  auto PD = GraphicsPipeline::create(DD);
  ASSERT_TRUE(bool(PD));
  Image Depth = image(Format::D32_SFLOAT, 5, 4);
  Fb.DepthStencil = &Depth.descriptor();
  S = (*PD)->draw(Fb, R, DrawCommand{3});
  EXPECT_NE(S.message().find("5x4"), std::string::npos) << S.message();
}

INSTANTIATE_TEST_SUITE_P(Widths, GraphicsStateTest,
                         ::testing::Values(4u, 8u, 16u));

} // namespace
