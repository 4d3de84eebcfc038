//===- GraphicsDepthClampTest.cpp - Depth clamp ranges --------------------===//
//
// The depth a fragment is tested and stored with when it lies outside the
// viewport's depth range: depth clamp to [minDepth, maxDepth], and with
// VK_EXT_depth_clamp_zero_one's feature to [0, 1]; without depth clamp a
// D32_SFLOAT attachment keeps it when VK_EXT_depth_range_unrestricted is
// enabled too, and other cases clamp to [0, 1]. Values worked out from the
// spec's depth test rules.
//
//===----------------------------------------------------------------------===//
#include "GraphicsTestUtil.h"

#include <cstring>

using namespace spirv2llvm;
using namespace spirv2llvm::testutil;

namespace {

/// A full-screen pair of triangles at z = 0.5 whose fragments write
/// gl_FragDepth from the push constant.
const char *FullVS = R"(#version 450
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.5, 1.0); }
)";
const char *DepthFS = R"(#version 450
layout(push_constant) uniform PC { float depth; } pc;
layout(location = 0) out vec4 o;
void main() { gl_FragDepth = pc.depth; o = vec4(1.0); }
)";

struct ClampCase {
  bool Clamp, ZeroOne, Unrestricted;
  Format DepthFormat;
  float FragDepth, Stored;
};

class GraphicsDepthClampTest : public ::testing::TestWithParam<ClampCase> {};

TEST_P(GraphicsDepthClampTest, StoresTheClampedDepth) {
  const ClampCase &C = GetParam();
  GraphicsPipelineDesc D;
  D.Vertex.Spirv = glsl(FullVS, frontend::ShaderStage::Vertex);
  D.Fragment = ShaderStageDesc{glsl(DepthFS, frontend::ShaderStage::Fragment)};
  D.VertexBindings = {{0, 8, VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0}};
  D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
  D.DepthStencilFormat = C.DepthFormat;
  D.DepthStencil.DepthTestEnable = true;
  D.DepthStencil.DepthWriteEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Always;
  D.Rasterization.DepthClampEnable = C.Clamp;
  D.Rasterization.DepthClampZeroOne = C.ZeroOne;
  D.Rasterization.DepthRangeUnrestricted = C.Unrestricted;
  Viewport VP;
  VP.Width = VP.Height = 4;
  VP.MinDepth = 0.25f;
  VP.MaxDepth = 0.75f;
  D.Viewports = {VP};
  auto P = GraphicsPipeline::create(D);
  ASSERT_TRUE(bool(P)) << P.status().message();
  Image Color = image(Format::R32G32B32A32_SFLOAT, 4, 4);
  Image Depth = image(C.DepthFormat, 4, 4);
  const float Quad[12] = {-1, -1, 1, -1, -1, 1, 1, -1, 1, 1, -1, 1};
  DrawResources R;
  R.VertexBuffers = {{Quad, sizeof Quad}};
  R.PushConstants.resize(4);
  std::memcpy(R.PushConstants.data(), &C.FragDepth, 4);
  Framebuffer Fb;
  Fb.Color = {&Color.descriptor()};
  Fb.DepthStencil = &Depth.descriptor();
  Status S = (*P)->draw(Fb, R, DrawCommand{6});
  ASSERT_TRUE(S.ok()) << S.message();
  EXPECT_EQ(pixel(Color, 2, 2)[0], 1.0f);
  Float4 Z{};
  ASSERT_TRUE(Depth.readTexel(0, 2, 2, 0, 0, Z).ok());
  EXPECT_NEAR(Z[0], C.Stored, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(
    Ranges, GraphicsDepthClampTest,
    ::testing::Values(
        // Depth clamp: the viewport's range, with the feature [0, 1].
        ClampCase{true, false, false, Format::D32_SFLOAT, 2.0f, 0.75f},
        ClampCase{true, true, false, Format::D32_SFLOAT, 2.0f, 1.0f},
        ClampCase{true, false, false, Format::D32_SFLOAT, -0.5f, 0.25f},
        ClampCase{true, true, true, Format::D32_SFLOAT, -0.5f, 0.0f},
        ClampCase{true, true, false, Format::D16_UNORM, 0.1f, 0.1f},
        // No depth clamp: a float attachment keeps 2.0 only with both.
        ClampCase{false, true, true, Format::D32_SFLOAT, 2.0f, 2.0f},
        ClampCase{false, true, true, Format::D32_SFLOAT, -0.5f, -0.5f},
        ClampCase{false, true, false, Format::D32_SFLOAT, 2.0f, 1.0f},
        ClampCase{false, false, true, Format::D32_SFLOAT, 2.0f, 1.0f},
        ClampCase{false, true, true, Format::D16_UNORM, 2.0f, 1.0f}));

} // namespace
