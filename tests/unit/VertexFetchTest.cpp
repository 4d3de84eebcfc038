//===- VertexFetchTest.cpp - Vertex input into a shader's input block -----===//
//
// VertexFetcher against the input layout of real vertex shaders (GLSL
// reflected by the translator at W = 4): formats converted as Vulkan's
// "Format Conversions" say (expected values worked out by hand from the
// bytes), missing components, the copy and decode paths, per-instance
// bindings with divisors, out-of-bounds attributes, matrices, arrays and
// Component decorations, built-ins, and the errors of create() and
// checkBuffers().
//
//===----------------------------------------------------------------------===//
#include "graphics/VertexFetch.h"

#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace spirv2llvm;
using namespace spirv2llvm::graphics;

namespace {

constexpr unsigned W = 4;

InterfaceLayout reflectVertex(const std::string &Source) {
  TranslateOptions Opts;
  Opts.Width = W;
  auto R = reflectBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      "test.vert", Opts);
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return {};
  }
  return R->Layout;
}

/// Bytes of a vertex buffer, written at given offsets.
struct Bytes {
  std::vector<uint8_t> Data;
  explicit Bytes(size_t N) : Data(N, 0) {}
  template <typename T> void put(size_t At, std::initializer_list<T> Vals) {
    for (T V : Vals) {
      std::memcpy(&Data[At], &V, sizeof(T));
      At += sizeof(T);
    }
  }
  VertexBufferView view() const { return {Data.data(), Data.size()}; }
};

/// The input block of one fetch, poisoned so that unwritten lanes show.
struct Block {
  const InterfaceLayout &L;
  std::vector<uint8_t> In;
  explicit Block(const InterfaceLayout &L) : L(L), In(L.InputSize, 0xAB) {}
  const InterfaceVariable &var(int32_t Location) const {
    const InterfaceVariable *V = L.findInputLocation(Location);
    EXPECT_TRUE(V) << "no input at location " << Location;
    return *V;
  }
  template <typename T>
  T at(const InterfaceVariable &V, unsigned C, unsigned Lane) const {
    T X;
    std::memcpy(&X, &In[V.ComponentOffsets[C] + sizeof(T) * Lane], sizeof(T));
    return X;
  }
  template <typename T>
  std::vector<T> lane(int32_t Location, unsigned Lane) const {
    const InterfaceVariable &V = var(Location);
    std::vector<T> Out;
    for (unsigned C = 0; C < V.Components.size(); ++C)
      Out.push_back(at<T>(V, C, Lane));
    return Out;
  }
  bool untouched(int32_t Location, unsigned Lane) const {
    const InterfaceVariable &V = var(Location);
    for (unsigned C = 0; C < V.Components.size(); ++C)
      for (unsigned B = 0; B < V.Components[C].bytes(); ++B)
        if (In[V.ComponentOffsets[C] + V.Components[C].bytes() * Lane + B] !=
            0xAB)
          return false;
    return true;
  }
};

void expectFloats(const std::vector<float> &Got, const std::vector<float> &Want,
                  const char *What) {
  ASSERT_EQ(Got.size(), Want.size()) << What;
  for (size_t I = 0; I < Want.size(); ++I)
    EXPECT_NEAR(Got[I], Want[I], 1e-6f * std::max(1.0f, std::fabs(Want[I])))
        << What << " component " << I;
}

std::string createError(const GraphicsPipelineDesc &D,
                        const InterfaceLayout &L) {
  auto F = VertexFetcher::create(D, L);
  return F.ok() ? "(no error)" : F.status().message();
}

// One attribute per format of interest, all in binding 0 (stride 64).
const char *FormatsShader = R"(#version 450
layout(location = 0) in vec4 unorm8;
layout(location = 1) in vec4 snorm8;
layout(location = 2) in vec4 uscaled8;
layout(location = 3) in vec4 sscaled8;
layout(location = 4) in uvec4 uint8;
layout(location = 5) in ivec4 sint8;
layout(location = 6) in vec4 half2;
layout(location = 7) in vec4 a2b10g10r10;
layout(location = 8) in vec4 float3;
layout(location = 9) in vec4 bgra8;
layout(location = 10) in ivec2 sint32;
void main() {
  gl_Position = unorm8 + snorm8 + uscaled8 + sscaled8 + vec4(uint8) +
                vec4(sint8) + half2 + a2b10g10r10 + float3 + bgra8 +
                vec4(sint32, gl_VertexIndex, gl_InstanceIndex);
})";

