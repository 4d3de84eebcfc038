//===- GraphicsGeometryTest.cpp - The geometry stage of the pipeline
//-------===//
//
// Draws through a geometry shader at W = 4, 8, 16 and checks every pixel
// against the primitives the shader emits, worked out here: rectangles
// with corners on pixel corners (so coverage is "pixel centre inside",
// whatever the fill rule does on edges), colours and PrimitiveIds chosen
// per emitted primitive. Covers copies of each input triangle, points made
// into quads, EndPrimitive in the middle of a strip, flat outputs with the
// first and the last vertex provoking, and the errors.
//
//===----------------------------------------------------------------------===//
#include "GraphicsTestUtil.h"

using namespace spirv2llvm;
using namespace spirv2llvm::testutil;

namespace {

constexpr uint32_t FbW = 32, FbH = 24;

std::vector<uint32_t> geom(const char *Src) {
  frontend::GlslOptions O;
  O.Stage = frontend::ShaderStage::Geometry;
  O.FileName = "t.geom";
  auto W = frontend::compileGlsl(Src, O);
  if (!W) {
    ADD_FAILURE() << llvm::toString(W.takeError());
    return {};
  }
  return *W;
}

/// Positions in pixels, turned into NDC for the whole framebuffer.
const char *PixelVS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() {
  gl_Position = vec4(pos.x / 16.0 - 1.0, pos.y / 12.0 - 1.0, 0.5, 1.0);
  vcolor = color;
}
)";

/// Each triangle, then a copy moved right by 12 pixels with blue set.
const char *CopyGS = R"(#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) in vec4 vcolor[];
layout(location = 0) out vec4 gcolor;
void main() {
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < 3; ++i) {
      gl_Position = gl_in[i].gl_Position + vec4(float(k) * 12.0 / 16.0, 0, 0, 0);
      gcolor = vcolor[i] + vec4(0, 0, float(k), 0);
      EmitVertex();
    }
    EndPrimitive();
  }
}
)";

/// A point becomes a square of 2 * 3 pixels around it (a strip of 4),
/// PrimitiveId 100 + the input's.
const char *QuadGS = R"(#version 450
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
void main() {
  vec4 c = gl_in[0].gl_Position;
  for (int i = 0; i < 4; ++i) {
    gl_Position = c + vec4(float(i & 1) * 6.0 / 16.0 - 3.0 / 16.0,
                           float(i >> 1) * 6.0 / 12.0 - 3.0 / 12.0, 0, 0);
    gl_PrimitiveID = gl_PrimitiveIDIn + 100;
    EmitVertex();
  }
}
)";

const char *PrimIdFS = R"(#version 450
layout(location = 0) out vec4 o;
void main() { o = vec4(float(gl_PrimitiveID), 0, 0, 1); }
)";

/// From a point: two separate triangles as strips of 3, cut between them
/// (without the cut, one strip of 6 would also fill the band between).
const char *CutGS = R"(#version 450
layout(points) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) out vec4 gcolor;
void emit(float x, float y) {
  gl_Position = vec4(x / 16.0 - 1.0, y / 12.0 - 1.0, 0.5, 1.0);
  gcolor = vec4(1, 0, 0, 1);
  EmitVertex();
}
void main() {
  emit(2, 2); emit(2, 10); emit(10, 2);
  EndPrimitive();
  emit(20, 14); emit(20, 22); emit(28, 14);
}
)";

/// A strip of 4 vertices (2 triangles) whose flat output is the vertex
/// number: the fragment sees the provoking vertex's.
const char *FlatGS = R"(#version 450
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) flat out int gvert;
void main() {
  vec2 p[4] = vec2[](vec2(4, 4), vec2(4, 20), vec2(28, 4), vec2(28, 20));
  for (int i = 0; i < 4; ++i) {
    gl_Position = vec4(p[i].x / 16.0 - 1.0, p[i].y / 12.0 - 1.0, 0.5, 1.0);
    gvert = i;
    EmitVertex();
  }
}
)";

