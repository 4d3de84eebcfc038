//===- VulkanGraphicsRunnerTest.cpp - The lavapipe graphics runner --------===//
//
// Checks the reference side of the graphics differential tests on its own:
// renders on lavapipe through VulkanGraphicsRunner and compares with pixels
// worked out by hand from Vulkan's rules (coverage at pixel centres with
// the top-left rule, depth test, blending, multisample coverage at the
// standard sample locations and the resolve). Also that attachments'
// initial contents count (loadOp LOAD) and come back exactly, and the
// runner's own diagnostics. Skips when there is no lavapipe device.
//
//===----------------------------------------------------------------------===//
#include "VulkanGraphicsRunner.h"
#include "GraphicsDifferential.h"

#include "frontend/Frontend.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;

namespace {

std::vector<uint32_t> compile(llvm::StringRef Source, frontend::ShaderStage S) {
  frontend::GlslOptions Opts;
  Opts.Stage = S;
  Opts.TargetEnv = SPV_ENV_VULKAN_1_2;
  Opts.FileName =
      S == frontend::ShaderStage::Vertex ? "test.vert" : "test.frag";
  llvm::Expected<std::vector<uint32_t>> Words =
      frontend::compileGlsl(Source, Opts);
  if (!Words) {
    ADD_FAILURE() << llvm::toString(Words.takeError());
    return {};
  }
  return std::move(*Words);
}

/// Positions in framebuffer pixels (y down) mapped to clip space for a
/// Size[0] x Size[1] viewport at the origin; a flat colour per vertex.
const char *PixelVertex = R"(#version 450
layout(location = 0) in vec3 Pos;
layout(location = 1) in vec4 Color;
layout(location = 0) flat out vec4 VColor;
layout(push_constant) uniform P { vec2 Size; };
void main() {
  gl_Position = vec4(Pos.xy / Size * 2.0 - 1.0, Pos.z, 1.0);
  VColor = Color;
}
)";

const char *FlatFragment = R"(#version 450
layout(location = 0) flat in vec4 VColor;
layout(location = 0) out vec4 Out;
void main() { Out = VColor; }
)";

struct Vertex {
  float X, Y, Z;
  float R, G, B, A;
};

std::vector<uint8_t> bytesOf(const std::vector<Vertex> &V) {
  std::vector<uint8_t> B(V.size() * sizeof(Vertex));
  std::memcpy(B.data(), V.data(), B.size());
  return B;
}

/// Two triangles covering the pixel rectangle [X0,X1) x [Y0,Y1) at depth Z.
void addRect(std::vector<Vertex> &V, float X0, float Y0, float X1, float Y1,
             float Z, std::array<float, 4> C) {
  Vertex P[4] = {{X0, Y0, Z, C[0], C[1], C[2], C[3]},
                 {X1, Y0, Z, C[0], C[1], C[2], C[3]},
                 {X1, Y1, Z, C[0], C[1], C[2], C[3]},
                 {X0, Y1, Z, C[0], C[1], C[2], C[3]}};
  for (int I : {0, 1, 2, 0, 2, 3})
    V.push_back(P[I]);
}

void addTriangle(std::vector<Vertex> &V, std::array<float, 2> A,
                 std::array<float, 2> B, std::array<float, 2> C,
                 std::array<float, 4> Col) {
  for (auto P : {A, B, C})
    V.push_back({P[0], P[1], 0.5f, Col[0], Col[1], Col[2], Col[3]});
}

Image makeImage(Format F, uint32_t W, uint32_t H, uint32_t Samples = 1) {
  Result<Image> I = Image::create({F, S2L_VIEW_2D, W, H, 1, 1, 1, Samples});
  EXPECT_TRUE(I.ok()) << I.status().message();
  return std::move(*I);
}

/// Fills every sample of \p I with \p C.
void fill(Image &I, const Float4 &C) {
  const ImageDesc &D = I.desc();
  for (uint32_t Y = 0; Y < D.Height; ++Y)
    for (uint32_t X = 0; X < D.Width; ++X)
      for (uint32_t S = 0; S < D.Samples; ++S)
        ASSERT_TRUE(I.writeTexel(0, X, Y, 0, S, C).ok());
}

std::array<uint8_t, 4> rgba8(const Image &I, uint32_t X, uint32_t Y,
                             uint32_t S = 0) {
  const uint8_t *P = const_cast<Image &>(I).texelAddress(0, X, Y, 0, S);
  return {P[0], P[1], P[2], P[3]};
}

/// The pipeline of PixelVertex/FlatFragment: a vec3 position and a vec4
/// colour per vertex, one RGBA8 colour attachment.
GraphicsPipelineDesc pixelPipeline() {
  GraphicsPipelineDesc D;
  D.Vertex.Spirv = compile(PixelVertex, frontend::ShaderStage::Vertex);
  D.Fragment = ShaderStageDesc{};
  D.Fragment->Spirv = compile(FlatFragment, frontend::ShaderStage::Fragment);
  D.VertexBindings = {{0, sizeof(Vertex), VertexInputRate::Vertex, 1}};
  D.VertexAttributes = {{0, 0, Format::R32G32B32_SFLOAT, 0},
                        {1, 0, Format::R32G32B32A32_SFLOAT, 12}};
  D.ColorFormats = {Format::R8G8B8A8_UNORM};
  return D;
}

std::vector<uint8_t> pushSize(float W, float H) {
  std::vector<uint8_t> B(8);
  std::memcpy(B.data(), &W, 4);
  std::memcpy(B.data() + 4, &H, 4);
  return B;
}

class VulkanGraphicsRunnerTest : public testing::Test {
protected:
  // One runner for all tests: creating the instance loads every ICD.
  static void SetUpTestSuite() {
    auto R = VulkanGraphicsRunner::create();
    if (R)
      Runner = std::move(*R);
    else
      CreateError = llvm::toString(R.takeError());
  }
  static void TearDownTestSuite() { Runner.reset(); }
  void SetUp() override {
    // No lavapipe at all is a skip (a machine without mesa-vulkan-drivers);
    // any other failure to create the runner is a failure.
    if (!Runner && llvm::StringRef(CreateError).contains("no lavapipe device"))
      GTEST_SKIP() << CreateError;
    ASSERT_TRUE(Runner) << "cannot create the graphics runner: " << CreateError;
  }