GraphicsPipelineDesc formatsDesc() {
  GraphicsPipelineDesc D;
  D.VertexBindings = {{0, 64, VertexInputRate::Vertex}};
  D.VertexAttributes = {
      {0, 0, Format::R8G8B8A8_UNORM, 0},
      {1, 0, Format::R8G8B8A8_SNORM, 4},
      {2, 0, Format::R8G8B8A8_USCALED, 8},
      {3, 0, Format::R8G8B8A8_SSCALED, 12},
      {4, 0, Format::R8G8B8A8_UINT, 16},
      {5, 0, Format::R8G8B8A8_SINT, 20},
      {6, 0, Format::R16G16_SFLOAT, 24},
      {7, 0, Format::A2B10G10R10_UNORM_PACK32, 28},
      {8, 0, Format::R32G32B32_SFLOAT, 32},
      {9, 0, Format::B8G8R8A8_UNORM, 44},
      {10, 0, Format::R32G32_SINT, 48},
  };
  return D;
}

TEST(VertexFetch, Formats) {
  InterfaceLayout L = reflectVertex(FormatsShader);
  GraphicsPipelineDesc D = formatsDesc();
  auto F = VertexFetcher::create(D, L);
  ASSERT_TRUE(F.ok()) << F.status().message();
  EXPECT_EQ(F->pathAt(8), VertexFetcher::PathKind::Copy32);
  EXPECT_EQ(F->pathAt(10), VertexFetcher::PathKind::Copy32);
  EXPECT_EQ(F->pathAt(0), VertexFetcher::PathKind::Bytes8);
  EXPECT_EQ(F->pathAt(9), VertexFetcher::PathKind::Bytes8);
  EXPECT_EQ(F->pathAt(6), VertexFetcher::PathKind::Words16);
  EXPECT_EQ(F->pathAt(7), VertexFetcher::PathKind::Decode);

  // Vertex 1 holds the interesting values; vertex 0 other ones, to see
  // that each lane reads its own vertex.
  Bytes B(3 * 64);
  const size_t V1 = 64;
  B.put<uint8_t>(V1 + 0, {0, 255, 51, 128});
  B.put<uint8_t>(V1 + 4, {0x81, 0x80, 127, 0}); // -127, -128, 127, 0
  B.put<uint8_t>(V1 + 8, {0, 200, 7, 255});
  B.put<uint8_t>(V1 + 12, {0xff, 0x80, 5, 0x7f}); // -1, -128, 5, 127
  B.put<uint8_t>(V1 + 16, {1, 2, 250, 255});
  B.put<uint8_t>(V1 + 20, {0xfe, 0x80, 3, 0x7f}); // -2, -128, 3, 127
  B.put<uint16_t>(V1 + 24, {0x3c00, 0xc000});     // 1.0, -2.0
  // R = 1023, G = 0, B = 512, A = 1 (R in the low bits).
  B.put<uint32_t>(V1 + 28, {1023u | 0u << 10 | 512u << 20 | 1u << 30});
  B.put<float>(V1 + 32, {1.5f, -2.25f, 1e10f});
  B.put<uint8_t>(V1 + 44, {255, 0, 51, 0}); // B, G, R, A
  B.put<int32_t>(V1 + 48, {-7, 123456789});
  B.put<uint8_t>(0, {255, 255, 255, 255});
  B.put<float>(32, {4.0f, 5.0f, 6.0f});

  DrawResources R;
  R.VertexBuffers = {B.view()};
  ASSERT_TRUE(F->checkBuffers(R).ok());
  Block Blk(L);
  const uint32_t Indices[] = {1, 0, 1};
  F->fetch(R, Indices, 3, 7, 2, Blk.In.data());

  for (unsigned Lane : {0u, 2u}) {
    SCOPED_TRACE("lane " + std::to_string(Lane));
    expectFloats(Blk.lane<float>(0, Lane), {0, 1, 0.2f, 128 / 255.0f}, "UNORM");
    // -128 clamps to -1.
    expectFloats(Blk.lane<float>(1, Lane), {-1, -1, 1, 0}, "SNORM");
    expectFloats(Blk.lane<float>(2, Lane), {0, 200, 7, 255}, "USCALED");
    expectFloats(Blk.lane<float>(3, Lane), {-1, -128, 5, 127}, "SSCALED");
    EXPECT_EQ(Blk.lane<uint32_t>(4, Lane),
              (std::vector<uint32_t>{1, 2, 250, 255}));
    EXPECT_EQ(Blk.lane<int32_t>(5, Lane),
              (std::vector<int32_t>{-2, -128, 3, 127}));
    // Two components: blue 0, alpha 1.
    expectFloats(Blk.lane<float>(6, Lane), {1, -2, 0, 1}, "R16G16_SFLOAT");
    expectFloats(Blk.lane<float>(7, Lane), {1, 0, 512 / 1023.0f, 1 / 3.0f},
                 "A2B10G10R10");
    // The copy path, alpha from nowhere.
    expectFloats(Blk.lane<float>(8, Lane), {1.5f, -2.25f, 1e10f, 1},
                 "R32G32B32_SFLOAT");
    expectFloats(Blk.lane<float>(9, Lane), {0.2f, 0, 1, 0}, "B8G8R8A8");
    EXPECT_EQ(Blk.lane<int32_t>(10, Lane),
              (std::vector<int32_t>{-7, 123456789}));
  }
  expectFloats(Blk.lane<float>(0, 1), {1, 1, 1, 1}, "vertex 0 UNORM");
  expectFloats(Blk.lane<float>(8, 1), {4, 5, 6, 1}, "vertex 0 float3");
  for (int32_t Loc = 0; Loc <= 10; ++Loc)
    EXPECT_TRUE(Blk.untouched(Loc, 3)) << "location " << Loc;

  // The built-ins: the vertex index per lane, the instance index.
  const InterfaceVariable *VI = nullptr, *II = nullptr;
  for (const InterfaceVariable &V : L.Inputs) {
    if (V.BuiltIn == 42)
      VI = &V;
    if (V.BuiltIn == 43)
      II = &V;
  }
  ASSERT_TRUE(VI && II);
  for (unsigned Lane = 0; Lane < 3; ++Lane) {
    EXPECT_EQ(Blk.at<uint32_t>(*VI, 0, Lane), Indices[Lane]);
    EXPECT_EQ(Blk.at<uint32_t>(*II, 0, Lane), 7u);
  }
}

