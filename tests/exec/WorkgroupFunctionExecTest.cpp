//===- WorkgroupFunctionExecTest.cpp - One function per workgroup ---------===//
//
// The runtime's work-group functions (runtime/WorkgroupFunction.h) against
// C++ references, at every width and in the one-invocation back end:
// values and private arrays live across barriers, barriers in nested
// loops and in both arms of a uniform branch, workgroups whose size is not
// a multiple of W (the masked last group), and the cases that fall back to
// fibers (a barrier in a function that is not inlined, per-group state
// over the budget), which must still compute the same.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "runtime/WorkgroupFunction.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace spirv2llvm;

namespace {

TranslateOptions optionsFor(unsigned W) {
  TranslateOptions Opts;
  if (W == 1)
    Opts.Backend = Backend::Invocation;
  else
    Opts.Width = W;
  return Opts;
}

std::unique_ptr<ComputeShader> compile(const std::string &Source, unsigned W,
                                       TranslateOptions Opts) {
  std::string Error;
  auto S = spirv2llvm::exectest::compileCompute(Source, Opts, Error);
  if (!S)
    ADD_FAILURE() << Error;
  return S;
}

/// Whether the runtime gives \p Source a work-group function at \p W, and
/// why not (buildWorkgroupFunction on a fresh translation).
bool hasWorkgroupFunction(const std::string &Source, TranslateOptions Opts,
                          std::string &WhyNot) {
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      "test.comp", Opts);
  if (!T) {
    WhyNot = llvm::toString(T.takeError());
    return false;
  }
  const auto &Size = T->Compute.WorkgroupSize;
  bool Built = buildWorkgroupFunction(*T->IR, T->EntrySymbol, T->Layout.Width,
                                      Size[0] * Size[1] * Size[2], &WhyNot);
  if (Built) {
    llvm::Function *WG =
        T->IR->getFunction(workgroupFunctionName(T->EntrySymbol));
    llvm::Function *Entry = T->IR->getFunction(T->EntrySymbol);
    EXPECT_TRUE(WG && !WG->isDeclaration());
    EXPECT_TRUE(!Entry || Entry->hasInternalLinkage())
        << "the per-group entry should only live on inlined";
  }
  return Built;
}

/// How \p Source's work-group function runs its groups (Kind Loop and no
/// resume point when it could not be built).
WorkgroupFunctionShape shapeOf(const std::string &Source,
                               TranslateOptions Opts) {
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      "test.comp", Opts);
  WorkgroupFunctionShape Shape;
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return Shape;
  }
  const auto &Size = T->Compute.WorkgroupSize;
  std::string Why;
  if (!buildWorkgroupFunction(*T->IR, T->EntrySymbol, T->Layout.Width,
                              Size[0] * Size[1] * Size[2], &Why, &Shape))
    ADD_FAILURE() << "no work-group function: " << Why;
  return Shape;
}

class WorkgroupFunctionExec : public testing::TestWithParam<unsigned> {};

/// Each invocation keeps a private array and running values across the
/// barriers of two nested loops and of both arms of a branch on a
/// workgroup-uniform value; neighbours exchange through shared memory.
/// 100 invocations: the last SIMD group is partial at W = 8 and 16.
const char *NestedShader = R"(#version 450
  layout(local_size_x = 100) in;
  layout(std430, binding = 0) buffer In { uint data[]; };
  layout(std430, binding = 1) buffer Out { uint result[]; };
  shared uint ring[100];
  void main() {
    uint l = gl_LocalInvocationID.x;
    uint g = gl_WorkGroupID.x;
    uint hist[8];
    for (int k = 0; k < 8; ++k) hist[k] = 0u;
    uint acc = data[g * 100u + l];
    for (uint round = 0u; round < 3u; ++round) {
      for (uint step = 1u; step < 5u; ++step) {
        ring[l] = acc;
        barrier();
        uint left = ring[(l + 100u - step) % 100u];
        barrier();
        acc = acc * 3u + left + round;
        hist[(acc >> 3) & 7u] += 1u;
      }
      if ((g + round) % 2u == 0u) {
        ring[l] = acc ^ 0x55u;
        barrier();
        acc += ring[99u - l];
      } else {
        ring[l] = acc + 7u;
        barrier();
        acc ^= ring[(l * 7u) % 100u];
      }
      barrier();
    }
    uint h = 0u;
    for (int k = 0; k < 8; ++k) h = h * 31u + hist[k];
    result[g * 100u + l] = acc + h;
  })";

