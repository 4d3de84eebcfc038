//===- SpeculationExecTest.cpp - Unguarded small divergent blocks ---------===//
//
// TranslateOptions::SpeculateSmallBlocks runs short arithmetic blocks
// without their any-lane branch. Lanes that are not in such a block must
// still keep their values: a branchy shader (switch in a loop, nested ifs)
// with partial groups and lanes that leave early is compared with a C++
// reference at every width, with the option on and off, and the option is
// checked to actually remove guards.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

using namespace spirv2llvm;

namespace {

const char *BranchyShader = R"(#version 450
  layout(local_size_x = 24) in;
  layout(set = 0, binding = 0) buffer In { uint src[]; };
  layout(set = 0, binding = 1) buffer Out { uint dst[]; };
  layout(push_constant) uniform P { uint n; };
  void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    uint v = src[i], acc = i;
    for (uint r = 0u; r < 6u; ++r) {
      switch ((v >> r) & 3u) {
      case 0u: acc += v * 3u; break;
      case 1u: acc ^= v >> 3; break;
      case 2u:
        if ((acc & 1u) != 0u) acc = (acc >> 1) ^ 0xedb88320u; else acc >>= 1;
        break;
      default: acc = ~acc; break;
      }
      if ((acc & 8u) != 0u) acc += 5u;
      v = v * 1664525u + 1013904223u;
    }
    dst[i] = acc;
  })";

uint32_t reference(uint32_t I, uint32_t V) {
  uint32_t Acc = I;
  for (uint32_t R = 0; R < 6; ++R) {
    switch ((V >> R) & 3u) {
    case 0: Acc += V * 3u; break;
    case 1: Acc ^= V >> 3; break;
    case 2: Acc = (Acc & 1u) ? (Acc >> 1) ^ 0xedb88320u : Acc >> 1; break;
    default: Acc = ~Acc; break;
    }
    if (Acc & 8u)
      Acc += 5u;
    V = V * 1664525u + 1013904223u;
  }
  return Acc;
}

class Speculation
    : public testing::TestWithParam<std::tuple<unsigned, bool>> {};

TEST_P(Speculation, BranchyShaderMatchesReference) {
  auto [W, Speculate] = GetParam();
  TranslateOptions Opts;
  Opts.Width = W;
  Opts.SpeculateSmallBlocks = Speculate;
  std::string Error;
  auto S = exectest::compileCompute(BranchyShader, Opts, Error);
  ASSERT_TRUE(S) << Error;
  const uint32_t Groups = 7, Size = Groups * 24, N = Size - 5;
  std::vector<uint32_t> Src(Size), Dst(Size, 0xdeadbeef);
  uint32_t X = 12345;
  for (uint32_t &V : Src)
    V = X = X * 747796405u + 2891336453u;
  DispatchResources R;
  R.bind(0, 0, Src.data(), Size * 4);
  R.bind(0, 1, Dst.data(), Size * 4);
  R.PushConstants.resize(4);
  std::memcpy(R.PushConstants.data(), &N, 4);
  ASSERT_TRUE(S->dispatch({Groups, 1, 1}, R).ok());
  for (uint32_t I = 0; I < Size; ++I)
    ASSERT_EQ(Dst[I], I < N ? reference(I, Src[I]) : 0xdeadbeef)
        << "invocation " << I;
}

INSTANTIATE_TEST_SUITE_P(Widths, Speculation,
                         testing::Combine(testing::Values(4u, 8u, 16u),
                                          testing::Bool()));

// With the option, the switch's short cases lose their any-lane tests.
TEST(SpeculationIr, RemovesGuardsOfShortBlocks) {
  auto Guards = [](bool Speculate) {
    TranslateOptions Opts;
    Opts.Width = 8;
    Opts.SpeculateSmallBlocks = Speculate;
    auto T = translateBytes(
        llvm::ArrayRef<uint8_t>(
            reinterpret_cast<const uint8_t *>(BranchyShader),
            std::strlen(BranchyShader)),
        "branchy.comp", Opts);
    EXPECT_TRUE(bool(T));
    if (!T) {
      llvm::consumeError(T.takeError());
      return size_t(0);
    }
    std::string Ir;
    llvm::raw_string_ostream OS(Ir);
    T->IR->print(OS, nullptr);
    size_t Count = 0;
    for (size_t P = Ir.find("call i1 @llvm.vector.reduce.or");
         P != std::string::npos;
         P = Ir.find("call i1 @llvm.vector.reduce.or", P + 1))
      ++Count;
    return Count;
  };
  size_t Off = Guards(false), On = Guards(true);
  EXPECT_GT(Off, 0u);
  EXPECT_LT(On + 4, Off) << "guards without: " << Off << ", with: " << On;
}

} // namespace