// Every vertex format, whichever path create() picks for it, gives what
// decodeTexel gives for the same bytes (bit for bit), in every RGBA slot:
// the table and copy paths' byte offsets, channel order and missing
// components against the decoder. Each byte of the element takes all 256
// values over the 256 vertices.
TEST(VertexFetch, EveryFormatMatchesTheDecoder) {
  InterfaceLayout L = reflectVertex(R"(#version 450
    layout(location = 0) in vec4 f;
    layout(location = 1) in ivec4 i;
    layout(location = 2) in uvec4 u;
    void main() { gl_Position = f + vec4(i) + vec4(u); })");
  constexpr unsigned NV = 256;
  Bytes Other(16);
  unsigned Tested = 0, ByPath[5] = {};
  for (const FormatInfo &I : allFormats()) {
    if (I.isCompressed() || I.hasDepth() || I.hasStencil() ||
        I.Layout != LayoutKind::Bits || I.has64BitComponents())
      continue;
    SCOPED_TRACE(std::string(I.Name));
    int32_t Loc = I.view() == ViewKind::Float  ? 0
                  : I.view() == ViewKind::SInt ? 1
                                               : 2;
    GraphicsPipelineDesc D;
    D.VertexBindings = {{0, I.BlockBytes, VertexInputRate::Vertex},
                        {1, 0, VertexInputRate::Vertex}};
    const Format Others[] = {Format::R32G32B32A32_SFLOAT,
                             Format::R32G32B32A32_SINT,
                             Format::R32G32B32A32_UINT};
    for (int32_t K = 0; K < 3; ++K)
      D.VertexAttributes.push_back(
          K == Loc ? VertexAttribute{uint32_t(K), 0, I.Fmt, 0}
                   : VertexAttribute{uint32_t(K), 1, Others[K], 0});
    auto F = VertexFetcher::create(D, L);
    ASSERT_TRUE(F.ok()) << F.status().message();
    ++ByPath[unsigned(*F->pathAt(Loc))];
    D.VertexBindings[0].InputRate = VertexInputRate::Instance;
    auto FI = VertexFetcher::create(D, L);
    ASSERT_TRUE(FI.ok()) << FI.status().message();
    Bytes B(size_t(NV) * I.BlockBytes);
    for (unsigned V = 0; V < NV; ++V)
      for (unsigned K = 0; K < I.BlockBytes; ++K)
        B.Data[V * I.BlockBytes + K] = uint8_t(V + 53 * K);
    DrawResources R;
    R.VertexBuffers = {B.view(), Other.view()};
    // Per vertex, lane l reads element E0 + l; per instance (instance E0,
    // first instance 0, divisor 1), every lane reads element E0.
    for (uint32_t V0 = 0; V0 < 2 * NV; V0 += W) {
      bool PerInstance = V0 >= NV;
      uint32_t E0 = V0 % NV;
      Block Blk(L);
      uint32_t Idx[W];
      for (unsigned Lane = 0; Lane < W; ++Lane)
        Idx[Lane] = E0 + Lane;
      if (PerInstance)
        FI->fetch(R, Idx, W, E0, 0, Blk.In.data());
      else
        F->fetch(R, Idx, W, 0, 0, Blk.In.data());
      for (unsigned Lane = 0; Lane < W; ++Lane) {
        uint32_t E = PerInstance ? E0 : Idx[Lane];
        const uint8_t *Texel = &B.Data[E * I.BlockBytes];
        uint32_t Want[4];
        if (Loc == 0) {
          Float4 X;
          ASSERT_TRUE(decodeTexel(I.Fmt, Texel, X).ok());
          std::memcpy(Want, X.data(), 16);
        } else if (Loc == 1) {
          Int4 X;
          ASSERT_TRUE(decodeTexel(I.Fmt, Texel, X).ok());
          std::memcpy(Want, X.data(), 16);
        } else {
          UInt4 X;
          ASSERT_TRUE(decodeTexel(I.Fmt, Texel, X).ok());
          std::memcpy(Want, X.data(), 16);
        }
        std::vector<uint32_t> Got = Blk.lane<uint32_t>(Loc, Lane);
        ASSERT_EQ(Got, std::vector<uint32_t>(Want, Want + 4))
            << (PerInstance ? "instance " : "vertex ") << E;
      }
    }
    ++Tested;
  }
  // Every vertex format of the table, and each 32-bit path in use.
  EXPECT_GE(Tested, 100u);
  EXPECT_GT(ByPath[unsigned(VertexFetcher::PathKind::Copy32)], 5u);
  EXPECT_GT(ByPath[unsigned(VertexFetcher::PathKind::Bytes8)], 20u);
  EXPECT_GT(ByPath[unsigned(VertexFetcher::PathKind::Words16)], 20u);
  EXPECT_GT(ByPath[unsigned(VertexFetcher::PathKind::Decode)], 10u);
}