  /// A job drawing \p V (non-indexed, one draw) into \p Color.
  GraphicsJob job(const GraphicsPipelineDesc &D, Image &Color,
                  const std::vector<Vertex> &V) {
    GraphicsJob J;
    J.Desc = &D;
    J.Color = {&Color};
    J.VertexBuffers = {bytesOf(V)};
    J.PushConstants =
        pushSize(float(Color.desc().Width), float(Color.desc().Height));
    J.Draws = {DrawCommand{uint32_t(V.size())}};
    return J;
  }

  static inline std::unique_ptr<VulkanGraphicsRunner> Runner;
  static inline std::string CreateError;
};

TEST_F(VulkanGraphicsRunnerTest, FullViewportQuadFillsEveryPixel) {
  GraphicsPipelineDesc D = pixelPipeline();
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 17, 13);
  fill(Color, {0, 0, 0, 0});
  std::vector<Vertex> V;
  addRect(V, 0, 0, 17, 13, 0.5f, {1.0f, 0.0f, 1.0f, 1.0f});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  for (uint32_t Y = 0; Y < 13; ++Y)
    for (uint32_t X = 0; X < 17; ++X)
      ASSERT_EQ(rgba8(Color, X, Y), (std::array<uint8_t, 4>{255, 0, 255, 255}))
          << "pixel " << X << "," << Y;
}

TEST_F(VulkanGraphicsRunnerTest, InitialContentsAreLoadedWhereNothingIsDrawn) {
  // loadOp LOAD: the pixels outside the drawn rectangle keep their
  // (distinct) initial values, byte for byte.
  GraphicsPipelineDesc D = pixelPipeline();
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 8, 8);
  for (size_t K = 0; K < Color.bytes().size(); ++K)
    Color.bytes()[K] = uint8_t(K * 7 + 3);
  std::vector<uint8_t> Before(Color.bytes().begin(), Color.bytes().end());
  std::vector<Vertex> V;
  addRect(V, 2, 2, 6, 6, 0.5f, {0, 1, 0, 1});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  for (uint32_t Y = 0; Y < 8; ++Y)
    for (uint32_t X = 0; X < 8; ++X) {
      bool Inside = X >= 2 && X < 6 && Y >= 2 && Y < 6;
      std::array<uint8_t, 4> Want =
          Inside ? std::array<uint8_t, 4>{0, 255, 0, 255}
                 : std::array<uint8_t, 4>{Before[(Y * 8 + X) * 4],
                                          Before[(Y * 8 + X) * 4 + 1],
                                          Before[(Y * 8 + X) * 4 + 2],
                                          Before[(Y * 8 + X) * 4 + 3]};
      EXPECT_EQ(rgba8(Color, X, Y), Want) << "pixel " << X << "," << Y;
    }
}

TEST_F(VulkanGraphicsRunnerTest, TriangleCoversPixelCentresByTopLeftRule) {
  // Vertices on pixel centres: (2.5,2.5), (13.5,2.5), (2.5,13.5). The top
  // edge y = 2.5 and the left edge x = 2.5 run through centres, which the
  // top-left rule includes; the hypotenuse x + y = 16 runs through the
  // centres with X + Y = 15, which it excludes (a bottom-right edge). So
  // the covered pixels are exactly X >= 2, Y >= 2, X + Y <= 14.
  GraphicsPipelineDesc D = pixelPipeline();
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 16, 16);
  fill(Color, {0, 0, 0, 0});
  std::vector<Vertex> V;
  addTriangle(V, {2.5f, 2.5f}, {13.5f, 2.5f}, {2.5f, 13.5f}, {1, 1, 1, 1});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  for (uint32_t Y = 0; Y < 16; ++Y)
    for (uint32_t X = 0; X < 16; ++X) {
      bool Covered = X >= 2 && Y >= 2 && X + Y <= 14;
      EXPECT_EQ(rgba8(Color, X, Y)[0], Covered ? 255 : 0)
          << "pixel " << X << "," << Y;
    }
}

TEST_F(VulkanGraphicsRunnerTest, SharedEdgeCoversEachPixelOnce) {
  // Two triangles split the framebuffer along the diagonal y = x, which
  // runs through the centres of pixels (K, K). Additive blending shows
  // every pixel drawn exactly once. For the upper-right triangle the
  // diagonal is a left edge (its interior lies to the right), so it owns
  // the diagonal pixels; for the lower-left one it is a right edge.
  GraphicsPipelineDesc D = pixelPipeline();
  ColorBlendAttachment Add;
  Add.BlendEnable = true;
  Add.SrcColor = Add.DstColor = Add.SrcAlpha = Add.DstAlpha = BlendFactor::One;
  D.Blend.Attachments = {Add};
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 16, 16);
  fill(Color, {0, 0, 0, 0});
  std::vector<Vertex> V;
  addTriangle(V, {0, 0}, {16, 0}, {16, 16}, {1, 0, 0, 1}); // upper right
  addTriangle(V, {0, 0}, {16, 16}, {0, 16}, {0, 1, 0, 1}); // lower left
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  for (uint32_t Y = 0; Y < 16; ++Y)
    for (uint32_t X = 0; X < 16; ++X) {
      bool Upper = X >= Y;
      std::array<uint8_t, 4> Want = {uint8_t(Upper ? 255 : 0),
                                     uint8_t(Upper ? 0 : 255), 0, 255};
      EXPECT_EQ(rgba8(Color, X, Y), Want) << "pixel " << X << "," << Y;
    }
}

TEST_F(VulkanGraphicsRunnerTest, DepthLessKeepsTheNearerColour) {
  // First draw: green at depth 0.3 over the left half; second: red at 0.6
  // over everything. With LESS against a cleared 1.0 the left half stays
  // green and keeps 0.3, the right half becomes red at 0.6.
  GraphicsPipelineDesc D = pixelPipeline();
  D.DepthStencilFormat = Format::D32_SFLOAT;
  D.DepthStencil.DepthTestEnable = true;
  D.DepthStencil.DepthWriteEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Less;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 12, 6);
  Image Depth = makeImage(Format::D32_SFLOAT, 12, 6);
  fill(Color, {0, 0, 0, 1});
  fill(Depth, {1, 0, 0, 0});
  std::vector<Vertex> V;
  addRect(V, 0, 0, 6, 6, 0.3f, {0, 1, 0, 1});
  addRect(V, 0, 0, 12, 6, 0.6f, {1, 0, 0, 1});
  GraphicsJob J = job(D, Color, V);
  J.DepthStencil = &Depth;
  J.Draws = {DrawCommand{6}, DrawCommand{6, 1, 6}};
  ASSERT_FALSE(Runner->run(J));
  for (uint32_t Y = 0; Y < 6; ++Y)
    for (uint32_t X = 0; X < 12; ++X) {
      bool Left = X < 6;
      EXPECT_EQ(rgba8(Color, X, Y),
                (std::array<uint8_t, 4>{uint8_t(Left ? 0 : 255),
                                        uint8_t(Left ? 255 : 0), 0, 255}))
          << "pixel " << X << "," << Y;
      float Z;
      std::memcpy(&Z, Depth.texelAddress(0, X, Y, 0), 4);
      EXPECT_EQ(Z, Left ? 0.3f : 0.6f) << "depth at " << X << "," << Y;
    }
}