/// The same computation in C++, one workgroup at a time.
std::vector<uint32_t> nestedReference(const std::vector<uint32_t> &Data,
                                      uint32_t Groups) {
  const uint32_t N = 100;
  std::vector<uint32_t> Out(Data.size());
  for (uint32_t G = 0; G < Groups; ++G) {
    std::vector<uint32_t> Acc(N), Ring(N), Hist(N * 8, 0), Next(N);
    for (uint32_t L = 0; L < N; ++L)
      Acc[L] = Data[G * N + L];
    for (uint32_t Round = 0; Round < 3; ++Round) {
      for (uint32_t Step = 1; Step < 5; ++Step) {
        Ring = Acc;
        for (uint32_t L = 0; L < N; ++L) {
          Acc[L] = Acc[L] * 3u + Ring[(L + N - Step) % N] + Round;
          ++Hist[L * 8 + ((Acc[L] >> 3) & 7u)];
        }
      }
      if ((G + Round) % 2 == 0) {
        for (uint32_t L = 0; L < N; ++L)
          Ring[L] = Acc[L] ^ 0x55u;
        for (uint32_t L = 0; L < N; ++L)
          Acc[L] += Ring[99 - L];
      } else {
        for (uint32_t L = 0; L < N; ++L)
          Ring[L] = Acc[L] + 7u;
        for (uint32_t L = 0; L < N; ++L)
          Acc[L] ^= Ring[(L * 7u) % N];
      }
    }
    for (uint32_t L = 0; L < N; ++L) {
      uint32_t H = 0;
      for (uint32_t K = 0; K < 8; ++K)
        H = H * 31u + Hist[L * 8 + K];
      Out[G * N + L] = Acc[L] + H;
    }
  }
  return Out;
}

void checkNested(ComputeShader &S) {
  const uint32_t Groups = 5;
  std::vector<uint32_t> Data(Groups * 100), Out(Groups * 100, 0);
  for (uint32_t I = 0; I < Data.size(); ++I)
    Data[I] = (I * 2654435761u) >> 7;
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  R.bind(0, 1, Out.data(), Out.size() * 4);
  ASSERT_TRUE(S.dispatch({Groups, 1, 1}, R).ok());
  std::vector<uint32_t> Want = nestedReference(Data, Groups);
  for (uint32_t I = 0; I < Want.size(); ++I)
    ASSERT_EQ(Out[I], Want[I])
        << "workgroup " << I / 100 << ", invocation " << I % 100;
}

TEST_P(WorkgroupFunctionExec, ValuesAndPrivateArraysLiveAcrossBarriers) {
  unsigned W = GetParam();
  std::string WhyNot;
  EXPECT_TRUE(hasWorkgroupFunction(NestedShader, optionsFor(W), WhyNot))
      << WhyNot;
  auto S = compile(NestedShader, W, optionsFor(W));
  ASSERT_TRUE(S);
  checkNested(*S);
}

/// --no-inline keeps a function with a barrier as a call: the work-group
/// function cannot split it, so the shader runs on fibers, with the same
/// results.
TEST_P(WorkgroupFunctionExec, BarrierInCalleeFallsBackToFibers) {
  unsigned W = GetParam();
  if (W == 1)
    GTEST_SKIP() << "the one-invocation back end inlines every call";
  const char *Source = R"(#version 450
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer Out { uint result[]; };
    shared uint s[64];
    uint exchange(uint v, uint l) {
      s[l] = v;
      barrier();
      uint r = s[63u - l];
      barrier();
      return r;
    }
    void main() {
      uint l = gl_LocalInvocationID.x;
      uint v = exchange(l * 5u + gl_WorkGroupID.x, l);
      v = exchange(v + 1u, (l + 1u) % 64u);
      result[gl_GlobalInvocationID.x] = v;
    })";
  TranslateOptions Opts = optionsFor(W);
  Opts.Inline = false;
  std::string WhyNot;
  EXPECT_FALSE(hasWorkgroupFunction(Source, Opts, WhyNot));
  EXPECT_NE(WhyNot.find("not inlined"), std::string::npos) << WhyNot;
  auto S = compile(Source, W, Opts);
  ASSERT_TRUE(S);
  std::vector<uint32_t> Out(128, 0);
  DispatchResources R;
  R.bind(0, 0, Out.data(), Out.size() * 4);
  ASSERT_TRUE(S->dispatch({2, 1, 1}, R).ok());
  for (uint32_t G = 0; G < 2; ++G)
    for (uint32_t L = 0; L < 64; ++L) {
      // First exchange: invocation m gets v0(63 - m), v0(k) = 5k + G.
      // Second: m stores that + 1 at (m + 1) % 64; invocation l reads
      // slot 63 - (l + 1) % 64, which m = (61 - l) mod 64 stored.
      uint32_t M = (61 + 64 - L) % 64;
      ASSERT_EQ(Out[G * 64 + L], (63 - M) * 5 + G + 1)
          << "group " << G << " lane " << L;
    }
}