TEST(VertexFetch, OutOfBoundsAttributesReadDefaults) {
  const char *Shader = R"(#version 450
    layout(location = 0) in vec4 f;
    layout(location = 1) in uvec4 u;
    void main() { gl_Position = f + vec4(u); })";
  InterfaceLayout L = reflectVertex(Shader);
  GraphicsPipelineDesc D;
  D.VertexBindings = {{0, 16, VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R32G32B32A32_SFLOAT, 4},
                        {1, 0, Format::R8G8B8A8_UINT, 0}};
  auto F = VertexFetcher::create(D, L);
  ASSERT_TRUE(F.ok()) << F.status().message();

  // 40 bytes: vertex 0's float4 is bytes 4-19 (inside), vertex 2's
  // bytes 36-51 (partly outside); vertex 2's uint bytes 32-35 are inside.
  Bytes B(40);
  B.put<uint8_t>(0, {1, 2, 3, 4});
  B.put<float>(4, {1, 2, 3, 4});
  B.put<uint8_t>(32, {9, 8, 7, 6});
  DrawResources R;
  R.VertexBuffers = {B.view()};
  Block Blk(L);
  const uint32_t Indices[] = {0, 2, 3, 0xffffffffu};
  F->fetch(R, Indices, 4, 0, 0, Blk.In.data());
  expectFloats(Blk.lane<float>(0, 0), {1, 2, 3, 4}, "inside");
  EXPECT_EQ(Blk.lane<uint32_t>(1, 0), (std::vector<uint32_t>{1, 2, 3, 4}));
  expectFloats(Blk.lane<float>(0, 1), {0, 0, 0, 1}, "partly outside");
  EXPECT_EQ(Blk.lane<uint32_t>(1, 1), (std::vector<uint32_t>{9, 8, 7, 6}));
  expectFloats(Blk.lane<float>(0, 2), {0, 0, 0, 1}, "outside");
  EXPECT_EQ(Blk.lane<uint32_t>(1, 2), (std::vector<uint32_t>{0, 0, 0, 1}));
  // The largest index: its address does not wrap around into the buffer.
  expectFloats(Blk.lane<float>(0, 3), {0, 0, 0, 1}, "index 2^32-1");
  EXPECT_EQ(Blk.lane<uint32_t>(1, 3), (std::vector<uint32_t>{0, 0, 0, 1}));
}