TEST_F(VulkanGraphicsRunnerTest, DepthAndStencilOfACombinedFormatComeBack) {
  // D24_UNORM_S8_UINT travels aspect by aspect; stencil REPLACE writes the
  // reference where the quad passes, and the depth of untouched pixels
  // comes back as uploaded.
  GraphicsPipelineDesc D = pixelPipeline();
  D.DepthStencilFormat = Format::D24_UNORM_S8_UINT;
  D.DepthStencil.DepthTestEnable = true;
  D.DepthStencil.DepthWriteEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Always;
  D.DepthStencil.StencilTestEnable = true;
  D.DepthStencil.Front.PassOp = StencilOp::Replace;
  D.DepthStencil.Front.Reference = 0x5a;
  D.DepthStencil.Back = D.DepthStencil.Front;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 8, 4);
  Image Ds = makeImage(Format::D24_UNORM_S8_UINT, 8, 4);
  for (uint32_t Y = 0; Y < 4; ++Y)
    for (uint32_t X = 0; X < 8; ++X) {
      uint32_t T = (X * 1000 + Y) | (uint32_t(X + 16 * Y) << 24);
      std::memcpy(Ds.texelAddress(0, X, Y, 0), &T, 4);
    }
  std::vector<Vertex> V;
  addRect(V, 0, 0, 4, 4, 0.5f, {1, 1, 1, 1});
  GraphicsJob J = job(D, Color, V);
  J.DepthStencil = &Ds;
  ASSERT_FALSE(Runner->run(J));
  // 0.5 in D24: round(0.5 * (2^24 - 1)) = 0x800000 (lavapipe rounds to
  // nearest; the exact value is 0x7fffff.8).
  for (uint32_t Y = 0; Y < 4; ++Y)
    for (uint32_t X = 0; X < 8; ++X) {
      uint32_t T;
      std::memcpy(&T, Ds.texelAddress(0, X, Y, 0), 4);
      uint32_t Want = X < 4 ? (0x5au << 24) | 0x800000u
                            : (X * 1000 + Y) | (uint32_t(X + 16 * Y) << 24);
      EXPECT_EQ(T & 0xff000000u, Want & 0xff000000u)
          << "stencil at " << X << "," << Y;
      EXPECT_NEAR(double(T & 0xffffff), double(Want & 0xffffff), X < 4 ? 1 : 0)
          << "depth at " << X << "," << Y;
    }
}

TEST_F(VulkanGraphicsRunnerTest, AlphaBlendingMatchesTheFormula) {
  // Initial destination (200, 100, 50, 255) / 255, source (0.2, 0.6, 1.0,
  // 0.25) with SRC_ALPHA / ONE_MINUS_SRC_ALPHA for colour and ONE / ZERO
  // for alpha: each channel s * 0.25 + d * 0.75, alpha 0.25.
  GraphicsPipelineDesc D = pixelPipeline();
  ColorBlendAttachment B;
  B.BlendEnable = true;
  B.SrcColor = BlendFactor::SrcAlpha;
  B.DstColor = BlendFactor::OneMinusSrcAlpha;
  B.SrcAlpha = BlendFactor::One;
  B.DstAlpha = BlendFactor::Zero;
  D.Blend.Attachments = {B};
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 4, 4);
  for (uint32_t Y = 0; Y < 4; ++Y)
    for (uint32_t X = 0; X < 4; ++X) {
      uint8_t *P = Color.texelAddress(0, X, Y, 0);
      P[0] = 200, P[1] = 100, P[2] = 50, P[3] = 255;
    }
  std::vector<Vertex> V;
  addRect(V, 0, 0, 4, 4, 0.5f, {0.2f, 0.6f, 1.0f, 0.25f});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  const double Src[3] = {0.2, 0.6, 1.0}, Dst[3] = {200, 100, 50};
  for (uint32_t Y = 0; Y < 4; ++Y)
    for (uint32_t X = 0; X < 4; ++X) {
      std::array<uint8_t, 4> Got = rgba8(Color, X, Y);
      for (int C = 0; C < 3; ++C)
        EXPECT_NEAR(Got[C], (Src[C] * 0.25 + Dst[C] / 255 * 0.75) * 255, 1)
            << "channel " << C << " at " << X << "," << Y;
      EXPECT_NEAR(Got[3], 0.25 * 255, 1);
    }
}

TEST_F(VulkanGraphicsRunnerTest, MultisampleHalfCoveredPixelResolvesToAverage) {
  // 4x MSAA, standard sample locations (Vulkan's table): (0.375, 0.125),
  // (0.875, 0.375), (0.125, 0.625), (0.625, 0.875). A white rectangle
  // from x = 0 to 2.5 covers pixels 0 and 1 and, in pixel 2, the samples
  // whose x is below 0.5: 0 and 2. Pixel 3 keeps its initial samples
  // (distinct per sample, so the multisampled upload and read-back are
  // checked too); the resolve averages each pixel's samples.
  GraphicsPipelineDesc D = pixelPipeline();
  D.Multisample.Samples = 4;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 4, 2, 4);
  Image Resolved = makeImage(Format::R8G8B8A8_UNORM, 4, 2);
  fill(Color, {0, 0, 0, 1});
  fill(Resolved, {0.5f, 0.5f, 0.5f, 0.5f});
  const uint8_t Initial3[4] = {10, 20, 30, 40};
  for (uint32_t Y = 0; Y < 2; ++Y)
    for (uint32_t S = 0; S < 4; ++S)
      Color.texelAddress(0, 3, Y, 0, S)[0] = Initial3[S];
  std::vector<Vertex> V;
  addRect(V, 0, 0, 2.5f, 2, 0.5f, {1, 1, 1, 1});
  GraphicsJob J = job(D, Color, V);
  J.Resolve = {&Resolved};
  ASSERT_FALSE(Runner->run(J));
  const float SampleX[4] = {0.375f, 0.875f, 0.125f, 0.625f};
  for (uint32_t Y = 0; Y < 2; ++Y)
    for (uint32_t X = 0; X < 4; ++X) {
      double Sum = 0;
      for (uint32_t S = 0; S < 4; ++S) {
        bool Covered = float(X) + SampleX[S] < 2.5f;
        uint8_t Want = Covered ? 255 : X == 3 ? Initial3[S] : 0;
        EXPECT_EQ(rgba8(Color, X, Y, S)[0], Want)
            << "pixel " << X << "," << Y << " sample " << S;
        Sum += Want;
      }
      EXPECT_NEAR(rgba8(Resolved, X, Y)[0], Sum / 4, 1)
          << "resolved pixel " << X << "," << Y;
    }
  // Pixel 2 is the half-covered one: (255 + 0 + 255 + 0) / 4.
  EXPECT_NEAR(rgba8(Resolved, 2, 0)[0], 127.5, 1);
}