/// A private array of 8 KiB per invocation across a barrier: the
/// workgroup's 64 copies (512 KiB at every width) are over the budget, so
/// the shader falls back to fibers and must still compute the same.
TEST_P(WorkgroupFunctionExec, LargePrivateStateFallsBackToFibers) {
  unsigned W = GetParam();
  const char *Source = R"(#version 450
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer Out { uint result[]; };
    shared uint s[64];
    void main() {
      uint l = gl_LocalInvocationID.x;
      uint big[2048];
      for (uint i = 0u; i < 2048u; ++i) big[i] = i * l;
      s[l] = big[(l * 37u) % 2048u];
      barrier();
      result[gl_GlobalInvocationID.x] = s[63u - l] + big[2047u - l];
    })";
  std::string WhyNot;
  EXPECT_FALSE(hasWorkgroupFunction(Source, optionsFor(W), WhyNot));
  EXPECT_NE(WhyNot.find("budget"), std::string::npos) << WhyNot;
  auto S = compile(Source, W, optionsFor(W));
  ASSERT_TRUE(S);
  std::vector<uint32_t> Out(64, 0);
  DispatchResources R;
  R.bind(0, 0, Out.data(), Out.size() * 4);
  ASSERT_TRUE(S->dispatch({1, 1, 1}, R).ok());
  for (uint32_t L = 0; L < 64; ++L) {
    uint32_t Other = 63 - L;
    ASSERT_EQ(Out[L], ((Other * 37) % 2048) * Other + (2047 - L) * L)
        << "invocation " << L;
  }
}

/// An entry of more than 5,000 blocks with a barrier keeps the fibers (the
/// liveness walk of region splitting is bounded by the function's size)
/// and computes the same.
TEST_P(WorkgroupFunctionExec, VeryLargeFunctionWithBarrierKeepsFibers) {
  unsigned W = GetParam();
  if (W != 8)
    GTEST_SKIP() << "one width is enough for the size limit";
  std::string Source = R"(#version 450
    layout(local_size_x = 32) in;
    layout(std430, binding = 0) buffer Out { uint result[]; };
    shared uint s[32];
    void main() {
      uint l = gl_LocalInvocationID.x;
      uint v = l;
)";
  // 1,700 if/else on varying values: three blocks each.
  for (int K = 0; K < 1700; ++K)
    Source += "      if (((v >> " + std::to_string(K % 5) +
              ") & 1u) == 0u) v += " + std::to_string(K % 7 + 1) +
              "u; else v ^= " + std::to_string(K % 11 + 3) + "u;\n";
  Source += R"(      s[l] = v;
      barrier();
      result[gl_GlobalInvocationID.x] = s[31u - l];
    })";
  std::string WhyNot;
  EXPECT_FALSE(hasWorkgroupFunction(Source, optionsFor(W), WhyNot));
  EXPECT_NE(WhyNot.find("blocks with barriers"), std::string::npos) << WhyNot;
  auto S = compile(Source, W, optionsFor(W));
  ASSERT_TRUE(S);
  std::vector<uint32_t> Out(32, 0);
  DispatchResources R;
  R.bind(0, 0, Out.data(), Out.size() * 4);
  ASSERT_TRUE(S->dispatch({1, 1, 1}, R).ok());
  for (uint32_t L = 0; L < 32; ++L) {
    uint32_t V = 31 - L;
    for (int K = 0; K < 1700; ++K)
      V = ((V >> (K % 5)) & 1u) == 0 ? V + uint32_t(K % 7 + 1)
                                     : V ^ uint32_t(K % 11 + 3);
    ASSERT_EQ(Out[L], V) << "invocation " << L;
  }
}

