//===- GraphicsSafetyTest.cpp - Draws are as safe to embed as dispatches --===//
//
// What docs/robustness.md promises for compute dispatches, for draws
// (DrawResources derives from DispatchResources): an endless vertex or
// fragment shader stops at the draw's time limit or when the embedder's
// cancel flag is set, and the draw returns an error saying so; a shader
// that writes far outside a storage buffer (no robust access) makes the
// draw return an error naming the stage and the buffer, the process
// survives, and the next draw works. Limits of GraphicsLimits not covered
// by GraphicsStateTest.LimitsAndUnsupportedStateAreErrors are checked here.
//
// Timing is not asserted beyond "the draw returns": the ctest TIMEOUT
// catches a watchdog that does not stop the shaders.
//
//===----------------------------------------------------------------------===//
#include "GraphicsTestUtil.h"

#include "runtime/GuardedBuffer.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

using namespace spirv2llvm;
using namespace spirv2llvm::testutil;

namespace {

const char *PosVS = R"(#version 450
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
)";

const char *WhiteFS = R"(#version 450
layout(location = 0) out vec4 o;
void main() { o = vec4(1.0); }
)";

// Both loop until a[0] is set, which nothing does during the draw,
// counting their iterations in a[1].
const char *EndlessVS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() {
  while (a[0] == 0u)
    atomicAdd(a[1], 1u);
  gl_Position = vec4(pos, 0.0, 1.0);
}
)";

const char *EndlessFS = R"(#version 450
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() {
  while (a[0] == 0u)
    atomicAdd(a[1], 1u);
  o = vec4(1.0);
}
)";

// b[index + ...] = 7, index from the push constants: far outside b when
// index is large.
const char *WildVS = R"(#version 450
layout(location = 0) in vec2 pos;
layout(set = 0, binding = 1) buffer B { uint b[]; };
layout(push_constant) uniform P { int index; };
void main() {
  b[index + gl_VertexIndex] = 7u;
  gl_Position = vec4(pos, 0.0, 1.0);
}
)";

const char *WildFS = R"(#version 450
layout(location = 0) out vec4 o;
layout(set = 0, binding = 1) buffer B { uint b[]; };
layout(push_constant) uniform P { int index; };
void main() {
  b[index + int(gl_FragCoord.x)] = 7u;
  o = vec4(1.0);
}
)";

constexpr uint32_t FbSize = 64;

/// The whole framebuffer as two triangles (NDC).
const std::vector<float> FullScreen = {-1, -1, 1, -1, -1, 1,
                                       1,  -1, 1, 1,  -1, 1};

class GraphicsSafetyTest : public ::testing::TestWithParam<unsigned> {
protected:
  std::unique_ptr<GraphicsPipeline> pipeline(const char *VS, const char *FS) {
    GraphicsPipelineDesc D;
    D.Vertex.Spirv = glsl(VS, frontend::ShaderStage::Vertex);
    D.Fragment = ShaderStageDesc{glsl(FS, frontend::ShaderStage::Fragment)};
    D.VertexBindings = {{0, 8, VertexInputRate::Vertex}};
    D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0}};
    D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
    D.Width = GetParam();
    auto P = GraphicsPipeline::create(D);
    EXPECT_TRUE(bool(P)) << P.status().message();
    return P ? std::move(*P) : nullptr;
  }
  DrawResources resources() {
    DrawResources R;
    R.VertexBuffers = {{FullScreen.data(), FullScreen.size() * 4}};
    return R;
  }
  /// Draws the full-screen rectangle into Color on 2 threads; "" or the
  /// error.
  std::string draw(GraphicsPipeline &P, const DrawResources &R) {
    Framebuffer Fb;
    Fb.Color = {&Color.descriptor()};
    Status S = P.draw(Fb, R, DrawCommand{6}, /*Threads=*/2);
    return S.ok() ? std::string() : S.message();
  }

public:
  Image Color = image(Format::R32G32B32A32_SFLOAT, FbSize, FbSize);
};

TEST_P(GraphicsSafetyTest, TimeoutStopsAnEndlessFragmentShader) {
  auto P = pipeline(PosVS, EndlessFS);
  ASSERT_TRUE(P);
  std::vector<uint32_t> A(2, 0);
  DrawResources R = resources();
  R.bind(0, 0, A.data(), A.size() * 4);
  R.Timeout = std::chrono::milliseconds(200);
  std::string Msg = draw(*P, R);
  EXPECT_NE(Msg.find("draw timed out after 0.2 s (the time limit)"),
            std::string::npos)
      << Msg;
  EXPECT_GT(A[1], 0u) << "the fragment shader should have run";
  // Each of the 2 workers was in its first call when the time ran out and
  // started no other: the rest of the draw was dropped, not shaded with
  // loops that stop after one iteration.
  EXPECT_LE(P->stats().FragmentCalls, 2u);
  // A draw that ends in time is not affected by its limit.
  A[0] = 1;
  R.Timeout = std::chrono::seconds(60);
  EXPECT_EQ(draw(*P, R), "");
  EXPECT_EQ(pixel(Color, 5, 7)[0], 1.0f);
}