TEST_F(VulkanGraphicsRunnerTest, MultisampleDepthStencilPerSample) {
  // 4x D24S8 with distinct per-sample contents: samples 0 and 1 far
  // (depth above 0.5), 2 and 3 near. A quad over the left half at depth
  // 0.5 with LESS passes only on the far samples, which take depth 0.5 and
  // stencil 0x77 (REPLACE); everything else comes back as uploaded, which
  // checks the per-sample upload and read-back of both aspects.
  GraphicsPipelineDesc D = pixelPipeline();
  D.Multisample.Samples = 4;
  D.DepthStencilFormat = Format::D24_UNORM_S8_UINT;
  D.DepthStencil.DepthTestEnable = true;
  D.DepthStencil.DepthWriteEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Less;
  D.DepthStencil.StencilTestEnable = true;
  D.DepthStencil.Front.PassOp = StencilOp::Replace;
  D.DepthStencil.Front.Reference = 0x77;
  D.DepthStencil.Back = D.DepthStencil.Front;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 4, 3, 4);
  Image Ds = makeImage(Format::D24_UNORM_S8_UINT, 4, 3, 4);
  fill(Color, {0, 0, 0, 1});
  auto Initial = [](uint32_t X, uint32_t Y, uint32_t S) {
    uint32_t Depth = S < 2 ? 0xfffffe - X * 0x10101 - Y * 3 - S
                           : 0x000001 + X * 0x12345 + Y * 7 + S;
    return Depth | (uint32_t(X * 16 + Y * 4 + S) << 24);
  };
  for (uint32_t Y = 0; Y < 3; ++Y)
    for (uint32_t X = 0; X < 4; ++X)
      for (uint32_t S = 0; S < 4; ++S) {
        uint32_t T = Initial(X, Y, S);
        std::memcpy(Ds.texelAddress(0, X, Y, 0, S), &T, 4);
      }
  std::vector<Vertex> V;
  addRect(V, 0, 0, 2, 3, 0.5f, {1, 1, 1, 1});
  GraphicsJob J = job(D, Color, V);
  J.DepthStencil = &Ds;
  ASSERT_FALSE(Runner->run(J));
  for (uint32_t Y = 0; Y < 3; ++Y)
    for (uint32_t X = 0; X < 4; ++X)
      for (uint32_t S = 0; S < 4; ++S) {
        bool Pass = X < 2 && S < 2;
        uint32_t T;
        std::memcpy(&T, Ds.texelAddress(0, X, Y, 0, S), 4);
        uint32_t Want = Pass ? 0x77800000u : Initial(X, Y, S);
        EXPECT_EQ(T >> 24, Want >> 24)
            << "stencil at " << X << "," << Y << " sample " << S;
        EXPECT_NEAR(double(T & 0xffffff), double(Want & 0xffffff), Pass ? 1 : 0)
            << "depth at " << X << "," << Y << " sample " << S;
        EXPECT_EQ(rgba8(Color, X, Y, S)[0], Pass ? 255 : 0)
            << "colour at " << X << "," << Y << " sample " << S;
      }
}

TEST_F(VulkanGraphicsRunnerTest, MultisampleFloatDepthComesBackExactly) {
  // D32_SFLOAT travels as its bit pattern: arbitrary values in [0, 1]
  // that nothing overwrites come back bit for bit.
  GraphicsPipelineDesc D = pixelPipeline();
  D.Multisample.Samples = 4;
  D.DepthStencilFormat = Format::D32_SFLOAT;
  D.DepthStencil.DepthTestEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Never;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 3, 2, 4);
  Image Depth = makeImage(Format::D32_SFLOAT, 3, 2, 4);
  // Values off the unorm grids, in (0, 1): gl_FragDepth clamps to the
  // viewport's range, so D32 values outside [0, 1] cannot be uploaded.
  std::vector<float> Values;
  for (uint32_t K = 0; K < 3 * 2 * 4; ++K)
    Values.push_back(std::nextafter(float(K + 1) / 29.0f, 0.0f));
  std::memcpy(Depth.bytes().data(), Values.data(), Values.size() * 4);
  std::vector<Vertex> V;
  addRect(V, 0, 0, 3, 2, 0.5f, {1, 1, 1, 1});
  GraphicsJob J = job(D, Color, V);
  J.DepthStencil = &Depth;
  ASSERT_FALSE(Runner->run(J));
  for (size_t K = 0; K < Values.size(); ++K) {
    float Got;
    std::memcpy(&Got, Depth.bytes().data() + K * 4, 4);
    EXPECT_EQ(Got, Values[K]) << "sample " << K;
  }
}

TEST_F(VulkanGraphicsRunnerTest, ViewportAndScissorLimitTheDraw) {
  // The viewport is the right half of a 16x8 framebuffer, the scissor rows
  // 2 to 5: a quad filling the viewport colours only their intersection.
  GraphicsPipelineDesc D = pixelPipeline();
  D.Viewports = {{8, 0, 8, 8, 0, 1}};
  D.Scissors = {{0, 2, 16, 4}};
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 16, 8);
  fill(Color, {0, 0, 0, 0});
  std::vector<Vertex> V;
  addRect(V, 0, 0, 8, 8, 0.5f, {1, 1, 1, 1});
  GraphicsJob J = job(D, Color, V);
  J.PushConstants = pushSize(8, 8); // the viewport's size
  ASSERT_FALSE(Runner->run(J));
  for (uint32_t Y = 0; Y < 8; ++Y)
    for (uint32_t X = 0; X < 16; ++X)
      EXPECT_EQ(rgba8(Color, X, Y)[0], X >= 8 && Y >= 2 && Y < 6 ? 255 : 0)
          << "pixel " << X << "," << Y;
}