TEST(VertexFetch, PerInstanceBindingsWithDivisors) {
  const char *Shader = R"(#version 450
    layout(location = 0) in float perVertex;
    layout(location = 1) in float every2;
    layout(location = 2) in float never;
    layout(location = 3) in float every1;
    void main() { gl_Position = vec4(perVertex, every2, never, every1); })";
  InterfaceLayout L = reflectVertex(Shader);
  GraphicsPipelineDesc D;
  D.VertexBindings = {{0, 4, VertexInputRate::Vertex},
                      {1, 4, VertexInputRate::Instance, 2},
                      {2, 4, VertexInputRate::Instance, 0},
                      {3, 8, VertexInputRate::Instance, 1}};
  D.VertexAttributes = {{0, 0, Format::R32_SFLOAT, 0},
                        {1, 1, Format::R32_SFLOAT, 0},
                        {2, 2, Format::R32_SFLOAT, 0},
                        {3, 3, Format::R32_SFLOAT, 4}};
  auto F = VertexFetcher::create(D, L);
  ASSERT_TRUE(F.ok()) << F.status().message();
  Bytes PerVertex(16), Inst(24), Inst8(48);
  PerVertex.put<float>(0, {0, 1, 2, 3});
  Inst.put<float>(0, {10, 11, 12, 13, 14, 15});
  for (unsigned I = 0; I < 6; ++I)
    Inst8.put<float>(8 * I + 4, {float(20 + I)});
  DrawResources R;
  R.VertexBuffers = {PerVertex.view(), Inst.view(), Inst.view(), Inst8.view()};
  ASSERT_TRUE(F->checkBuffers(R).ok());
  const uint32_t Indices[] = {3, 2};
  // FirstInstance 1: instances 1..5 read elements 1 + (i - 1) / 2 =
  // 1, 1, 2, 2, 3 with divisor 2; element 1 always with divisor 0.
  const float Every2[] = {11, 11, 12, 12, 13};
  for (uint32_t Instance = 1; Instance <= 5; ++Instance) {
    SCOPED_TRACE("instance " + std::to_string(Instance));
    Block Blk(L);
    F->fetch(R, Indices, 2, Instance, 1, Blk.In.data());
    for (unsigned Lane = 0; Lane < 2; ++Lane) {
      EXPECT_EQ(Blk.lane<float>(0, Lane)[0], float(Indices[Lane]));
      EXPECT_EQ(Blk.lane<float>(1, Lane)[0], Every2[Instance - 1]);
      EXPECT_EQ(Blk.lane<float>(2, Lane)[0], 11.0f);
      EXPECT_EQ(Blk.lane<float>(3, Lane)[0], float(20 + Instance));
    }
    EXPECT_TRUE(Blk.untouched(1, 2));
  }
}