const char *FlatFS = R"(#version 450
layout(location = 0) flat in int gvert;
layout(location = 0) out vec4 o;
void main() { o = vec4(float(gvert) + 1.0, 0, 0, 1); }
)";

/// Three invocations per input triangle, each moving it 10 pixels right
/// per InvocationID and setting green to it.
const char *InvocationsGS = R"(#version 450
layout(triangles, invocations = 3) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 vcolor[];
layout(location = 0) out vec4 gcolor;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position +
                  vec4(float(gl_InvocationID) * 10.0 / 16.0, 0, 0, 0);
    gcolor = vec4(vcolor[i].r, float(gl_InvocationID), 0, 1);
    EmitVertex();
  }
}
)";

const Float4 Background = {-1, -1, -1, -1};

class GraphicsGeometryTest : public ::testing::TestWithParam<unsigned> {
protected:
  GraphicsPipelineDesc
  desc(const char *GS, const char *FS = ColorFS,
       PrimitiveTopology T = PrimitiveTopology::TriangleList) {
    GraphicsPipelineDesc D;
    D.Vertex.Spirv = glsl(PixelVS, frontend::ShaderStage::Vertex);
    D.Geometry = ShaderStageDesc{geom(GS), {}, {}};
    D.Fragment =
        ShaderStageDesc{glsl(FS, frontend::ShaderStage::Fragment), {}, {}};
    D.VertexBindings = {{0, sizeof(ColorVertex), VertexInputRate::Vertex}};
    D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0},
                          {1, 0, Format::R32G32B32A32_SFLOAT, 8}};
    D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
    D.Topology = T;
    D.Width = GetParam();
    return D;
  }
  Image draw(const GraphicsPipelineDesc &D, const std::vector<ColorVertex> &V,
             DrawStats *Stats = nullptr) {
    Image Img = image(Format::R32G32B32A32_SFLOAT, FbW, FbH);
    for (uint32_t Y = 0; Y < FbH; ++Y)
      for (uint32_t X = 0; X < FbW; ++X)
        EXPECT_TRUE(Img.writeTexel(0, X, Y, 0, 0, Background).ok());
    auto P = GraphicsPipeline::create(D);
    if (!P) {
      ADD_FAILURE() << P.status().message();
      return Img;
    }
    Framebuffer Fb;
    Fb.Color = {&Img.descriptor()};
    DrawResources R;
    R.VertexBuffers = {{V.data(), V.size() * sizeof(ColorVertex)}};
    Status S = (*P)->draw(Fb, R, DrawCommand{uint32_t(V.size())});
    EXPECT_TRUE(S.ok()) << S.message();
    if (Stats)
      *Stats = (*P)->stats();
    return Img;
  }
};

/// Whether pixel (X, Y)'s centre is inside the rectangle [X0, X1) x [Y0, Y1)
/// in framebuffer pixels (y down; the vertex shader's y maps row 0 to
/// NDC -1).
bool inRect(uint32_t X, uint32_t Y, float X0, float Y0, float X1, float Y1) {
  float Cx = X + 0.5f, Cy = Y + 0.5f;
  return Cx > X0 && Cx < X1 && Cy > Y0 && Cy < Y1;
}

void expectPixel(const Image &Img, uint32_t X, uint32_t Y, Float4 Want) {
  Float4 Got = pixel(Img, X, Y);
  for (int C = 0; C < 4; ++C)
    ASSERT_EQ(Got[C], Want[C])
        << "pixel " << X << "," << Y << " component " << C;
}

