//===- GraphicsInputAttachmentTest.cpp - Subpass loads in a draw ----------===//
//
// Input attachments through the rasterizer: a quad over the whole
// framebuffer whose fragment shader subpassLoads images bound, as in
// Vulkan, at their descriptor's set and binding (the input attachment
// index is the subpass's attachment number, which a single-subpass
// pipeline does not use). The shaders do not declare gl_FragCoord (the
// translator adds it and the pipeline fills it) or declare and read it
// too; the framebuffer is compared texel by texel with the attachments,
// at W = 4, 8 and 16. A missing binding is a clear error.
//
//===----------------------------------------------------------------------===//
#include "GraphicsTestUtil.h"

#include <cstring>

using namespace spirv2llvm;
using namespace spirv2llvm::testutil;

namespace {

const char *QuadVS = R"(#version 450
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
)";

// Sizes that are not multiples of quads or tiles.
constexpr uint32_t Width = 13, Height = 11;

class GraphicsInputAttachment : public ::testing::TestWithParam<unsigned> {
protected:
  GraphicsPipelineDesc desc(const char *FS, std::vector<Format> Colors) {
    GraphicsPipelineDesc D;
    D.Vertex.Spirv = glsl(QuadVS, frontend::ShaderStage::Vertex);
    D.Fragment = ShaderStageDesc{glsl(FS, frontend::ShaderStage::Fragment)};
    D.VertexBindings = {{0, 2 * sizeof(float), VertexInputRate::Vertex}};
    D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0}};
    D.ColorFormats = std::move(Colors);
    D.Width = GetParam();
    return D;
  }

  /// Two triangles over the whole framebuffer.
  Status drawQuad(GraphicsPipeline &P, const Framebuffer &Fb,
                  DrawResources &R) {
    R.VertexBuffers = {{Quad, sizeof(Quad)}};
    return P.draw(Fb, R, DrawCommand{6});
  }

  static constexpr float Quad[12] = {-1, -1, 1, -1, -1, 1,
                                     -1, 1,  1, -1, 1,  1};
};

TEST_P(GraphicsInputAttachment, QuadCopiesTheAttachment) {
  // Two attachments, one multisampled (sample 3 read), neither at the
  // binding its attachment index would suggest.
  const char *FS = R"(#version 450
layout(input_attachment_index = 0, set = 0, binding = 2) uniform subpassInput In;
layout(input_attachment_index = 1, set = 1, binding = 0) uniform subpassInputMS InMS;
layout(location = 0) out vec4 o;
layout(location = 1) out vec4 oMS;
void main() { o = subpassLoad(In); oMS = subpassLoad(InMS, 3); }
)";
  auto P = GraphicsPipeline::create(
      desc(FS, {Format::R8G8B8A8_UNORM, Format::R32G32B32A32_SFLOAT}));
  ASSERT_TRUE(bool(P)) << P.status().message();
  Image In = image(Format::R8G8B8A8_UNORM, Width, Height);
  Image InMS = image(Format::R32G32B32A32_SFLOAT, Width, Height, 4);
  for (uint32_t Y = 0; Y < Height; ++Y)
    for (uint32_t X = 0; X < Width; ++X) {
      uint8_t *T = In.texelAddress(0, X, Y, 0);
      T[0] = uint8_t(X * 19);
      T[1] = uint8_t(Y * 23);
      T[2] = uint8_t(X * Y);
      T[3] = uint8_t(255 - X - Y);
      for (uint32_t S = 0; S < 4; ++S)
        ASSERT_TRUE(InMS.writeTexel(0, X, Y, 0, S,
                                    Float4{float(X), float(Y), float(S),
                                           float(X * 16 + Y)})
                        .ok());
    }
  Image Out = image(Format::R8G8B8A8_UNORM, Width, Height);
  Image OutMS = image(Format::R32G32B32A32_SFLOAT, Width, Height);
  Framebuffer Fb;
  Fb.Color = {&Out.descriptor(), &OutMS.descriptor()};
  DrawResources R;
  R.bindImage(0, 2, &In.descriptor());
  R.bindImage(1, 0, &InMS.descriptor());
  Status S = drawQuad(**P, Fb, R);
  ASSERT_TRUE(S.ok()) << S.message();
  for (uint32_t Y = 0; Y < Height; ++Y)
    for (uint32_t X = 0; X < Width; ++X) {
      EXPECT_EQ(std::memcmp(Out.texelAddress(0, X, Y, 0),
                            In.texelAddress(0, X, Y, 0), 4),
                0)
          << "pixel (" << X << ", " << Y << ")";
      Float4 Want{}, Got = pixel(OutMS, X, Y);
      ASSERT_TRUE(InMS.readTexel(0, X, Y, 0, 3, Want).ok());
      EXPECT_EQ(Got, Want) << "multisampled, pixel (" << X << ", " << Y
                           << ")";
    }
}

