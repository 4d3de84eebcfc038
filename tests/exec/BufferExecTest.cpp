//===- BufferExecTest.cpp - Descriptor arrays and workgroup blocks --------===//
//
// Exact C++ references at W = 4 and 8 for what lavapipe cannot check (the
// differential tests in tests/vulkan cover the rest): out-of-range indices
// into descriptor arrays (zero reads, dropped stores, with and without
// robust buffer access), length() and loads of uniform blocks through
// per-lane indices, the dispatch-time checks of arrayed bindings, and
// explicit-layout workgroup blocks aliasing one another (lavapipe lacks
// VK_KHR_workgroup_memory_explicit_layout).
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

std::unique_ptr<ComputeShader> compile(const std::string &Source, unsigned W,
                                       bool Robust = false,
                                       const char *Env = nullptr) {
  TranslateOptions Opts;
  // W = 1: the one-invocation back end (one call per invocation).
  if (W == 1)
    Opts.Backend = Backend::Invocation;
  else
    Opts.Width = W;
  Opts.RobustBufferAccess = Robust;
  if (Env)
    Opts.TargetEnv = Env;
  std::string Error;
  auto S = spirv2llvm::exectest::compileCompute(Source, Opts, Error);
  if (!S)
    ADD_FAILURE() << Error;
  return S;
}

struct BufferExec : testing::TestWithParam<std::tuple<unsigned, bool>> {
  unsigned W() const { return std::get<0>(GetParam()); }
  bool Robust() const { return std::get<1>(GetParam()); }
};

const char *DescriptorArraySource = R"(#version 450
  #extension GL_EXT_nonuniform_qualifier : require
  layout(local_size_x = 16) in;
  layout(set = 0, binding = 0) buffer Data { uint n; uint vals[]; } data[3];
  layout(set = 0, binding = 1) uniform Params { uvec4 k[2]; } params[2];
  layout(set = 1, binding = 0) buffer Out {
    uint uni_oob;   // uniform index past the array
    uint neg_oob;   // negative uniform index
    uint lens[16];  // length() of element i % 4 (3 is out of range)
    uint vals[16];  // element (i % 5) - 1 (-1 and 3 out of range)
    uint ubo[16];   // uniform block picked per lane
  } outb;
  layout(push_constant) uniform P { uint past; int neg; } pc;
  void main() {
    uint i = gl_LocalInvocationIndex;
    if (i == 0u) {
      outb.uni_oob = data[pc.past].vals[0] + 1u;
      outb.neg_oob = data[pc.neg].n + 2u;
      data[pc.past].vals[0] = 77u;   // dropped
    }
    outb.lens[i] = uint(data[nonuniformEXT(i % 4u)].vals.length());
    int e = int(i % 5u) - 1;
    outb.vals[i] = data[nonuniformEXT(e)].vals[i];
    data[nonuniformEXT(e)].vals[16u + i] = 1000u + i;  // dropped when out
    outb.ubo[i] = params[nonuniformEXT(i & 1u)].k[(i >> 1) & 1u].z;
  })";