TEST_P(GraphicsSafetyTest, TimeoutStopsAnEndlessVertexShader) {
  auto P = pipeline(EndlessVS, WhiteFS);
  ASSERT_TRUE(P);
  std::vector<uint32_t> A(2, 0);
  DrawResources R = resources();
  R.bind(0, 0, A.data(), A.size() * 4);
  R.Timeout = std::chrono::milliseconds(200);
  std::string Msg = draw(*P, R);
  EXPECT_NE(Msg.find("draw timed out after 0.2 s (the time limit)"),
            std::string::npos)
      << Msg;
  // Stopped in the vertex stage: nothing was rasterized.
  EXPECT_EQ(pixel(Color, 5, 7)[0], 0.0f);
  EXPECT_EQ((*P).stats().FragmentQuads, 0u);
  A[0] = 1;
  R.Timeout = std::chrono::seconds(60);
  EXPECT_EQ(draw(*P, R), "");
  EXPECT_EQ(pixel(Color, 5, 7)[0], 1.0f);
}

TEST_P(GraphicsSafetyTest, CancelFlagFromAnotherThreadStopsTheDraw) {
  for (const char *Stage : {"vertex", "fragment"}) {
    SCOPED_TRACE(Stage);
    bool Vertex = Stage[0] == 'v';
    auto P = Vertex ? pipeline(EndlessVS, WhiteFS) : pipeline(PosVS, EndlessFS);
    ASSERT_TRUE(P);
    std::vector<uint32_t> A(2, 0);
    DrawResources R = resources();
    R.bind(0, 0, A.data(), A.size() * 4);
    std::atomic<uint32_t> Cancel{0};
    R.Cancel = &Cancel;
    // The embedder's deadline: a thread that sets the flag after 100 ms.
    std::thread Host([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      Cancel.store(1);
    });
    std::string Msg = draw(*P, R);
    Host.join();
    EXPECT_NE(Msg.find("draw cancelled: the watchdog flag was set"),
              std::string::npos)
        << Msg;
    EXPECT_GT(A[1], 0u) << "the shader should have run before the cancel";
  }
}

TEST_P(GraphicsSafetyTest, CancelFlagAlreadySetDrawsNothing) {
  auto P = pipeline(PosVS, WhiteFS);
  ASSERT_TRUE(P);
  DrawResources R = resources();
  std::atomic<uint32_t> Cancel{1};
  R.Cancel = &Cancel;
  std::string Msg = draw(*P, R);
  EXPECT_NE(Msg.find("cancelled"), std::string::npos) << Msg;
  for (uint32_t Y = 0; Y < FbSize; Y += 9)
    for (uint32_t X = 0; X < FbSize; X += 9)
      ASSERT_EQ(pixel(Color, X, Y)[0], 0.0f) << X << "," << Y;
  EXPECT_EQ(P->stats().VertexInvocations, 0u);
  Cancel.store(0);
  EXPECT_EQ(draw(*P, R), "");
  EXPECT_EQ(pixel(Color, 63, 63)[0], 1.0f);
}

/// One stage writes far outside buffer b (set 0, binding 1), then the same
/// pipeline draws with an index that stays inside.
void faultThenDraw(GraphicsSafetyTest &T, GraphicsPipeline &P,
                   const char *Stage) {
  GuardedBuffer B(FbSize * 4);
  ASSERT_GE(B.guardSize(), size_t(1) << 28);
  auto Push = [](int32_t Index) {
    std::vector<uint8_t> PC(4);
    std::memcpy(PC.data(), &Index, 4);
    return PC;
  };
  for (int Round = 0; Round < 2; ++Round) {
    DrawResources R;
    R.VertexBuffers = {{FullScreen.data(), FullScreen.size() * 4}};
    R.bind(0, 1, B.data(), B.size());
    // 64 M words past the start: 256 MiB into the guard region.
    R.PushConstants = Push(1 << 26);
    Framebuffer Fb;
    Fb.Color = {&T.Color.descriptor()};
    Status S = P.draw(Fb, R, DrawCommand{6}, 2);
    ASSERT_FALSE(S.ok());
    EXPECT_EQ(S.code(), StatusCode::ExecutionFailed);
    std::string Msg = S.message();
    // One message, however many workers faulted.
    EXPECT_EQ(Msg.find("draw stopped"), Msg.rfind("draw stopped")) << Msg;
    EXPECT_NE(Msg.find(std::string("draw stopped: ") + Stage +
                       " shader: the shader accessed memory outside its "
                       "resources: a write to address 0x"),
              std::string::npos)
        << Msg;
    EXPECT_NE(Msg.find("of the buffer at set 0, binding 1 (256 bytes)"),
              std::string::npos)
        << Msg;

    // The process is intact and the pipeline draws again.
    R.PushConstants = Push(0);
    S = P.draw(Fb, R, DrawCommand{6}, 2);
    ASSERT_TRUE(S.ok()) << S.message();
    EXPECT_EQ(pixel(T.Color, 40, 20)[0], 1.0f);
    EXPECT_EQ(reinterpret_cast<uint32_t *>(B.data())[5], 7u);
  }
}