/// Without barriers: full groups run with the constant mask and the last,
/// partial one with its own; every invocation writes exactly once.
TEST_P(WorkgroupFunctionExec, PartialLastGroupWithoutBarriers) {
  unsigned W = GetParam();
  const char *Source = R"(#version 450
    layout(local_size_x = 7, local_size_y = 3) in;
    layout(std430, binding = 0) buffer Out { uint result[]; };
    void main() {
      uint i = gl_LocalInvocationIndex +
               21u * (gl_WorkGroupID.x + 4u * gl_WorkGroupID.y);
      atomicAdd(result[i], gl_LocalInvocationID.x * 10u +
                           gl_LocalInvocationID.y * 100u + 1u);
    })";
  std::string WhyNot;
  EXPECT_TRUE(hasWorkgroupFunction(Source, optionsFor(W), WhyNot)) << WhyNot;
  auto S = compile(Source, W, optionsFor(W));
  ASSERT_TRUE(S);
  std::vector<uint32_t> Out(21 * 4 * 2 + 5, 0);
  DispatchResources R;
  R.bind(0, 0, Out.data(), Out.size() * 4);
  ASSERT_TRUE(S->dispatch({4, 2, 1}, R).ok());
  for (uint32_t I = 0; I < 21 * 8; ++I) {
    uint32_t L = I % 21;
    ASSERT_EQ(Out[I], (L % 7) * 10 + (L / 7) * 100 + 1) << "invocation " << I;
  }
  for (uint32_t I = 21 * 8; I < Out.size(); ++I)
    ASSERT_EQ(Out[I], 0u) << "written past the dispatch at " << I;
}

/// A tree reduction: the loop around the barrier runs a bounded number of
/// times (`s >>= 1` from 32: at most 6), so it is unrolled before the
/// work-group function is built: each of its barriers is a resume point
/// of its own, with the loop's counter a constant (1 + 6 resume points;
/// the loop kept would have 2 or 3). A loop bound read from a buffer
/// stays a loop.
/// Both compute the C++ sums.
TEST_P(WorkgroupFunctionExec, CountedBarrierLoopsAreUnrolled) {
  unsigned W = GetParam();
  const std::string Body = R"(
    layout(std430, binding = 0) buffer In { uint data[]; };
    layout(std430, binding = 1) buffer Out { uint result[]; };
    shared uint tile[64];
    void main() {
      uint l = gl_LocalInvocationIndex;
      uint g = gl_WorkGroupID.x;
      tile[l] = data[g * 64u + l];
      barrier();
      for (uint s = START; s > 0u; s >>= 1) {
        if (l < s)
          tile[l] += tile[l + s] * 3u;
        barrier();
      }
      if (l == 0u)
        result[g] = tile[0];
    })";
  auto Make = [&](const std::string &Start) {
    std::string S = "#version 450\nlayout(local_size_x = 64) in;\n" + Body;
    S.replace(S.find("START"), 5, Start);
    return S;
  };
  const std::string Counted = Make("32u"), Unknown = Make("data[1000]");
  WorkgroupFunctionShape CountedShape = shapeOf(Counted, optionsFor(W));
  EXPECT_EQ(CountedShape.ResumePoints, 7u);
  // No barrier is left in a loop: each region runs once, in order, and
  // these small regions get a copy per group.
  EXPECT_EQ(CountedShape.Kind, WorkgroupFunctionShape::RegionSequence);
  // (The invocation back end has 64 groups: a region may be too large to
  // copy 64 times.)
  if (W > 1)
    EXPECT_EQ(CountedShape.UnrolledRegions, 8u);
  else
    EXPECT_GE(CountedShape.UnrolledRegions, 1u);
  // A loop stays a loop: 2, or 3 when LLVM's simplification peels off
  // its first iteration; its regions then run in rounds.
  WorkgroupFunctionShape UnknownShape = shapeOf(Unknown, optionsFor(W));
  EXPECT_GE(UnknownShape.ResumePoints, 2u);
  EXPECT_LE(UnknownShape.ResumePoints, 3u);
  EXPECT_EQ(UnknownShape.Kind, WorkgroupFunctionShape::RegionRounds);
  const uint32_t Groups = 6;
  for (const std::string *Source : {&Counted, &Unknown}) {
    auto S = compile(*Source, W, optionsFor(W));
    ASSERT_TRUE(S);
    std::vector<uint32_t> Data(1001), Out(Groups, 0);
    for (uint32_t I = 0; I < Groups * 64; ++I)
      Data[I] = (I * 2654435761u) >> 9;
    Data[1000] = 32;
    DispatchResources R;
    R.bind(0, 0, Data.data(), Data.size() * 4);
    R.bind(0, 1, Out.data(), Out.size() * 4);
    ASSERT_TRUE(S->dispatch({Groups, 1, 1}, R).ok());
    for (uint32_t G = 0; G < Groups; ++G) {
      std::vector<uint32_t> Tile(Data.begin() + G * 64,
                                 Data.begin() + G * 64 + 64);
      for (uint32_t Step = 32; Step > 0; Step >>= 1)
        for (uint32_t L = 0; L < Step; ++L)
          Tile[L] += Tile[L + Step] * 3u;
      EXPECT_EQ(Out[G], Tile[0]) << "workgroup " << G;
    }
  }
}