TEST(VertexFetch, MatricesArraysAndComponents) {
  const char *Shader = R"(#version 450
    layout(location = 0) in mat2x3 m;       // locations 0, 1
    layout(location = 2) in float arr[2];   // locations 2, 3
    layout(location = 4, component = 0) in float x;
    layout(location = 4, component = 2) in vec2 zw;
    void main() {
      gl_Position = vec4(m[0] + m[1], arr[0] + arr[1]) + vec4(x, zw, 0);
    })";
  InterfaceLayout L = reflectVertex(Shader);
  const InterfaceVariable *M = L.findInputLocation(0);
  ASSERT_TRUE(M);
  ASSERT_EQ(M->ComponentLocations.size(), 6u);
  const uint32_t WantLoc[] = {0, 0, 0, 1, 1, 1},
                 WantComp[] = {0, 1, 2, 0, 1, 2};
  for (unsigned C = 0; C < 6; ++C) {
    EXPECT_EQ(M->ComponentLocations[C].Location, WantLoc[C]) << C;
    EXPECT_EQ(M->ComponentLocations[C].Component, WantComp[C]) << C;
  }
  const InterfaceVariable *ZW = nullptr;
  for (const InterfaceVariable &V : L.Inputs)
    if (V.Location == 4 && V.Components.size() == 2)
      ZW = &V;
  ASSERT_TRUE(ZW);
  EXPECT_EQ(ZW->ComponentLocations[0].Component, 2u);
  EXPECT_EQ(ZW->ComponentLocations[1].Component, 3u);

  GraphicsPipelineDesc D;
  D.VertexBindings = {{0, 64, VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R32G32B32_SFLOAT, 0},
                        {1, 0, Format::R8G8B8A8_SNORM, 12},
                        {2, 0, Format::R32_SFLOAT, 16},
                        {3, 0, Format::R16_SFLOAT, 20},
                        {4, 0, Format::R32G32B32A32_SFLOAT, 24}};
  auto F = VertexFetcher::create(D, L);
  ASSERT_TRUE(F.ok()) << F.status().message();
  Bytes B(64);
  B.put<float>(0, {1, 2, 3});
  B.put<uint8_t>(12, {127, 0x81, 0});
  B.put<float>(16, {5});
  B.put<uint16_t>(20, {0x4200}); // 3.0
  B.put<float>(24, {6, 7, 8, 9});
  DrawResources R;
  R.VertexBuffers = {B.view()};
  Block Blk(L);
  const uint32_t Indices[] = {0};
  F->fetch(R, Indices, 1, 0, 0, Blk.In.data());
  expectFloats(Blk.lane<float>(0, 0), {1, 2, 3, 1, -1, 0}, "mat2x3");
  expectFloats(Blk.lane<float>(2, 0), {5, 3}, "float[2]");
  EXPECT_EQ(Blk.at<float>(*ZW, 0, 0), 8.0f);
  EXPECT_EQ(Blk.at<float>(*ZW, 1, 0), 9.0f);
  const InterfaceVariable *X = nullptr;
  for (const InterfaceVariable &V : L.Inputs)
    if (V.Location == 4 && V.Components.size() == 1)
      X = &V;
  ASSERT_TRUE(X);
  EXPECT_EQ(Blk.at<float>(*X, 0, 0), 6.0f);
}

TEST(VertexFetch, SixtyFourBitFormats) {
  // A dvec3 spans locations 0 and 1 and takes one three-component
  // attribute, as does the dvec4 (its w, which Vulkan leaves undefined
  // here, reads 1); a dvec2 from a one-component format gets y = 0.
  const char *Shader = R"(#version 450
    layout(location = 0) in dvec3 p;
    layout(location = 2) in dvec4 q;
    layout(location = 4) in dvec2 s;
    void main() { gl_Position = vec4(p + q.xyz + q.w + s.x + s.y, 1); })";
  InterfaceLayout L = reflectVertex(Shader);
  GraphicsPipelineDesc D;
  D.VertexBindings = {{0, 56, VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R64G64B64_SFLOAT, 0},
                        {2, 0, Format::R64G64B64_SFLOAT, 24},
                        {4, 0, Format::R64_SFLOAT, 48}};
  auto F = VertexFetcher::create(D, L);
  ASSERT_TRUE(F.ok()) << F.status().message();
  EXPECT_EQ(F->pathAt(0), VertexFetcher::PathKind::Copy64);
  Bytes B(2 * 56 - 8); // vertex 1's s is out of bounds
  B.put<double>(0, {1.25, -2.5, 1e300, 4.0, 5.0, 6.0, 0.1});
  B.put<double>(56, {7.0, 8.0, 9.0, 10.0, 11.0, 12.0});
  DrawResources R;
  R.VertexBuffers = {B.view()};
  Block Blk(L);
  const uint32_t Indices[] = {0, 1};
  F->fetch(R, Indices, 2, 0, 0, Blk.In.data());
  EXPECT_EQ(Blk.lane<double>(0, 0), (std::vector<double>{1.25, -2.5, 1e300}));
  EXPECT_EQ(Blk.lane<double>(2, 0), (std::vector<double>{4.0, 5.0, 6.0, 1.0}));
  EXPECT_EQ(Blk.lane<double>(4, 0), (std::vector<double>{0.1, 0.0}));
  EXPECT_EQ(Blk.lane<double>(0, 1), (std::vector<double>{7.0, 8.0, 9.0}));
  EXPECT_EQ(Blk.lane<double>(2, 1),
            (std::vector<double>{10.0, 11.0, 12.0, 1.0}));
  EXPECT_EQ(Blk.lane<double>(4, 1), (std::vector<double>{0.0, 0.0}));

  // The second location of the dvec3 is taken by its attribute.
  GraphicsPipelineDesc E = D;
  E.VertexAttributes.push_back({1, 0, Format::R32_SFLOAT, 0});
  EXPECT_EQ(createError(E, L),
            "vertex attribute at location 1 overlaps the one at location 0 "
            "(R64G64B64_SFLOAT takes two locations)");
  E = D;
  E.VertexAttributes[2].Fmt = Format::R64_UINT;
  EXPECT_EQ(createError(E, L),
            "vertex input location 4 (input 's'): format R64_UINT gives 64-bit "
            "uint values, the input is 64-bit float");
  // A two-component format does not reach the dvec4's second location.
  E = D;
  E.VertexAttributes[1].Fmt = Format::R64G64_SFLOAT;
  EXPECT_EQ(createError(E, L),
            "vertex input location 3 (input 'q'): no vertex attribute at this "
            "location (R64G64_SFLOAT at location 2 has 2 components; a "
            "three- or four-component format feeds both locations)");
}