TEST_P(GraphicsSafetyTest, FragmentShaderFaultIsAnError) {
  auto P = pipeline(PosVS, WildFS);
  ASSERT_TRUE(P);
  faultThenDraw(*this, *P, "fragment");
}

TEST_P(GraphicsSafetyTest, VertexShaderFaultIsAnError) {
  auto P = pipeline(WildVS, WhiteFS);
  ASSERT_TRUE(P);
  faultThenDraw(*this, *P, "vertex");
  // Nothing rasterized in the faulting draws' vertex stage, but the
  // drawing ones ran: the statistics are those of the last draw.
  EXPECT_EQ(P->stats().VertexInvocations, 6u);
}

TEST_P(GraphicsSafetyTest, LimitsOfFramebufferSamplesAndVertexInput) {
  // Width x height x samples: each side within MaxFramebufferSize, the
  // product beyond MaxFramebufferSamples. Refused before anything is
  // read, so a descriptor with a small image behind it is enough.
  GraphicsPipelineDesc D;
  D.Vertex.Spirv = glsl(PosVS, frontend::ShaderStage::Vertex);
  D.Fragment = ShaderStageDesc{glsl(WhiteFS, frontend::ShaderStage::Fragment)};
  D.VertexBindings = {{0, 8, VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0}};
  D.ColorFormats = {Format::R32G32B32A32_SFLOAT};
  D.Multisample.Samples = 4;
  D.Width = GetParam();
  auto P = GraphicsPipeline::create(D);
  ASSERT_TRUE(bool(P)) << P.status().message();
  Image Small = image(Format::R32G32B32A32_SFLOAT, 4, 4, 4);
  s2l_image Huge = Small.descriptor();
  Huge.level[0].width = Huge.level[0].height = 12000;
  static_assert(uint64_t(12000) * 12000 * 4 >
                GraphicsLimits::MaxFramebufferSamples);
  static_assert(12000 <= GraphicsLimits::MaxFramebufferSize);
  Framebuffer Fb;
  Fb.Color = {&Huge};
  Status S = (*P)->draw(Fb, resources(), DrawCommand{6});
  EXPECT_EQ(S.code(), StatusCode::InvalidArgument);
  EXPECT_NE(S.message().find("12000x12000x4 samples (at most 536870912)"),
            std::string::npos)
      << S.message();

  auto CreateError = [](const GraphicsPipelineDesc &D) {
    auto P = GraphicsPipeline::create(D);
    return P ? std::string() : P.status().message();
  };
  GraphicsPipelineDesc V = D;
  V.Multisample.Samples = 1;
  V.VertexBindings = {{GraphicsLimits::MaxVertexBindings, 8,
                       VertexInputRate::Vertex}};
  V.VertexAttributes = {{0, GraphicsLimits::MaxVertexBindings,
                         Format::R32G32_SFLOAT, 0}};
  EXPECT_NE(CreateError(V).find("vertex binding 32: binding numbers go up "
                                "to 31"),
            std::string::npos)
      << CreateError(V);
  V = D;
  V.Multisample.Samples = 1;
  V.VertexAttributes.clear();
  for (uint32_t L = 0; L <= GraphicsLimits::MaxVertexAttributes; ++L)
    V.VertexAttributes.push_back({L, 0, Format::R32_SFLOAT, 0});
  EXPECT_NE(CreateError(V).find("33 vertex attributes, more than the limit "
                                "of 32"),
            std::string::npos)
      << CreateError(V);
}

INSTANTIATE_TEST_SUITE_P(Widths, GraphicsSafetyTest,
                         ::testing::Values(4u, 8u, 16u));

} // namespace