TEST_F(VulkanGraphicsRunnerTest, ViewportIndexPicksTheViewport) {
  // Two viewports, the left and right halves of a 16x8 framebuffer, the
  // second scissored to rows 2 to 5; the vertex shader's ViewportIndex
  // (the colour's alpha: 0 or 1) sends each quad, which fills its
  // viewport, to one of them (needs multiViewport and
  // shaderOutputViewportIndex, which the runner's device enables).
  GraphicsPipelineDesc D = pixelPipeline();
  D.Vertex.Spirv = compile(R"(#version 450
#extension GL_ARB_shader_viewport_layer_array : require
layout(location = 0) in vec3 Pos;
layout(location = 1) in vec4 Color;
layout(location = 0) flat out vec4 VColor;
layout(push_constant) uniform P { vec2 Size; };
void main() {
  gl_Position = vec4(Pos.xy / Size * 2.0 - 1.0, Pos.z, 1.0);
  gl_ViewportIndex = int(Color.a);
  VColor = vec4(Color.rgb, 1.0);
}
)",
                           frontend::ShaderStage::Vertex);
  D.Viewports = {{0, 0, 8, 8, 0, 1}, {8, 0, 8, 8, 0, 1}};
  D.Scissors = {{0, 0, 16, 8}, {0, 2, 16, 4}};
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 16, 8);
  fill(Color, {0, 0, 0, 0});
  std::vector<Vertex> V;
  addRect(V, 0, 0, 8, 8, 0.5f, {0, 1, 0, 1}); // viewport 1: green
  addRect(V, 0, 0, 4, 8, 0.5f, {1, 0, 0, 0}); // viewport 0: red, half
  GraphicsJob J = job(D, Color, V);
  J.PushConstants = pushSize(8, 8); // the viewports' size
  ASSERT_FALSE(Runner->run(J));
  for (uint32_t Y = 0; Y < 8; ++Y)
    for (uint32_t X = 0; X < 16; ++X) {
      std::array<uint8_t, 4> Want = {0, 0, 0, 0};
      if (X < 4)
        Want = {255, 0, 0, 255};
      else if (X >= 8 && Y >= 2 && Y < 6)
        Want = {0, 255, 0, 255};
      EXPECT_EQ(rgba8(Color, X, Y), Want) << "pixel " << X << "," << Y;
    }
}

TEST_F(VulkanGraphicsRunnerTest, DualSourceBlendReadsTheIndexOneOutput) {
  // Out0 = (0.2, 0.2, 0.2, 0.4), Out1 = (0.5, 0.25, 1, 0.25); colour
  // Out0 + dst * Out1.rgb, alpha dst.a * (1 - Out1.a), over a loaded
  // destination of (200, 100, 50, 255): 51 + 100, 51 + 25, 51 + 50 and
  // 255 * 0.75 = 191.25 (within 1 LSB).
  GraphicsPipelineDesc D = pixelPipeline();
  D.Fragment->Spirv = compile(R"(#version 450
layout(location = 0, index = 0) out vec4 Out0;
layout(location = 0, index = 1) out vec4 Out1;
void main() {
  Out0 = vec4(0.2, 0.2, 0.2, 0.4);
  Out1 = vec4(0.5, 0.25, 1.0, 0.25);
}
)",
                              frontend::ShaderStage::Fragment);
  ColorBlendAttachment B;
  B.BlendEnable = true;
  B.SrcColor = BlendFactor::One;
  B.DstColor = BlendFactor::Src1Color;
  B.SrcAlpha = BlendFactor::Zero;
  B.DstAlpha = BlendFactor::OneMinusSrc1Alpha;
  D.Blend.Attachments = {B};
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 8, 8);
  fill(Color, {200 / 255.0f, 100 / 255.0f, 50 / 255.0f, 1});
  std::vector<Vertex> V;
  addRect(V, 0, 0, 4, 8, 0.5f, {1, 1, 1, 1});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  const int Want[4] = {151, 76, 101, 191}, Kept[4] = {200, 100, 50, 255};
  for (uint32_t Y = 0; Y < 8; ++Y)
    for (uint32_t X = 0; X < 8; ++X) {
      std::array<uint8_t, 4> P = rgba8(Color, X, Y);
      for (int C = 0; C < 4; ++C) {
        int Expected = X < 4 ? Want[C] : Kept[C];
        EXPECT_LE(std::abs(int(P[C]) - Expected), 1)
            << "pixel " << X << "," << Y << " component " << C;
      }
    }
}

TEST_F(VulkanGraphicsRunnerTest, BackFacesAreCulled) {
  // Vulkan's facing: a = -1/2 * sum(x_i * y_i+1 - x_i+1 * y_i) in
  // framebuffer coordinates, front when a > 0 for CounterClockwise. The
  // left triangle (0,0), (8,0), (0,8) has a = -32: back-facing, culled;
  // the right one (8,0), (8,8), (16,0) has a = 32: drawn.
  GraphicsPipelineDesc D = pixelPipeline();
  D.Rasterization.Cull = CullMode::Back;
  D.Rasterization.Front = FrontFace::CounterClockwise;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 16, 8);
  fill(Color, {0, 0, 0, 0});
  std::vector<Vertex> V;
  addTriangle(V, {0, 0}, {8, 0}, {0, 8}, {1, 0, 0, 1});
  addTriangle(V, {8, 0}, {8, 8}, {16, 0}, {0, 1, 0, 1});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  EXPECT_EQ(rgba8(Color, 1, 1), (std::array<uint8_t, 4>{0, 0, 0, 0}));
  EXPECT_EQ(rgba8(Color, 9, 1), (std::array<uint8_t, 4>{0, 255, 0, 255}));
  // Clockwise fronts: the other way round.
  D.Rasterization.Front = FrontFace::Clockwise;
  fill(Color, {0, 0, 0, 0});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  EXPECT_EQ(rgba8(Color, 1, 1), (std::array<uint8_t, 4>{255, 0, 0, 255}));
  EXPECT_EQ(rgba8(Color, 9, 1), (std::array<uint8_t, 4>{0, 0, 0, 0}));
}