TEST_P(GraphicsGeometryTest, TwoCopiesOfEachTriangle) {
  // A rectangle (two triangles) from (2, 3) to (10, 15), red; the copies
  // at x + 12 are red with blue.
  const float X0 = 2, Y0 = 3, X1 = 10, Y1 = 15;
  std::vector<ColorVertex> V = {{X0, Y0, 1, 0, 0, 1}, {X1, Y0, 1, 0, 0, 1},
                                {X0, Y1, 1, 0, 0, 1}, {X1, Y0, 1, 0, 0, 1},
                                {X1, Y1, 1, 0, 0, 1}, {X0, Y1, 1, 0, 0, 1}};
  DrawStats St;
  Image Img = draw(desc(CopyGS), V, &St);
  EXPECT_EQ(St.Primitives, 4u);
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      Float4 Want = Background;
      if (inRect(X, Y, X0, Y0, X1, Y1))
        Want = {1, 0, 0, 1};
      if (inRect(X, Y, X0 + 12, Y0, X1 + 12, Y1))
        Want = {1, 0, 1, 1};
      expectPixel(Img, X, Y, Want);
    }
}

TEST_P(GraphicsGeometryTest, PointsBecomeQuadsWithPrimitiveIds) {
  std::vector<ColorVertex> V;
  const float Cs[][2] = {{4, 4}, {16, 6}, {27, 18}, {8, 19}, {20, 15}};
  for (auto &C : Cs)
    V.push_back({C[0], C[1], 0, 0, 0, 0});
  Image Img = draw(desc(QuadGS, PrimIdFS, PrimitiveTopology::PointList), V);
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      Float4 Want = Background;
      for (size_t K = 0; K < std::size(Cs); ++K)
        if (inRect(X, Y, Cs[K][0] - 3, Cs[K][1] - 3, Cs[K][0] + 3,
                   Cs[K][1] + 3))
          Want = {float(100 + K), 0, 0, 1};
      expectPixel(Img, X, Y, Want);
    }
}

/// Whether (X, Y)'s centre is inside the right triangle with legs from
/// (Ax, Ay) of length L along +x and +y.
bool inCorner(uint32_t X, uint32_t Y, float Ax, float Ay, float L) {
  float U = X + 0.5f - Ax, V = Y + 0.5f - Ay;
  return U > 0 && V > 0 && U + V < L;
}

TEST_P(GraphicsGeometryTest, EndPrimitiveCutsTheStrip) {
  std::vector<ColorVertex> V = {{0, 0, 0, 0, 0, 0}};
  DrawStats St;
  Image Img = draw(desc(CutGS, ColorFS, PrimitiveTopology::PointList), V, &St);
  EXPECT_EQ(St.Primitives, 2u);
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      bool In = inCorner(X, Y, 2, 2, 8) || inCorner(X, Y, 20, 14, 8);
      expectPixel(Img, X, Y, In ? Float4{1, 0, 0, 1} : Background);
    }
}

TEST_P(GraphicsGeometryTest, FlatOutputsTakeTheProvokingVertex) {
  // Strip triangles: 0 = (v0, v1, v2), 1 = (v2, v1, v3) (Vulkan's order
  // for odd triangles); provoking: v0 and v1 first, v2 and v3 last.
  // Triangle 0 covers x + y' < ... : the lower-left half of the rectangle
  // (4, 4)-(28, 20), split by the diagonal from (4, 20) to (28, 4).
  for (bool First : {true, false}) {
    GraphicsPipelineDesc D = desc(FlatGS, FlatFS, PrimitiveTopology::PointList);
    D.Rasterization.ProvokingVertexFirst = First;
    std::vector<ColorVertex> V = {{0, 0, 0, 0, 0, 0}};
    Image Img = draw(D, V);
    const float Tri0 = First ? 0 : 2, Tri1 = First ? 1 : 3;
    for (uint32_t Y = 0; Y < FbH; ++Y)
      for (uint32_t X = 0; X < FbW; ++X) {
        Float4 Want = Background;
        if (inRect(X, Y, 4, 4, 28, 20)) {
          // The diagonal x/24 + y/16 = 1 relative to (4, 4); centres on it
          // belong to one triangle by the fill rule: skip those.
          float S = (X + 0.5f - 4) / 24 + (Y + 0.5f - 4) / 16;
          if (S == 1)
            continue;
          Want = {(S < 1 ? Tri0 : Tri1) + 1, 0, 0, 1};
        }
        expectPixel(Img, X, Y, Want);
      }
  }
}