// --- Errors ---------------------------------------------------------------

TEST(VertexFetch, StateErrors) {
  InterfaceLayout L = reflectVertex(FormatsShader);
  GraphicsPipelineDesc D = formatsDesc();
  ASSERT_EQ(createError(D, L), "(no error)");
  {
    GraphicsPipelineDesc E = D;
    E.VertexBindings.push_back({0, 4, VertexInputRate::Vertex});
    EXPECT_EQ(createError(E, L), "vertex binding 0 is described twice");
    E.VertexBindings.back().Binding = 32;
    EXPECT_EQ(createError(E, L),
              "vertex binding 32: binding numbers go up to 31");
    E.VertexBindings.back() = {1, 4, VertexInputRate::Vertex, 3};
    EXPECT_EQ(createError(E, L), "vertex binding 1: a divisor (3) needs the "
                                 "per-instance input rate");
  }
  {
    GraphicsPipelineDesc E = D;
    E.VertexAttributes.push_back({3, 0, Format::R32_SFLOAT, 0});
    EXPECT_EQ(createError(E, L),
              "vertex attribute at location 3 is described twice");
    E.VertexAttributes.back() = {12, 5, Format::R32_SFLOAT, 0};
    EXPECT_EQ(createError(E, L), "vertex attribute at location 12: vertex "
                                 "binding 5 is not described");
    E.VertexAttributes.back() = {12, 0, Format::BC1_RGB_UNORM_BLOCK, 0};
    EXPECT_EQ(createError(E, L), "vertex attribute at location 12: "
                                 "BC1_RGB_UNORM_BLOCK is not a vertex format");
    E.VertexAttributes.back().Fmt = Format::D32_SFLOAT;
    EXPECT_EQ(createError(E, L), "vertex attribute at location 12: "
                                 "D32_SFLOAT is not a vertex format");
    E.VertexAttributes.back().Fmt = Format::E5B9G9R9_UFLOAT_PACK32;
    EXPECT_EQ(createError(E, L),
              "vertex attribute at location 12: E5B9G9R9_UFLOAT_PACK32 is "
              "not a vertex format");
    E.VertexAttributes.back().Fmt = Format::UNDEFINED;
    EXPECT_EQ(createError(E, L),
              "vertex attribute at location 12: unknown format 0");
    E.VertexAttributes.back() = {32, 0, Format::R32_SFLOAT, 0};
    EXPECT_EQ(createError(E, L),
              "vertex attribute at location 32: locations go up to 31");
    // An attribute the shader does not read is fine.
    E.VertexAttributes.back().Location = 31;
    EXPECT_EQ(createError(E, L), "(no error)");
  }
  {
    GraphicsPipelineDesc E = D;
    E.VertexAttributes.erase(E.VertexAttributes.begin() + 6);
    EXPECT_EQ(createError(E, L), "vertex input location 6 (input 'half2'): no "
                                 "vertex attribute at this location");
  }
  {
    GraphicsPipelineDesc E = D;
    E.VertexAttributes[0].Fmt = Format::R8G8B8A8_UINT;
    EXPECT_EQ(createError(E, L),
              "vertex input location 0 (input 'unorm8'): format "
              "R8G8B8A8_UINT gives uint values, the input is float");
    E.VertexAttributes[0].Fmt = Format::R8G8B8A8_UNORM;
    E.VertexAttributes[4].Fmt = Format::R8G8B8A8_SINT;
    EXPECT_EQ(createError(E, L),
              "vertex input location 4 (input 'uint8'): format "
              "R8G8B8A8_SINT gives int values, the input is uint");
    E.VertexAttributes[4].Fmt = Format::R8G8B8A8_UINT;
    E.VertexAttributes[5].Fmt = Format::R8G8B8A8_SSCALED;
    EXPECT_EQ(createError(E, L),
              "vertex input location 5 (input 'sint8'): format "
              "R8G8B8A8_SSCALED gives float values, the input is int");
    E.VertexAttributes[5].Fmt = Format::R8G8B8A8_SINT;
    E.VertexAttributes[8].Fmt = Format::R64G64_SFLOAT;
    EXPECT_EQ(createError(E, L),
              "vertex input location 8 (input 'float3'): format "
              "R64G64_SFLOAT gives 64-bit float values, the input is float");
  }
}

