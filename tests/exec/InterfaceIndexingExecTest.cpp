//===- InterfaceIndexingExecTest.cpp - Dynamic indexing of Input/Output ---===//
//
// Arrays of inputs and outputs indexed with uniform (flat) and per-lane
// (computed) indices: gathers, scatters and vector accesses into the
// structure-of-arrays interface blocks. Compared lane by lane with the same
// code in C++ at W = 4, 8 and 16, with full and partial masks.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

class InterfaceIndexing : public testing::TestWithParam<unsigned> {};

TEST_P(InterfaceIndexing, MatchesReference) {
  const unsigned W = GetParam();
  std::string Source = R"(#version 450
    layout(location = 0) in vec2 vals[3];
    layout(location = 3) flat in int k;
    layout(location = 4) in float sel;
    layout(location = 0) out float outs[4];
    void main() {
      int i = int(sel) % 3;           // per lane
      float a = vals[i].y;            // varying index: a gather
      float b = vals[k].x;            // uniform index: one vector load
      for (int j = 0; j < 4; j++)
        outs[j] = -1.0;
      outs[(i + k) & 3] = a * 10.0 + b;  // varying store: a scatter
      outs[3 - (k & 3)] += 0.5;          // uniform store
    })";
  TranslateOptions Opts;
  Opts.Width = W;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      "indexing.frag", Opts);
  ASSERT_TRUE(!!T) << llvm::toString(T.takeError());
  auto J = JitShader::create(std::move(*T), 2);
  ASSERT_TRUE(!!J) << J.status().message();
  const InterfaceLayout &L = (*J)->layout();
  const InterfaceVariable *Vals = L.findInputLocation(0);
  const InterfaceVariable *K = L.findInputLocation(3);
  const InterfaceVariable *Sel = L.findInputLocation(4);
  const InterfaceVariable *Outs = L.findOutputLocation(0);
  ASSERT_TRUE(Vals && K && Sel && Outs);

  for (int Kv : {0, 1, 2}) {
    for (uint32_t Mask : {(1u << W) - 1, 0x5A5Au & ((1u << W) - 1)}) {
      std::vector<uint8_t> In(L.InputSize), Out(L.OutputSize, 0);
      auto PutF = [&](const InterfaceVariable *V, unsigned C, unsigned Lane,
                      float X) {
        std::memcpy(&In[V->ComponentOffsets[C] + 4 * Lane], &X, 4);
      };
      float V[16][6], S[16];
      for (unsigned Lane = 0; Lane < W; ++Lane) {
        for (unsigned C = 0; C < 6; ++C) {
          V[Lane][C] = float(Lane * 7 + C * 3 % 5) + 0.25f;
          PutF(Vals, C, Lane, V[Lane][C]);
        }
        S[Lane] = float((Lane * 5 + 1) % 7);
        PutF(Sel, 0, Lane, S[Lane]);
        std::memcpy(&In[K->ComponentOffsets[0] + 4 * Lane], &Kv, 4);
      }
      s2l_group_args Args = {};
      Args.active_mask = Mask;
      Args.inputs = In.data();
      Args.outputs = Out.data();
      (*J)->run(Args);
      for (unsigned Lane = 0; Lane < W; ++Lane) {
        float Want[4] = {-1, -1, -1, -1};
        int I = int(S[Lane]) % 3;
        Want[(I + Kv) & 3] = V[Lane][2 * I + 1] * 10.0f + V[Lane][2 * Kv];
        Want[3 - (Kv & 3)] += 0.5f;
        for (unsigned J = 0; J < 4; ++J) {
          float Got;
          std::memcpy(&Got, &Out[Outs->ComponentOffsets[J] + 4 * Lane], 4);
          if (Mask & (1u << Lane))
            EXPECT_EQ(Got, Want[J]) << "lane " << Lane << " outs[" << J
                                    << "] k=" << Kv;
          else
            EXPECT_EQ(Got, 0.0f) << "inactive lane " << Lane << " written";
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, InterfaceIndexing, testing::Values(4, 8, 16),
                         [](const auto &I) {
                           return "w" + std::to_string(I.param);
                         });

} // namespace
