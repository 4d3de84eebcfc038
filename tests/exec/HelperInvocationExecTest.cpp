//===- HelperInvocationExecTest.cpp - Derivatives and demotion, executed --===//
//
// Fragment groups are 2x2 quads (lane 4q + i is pixel (i & 1, i >> 1) of
// quad q). Derivatives are checked against differences computed here from
// the same inputs; demotion is checked through its three effects: a demoted
// lane keeps computing (its neighbours' derivatives stay right), its stores
// to a storage buffer and its outputs do not happen, and
// helperInvocationEXT() is true in it. Every case runs at W = 4, 8 and 16,
// inlined and with calls kept (--no-inline), with full and partial masks.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

struct Config {
  unsigned Width;
  bool Inline;
};

std::string configName(const testing::TestParamInfo<Config> &I) {
  return "w" + std::to_string(I.param.Width) +
         (I.param.Inline ? "" : "_noinline");
}

std::unique_ptr<JitShader> compile(const std::string &Source,
                                   const Config &C) {
  TranslateOptions Opts;
  Opts.Width = C.Width;
  Opts.Inline = C.Inline;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      "helper.frag", Opts);
  EXPECT_TRUE(!!T) << llvm::toString(T.takeError());
  if (!T)
    return nullptr;
  auto J = JitShader::create(std::move(*T), 2);
  EXPECT_TRUE(!!J) << J.status().message();
  return J ? std::move(*J) : nullptr;
}

/// The value each lane computes: chosen so x and y differences differ.
float inputOf(unsigned Lane) {
  return float(Lane * Lane) * 0.5f + float(Lane % 3);
}

class HelperExec : public testing::TestWithParam<Config> {};

TEST_P(HelperExec, DerivativesWithinQuads) {
  const Config &C = GetParam();
  // f(x) = x * x is evaluated per lane; the derivatives are of f. A call
  // keeps the computation in a function when not inlined.
  auto J = compile(R"(#version 450
    layout(location = 0) in float x;
    layout(location = 0) out vec4 fine;
    layout(location = 1) out vec4 coarse;
    float f(float v) { return v * v; }
    void main() {
      float y = f(x);
      fine = vec4(dFdx(y), dFdy(y), fwidth(y), dFdxFine(y) + dFdyFine(y));
      coarse = vec4(dFdxCoarse(y), dFdyCoarse(y), fwidthCoarse(y), 0.0);
    })",
                   C);
  ASSERT_TRUE(J);
  const InterfaceLayout &L = J->layout();
  const InterfaceVariable *In = L.findInputLocation(0);
  const InterfaceVariable *Fine = L.findOutputLocation(0);
  const InterfaceVariable *Coarse = L.findOutputLocation(1);
  ASSERT_TRUE(In && Fine && Coarse);
  const unsigned W = C.Width;
  std::vector<uint8_t> InBuf(L.InputSize), OutBuf(L.OutputSize);
  std::vector<float> Y(W);
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    float X = inputOf(Lane);
    std::memcpy(&InBuf[In->ComponentOffsets[0] + 4 * Lane], &X, 4);
    Y[Lane] = X * X;
  }
  s2l_group_args Args = {};
  Args.active_mask = (1u << W) - 1;
  Args.inputs = InBuf.data();
  Args.outputs = OutBuf.data();
  J->run(Args);
  auto Out = [&](const InterfaceVariable *V, unsigned Comp, unsigned Lane) {
    float F;
    std::memcpy(&F, &OutBuf[V->ComponentOffsets[Comp] + 4 * Lane], 4);
    return F;
  };
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    unsigned Q = Lane & ~3u;
    float Dx = Y[Lane | 1] - Y[Lane & ~1u];
    float Dy = Y[Lane | 2] - Y[Lane & ~2u];
    float CDx = Y[Q + 1] - Y[Q];
    float CDy = Y[Q + 2] - Y[Q];
    EXPECT_FLOAT_EQ(Out(Fine, 0, Lane), Dx) << "dFdx, lane " << Lane;
    EXPECT_FLOAT_EQ(Out(Fine, 1, Lane), Dy) << "dFdy, lane " << Lane;
    EXPECT_FLOAT_EQ(Out(Fine, 2, Lane), std::fabs(Dx) + std::fabs(Dy))
        << "fwidth, lane " << Lane;
    EXPECT_FLOAT_EQ(Out(Fine, 3, Lane), Dx + Dy) << "fine, lane " << Lane;
    EXPECT_FLOAT_EQ(Out(Coarse, 0, Lane), CDx) << "coarse x, lane " << Lane;
    EXPECT_FLOAT_EQ(Out(Coarse, 1, Lane), CDy) << "coarse y, lane " << Lane;
    EXPECT_FLOAT_EQ(Out(Coarse, 2, Lane), std::fabs(CDx) + std::fabs(CDy))
        << "coarse fwidth, lane " << Lane;
  }
}

