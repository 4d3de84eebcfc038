//===- FragmentSuite.cpp - Control-flow fragment shaders, C++ references --===//
//
// Every fragment shader of shaders/controlflow (.frag, .frag.spvasm) runs
// through the JIT in every configuration of Suite.h and is compared lane by
// lane with a scalar C++ reference of the same code (FragmentReferences.cpp,
// keyed by shader name; shaders with derivatives have a reference per 2x2
// quad, lanes 4q..4q+3). All shaders share one interface:
//
//   location 0 in   float x: invocation i of 64 gets ((i * 37) % 64) + 0.25,
//                   which mixes small and large values in every group
//   location 0 out  int r or ivec4 r
//
// Mask "full" runs every group with all W lanes on; "partial" gives group g
// the entry mask {0x6996, 0x8421, 1 << (W - 1), ~1}[g % 4] (cut to W
// lanes), then runs one more group with no lane on. Inactive lanes must
// keep their outputs (a sentinel) and come back dead. An active lane comes
// back alive unless the reference says it was killed, terminated or
// demoted; such a lane's outputs must be untouched too (the shaders write
// their outputs after the last point where a lane can die, so a lane that
// dies never stored them).
//
//===----------------------------------------------------------------------===//
#include "FragmentReferences.h"
#include "Suite.h"

#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <sstream>

using namespace spirv2llvm;
using namespace spirv2llvm::cftest;