TEST_F(VulkanGraphicsRunnerTest, ProvokingVertexGivesTheFlatColour) {
  // A flat output comes from the provoking vertex: the first by default,
  // the last with ProvokingVertexFirst = false (VK_EXT_provoking_vertex).
  if (!Runner->hasFeature("provokingVertexLast"))
    GTEST_SKIP() << "no provokingVertexLast";
  GraphicsPipelineDesc D = pixelPipeline();
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 8, 8);
  std::vector<Vertex> V;
  V.push_back({0, 0, 0.5f, 1, 0, 0, 1});
  V.push_back({16, 0, 0.5f, 0, 1, 0, 1});
  V.push_back({0, 16, 0.5f, 0, 0, 1, 1});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  EXPECT_EQ(rgba8(Color, 2, 2), (std::array<uint8_t, 4>{255, 0, 0, 255}));
  D.Rasterization.ProvokingVertexFirst = false;
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  EXPECT_EQ(rgba8(Color, 2, 2), (std::array<uint8_t, 4>{0, 0, 255, 255}));
}

TEST_F(VulkanGraphicsRunnerTest, SampleMaskKeepsOtherSamples) {
  // SampleMask 0b0101: a quad covering every sample writes samples 0 and 2
  // only.
  GraphicsPipelineDesc D = pixelPipeline();
  D.Multisample.Samples = 4;
  D.Multisample.SampleMask = 0x5;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 3, 3, 4);
  fill(Color, {0, 0, 0, 0});
  std::vector<Vertex> V;
  addRect(V, 0, 0, 3, 3, 0.5f, {1, 1, 1, 1});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  for (uint32_t Y = 0; Y < 3; ++Y)
    for (uint32_t X = 0; X < 3; ++X)
      for (uint32_t S = 0; S < 4; ++S)
        EXPECT_EQ(rgba8(Color, X, Y, S)[0], S % 2 == 0 ? 255 : 0)
            << "pixel " << X << "," << Y << " sample " << S;
}

TEST_F(VulkanGraphicsRunnerTest, LogicOpXor) {
  // XOR of the UNORM bits: source (1, 0, 1, 0) is 0xff, 0x00, 0xff, 0x00;
  // destination 0x0f, 0x33, 0x55, 0xaa.
  if (!Runner->hasFeature("logicOp"))
    GTEST_SKIP() << "no logicOp";
  GraphicsPipelineDesc D = pixelPipeline();
  D.Blend.LogicOpEnable = true;
  D.Blend.Logic = LogicOp::Xor;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 2, 2);
  for (uint32_t Y = 0; Y < 2; ++Y)
    for (uint32_t X = 0; X < 2; ++X) {
      uint8_t *P = Color.texelAddress(0, X, Y, 0);
      P[0] = 0x0f, P[1] = 0x33, P[2] = 0x55, P[3] = 0xaa;
    }
  std::vector<Vertex> V;
  addRect(V, 0, 0, 2, 2, 0.5f, {1, 0, 1, 0});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  EXPECT_EQ(rgba8(Color, 1, 1),
            (std::array<uint8_t, 4>{0xf0, 0x33, 0xaa, 0xaa}));
}

TEST_F(VulkanGraphicsRunnerTest, PrimitiveRestartSplitsAStrip) {
  // Strip indices 0 1 2 <restart> 3 4 5: the restart index ends the strip,
  // so there are two triangles, in the left and right quarters, and none
  // joining vertices 1 and 2 to 3 across the middle, which stays empty.
  GraphicsPipelineDesc D = pixelPipeline();
  D.Topology = PrimitiveTopology::TriangleStrip;
  D.PrimitiveRestartEnable = true;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 16, 4);
  fill(Color, {0, 0, 0, 0});
  std::vector<Vertex> V;
  for (auto P : std::vector<std::array<float, 2>>{
           {0, 0}, {0, 4}, {4, 0}, {12, 0}, {12, 4}, {16, 4}})
    V.push_back({P[0], P[1], 0.5f, 1, 1, 1, 1});
  GraphicsJob J = job(D, Color, V);
  const uint16_t Indices[7] = {0, 1, 2, 0xffff, 3, 4, 5};
  J.IndexData.resize(sizeof(Indices));
  std::memcpy(J.IndexData.data(), Indices, sizeof(Indices));
  J.Index = IndexType::UInt16;
  DrawCommand C{7};
  C.Indexed = true;
  J.Draws = {C};
  ASSERT_FALSE(Runner->run(J));
  EXPECT_EQ(rgba8(Color, 0, 0)[0], 255);
  EXPECT_EQ(rgba8(Color, 13, 3)[0], 255);
  for (uint32_t Y = 0; Y < 4; ++Y)
    for (uint32_t X = 5; X < 11; ++X)
      EXPECT_EQ(rgba8(Color, X, Y)[0], 0) << "pixel " << X << "," << Y;
}

TEST_F(VulkanGraphicsRunnerTest, DepthBiasOnAFloatDepthBuffer) {
  // For a D32_SFLOAT attachment the constant bias unit is 2^(e - 23), e
  // the largest exponent of the primitive's depths: a quad at depth 0.5
  // (e = -1) with DepthBiasConstantFactor 1024 lands at 0.5 + 2^-14.
  GraphicsPipelineDesc D = pixelPipeline();
  D.DepthStencilFormat = Format::D32_SFLOAT;
  D.DepthStencil.DepthTestEnable = true;
  D.DepthStencil.DepthWriteEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Always;
  D.Rasterization.DepthBiasEnable = true;
  D.Rasterization.DepthBiasConstantFactor = 1024;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 2, 2);
  Image Depth = makeImage(Format::D32_SFLOAT, 2, 2);
  std::vector<Vertex> V;
  addRect(V, 0, 0, 2, 2, 0.5f, {1, 1, 1, 1});
  GraphicsJob J = job(D, Color, V);
  J.DepthStencil = &Depth;
  ASSERT_FALSE(Runner->run(J));
  float Z;
  std::memcpy(&Z, Depth.texelAddress(0, 1, 1, 0), 4);
  EXPECT_EQ(Z, 0.5f + std::ldexp(1.0f, -14));
}

