//===- BitReverseExecTest.cpp - The design document's shader, executed ----===//
//
// Runs the bit-reverse fragment shader of the design document through the
// whole pipeline and the JIT, at every width, from SPIR-V assembly (with
// and without validation) and from GLSL (with and without
// canonicalization), and compares every lane with a C++ reference of the
// GLSL. Inputs make the branch diverge inside each group, and partial masks
// check that inactive lanes write nothing.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>

using namespace spirv2llvm;

namespace {

/// The GLSL of shaders/examples/bitreverse.frag, in C++. int(float)
/// truncates toward zero (out-of-range inputs saturate in spirv2llvm).
int32_t bitReverseReference(float In) {
  int32_t Result = 0;
  int32_t I = static_cast<int32_t>(In);
  for (int N = 0; N < 8; N++) {
    if ((I & (1 << N)) != 0)
      Result |= 1;
    Result = int32_t(uint32_t(Result) << 1);
  }
  return Result;
}

struct Case {
  const char *File;
  bool Validate;
  bool Canonicalize;
  unsigned Width;
  unsigned OptLevel;
};

std::string caseName(const testing::TestParamInfo<Case> &I) {
  std::string F = I.param.File;
  for (char &C : F)
    if (!isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return F + (I.param.Validate ? "" : "_novalidate") +
         (I.param.Canonicalize ? "" : "_nocanon") + "_w" +
         std::to_string(I.param.Width) + "_O" +
         std::to_string(I.param.OptLevel);
}

/// Inputs that make lanes of one group disagree: the whole 0..255 range,
/// negatives, fractions and large values, shuffled so each group mixes them.
std::vector<float> makeInputs() {
  std::vector<float> In;
  for (int I = 0; I < 256; ++I)
    In.push_back(float(I));
  for (float F : {-1.0f, -2.5f, -128.0f, -255.9f, 0.5f, 1.99f, 254.7f, 3.25f,
                  1024.0f, 65535.0f, -0.75f, 7.999f})
    In.push_back(F);
  std::mt19937 Rng(1234);
  std::shuffle(In.begin(), In.end(), Rng);
  while (In.size() % 16)
    In.push_back(float(In.size() % 256));
  return In;
}

class BitReverseExec : public testing::TestWithParam<Case> {};

TEST_P(BitReverseExec, MatchesReferenceLaneByLane) {
  const Case &C = GetParam();
  TranslateOptions Opts;
  Opts.Width = C.Width;
  Opts.Validate = C.Validate;
  Opts.Canonicalize = C.Canonicalize;
  std::string Path = std::string(S2L_SOURCE_DIR) + "/shaders/examples/" + C.File;
  auto T = translateFile(Path, Opts);
  ASSERT_TRUE(!!T) << toString(T.takeError());
  auto J = JitShader::create(std::move(*T), C.OptLevel);
  ASSERT_TRUE(!!J) << J.status().message();
  const InterfaceLayout &L = (*J)->layout();
  const InterfaceVariable *In = L.findInputLocation(0);
  const InterfaceVariable *Out = L.findOutputLocation(0);
  ASSERT_NE(In, nullptr);
  ASSERT_NE(Out, nullptr);
  ASSERT_EQ(In->Components.size(), 1u);
  ASSERT_EQ(Out->Components.size(), 1u);

  const unsigned W = C.Width;
  std::vector<float> Inputs = makeInputs();
  std::vector<uint8_t> InBuf(L.InputSize), OutBuf(L.OutputSize);
  const int32_t Sentinel = 0x5A5A5A5A;
  // Full groups, then the same inputs with every other lane, a single lane,
  // and no lane active.
  const uint32_t Full = W == 32 ? ~0u : (1u << W) - 1;
  for (uint32_t Mask : {Full, Full & 0x5555u, Full & 0x0002u, 0u}) {
    for (size_t Base = 0; Base < Inputs.size(); Base += W) {
      for (unsigned Lane = 0; Lane < W; ++Lane)
        std::memcpy(&InBuf[In->ComponentOffsets[0] + 4 * Lane],
                    &Inputs[Base + Lane], 4);
      for (unsigned Lane = 0; Lane < W; ++Lane)
        std::memcpy(&OutBuf[Out->ComponentOffsets[0] + 4 * Lane], &Sentinel, 4);
      s2l_group_args Args = {};
      Args.active_mask = Mask;
      Args.inputs = InBuf.data();
      Args.outputs = OutBuf.data();
      uint32_t Alive = (*J)->run(Args);
      EXPECT_EQ(Alive, Mask);
      for (unsigned Lane = 0; Lane < W; ++Lane) {
        int32_t Got;
        std::memcpy(&Got, &OutBuf[Out->ComponentOffsets[0] + 4 * Lane], 4);
        if (Mask & (1u << Lane))
          EXPECT_EQ(Got, bitReverseReference(Inputs[Base + Lane]))
              << "input " << Inputs[Base + Lane] << " lane " << Lane
              << " mask 0x" << std::hex << Mask;
        else
          EXPECT_EQ(Got, Sentinel) << "inactive lane " << Lane << " was written";
      }
    }
  }
}

std::vector<Case> allCases() {
  std::vector<Case> Cases;
  for (unsigned W : {4u, 8u, 16u})
    for (unsigned O : {0u, 2u}) {
      Cases.push_back({"kazan-example-valid.spvasm", true, true, W, O});
      Cases.push_back({"kazan-example.spvasm", false, false, W, O});
      Cases.push_back({"bitreverse.frag", true, true, W, O});
      Cases.push_back({"bitreverse.frag", true, false, W, O});
    }
  return Cases;
}

INSTANTIATE_TEST_SUITE_P(AllWidths, BitReverseExec,
                         testing::ValuesIn(allCases()), caseName);

} // namespace