TEST(VertexFetch, ShaderInputErrors) {
  GraphicsPipelineDesc D;
  D.VertexBindings = {{0, 32, VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R32G32B32_SFLOAT, 0}};
  InterfaceLayout Base = reflectVertex(R"(#version 460
    layout(location = 0) in vec3 p;
    void main() { gl_Position = vec4(p, float(gl_BaseVertex)); })");
  EXPECT_EQ(createError(D, Base),
            "vertex shader input 'gl_BaseVertex': built-in BaseVertex is not "
            "supported by the rasterizer");
  // 64-bit inputs need 64-bit formats.
  InterfaceLayout Dbl = reflectVertex(R"(#version 450
    layout(location = 0) in dvec3 p;
    void main() { gl_Position = vec4(p, 1); })");
  const InterfaceVariable *P = Dbl.findInputLocation(0);
  ASSERT_TRUE(P);
  ASSERT_EQ(P->ComponentLocations.size(), 3u);
  // A dvec3 spans two locations: x, y at 0 (components 0, 2), z at 1.
  EXPECT_EQ(P->ComponentLocations[1].Component, 2u);
  EXPECT_EQ(P->ComponentLocations[2].Location, 1u);
  EXPECT_EQ(P->ComponentLocations[2].Component, 0u);
  EXPECT_EQ(createError(D, Dbl),
            "vertex input location 0 (input 'p'): format R32G32B32_SFLOAT "
            "gives float values, the input is 64-bit float");
}

TEST(VertexFetch, CheckBuffers) {
  InterfaceLayout L = reflectVertex(R"(#version 450
    layout(location = 0) in vec4 a;
    layout(location = 1) in vec4 b;
    void main() { gl_Position = a + b; })");
  GraphicsPipelineDesc D;
  D.VertexBindings = {{0, 16, VertexInputRate::Vertex},
                      {3, 16, VertexInputRate::Instance},
                      {5, 16, VertexInputRate::Vertex}};
  // Binding 5 is described but no attribute the shader reads uses it.
  D.VertexAttributes = {{0, 0, Format::R32G32B32A32_SFLOAT, 0},
                        {1, 3, Format::R32G32B32A32_SFLOAT, 0},
                        {7, 5, Format::R32G32B32A32_SFLOAT, 0}};
  auto F = VertexFetcher::create(D, L);
  ASSERT_TRUE(F.ok()) << F.status().message();
  float Data[4] = {};
  DrawResources R;
  R.VertexBuffers = {{Data, sizeof(Data)}};
  Status S = F->checkBuffers(R);
  EXPECT_EQ(S.message(), "vertex binding 3 (read by the attribute at "
                         "location 1) has no buffer");
  R.VertexBuffers.resize(4);
  S = F->checkBuffers(R);
  EXPECT_EQ(S.message(), "vertex binding 3 (read by the attribute at "
                         "location 1) has no buffer");
  R.VertexBuffers[3] = {Data, sizeof(Data)};
  EXPECT_TRUE(F->checkBuffers(R).ok());
}

} // namespace