TEST_F(VulkanGraphicsRunnerTest, IndexedInstancedDrawWithDivisor) {
  // Two instances of an indexed quad; the per-instance colour advances
  // every second instance (divisor 2), so both instances read colour 0,
  // and the per-instance offset moves the second quad right by 4 pixels.
  if (!Runner->hasFeature("vertexAttributeInstanceRateDivisor"))
    GTEST_SKIP() << "no vertexAttributeInstanceRateDivisor";
  const char *Vert = R"(#version 450
layout(location = 0) in vec2 Pos;
layout(location = 1) in vec4 Color;
layout(location = 2) in float OffsetX;
layout(location = 0) flat out vec4 VColor;
layout(push_constant) uniform P { vec2 Size; };
void main() {
  gl_Position = vec4((Pos + vec2(OffsetX, 0)) / Size * 2.0 - 1.0, 0.5, 1.0);
  VColor = Color;
}
)";
  GraphicsPipelineDesc D = pixelPipeline();
  D.Vertex.Spirv = compile(Vert, frontend::ShaderStage::Vertex);
  D.VertexBindings = {{0, 8, VertexInputRate::Vertex, 1},
                      {1, 16, VertexInputRate::Instance, 2},
                      {2, 4, VertexInputRate::Instance, 1}};
  D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0},
                        {1, 1, Format::R32G32B32A32_SFLOAT, 0},
                        {2, 2, Format::R32_SFLOAT, 0}};
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 8, 4);
  fill(Color, {0, 0, 0, 0});
  auto Bytes = [](std::vector<float> F) {
    std::vector<uint8_t> B(F.size() * 4);
    std::memcpy(B.data(), F.data(), B.size());
    return B;
  };
  GraphicsJob J;
  J.Desc = &D;
  J.Color = {&Color};
  J.VertexBuffers = {Bytes({0, 0, 4, 0, 4, 4, 0, 4}),
                     Bytes({0, 0, 1, 1, 1, 0, 0, 1}), Bytes({0, 4})};
  const uint16_t Indices[6] = {0, 1, 2, 0, 2, 3};
  J.IndexData.resize(sizeof(Indices));
  std::memcpy(J.IndexData.data(), Indices, sizeof(Indices));
  J.Index = IndexType::UInt16;
  J.PushConstants = pushSize(8, 4);
  DrawCommand C{6, 2};
  C.Indexed = true;
  J.Draws = {C};
  ASSERT_FALSE(Runner->run(J));
  for (uint32_t Y = 0; Y < 4; ++Y)
    for (uint32_t X = 0; X < 8; ++X)
      EXPECT_EQ(rgba8(Color, X, Y), (std::array<uint8_t, 4>{0, 0, 255, 255}))
          << "pixel " << X << "," << Y;
}

TEST_F(VulkanGraphicsRunnerTest, StorageBufferWrittenByTheFragmentShader) {
  // Each fragment adds 1 atomically: the count is the number of covered
  // pixels, and the buffer comes back.
  const char *Frag = R"(#version 450
layout(location = 0) flat in vec4 VColor;
layout(location = 0) out vec4 Out;
layout(set = 0, binding = 3) buffer Counter { uint Count; };
layout(set = 1, binding = 0) uniform Tint { vec4 Add; };
void main() { atomicAdd(Count, 1u); Out = VColor + Add; }
)";
  GraphicsPipelineDesc D = pixelPipeline();
  D.Fragment->Spirv = compile(Frag, frontend::ShaderStage::Fragment);
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 8, 8);
  std::vector<Vertex> V;
  addRect(V, 0, 0, 5, 3, 0.5f, {0, 0, 0, 1});
  std::vector<uint8_t> Counter(4, 0), Tint(16, 0);
  float Half = 0.5f;
  std::memcpy(Tint.data(), &Half, 4);
  GraphicsJob J = job(D, Color, V);
  J.Buffers = {{0, 3, 0, false, &Counter}, {1, 0, 0, true, &Tint}};
  ASSERT_FALSE(Runner->run(J));
  uint32_t Count;
  std::memcpy(&Count, Counter.data(), 4);
  EXPECT_EQ(Count, 15u);
  EXPECT_NEAR(rgba8(Color, 0, 0)[0], 127.5, 1);
}

TEST_F(VulkanGraphicsRunnerTest, SampledTextureIsUploaded) {
  // A 2x2 texture fetched with texelFetch at the pixel's position mod 2:
  // the picture repeats the texture.
  const char *Frag = R"(#version 450
layout(location = 0) out vec4 Out;
layout(set = 0, binding = 0) uniform sampler2D Tex;
void main() { Out = texelFetch(Tex, ivec2(gl_FragCoord.xy) % 2, 0); }
)";
  GraphicsPipelineDesc D = pixelPipeline();
  D.Fragment->Spirv = compile(Frag, frontend::ShaderStage::Fragment);
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 6, 4);
  Image Tex = makeImage(Format::R8G8B8A8_UNORM, 2, 2);
  for (size_t K = 0; K < Tex.bytes().size(); ++K)
    Tex.bytes()[K] = uint8_t(K * 13);
  std::vector<Vertex> V;
  addRect(V, 0, 0, 6, 4, 0.5f, {0, 0, 0, 1});
  GraphicsJob J = job(D, Color, V);
  s2l_sampler S{};
  S.max_anisotropy = 1;
  J.Images = {{0, 0, 0, VkImageKind::CombinedImageSampler, &Tex, S}};
  ASSERT_FALSE(Runner->run(J));
  for (uint32_t Y = 0; Y < 4; ++Y)
    for (uint32_t X = 0; X < 6; ++X)
      for (int C = 0; C < 4; ++C)
        EXPECT_EQ(rgba8(Color, X, Y)[C],
                  Tex.texelAddress(0, X % 2, Y % 2, 0)[C])
            << "pixel " << X << "," << Y;
}

TEST_F(VulkanGraphicsRunnerTest, SpecializationConstantsTakeTheModulesTypes) {
  // "0.25" for a float constant and "3" for an int one: the text alone
  // would not say which is which.
  const char *Frag = R"(#version 450
layout(constant_id = 4) const float Red = 1.0;
layout(constant_id = 7) const int Green = 0;
layout(location = 0) out vec4 Out;
void main() { Out = vec4(Red, float(Green) / 4.0, 0, 1); }
)";
  GraphicsPipelineDesc D = pixelPipeline();
  D.Fragment->Spirv = compile(Frag, frontend::ShaderStage::Fragment);
  D.Fragment->SpecValues = {{4, "0.25"}, {7, "3"}};
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 2, 2);
  std::vector<Vertex> V;
  addRect(V, 0, 0, 2, 2, 0.5f, {0, 0, 0, 1});
  ASSERT_FALSE(Runner->run(job(D, Color, V)));
  EXPECT_NEAR(rgba8(Color, 1, 1)[0], 0.25 * 255, 1);
  EXPECT_NEAR(rgba8(Color, 1, 1)[1], 0.75 * 255, 1);

  D.Fragment->SpecValues = {{5, "1"}};
  std::string Msg = llvm::toString(Runner->run(job(D, Color, V)));
  EXPECT_NE(Msg.find("no specialization constant with SpecId 5"),
            std::string::npos)
      << Msg;
}