TEST_P(GraphicsInputAttachment, ShaderThatReadsFragCoordToo) {
  // The shader's own FragCoord serves the subpass load as well.
  const char *FS = R"(#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput In;
layout(location = 0) out vec4 o;
void main() { o = vec4(subpassLoad(In).xy, gl_FragCoord.xy); }
)";
  auto P = GraphicsPipeline::create(desc(FS, {Format::R32G32B32A32_SFLOAT}));
  ASSERT_TRUE(bool(P)) << P.status().message();
  Image In = image(Format::R32G32B32A32_SFLOAT, Width, Height);
  for (uint32_t Y = 0; Y < Height; ++Y)
    for (uint32_t X = 0; X < Width; ++X)
      ASSERT_TRUE(In.writeTexel(0, X, Y, 0, 0,
                                Float4{float(X * 3 + 1), float(Y * 5 + 2), 0,
                                       0})
                      .ok());
  Image Out = image(Format::R32G32B32A32_SFLOAT, Width, Height);
  Framebuffer Fb;
  Fb.Color = {&Out.descriptor()};
  DrawResources R;
  R.bindImage(0, 0, &In.descriptor());
  Status S = drawQuad(**P, Fb, R);
  ASSERT_TRUE(S.ok()) << S.message();
  for (uint32_t Y = 0; Y < Height; ++Y)
    for (uint32_t X = 0; X < Width; ++X) {
      Float4 Got = pixel(Out, X, Y);
      Float4 Want = pixel(In, X, Y);
      EXPECT_EQ(Got[0], Want[0]) << "pixel (" << X << ", " << Y << ")";
      EXPECT_EQ(Got[1], Want[1]) << "pixel (" << X << ", " << Y << ")";
      EXPECT_EQ(Got[2], float(X) + 0.5f);
      EXPECT_EQ(Got[3], float(Y) + 0.5f);
    }
}

TEST_P(GraphicsInputAttachment, MissingBindingIsAnError) {
  const char *FS = R"(#version 450
layout(input_attachment_index = 0, set = 0, binding = 1) uniform subpassInput In;
layout(location = 0) out vec4 o;
void main() { o = subpassLoad(In); }
)";
  auto P = GraphicsPipeline::create(desc(FS, {Format::R8G8B8A8_UNORM}));
  ASSERT_TRUE(bool(P)) << P.status().message();
  Image Out = image(Format::R8G8B8A8_UNORM, Width, Height);
  Framebuffer Fb;
  Fb.Color = {&Out.descriptor()};
  DrawResources R;
  Status S = drawQuad(**P, Fb, R);
  EXPECT_FALSE(S.ok());
  EXPECT_NE(S.message().find("no input attachment bound at set 0, binding 1"),
            std::string::npos)
      << S.message();
}

INSTANTIATE_TEST_SUITE_P(Widths, GraphicsInputAttachment,
                         ::testing::Values(4u, 8u, 16u));

} // namespace