TEST_P(BufferExec, DescriptorArrayIndicesOutOfRange) {
  auto S = compile(DescriptorArraySource, W(), Robust());
  ASSERT_TRUE(S);
  auto Find = [&](uint32_t Set, uint32_t Binding) {
    for (const ComputeInfo::Binding &Bd : S->info().Bindings)
      if (Bd.Set == Set && Bd.Binding == Binding)
        return Bd;
    ADD_FAILURE() << "no binding " << Set << "." << Binding;
    return ComputeInfo::Binding();
  };
  ASSERT_EQ(S->info().Bindings.size(), 3u);
  ComputeInfo::Binding D = Find(0, 0), U = Find(0, 1), O = Find(1, 0);
  EXPECT_TRUE(D.IsArray);
  EXPECT_EQ(D.ArraySize, 3u);
  EXPECT_EQ(D.MinSize, 4u);
  EXPECT_TRUE(D.HasRuntimeArray);
  EXPECT_TRUE(U.IsArray && U.IsUniform);
  EXPECT_EQ(U.ArraySize, 2u);
  EXPECT_FALSE(O.IsArray);

  // Elements of 1 + 40, 1 + 44, 1 + 48 words.
  std::vector<std::vector<uint32_t>> Data(3);
  for (uint32_t K = 0; K < 3; ++K) {
    Data[K].resize(1 + 40 + 4 * K);
    Data[K][0] = 100 + K;
    for (uint32_t I = 1; I < Data[K].size(); ++I)
      Data[K][I] = 1000 * (K + 1) + I - 1;
  }
  std::vector<std::vector<uint32_t>> Params(2, std::vector<uint32_t>(8));
  for (uint32_t K = 0; K < 2; ++K)
    for (uint32_t I = 0; I < 8; ++I)
      Params[K][I] = 50 * K + I;
  std::vector<uint32_t> Out(2 + 16 * 3, 0xdeadbeef);
  DispatchResources R;
  for (uint32_t K = 0; K < 3; ++K)
    R.bindArrayElement(0, 0, K, Data[K].data(), Data[K].size() * 4);
  for (uint32_t K = 0; K < 2; ++K)
    R.bindArrayElement(0, 1, K, Params[K].data(), 32);
  R.bind(1, 0, Out.data(), Out.size() * 4);
  uint32_t Push[2] = {3, uint32_t(-1)};
  R.PushConstants.resize(8);
  std::memcpy(R.PushConstants.data(), Push, 8);
  std::vector<std::vector<uint32_t>> Before = Data;
  ASSERT_TRUE(S->dispatch({1, 1, 1}, R, 1).ok());

  EXPECT_EQ(Out[0], 1u) << "an index past the array reads zero";
  EXPECT_EQ(Out[1], 2u) << "a negative index reads zero";
  for (uint32_t I = 0; I < 16; ++I) {
    uint32_t K = I % 4;
    EXPECT_EQ(Out[2 + I], K < 3 ? 40 + 4 * K : 0) << "length, lane " << I;
    int E = int(I % 5) - 1;
    EXPECT_EQ(Out[18 + I], E >= 0 && E < 3 ? Before[E][1 + I] : 0)
        << "load, lane " << I;
    EXPECT_EQ(Out[34 + I], Params[I & 1][4 * ((I >> 1) & 1) + 2])
        << "uniform block, lane " << I;
  }
  for (uint32_t K = 0; K < 3; ++K)
    for (uint32_t I = 0; I < Data[K].size(); ++I) {
      uint32_t Want = Before[K][I];
      if (I >= 17 && I < 33 && int((I - 17) % 5) - 1 == int(K))
        Want = 1000 + (I - 17);
      EXPECT_EQ(Data[K][I], Want) << "element " << K << " word " << I;
    }
}

TEST_P(BufferExec, ArraysOfArraysOfBlocksAreFlat) {
  // Vulkan allows one array level of blocks; OpenGL's SPIR-V allows more
  // (glslang's spv.AofA.frag), and they flatten, last dimension fastest.
  auto S = compile(R"(#version 450
    layout(local_size_x = 8) in;
    layout(binding = 0) uniform Data { uvec4 v; } data[2][3];
    layout(binding = 1) buffer Out { uint o[8]; uint u[2]; } outb;
    layout(binding = 2) uniform P { uint three; } pc;
    void main() {
      uint i = gl_LocalInvocationIndex;
      // [i / 3][i % 3]: lanes 6 and 7 are past the outer dimension.
      outb.o[i] = data[i / 3u][i % 3u].v[i % 4u];
      if (i == 0u) {
        outb.u[0] = data[1][2].v[3];
        outb.u[1] = data[0][pc.three].v[0] + 5u;  // inner index out of range
      }
    })",
                   W(), Robust(), "opengl4.5");
  ASSERT_TRUE(S);
  ASSERT_EQ(S->info().Bindings.size(), 3u);
  for (const ComputeInfo::Binding &Bd : S->info().Bindings)
    if (Bd.Binding == 0) {
      EXPECT_TRUE(Bd.IsArray);
      EXPECT_EQ(Bd.ArraySize, 6u);
      EXPECT_EQ(Bd.MinSize, 16u);
    }
  std::vector<std::vector<uint32_t>> Data(6, std::vector<uint32_t>(4));
  for (uint32_t K = 0; K < 6; ++K)
    for (uint32_t I = 0; I < 4; ++I)
      Data[K][I] = 100 * K + I;
  std::vector<uint32_t> Out(10, 0xdeadbeef);
  uint32_t Three[4] = {3, 0, 0, 0};
  DispatchResources R;
  for (uint32_t K = 0; K < 6; ++K)
    R.bindArrayElement(0, 0, K, Data[K].data(), 16);
  R.bind(0, 1, Out.data(), Out.size() * 4);
  R.bind(0, 2, Three, 16);
  ASSERT_TRUE(S->dispatch({1, 1, 1}, R, 1).ok());
  for (uint32_t I = 0; I < 8; ++I)
    EXPECT_EQ(Out[I], I < 6 ? 100 * I + I % 4 : 0) << "lane " << I;
  EXPECT_EQ(Out[8], 503u) << "data[1][2] is element 5";
  EXPECT_EQ(Out[9], 5u) << "data[0][3] is out of range, not data[1][0]";
}