TEST_P(GraphicsGeometryTest, InvocationsRepeatEachPrimitive) {
  // Two rectangles of 6x5 pixels, each drawn by invocations 0, 1, 2 at
  // +0, +10, +20 pixels: per pixel the last primitive in Vulkan's order
  // (input primitive, then invocation) wins. The second rectangle's
  // invocation 0 overlaps the first's invocation 1, which it must cover
  // (invocation-major order would not).
  struct R {
    float X0, Y0, Red;
  };
  const R Rects[] = {{1, 2, 0.25f}, {9, 4, 0.5f}};
  std::vector<ColorVertex> V;
  for (const R &Q : Rects) {
    float X1 = Q.X0 + 6, Y1 = Q.Y0 + 5;
    for (auto [X, Y] : {std::pair{Q.X0, Q.Y0},
                        {X1, Q.Y0},
                        {Q.X0, Y1},
                        {X1, Q.Y0},
                        {X1, Y1},
                        {Q.X0, Y1}})
      V.push_back({X, Y, Q.Red, 0, 0, 1});
  }
  DrawStats St;
  Image Img = draw(desc(InvocationsGS), V, &St);
  EXPECT_EQ(St.Primitives, 12u);
  for (uint32_t Y = 0; Y < FbH; ++Y)
    for (uint32_t X = 0; X < FbW; ++X) {
      Float4 Want = Background;
      for (const R &Q : Rects)
        for (int Inv = 0; Inv < 3; ++Inv)
          if (inRect(X, Y, Q.X0 + 10 * Inv, Q.Y0, Q.X0 + 10 * Inv + 6,
                     Q.Y0 + 5))
            Want = {Q.Red, float(Inv), 0, 1};
      expectPixel(Img, X, Y, Want);
    }
}

INSTANTIATE_TEST_SUITE_P(Widths, GraphicsGeometryTest,
                         ::testing::Values(4u, 8u, 16u));

TEST(GraphicsGeometryErrors, TopologyMustMatchTheInputPrimitive) {
  GraphicsPipelineDesc D;
  D.Vertex.Spirv = glsl(PixelVS, frontend::ShaderStage::Vertex);
  D.Geometry = ShaderStageDesc{geom(CopyGS), {}, {}};
  D.VertexBindings = {{0, sizeof(ColorVertex), VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0},
                        {1, 0, Format::R32G32B32A32_SFLOAT, 8}};
  D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
  D.Topology = PrimitiveTopology::PointList;
  auto P = GraphicsPipeline::create(D);
  ASSERT_FALSE(P.ok());
  EXPECT_NE(P.status().message().find("the geometry shader takes triangles"),
            std::string::npos)
      << P.status().message();
}

TEST(GraphicsGeometryErrors, InputNotWrittenByTheVertexShader) {
  const char *GS = R"(#version 450
layout(points) in;
layout(points, max_vertices = 1) out;
layout(location = 3) in vec4 missing[];
void main() { gl_Position = missing[0]; EmitVertex(); }
)";
  GraphicsPipelineDesc D;
  D.Vertex.Spirv = glsl(PixelVS, frontend::ShaderStage::Vertex);
  D.Geometry = ShaderStageDesc{geom(GS), {}, {}};
  D.VertexBindings = {{0, sizeof(ColorVertex), VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0},
                        {1, 0, Format::R32G32B32A32_SFLOAT, 8}};
  D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
  D.Topology = PrimitiveTopology::PointList;
  auto P = GraphicsPipeline::create(D);
  ASSERT_FALSE(P.ok());
  EXPECT_NE(P.status().message().find("geometry shader input missing "
                                      "(location 3, component 0)"),
            std::string::npos)
      << P.status().message();
}

} // namespace