/// Barriers outside uniform control flow break Vulkan's rule, but must
/// neither hang nor crash the work-group function, whose regions assume
/// every group waits at the same barrier: here groups return early (the
/// first 64 invocations go on) and the others split between two barriers
/// by their invocation index. Each invocation only reads what it or an
/// invocation on its own path wrote before the barrier, so the result is
/// the same for any order in which the paths' groups run.
const char *DivergentShader = R"(#version 450
  layout(local_size_x = 96) in;
  layout(std430, binding = 0) buffer Out { uint result[]; };
  shared uint tile[96];
  void main() {
    uint l = gl_LocalInvocationIndex;
    tile[l] = l * 7u + 1u;
    if (l >= 64u)
      return;
    barrier();
    uint v = tile[l];
    if (l < 32u) {
      tile[l] = v * 2u;
      barrier();
      result[l] = tile[l] + 1000u;
    } else {
      tile[l] = v * 3u;
      barrier();
      barrier();
      result[l] = tile[l] + 2000u;
    }
  })";

void checkDivergent(ComputeShader &S) {
  std::vector<uint32_t> Out(96, 0);
  DispatchResources R;
  R.bind(0, 0, Out.data(), Out.size() * 4);
  ASSERT_TRUE(S.dispatch({3, 1, 1}, R).ok());
  for (uint32_t L = 0; L < 96; ++L) {
    uint32_t Want = L >= 64 ? 0
                    : L < 32 ? (L * 7 + 1) * 2 + 1000
                             : (L * 7 + 1) * 3 + 2000;
    EXPECT_EQ(Out[L], Want) << "invocation " << L;
  }
}

TEST_P(WorkgroupFunctionExec, GroupsAtDifferentBarriersAllFinish) {
  auto S = compile(DivergentShader, GetParam(), optionsFor(GetParam()));
  ASSERT_TRUE(S);
  checkDivergent(*S);
}

/// Sets a hidden option of the runtime for the life of the object.
class ScopedOption {
public:
  ScopedOption(const char *Name, const char *Value, const char *Default)
      : Name(Name), Default(Default) {
    set(Value);
  }
  ~ScopedOption() { set(Default); }

private:
  const char *Name, *Default;
  void set(const char *Value) {
    auto &Opts = llvm::cl::getRegisteredOptions();
    auto It = Opts.find(Name);
    ASSERT_NE(It, Opts.end()) << Name;
    ASSERT_FALSE(It->second->addOccurrence(0, Name, Value));
  }
};

/// The three ways of running the regions (a dispatch on each group's
/// state, a loop per region, a copy per group) compute the same, shaders
/// that break the barrier rule included.
TEST_P(WorkgroupFunctionExec, EveryRegionFormComputesTheSame) {
  unsigned W = GetParam();
  struct Mode {
    const char *Option, *Value, *Default;
    WorkgroupFunctionShape::Form Kind;
    bool Copies;
  };
  const Mode Modes[] = {
      {"s2l-sequence-regions", "false", "true",
       WorkgroupFunctionShape::StateMachine, false},
      {"s2l-unroll-region-budget", "0", "2048",
       WorkgroupFunctionShape::RegionSequence, false},
      {"s2l-unroll-region-budget", "100000", "2048",
       WorkgroupFunctionShape::RegionSequence, true},
  };
  for (const Mode &M : Modes) {
    SCOPED_TRACE(std::string(M.Option) + "=" + M.Value);
    ScopedOption Set(M.Option, M.Value, M.Default);
    EXPECT_EQ(shapeOf(NestedShader, optionsFor(W)).Kind, M.Kind);
    // Its regions branch on the invocation index: worth a copy per group.
    WorkgroupFunctionShape Shape = shapeOf(DivergentShader, optionsFor(W));
    EXPECT_EQ(Shape.Kind, M.Kind);
    EXPECT_EQ(Shape.UnrolledRegions > 0, M.Copies);
    auto Nested = compile(NestedShader, W, optionsFor(W));
    ASSERT_TRUE(Nested);
    checkNested(*Nested);
    auto Divergent = compile(DivergentShader, W, optionsFor(W));
    ASSERT_TRUE(Divergent);
    checkDivergent(*Divergent);
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, WorkgroupFunctionExec,
                         testing::Values(4u, 8u, 16u, 1u), [](const auto &I) {
                           return I.param == 1 ? std::string("invocation")
                                               : "w" + std::to_string(I.param);
                         });

} // namespace