TEST_P(BufferExec, ArrayedBindingsAreChecked) {
  auto S = compile(DescriptorArraySource, W(), Robust());
  ASSERT_TRUE(S);
  std::vector<uint32_t> Small(4), Big(64);
  DispatchResources R;
  R.bind(0, 0, Big.data(), 256); // not as an array
  R.bindArrayElement(0, 1, 0, Big.data(), 32);
  R.bind(1, 0, Big.data(), 256);
  R.PushConstants.resize(8);
  Status E = S->dispatch({1, 1, 1}, R, 1);
  ASSERT_FALSE(E.ok());
  EXPECT_NE(E.message().find("is a descriptor array"),
            std::string::npos);
  DispatchResources R2 = R;
  R2.Sets[0][0] = {nullptr, 0};
  for (uint32_t K = 0; K < 4; ++K)
    R2.bindArrayElement(0, 0, K, Big.data(), 256);
  E = S->dispatch({1, 1, 1}, R2, 1);
  ASSERT_FALSE(E.ok());
  EXPECT_NE(E.message().find("4 elements bound"),
            std::string::npos);
  DispatchResources R3 = R;
  R3.Sets[0][0] = {nullptr, 0};
  R3.bindArrayElement(0, 0, 0, Small.data(), 2);
  E = S->dispatch({1, 1, 1}, R3, 1);
  ASSERT_FALSE(E.ok());
  EXPECT_NE(E.message().find("has 2 bytes"),
            std::string::npos);
}

TEST_P(BufferExec, ExplicitLayoutWorkgroupBlocksAlias) {
  const char *Source = R"(#version 450
    #extension GL_EXT_shared_memory_block : require
    #extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
    layout(local_size_x = 16) in;
    shared A { uint words[16]; } a;
    shared B { uvec2 pairs[8]; } b;
    shared C { uint16_t halves[32]; } c;
    layout(set = 0, binding = 0) buffer Out {
      uvec2 pairs[8];
      uint halves[32];
      uint words[16];
    } outb;
    void main() {
      uint i = gl_LocalInvocationIndex;
      a.words[i] = i * 0x10003u + 1u;
      barrier();
      if (i < 8u)
        outb.pairs[i] = b.pairs[i];
      outb.halves[2u * i] = uint(c.halves[2u * i]);
      outb.halves[2u * i + 1u] = uint(c.halves[2u * i + 1u]);
      barrier();
      c.halves[i] = uint16_t(i + 500u);
      barrier();
      outb.words[i] = a.words[i];
    })";
  if (W() == 1) {
    // One global per Workgroup variable: aliasing blocks are refused.
    TranslateOptions Opts;
    Opts.Backend = Backend::Invocation;
    std::string Error;
    EXPECT_FALSE(exectest::compileCompute(Source, Opts, Error));
    EXPECT_NE(Error.find("unsupported: 3 workgroup blocks"), std::string::npos)
        << Error;
    return;
  }
  auto S = compile(Source, W(), Robust());
  ASSERT_TRUE(S);
  EXPECT_EQ(S->info().WorkgroupMemorySize, 64u) << "one 64-byte region";
  std::vector<uint32_t> Out(16 + 32 + 16, 0xdeadbeef);
  DispatchResources R;
  R.bind(0, 0, Out.data(), Out.size() * 4);
  ASSERT_TRUE(S->dispatch({1, 1, 1}, R, 1).ok());
  uint32_t Words[16];
  for (uint32_t I = 0; I < 16; ++I)
    Words[I] = I * 0x10003u + 1u;
  for (uint32_t I = 0; I < 16; ++I)
    EXPECT_EQ(Out[I], Words[I]) << "pairs alias words, word " << I;
  for (uint32_t K = 0; K < 32; ++K)
    EXPECT_EQ(Out[16 + K], (Words[K / 2] >> (16 * (K % 2))) & 0xffff)
        << "halves alias words, half " << K;
  for (uint32_t I = 0; I < 16; ++I) {
    uint32_t Want = I < 8 ? (2 * I + 500) | ((2 * I + 501) << 16) : Words[I];
    EXPECT_EQ(Out[48 + I], Want) << "16-bit stores land in words, " << I;
  }
}

// W = 1: the one-invocation back end.
INSTANTIATE_TEST_SUITE_P(Widths, BufferExec,
                         testing::Combine(testing::Values(4u, 8u, 1u),
                                          testing::Bool()));

} // namespace