TEST_F(VulkanGraphicsRunnerTest, MissingFeatureIsNamed) {
  // lavapipe 22.3 has no depthBounds; where a driver has it, nothing to do.
  if (Runner->hasFeature("depthBounds"))
    GTEST_SKIP() << "the device has depthBounds";
  GraphicsPipelineDesc D = pixelPipeline();
  D.DepthStencil.DepthBoundsTestEnable = true;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 2, 2);
  std::vector<Vertex> V;
  addRect(V, 0, 0, 2, 2, 0.5f, {0, 0, 0, 1});
  std::string Msg = llvm::toString(Runner->run(job(D, Color, V)));
  EXPECT_NE(Msg.find("needs the feature depthBounds"), std::string::npos)
      << Msg;
}

TEST_F(VulkanGraphicsRunnerTest, BadJobsFailWithAMessage) {
  GraphicsPipelineDesc D = pixelPipeline();
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 4, 4);
  Image Other = makeImage(Format::R8G8B8A8_UNORM, 5, 4);
  Image Wrong = makeImage(Format::R32_SFLOAT, 4, 4);
  std::vector<Vertex> V;
  addRect(V, 0, 0, 4, 4, 0.5f, {0, 0, 0, 1});
  auto ErrorOf = [&](const GraphicsJob &J) {
    return llvm::toString(Runner->run(J));
  };
  struct Case {
    const char *Name;
    std::function<void(GraphicsJob &)> Change;
    const char *Message;
  };
  const Case Cases[] = {
      {"no attachment", [](GraphicsJob &J) { J.Color = {nullptr}; },
       "the job has no attachment"},
      {"wrong format", [&](GraphicsJob &J) { J.Color = {&Wrong}; },
       "colour attachment 0 is R32_SFLOAT; the pipeline's format is "
       "R8G8B8A8_UNORM"},
      {"depth image without a format",
       [&](GraphicsJob &J) { J.DepthStencil = &Color; },
       "a depth/stencil image is given but DepthStencilFormat is UNDEFINED"},
      {"sizes differ",
       [&](GraphicsJob &J) {
         auto *Desc = const_cast<GraphicsPipelineDesc *>(J.Desc);
         Desc->ColorFormats = {Format::R8G8B8A8_UNORM, Format::R8G8B8A8_UNORM};
         J.Color = {&Color, &Other};
       },
       "colour attachment 1 is 5x4; other attachments are 4x4"},
      {"resolve without multisampling",
       [&](GraphicsJob &J) { J.Resolve = {&Other}; },
       "resolve attachment 0 resolves no multisampled colour attachment"},
      {"short vertex buffer",
       [](GraphicsJob &J) { J.VertexBuffers[0].resize(40); },
       "vertex attribute 0 reads"},
      {"no vertex buffer", [](GraphicsJob &J) { J.VertexBuffers.clear(); },
       "no vertex buffer for binding 0"},
      {"index beyond the data",
       [](GraphicsJob &J) {
         J.IndexData.assign(8, 0);
         DrawCommand C{6};
         C.Indexed = true;
         J.Draws = {C};
       },
       "an indexed draw reads indices 0..5; the index data has 2"},
      {"no entry point",
       [](GraphicsJob &J) {
         auto *Desc = const_cast<GraphicsPipelineDesc *>(J.Desc);
         Desc->Vertex.EntryPoint = "other";
       },
       "vertex shader: no Vertex entry point named 'other'"},
  };
  for (const Case &C : Cases) {
    GraphicsPipelineDesc Copy = D;
    GraphicsJob J = job(Copy, Color, V);
    C.Change(J);
    std::string Msg = ErrorOf(J);
    EXPECT_NE(Msg.find(C.Message), std::string::npos) << C.Name << ": " << Msg;
  }
}

TEST_F(VulkanGraphicsRunnerTest, ClonedJobsRenderAlikeAndDifferencesAreFound) {
  // The differential harness on lavapipe alone: a job and its clone (own
  // images, same contents) render identically; a changed texel or
  // storage buffer byte in one is reported with its coordinates.
  const char *Frag = R"(#version 450
layout(location = 0) flat in vec4 VColor;
layout(location = 0) out vec4 Out;
layout(set = 0, binding = 0) buffer Counter { uint Count; };
void main() { atomicAdd(Count, 1u); Out = VColor; }
)";
  GraphicsPipelineDesc D = pixelPipeline();
  D.Fragment->Spirv = compile(Frag, frontend::ShaderStage::Fragment);
  D.DepthStencilFormat = Format::D24_UNORM_S8_UINT;
  Image Color = makeImage(Format::R8G8B8A8_UNORM, 8, 8);
  Image Ds = makeImage(Format::D24_UNORM_S8_UINT, 8, 8);
  std::vector<uint8_t> Counter(4, 0);
  std::vector<Vertex> V;
  addTriangle(V, {0.5f, 0.25f}, {7.75f, 3}, {2, 7.5f}, {1, 0.5f, 0.25f, 1});
  GraphicsJob J = job(D, Color, V);
  J.DepthStencil = &Ds;
  J.Buffers = {{0, 0, 0, false, &Counter}};
  ClonedJob Other = cloneJob(J);
  ASSERT_FALSE(Runner->run(J));
  ASSERT_FALSE(Runner->run(Other.Job));
  EXPECT_EQ(compareJobs(J, Other.Job, {0, 0}), "");
  Other.Job.Color[0]->texelAddress(0, 3, 4, 0)[1] ^= 2;
  (*Other.Job.Buffers[0].Data)[0] ^= 1;
  std::string Diff = compareJobs(J, Other.Job, {1, 1e-5});
  EXPECT_NE(Diff.find("colour 0: 1 of 64 texels differ"), std::string::npos)
      << Diff;
  EXPECT_NE(Diff.find("colour 0 (3, 4) sample 0"), std::string::npos) << Diff;
  EXPECT_NE(Diff.find("storage buffer at set 0 binding 0 differs"),
            std::string::npos)
      << Diff;
  Other.Job.DepthStencil->texelAddress(0, 1, 1, 0)[3] ^= 1; // stencil
  Diff = compareJobs(J, Other.Job, {1, 1e-5});
  EXPECT_NE(Diff.find("depth/stencil: 1 of 64 texels differ"),
            std::string::npos)
      << Diff;
}

} // namespace