namespace {

constexpr unsigned Invocations = 64;
constexpr int32_t Sentinel = 0x5A5A5A5A;

float inputOf(unsigned Invocation) {
  return float((Invocation * 37) % Invocations) + 0.25f;
}

uint32_t entryMask(Mask M, unsigned Group, unsigned W) {
  const uint32_t Full = (1u << W) - 1;
  if (M == Mask::Full)
    return Full;
  const uint32_t Patterns[] = {0x6996u, 0x8421u, 1u << (W - 1), ~1u};
  return Patterns[Group % 4] & Full;
}

class ControlFlowFragment : public testing::TestWithParam<Config> {};

TEST_P(ControlFlowFragment, MatchesReference) {
  const Config &C = GetParam();
  const FragmentShaderCase &S = fragmentShaders()[C.Shader];
  auto Words = spirvFor(S.File);
  ASSERT_TRUE(static_cast<bool>(Words)) << llvm::toString(Words.takeError());
  auto T = translateFor(*Words, S.File, C);
  ASSERT_TRUE(static_cast<bool>(T)) << S.File << " ("
                                    << modeName(C.Translation)
                                    << "): " << llvm::toString(T.takeError());
  auto J = JitShader::create(std::move(*T), jitOptLevel(C));
  ASSERT_TRUE(static_cast<bool>(J)) << J.status().message();
  const InterfaceLayout &L = (*J)->layout();
  const InterfaceVariable *In = L.findInputLocation(0);
  const InterfaceVariable *Out = L.findOutputLocation(0);
  ASSERT_TRUE(In && Out) << "the shader needs in float x and out int/ivec4 r "
                            "at location 0";
  const size_t NumOut = std::min<size_t>(Out->ComponentOffsets.size(), 4);

  const unsigned W = C.Width;
  std::vector<uint8_t> InBuf(L.InputSize), OutBuf(L.OutputSize);
  auto outAt = [&](size_t K, unsigned Lane) {
    int32_t V;
    std::memcpy(&V, &OutBuf[Out->ComponentOffsets[K] + 4 * Lane], 4);
    return V;
  };
  unsigned Bad = 0;
  std::ostringstream Report;
  auto fail = [&](unsigned Group, uint32_t Mask, unsigned Lane, float X,
                  const std::string &What) {
    if (++Bad <= 6)
      Report << "\n  group " << Group << " (entry mask 0x" << std::hex << Mask
             << std::dec << ") lane " << Lane << " x = " << X << ": " << What;
  };

  const unsigned NumGroups =
      Invocations / W + (C.LaneMask == Mask::Partial ? 1 : 0);
  for (unsigned G = 0; G < NumGroups; ++G) {
    // The extra last group of the partial mode runs with no lane on.
    const bool Empty = G == Invocations / W;
    const uint32_t Mask = Empty ? 0 : entryMask(C.LaneMask, G, W);
    std::vector<float> Xs(W);
    for (unsigned Lane = 0; Lane < W; ++Lane)
      Xs[Lane] = inputOf((Empty ? 0 : G * W) + Lane);
    std::memcpy(&InBuf[In->ComponentOffsets[0]], Xs.data(), 4 * W);
    for (size_t K = 0; K < NumOut; ++K)
      for (unsigned Lane = 0; Lane < W; ++Lane)
        std::memcpy(&OutBuf[Out->ComponentOffsets[K] + 4 * Lane], &Sentinel,
                    4);
    s2l_group_args Args = {};
    Args.active_mask = Mask;
    Args.inputs = InBuf.data();
    Args.outputs = OutBuf.data();
    const uint32_t Alive = (*J)->run(Args);
    std::vector<FragResult> Wants(W);
    for (unsigned Q = 0; Q < W; Q += 4) {
      bool Active[4];
      for (unsigned I = 0; I < 4; ++I)
        Active[I] = Mask & (1u << (Q + I));
      if (S.QuadReference)
        S.QuadReference(&Xs[Q], Active, &Wants[Q]);
      else
        for (unsigned I = 0; I < 4; ++I)
          Wants[Q + I] = S.Reference(Xs[Q + I]);
      for (unsigned I = 0; I < 4; ++I)
        if (!Active[I])
          Wants[Q + I] = std::nullopt;
    }
    for (unsigned Lane = 0; Lane < W; ++Lane) {
      const bool Active = Mask & (1u << Lane);
      const bool GotAlive = Alive & (1u << Lane);
      const FragResult &Want = Wants[Lane];
      if (Active && GotAlive != Want.has_value())
        fail(G, Mask, Lane, Xs[Lane],
             Want ? "came back dead, the reference lives"
                  : "came back alive, the reference was killed/demoted");
      else if (!Active && GotAlive)
        fail(G, Mask, Lane, Xs[Lane], "inactive lane came back alive");
      for (size_t K = 0; K < NumOut; ++K) {
        int32_t Expected = Want ? (*Want)[K] : Sentinel;
        int32_t Got = outAt(K, Lane);
        if (Got != Expected) {
          std::ostringstream M;
          M << "r[" << K << "] = " << Got << ", want " << Expected;
          if (!Want)
            M << (Active ? " (untouched: the lane died)"
                         : " (untouched: inactive lane)");
          fail(G, Mask, Lane, Xs[Lane], M.str());
          break;
        }
      }
    }
  }
  EXPECT_EQ(Bad, 0u) << S.File << " at W = " << W << ", "
                     << maskName(C.LaneMask) << " mask, "
                     << modeName(C.Translation) << ", JIT -O"
                     << jitOptLevel(C) << ": " << Bad
                     << " mismatches; the first:" << Report.str();
}

INSTANTIATE_TEST_SUITE_P(
    CF, ControlFlowFragment,
    testing::ValuesIn(allConfigs(fragmentShaders().size())),
    [](const testing::TestParamInfo<Config> &I) {
      return configName(fragmentShaders()[I.param.Shader].Name, I.param);
    });

// Every file in shaders/controlflow belongs to one of the two tables (a
// shader added without a row would silently not run).
TEST(ControlFlowSuite, EveryShaderIsInATable) {
  std::vector<std::string> Listed = computeShaderFiles();
  for (const std::string &F : fragmentShaderFiles())
    Listed.push_back(F);
  const std::vector<std::string> Files = shaderFiles();
  for (const std::string &F : Files)
    EXPECT_NE(std::find(Listed.begin(), Listed.end(), F), Listed.end())
        << "shaders/controlflow/" << F << " is in neither table";
  for (const std::string &F : Listed)
    EXPECT_NE(std::find(Files.begin(), Files.end(), F), Files.end())
        << F << " is in a table but not in shaders/controlflow";
}

} // namespace

namespace spirv2llvm::cftest {

std::vector<std::string> fragmentShaderFiles() {
  std::vector<std::string> Files;
  for (const FragmentShaderCase &S : fragmentShaders())
    Files.push_back(S.File);
  return Files;
}

} // namespace spirv2llvm::cftest