TEST_P(HelperExec, DemotedLanesRunButStoreNothing) {
  const Config &C = GetParam();
  // Lanes whose input is odd demote, in a function when calls are kept.
  // Every lane then takes a derivative (right only if the demoted
  // neighbours still computed y), counts itself in the buffer unless it is
  // a helper, and writes its output.
  auto J = compile(R"(#version 450
    #extension GL_EXT_demote_to_helper_invocation : require
    layout(location = 0) in float x;
    layout(location = 0) out vec4 r;
    layout(std430, set = 0, binding = 0) buffer Counts { uint n; uint lanes[]; };
    void maybeDemote(int v) { if ((v & 1) == 1) demote; }
    void main() {
      int v = int(x);
      maybeDemote(v);
      float y = x * 3.0;
      float d = dFdx(y) + dFdy(y);
      bool helper = helperInvocationEXT();
      if (!helper) atomicAdd(n, 1u);
      lanes[v] = 7u;
      r = vec4(float(v), d, helper ? 1.0 : 0.0, 1.0);
    })",
                   C);
  ASSERT_TRUE(J);
  const InterfaceLayout &L = J->layout();
  const InterfaceVariable *In = L.findInputLocation(0);
  const InterfaceVariable *Out = L.findOutputLocation(0);
  ASSERT_TRUE(In && Out);
  const unsigned W = C.Width;
  const uint32_t Full = (1u << W) - 1;
  for (uint32_t Mask : {Full, Full & 0xB6DBu}) {
    std::vector<uint8_t> InBuf(L.InputSize), OutBuf(L.OutputSize, 0xAB);
    // Lane i gets input 2 * i + (i % 3 == 1): every third lane is odd.
    std::vector<float> X(W);
    for (unsigned Lane = 0; Lane < W; ++Lane) {
      X[Lane] = float(2 * Lane + (Lane % 3 == 1));
      std::memcpy(&InBuf[In->ComponentOffsets[0] + 4 * Lane], &X[Lane], 4);
    }
    std::vector<uint32_t> Buffer(1 + 2 * W + 2, 0);
    s2l_descriptor Desc = {Buffer.data(), Buffer.size() * 4};
    const s2l_descriptor *Set0 = &Desc;
    s2l_group_args Args = {};
    Args.active_mask = Mask;
    Args.inputs = InBuf.data();
    Args.outputs = OutBuf.data();
    Args.descriptor_sets = &Set0;
    uint32_t Alive = J->run(Args);

    uint32_t Counted = 0;
    for (unsigned Lane = 0; Lane < W; ++Lane) {
      bool Active = Mask & (1u << Lane);
      bool Demoted = int(X[Lane]) & 1;
      unsigned V = unsigned(X[Lane]);
      EXPECT_EQ(bool(Alive & (1u << Lane)), Active && !Demoted)
          << "lane " << Lane;
      EXPECT_EQ(Buffer[1 + V], Active && !Demoted ? 7u : 0u)
          << "store of lane " << Lane;
      Counted += Active && !Demoted;
      float Got[4];
      for (unsigned K = 0; K < 4; ++K)
        std::memcpy(&Got[K], &OutBuf[Out->ComponentOffsets[K] + 4 * Lane], 4);
      if (!Active || Demoted) {
        // Outputs of lanes that are off or demoted are not written.
        uint32_t Bits;
        std::memcpy(&Bits, &Got[0], 4);
        EXPECT_EQ(Bits, 0xABABABABu) << "output of lane " << Lane;
        continue;
      }
      float Dx = 3.0f * (X[Lane | 1] - X[Lane & ~1u]);
      float Dy = 3.0f * (X[Lane | 2] - X[Lane & ~2u]);
      EXPECT_FLOAT_EQ(Got[0], float(V));
      EXPECT_FLOAT_EQ(Got[1], Dx + Dy) << "derivative, lane " << Lane;
      EXPECT_FLOAT_EQ(Got[2], 0.0f) << "helper flag, lane " << Lane;
    }
    EXPECT_EQ(Buffer[0], Counted);
  }
}

TEST_P(HelperExec, HelperFlagInDemotedLanes) {
  const Config &C = GetParam();
  // A live neighbour reads a demoted lane's flag through a quad swap (the
  // demoted lane's own output is discarded).
  auto J = compile(R"(#version 450
    #extension GL_EXT_demote_to_helper_invocation : require
    #extension GL_KHR_shader_subgroup_quad : require
    layout(location = 0) in float x;
    layout(location = 0) out float r;
    void main() {
      if ((int(x) & 1) == 1) demote;
      float h = helperInvocationEXT() ? 1.0 : 0.0;
      r = subgroupQuadSwapHorizontal(h);
    })",
                   C);
  ASSERT_TRUE(J);
  const InterfaceLayout &L = J->layout();
  const InterfaceVariable *In = L.findInputLocation(0);
  const InterfaceVariable *Out = L.findOutputLocation(0);
  const unsigned W = C.Width;
  std::vector<uint8_t> InBuf(L.InputSize), OutBuf(L.OutputSize);
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    float X = float(Lane % 4 == 1 || Lane % 4 == 2); // lanes 1 and 2 demote
    std::memcpy(&InBuf[In->ComponentOffsets[0] + 4 * Lane], &X, 4);
  }
  s2l_group_args Args = {};
  Args.active_mask = (1u << W) - 1;
  Args.inputs = InBuf.data();
  Args.outputs = OutBuf.data();
  J->run(Args);
  for (unsigned Lane = 0; Lane < W; Lane += 4) {
    float Got0, Got3;
    std::memcpy(&Got0, &OutBuf[Out->ComponentOffsets[0] + 4 * Lane], 4);
    std::memcpy(&Got3, &OutBuf[Out->ComponentOffsets[0] + 4 * (Lane + 3)], 4);
    EXPECT_EQ(Got0, 1.0f) << "lane " << Lane << " sees lane 1 as a helper";
    EXPECT_EQ(Got3, 1.0f) << "lane " << Lane + 3 << " sees lane 2";
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, HelperExec,
                         testing::Values(Config{4, true}, Config{8, true},
                                         Config{16, true}, Config{4, false},
                                         Config{8, false}, Config{16, false}),
                         configName);

} // namespace
