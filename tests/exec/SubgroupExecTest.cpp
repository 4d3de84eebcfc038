//===- SubgroupExecTest.cpp - GroupNonUniform operations on the runtime ---===//
//
// Compute shaders with GL_KHR_shader_subgroup_* operations at W = 4, 8 and
// 16, compared lane by lane with a C++ reference that emulates subgroups
// of W invocations over the active lanes. Lanes are inactive because the
// workgroup size (13) is not a multiple of W and because a divergent `if`
// around the operations drops some invocations (mode 1); mode 0 runs every
// invocation. Results that SPIR-V leaves undefined are not checked
// (Broadcast from an inactive lane, FindLSB of an empty ballot), except
// that shuffles and quad operations must read 0 there, as documented in
// EmitSubgroup.cpp.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

using namespace spirv2llvm;

namespace {

std::unique_ptr<ComputeShader> compile(std::string Source, unsigned W,
                                       uint32_t LocalSize) {
  size_t Pos = Source.find("LOCAL_SIZE");
  Source.replace(Pos, 10, std::to_string(LocalSize));
  TranslateOptions Opts;
  Opts.Width = W;
  std::string Error;
  auto S = spirv2llvm::exectest::compileCompute(Source, Opts, Error);
  if (!S)
    ADD_FAILURE() << Error;
  return S;
}

const char *Header = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_vote : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_KHR_shader_subgroup_shuffle_relative : enable
#extension GL_KHR_shader_subgroup_clustered : enable
#extension GL_KHR_shader_subgroup_quad : enable
layout(local_size_x = LOCAL_SIZE) in;
layout(push_constant) uniform P { uint mode; };
)";

/// One subgroup as the reference sees it: the values of all W lanes and
/// which lanes are active.
struct Subgroup {
  unsigned W;
  std::vector<bool> Active;
  unsigned First() const {
    for (unsigned L = 0; L < W; ++L)
      if (Active[L])
        return L;
    return W;
  }
  /// Folds \p F over the active lanes in [Lo, Hi) starting from \p Init.
  template <typename T, typename Fn>
  T fold(const std::vector<T> &V, unsigned Lo, unsigned Hi, T Init,
         Fn F) const {
    for (unsigned L = Lo; L < Hi && L < W; ++L)
      if (Active[L])
        Init = F(Init, V[L]);
    return Init;
  }
  /// Lane \p Src's value, if it is an active lane of the subgroup.
  template <typename T>
  std::optional<T> read(const std::vector<T> &V, uint32_t Src) const {
    if (Src >= W || !Active[Src])
      return std::nullopt;
    return V[Src];
  }
  /// As read, but 0 for an inactive or out-of-range lane: undefined in
  /// SPIR-V, and what EmitSubgroup.cpp documents for shuffles.
  template <typename T> T shuffle(const std::vector<T> &V, uint32_t Src) const {
    return read(V, Src).value_or(T());
  }
};

using Expect = std::optional<int32_t>;

/// Runs \p Shader over \p Groups workgroups of \p LocalSize and compares
/// each invocation's K outputs with \p Ref(subgroup, inputs, lane, k); the
/// inputs are \p A. Inactive invocations must keep the sentinel.
template <typename In>
void runAndCompare(
    const std::string &Shader, unsigned W, uint32_t LocalSize, uint32_t Mode,
    const std::vector<In> &A, unsigned K, const std::function<bool(In)> &Pred,
    const std::function<Expect(const Subgroup &, const std::vector<In> &,
                               unsigned, unsigned)> &Ref) {
  auto S = compile(Shader, W, LocalSize);
  ASSERT_TRUE(S);
  uint32_t Groups = uint32_t(A.size()) / LocalSize;
  const int32_t Sentinel = -777777;
  std::vector<In> Input = A;
  std::vector<int32_t> Out(A.size() * K, Sentinel);
  DispatchResources R;
  R.bind(0, 0, Input.data(), Input.size() * sizeof(In));
  R.bind(0, 1, Out.data(), Out.size() * 4);
  R.PushConstants.resize(4);
  std::memcpy(R.PushConstants.data(), &Mode, 4);
  ASSERT_TRUE(S->dispatch({Groups, 1, 1}, R).ok());
  for (uint32_t G = 0; G < Groups; ++G) {
    for (uint32_t Base = 0; Base < LocalSize; Base += W) {
      Subgroup SG{W, std::vector<bool>(W, false)};
      std::vector<In> V(W, In());
      for (unsigned L = 0; L < W; ++L) {
        uint32_t Local = Base + L;
        if (Local >= LocalSize)
          continue;
        V[L] = A[G * LocalSize + Local];
        SG.Active[L] = Mode == 0 || Pred(V[L]);
      }
      for (unsigned L = 0; L < W && Base + L < LocalSize; ++L) {
        uint32_t Inv = G * LocalSize + Base + L;
        for (unsigned Kk = 0; Kk < K; ++Kk) {
          int32_t Got = Out[Inv * K + Kk];
          if (!SG.Active[L]) {
            ASSERT_EQ(Got, Sentinel) << "inactive invocation " << Inv;
            continue;
          }
          Expect Want = Ref(SG, V, L, Kk);
          if (Want) {
            ASSERT_EQ(Got, *Want) << "invocation " << Inv << " output " << Kk
                                  << " (lane " << L << ")";
          }
        }
      }
    }
  }
}

std::vector<int32_t> intData(uint32_t N) {
  std::vector<int32_t> A(N);
  for (uint32_t I = 0; I < N; ++I)
    A[I] = int32_t((I * 2654435761u) >> 7) % 201 - 50; // -50 .. 150
  // A few runs of equal values so AllEqual is sometimes true.
  for (uint32_t I = 0; I + 16 <= N && I < 64; ++I)
    A[I] = 41;
  return A;
}

class SubgroupExec
    : public testing::TestWithParam<std::tuple<unsigned, uint32_t, uint32_t>> {
};

TEST_P(SubgroupExec, IntegerOperations) {
  auto [W, LocalSize, Mode] = GetParam();
  std::string Shader = std::string(Header) + R"(
layout(std430, binding = 0) buffer In { int a[]; };
layout(std430, binding = 1) buffer Out { int o[]; };
void main() {
  uint g = gl_GlobalInvocationID.x;
  int x = a[g];
  uint u = uint(x);
  uint b = g * 48u;
  if (mode == 0u || (x & 3) != 0) {
    uvec4 bal = subgroupBallot(x > 20);
    o[b + 0u] = int(gl_SubgroupInvocationID);
    o[b + 1u] = int(gl_SubgroupSize);
    o[b + 2u] = subgroupElect() ? 1 : 0;
    o[b + 3u] = subgroupAll(x > -40) ? 1 : 0;
    o[b + 4u] = subgroupAny(x > 140) ? 1 : 0;
    o[b + 5u] = subgroupAllEqual(x >> 7) ? 1 : 0;
    o[b + 6u] = subgroupBroadcast(x, 1u);
    o[b + 7u] = subgroupBroadcastFirst(x);
    o[b + 8u] = int(bal.x);
    o[b + 9u] = int(bal.y | bal.z | bal.w);
    o[b + 10u] = subgroupInverseBallot(uvec4(0x5A5Au, 0u, 0u, 0u)) ? 1 : 0;
    o[b + 11u] = subgroupBallotBitExtract(
        uvec4(0xA5C3u, 0x1234u, 0xFFu, 0x80000000u), u & 127u) ? 1 : 0;
    o[b + 12u] = int(subgroupBallotBitCount(bal));
    o[b + 13u] = int(subgroupBallotInclusiveBitCount(bal));
    o[b + 14u] = int(subgroupBallotExclusiveBitCount(bal));
    o[b + 15u] = int(subgroupBallotFindLSB(bal));
    o[b + 16u] = int(subgroupBallotFindMSB(bal));
    o[b + 17u] = subgroupShuffle(x, (gl_SubgroupInvocationID * 5u + 3u) %
                                        gl_SubgroupSize);
    o[b + 18u] = subgroupShuffleXor(x, 2u);
    o[b + 19u] = subgroupShuffleUp(x, 1u);
    o[b + 20u] = subgroupShuffleDown(x, 2u);
    o[b + 21u] = subgroupAdd(x);
    o[b + 22u] = subgroupMul((x & 3) + 1);
    o[b + 23u] = subgroupMin(x);
    o[b + 24u] = subgroupMax(x);
    o[b + 25u] = int(subgroupMin(u));
    o[b + 26u] = int(subgroupMax(u));
    o[b + 27u] = int(subgroupAnd(u | 0x100u));
    o[b + 28u] = int(subgroupOr(u));
    o[b + 29u] = int(subgroupXor(u));
    o[b + 30u] = subgroupInclusiveAdd(x);
    o[b + 31u] = subgroupExclusiveAdd(x);
    o[b + 32u] = subgroupInclusiveMin(x);
    o[b + 33u] = int(subgroupExclusiveMax(u));
    o[b + 34u] = subgroupExclusiveMin(x);
    o[b + 35u] = int(subgroupInclusiveXor(u));
    o[b + 36u] = subgroupClusteredAdd(x, 4u);
    o[b + 37u] = subgroupClusteredMax(x, 2u);
    o[b + 38u] = subgroupClusteredOr(x, 1u);
    o[b + 39u] = subgroupAnd(x > -40) ? 1 : 0;
    o[b + 40u] = subgroupOr(x > 140) ? 1 : 0;
    o[b + 41u] = subgroupXor(x > 20) ? 1 : 0;
    o[b + 42u] = subgroupInclusiveXor(x > 20) ? 1 : 0;
    o[b + 43u] = subgroupQuadBroadcast(x, 2u);
    o[b + 44u] = subgroupQuadSwapHorizontal(x);
    o[b + 45u] = subgroupQuadSwapVertical(x);
    o[b + 46u] = subgroupQuadSwapDiagonal(x);
    o[b + 47u] = subgroupAdd(ivec2(x, 2 * x)).y;
  }
})";
  std::vector<int32_t> A = intData(LocalSize * 5);
  using U = uint32_t;
  auto Ref = [](const Subgroup &SG, const std::vector<int32_t> &V, unsigned L,
                unsigned K) -> Expect {
    unsigned W = SG.W;
    auto AddF = [](int32_t X, int32_t Y) { return int32_t(U(X) + U(Y)); };
    auto MinF = [](int32_t X, int32_t Y) { return std::min(X, Y); };
    auto Ballot = [&](auto P) {
      U Bits = 0;
      for (unsigned I = 0; I < W; ++I)
        if (SG.Active[I] && P(V[I]))
          Bits |= 1u << I;
      return Bits;
    };
    auto AllOf = [&](auto P) {
      return Ballot(P) == Ballot([](int32_t) { return true; });
    };
    std::vector<U> Uv(V.begin(), V.end());
    U Bal = Ballot([](int32_t X) { return X > 20; });
    U QuadBase = L & ~3u;
    switch (K) {
    case 0:
      return int32_t(L);
    case 1:
      return int32_t(W);
    case 2:
      return L == SG.First() ? 1 : 0;
    case 3:
      return AllOf([](int32_t X) { return X > -40; });
    case 4:
      return Ballot([](int32_t X) { return X > 140; }) != 0;
    case 5:
      return AllOf([&](int32_t X) { return (X >> 7) == (V[SG.First()] >> 7); });
    case 6:
      return SG.read(V, 1);
    case 7:
      return V[SG.First()];
    case 8:
      return int32_t(Bal);
    case 9:
      return 0;
    case 10:
      return (0x5A5Au >> L) & 1;
    case 11: {
      U Words[4] = {0xA5C3u, 0x1234u, 0xFFu, 0x80000000u};
      U I = U(V[L]) & 127u;
      return (Words[I / 32] >> (I % 32)) & 1;
    }
    case 12:
      return __builtin_popcount(Bal);
    case 13:
      return __builtin_popcount(Bal & ((2u << L) - 1));
    case 14:
      return __builtin_popcount(Bal & ((1u << L) - 1));
    case 15:
      return Bal ? Expect(__builtin_ctz(Bal)) : std::nullopt;
    case 16:
      return Bal ? Expect(31 - __builtin_clz(Bal)) : std::nullopt;
    case 17:
      return SG.shuffle(V, (L * 5 + 3) % W);
    case 18:
      return SG.shuffle(V, L ^ 2u);
    case 19:
      return SG.shuffle(V, L - 1);
    case 20:
      return SG.shuffle(V, L + 2);
    case 21:
      return SG.fold(V, 0, W, 0, AddF);
    case 22:
      return SG.fold(V, 0, W, 1, [](int32_t X, int32_t Y) {
        return int32_t(U(X) * U((Y & 3) + 1));
      });
    case 23:
      return SG.fold(V, 0, W, INT32_MAX, MinF);
    case 24:
      return SG.fold(V, 0, W, INT32_MIN,
                     [](int32_t X, int32_t Y) { return std::max(X, Y); });
    case 25:
      return int32_t(
          SG.fold(Uv, 0, W, ~0u, [](U X, U Y) { return std::min(X, Y); }));
    case 26:
      return int32_t(
          SG.fold(Uv, 0, W, 0u, [](U X, U Y) { return std::max(X, Y); }));
    case 27:
      return int32_t(
          SG.fold(Uv, 0, W, ~0u, [](U X, U Y) { return X & (Y | 0x100u); }));
    case 28:
      return int32_t(SG.fold(Uv, 0, W, 0u, [](U X, U Y) { return X | Y; }));
    case 29:
      return int32_t(SG.fold(Uv, 0, W, 0u, [](U X, U Y) { return X ^ Y; }));
    case 30:
      return SG.fold(V, 0, L + 1, 0, AddF);
    case 31:
      return SG.fold(V, 0, L, 0, AddF);
    case 32:
      return SG.fold(V, 0, L + 1, INT32_MAX, MinF);
    case 33:
      return int32_t(
          SG.fold(Uv, 0, L, 0u, [](U X, U Y) { return std::max(X, Y); }));
    case 34:
      return SG.fold(V, 0, L, INT32_MAX, MinF);
    case 35:
      return int32_t(SG.fold(Uv, 0, L + 1, 0u, [](U X, U Y) { return X ^ Y; }));
    case 36:
      return SG.fold(V, L & ~3u, (L & ~3u) + 4, 0, AddF);
    case 37:
      return SG.fold(V, L & ~1u, (L & ~1u) + 2, INT32_MIN,
                     [](int32_t X, int32_t Y) { return std::max(X, Y); });
    case 38:
      return V[L];
    case 39:
      return AllOf([](int32_t X) { return X > -40; });
    case 40:
      return Ballot([](int32_t X) { return X > 140; }) != 0;
    case 41:
      return __builtin_popcount(Bal) & 1;
    case 42:
      return __builtin_popcount(Bal & ((2u << L) - 1)) & 1;
    case 43:
      return SG.shuffle(V, QuadBase + 2);
    case 44:
      return SG.shuffle(V, L ^ 1u);
    case 45:
      return SG.shuffle(V, L ^ 2u);
    case 46:
      return SG.shuffle(V, L ^ 3u);
    case 47:
      return int32_t(U(SG.fold(V, 0, W, 0, AddF)) * 2u);
    }
    return std::nullopt;
  };
  runAndCompare<int32_t>(
      Shader, W, LocalSize, Mode, A, 48, [](int32_t X) { return (X & 3) != 0; },
      Ref);
}

TEST_P(SubgroupExec, FloatOperations) {
  auto [W, LocalSize, Mode] = GetParam();
  // Small integral values: sums and products are exact in any order.
  std::string Shader = std::string(Header) + R"(
layout(std430, binding = 0) buffer In { float a[]; };
layout(std430, binding = 1) buffer Out { int o[]; };
void main() {
  uint g = gl_GlobalInvocationID.x;
  float x = a[g];
  uint b = g * 9u;
  if (mode == 0u || x > -2.0) {
    o[b + 0u] = int(subgroupAdd(x));
    o[b + 1u] = int(subgroupMul(sign(x) + 2.0));
    o[b + 2u] = int(subgroupMin(x));
    o[b + 3u] = int(subgroupMax(x));
    o[b + 4u] = int(subgroupInclusiveAdd(x));
    o[b + 5u] = int(subgroupExclusiveAdd(x));
    float em = subgroupExclusiveMax(x); // -inf in the first active lane
    o[b + 6u] = isinf(em) ? -9999 : int(em);
    o[b + 7u] = int(subgroupClusteredAdd(vec2(x, -x), 2u).y);
    o[b + 8u] = subgroupAllEqual(vec2(1.0, floor(x / 100.0))) ? 1 : 0;
  }
})";
  std::vector<float> A(LocalSize * 5);
  for (uint32_t I = 0; I < A.size(); ++I)
    A[I] = float(int32_t((I * 40503u) % 23u) - 8);
  auto Ref = [](const Subgroup &SG, const std::vector<float> &V, unsigned L,
                unsigned K) -> Expect {
    unsigned W = SG.W;
    auto Add = [](float X, float Y) { return X + Y; };
    auto Max = [](float X, float Y) { return std::max(X, Y); };
    switch (K) {
    case 0:
      return int32_t(SG.fold(V, 0, W, 0.0f, Add));
    case 1:
      return int32_t(SG.fold(V, 0, W, 1.0f, [](float X, float Y) {
        return X * (float((Y > 0) - (Y < 0)) + 2.0f);
      }));
    case 2:
      return int32_t(SG.fold(V, 0, W, INFINITY,
                             [](float X, float Y) { return std::min(X, Y); }));
    case 3:
      return int32_t(SG.fold(V, 0, W, -INFINITY, Max));
    case 4:
      return int32_t(SG.fold(V, 0, L + 1, 0.0f, Add));
    case 5:
      return int32_t(SG.fold(V, 0, L, 0.0f, Add));
    case 6: {
      float M = SG.fold(V, 0, L, -INFINITY, Max);
      return M == -INFINITY ? -9999 : int32_t(M);
    }
    case 7:
      return int32_t(-SG.fold(V, L & ~1u, (L & ~1u) + 2, 0.0f, Add));
    case 8: {
      float F = std::floor(V[SG.First()] / 100.0f);
      for (unsigned I = 0; I < W; ++I)
        if (SG.Active[I] && std::floor(V[I] / 100.0f) != F)
          return 0;
      return 1;
    }
    }
    return std::nullopt;
  };
  runAndCompare<float>(
      Shader, W, LocalSize, Mode, A, 9, [](float X) { return X > -2.0f; }, Ref);
}

TEST_P(SubgroupExec, BroadcastWithDynamicallyUniformId) {
  auto [W, LocalSize, Mode] = GetParam();
  std::string Shader = std::string(Header) + R"(
layout(std430, binding = 0) buffer In { int a[]; };
layout(std430, binding = 1) buffer Out { int o[]; };
void main() {
  uint g = gl_GlobalInvocationID.x;
  int x = a[g];
  if (mode == 0u || (x & 3) != 0) {
    uint first = subgroupBallotFindLSB(subgroupBallot(true));
    o[g] = subgroupBroadcast(x * 3, first);
  }
})";
  std::vector<int32_t> A = intData(LocalSize * 5);
  runAndCompare<int32_t>(
      Shader, W, LocalSize, Mode, A, 1, [](int32_t X) { return (X & 3) != 0; },
      [](const Subgroup &SG, const std::vector<int32_t> &V, unsigned,
         unsigned) -> Expect { return V[SG.First()] * 3; });
}

TEST_P(SubgroupExec, LoopWithShrinkingMask) {
  auto [W, LocalSize, Mode] = GetParam();
  // Each iteration loses the lanes whose trip count is reached; the
  // operations see only the lanes still in the loop.
  std::string Shader = std::string(Header) + R"(
layout(std430, binding = 0) buffer In { int a[]; };
layout(std430, binding = 1) buffer Out { int o[]; };
void main() {
  uint g = gl_GlobalInvocationID.x;
  int x = a[g];
  if (mode == 0u || (x & 3) != 0) {
    int n = x & 7, s = 0, t = 0;
    for (int i = 0; i < n; ++i) {
      s += subgroupAdd(1);
      t += subgroupExclusiveAdd(x) + int(subgroupElect());
    }
    o[2u * g] = s;
    o[2u * g + 1u] = t;
  }
})";
  std::vector<int32_t> A = intData(LocalSize * 5);
  runAndCompare<int32_t>(
      Shader, W, LocalSize, Mode, A, 2, [](int32_t X) { return (X & 3) != 0; },
      [](const Subgroup &SG, const std::vector<int32_t> &V, unsigned L,
         unsigned K) -> Expect {
        int32_t S = 0, T = 0;
        for (int32_t I = 0; I < (V[L] & 7); ++I) {
          Subgroup In = SG;
          for (unsigned M = 0; M < SG.W; ++M)
            In.Active[M] = SG.Active[M] && I < (V[M] & 7);
          S += In.fold(V, 0, SG.W, 0, [](int32_t X, int32_t) { return X + 1; });
          T += In.fold(V, 0, L, 0, [](int32_t X, int32_t Y) { return X + Y; }) +
               (In.First() == L);
        }
        return K == 0 ? S : T;
      });
}

INSTANTIATE_TEST_SUITE_P(WidthsSizesModes, SubgroupExec,
                         testing::Combine(testing::Values(4u, 8u, 16u),
                                          testing::Values(13u, 32u),
                                          testing::Values(0u, 1u)));

TEST(SubgroupDiagnostics, WorkgroupScopeIsRejected) {
  // The GLSL front end only emits the subgroup scope: patch the SPIR-V
  // assembly instead.
  std::string Asm = R"(
               OpCapability Shader
               OpCapability GroupNonUniformArithmetic
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 4 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
  %workgroup = OpConstant %uint 2
      %seven = OpConstant %uint 7
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %sum = OpGroupNonUniformIAdd %uint %workgroup Reduce %seven
               OpReturn
               OpFunctionEnd
)";
  TranslateOptions Opts;
  Opts.Width = 4;
  Opts.Validate = false; // Vulkan's validator rules the scope out first
  std::string Error;
  auto S =
      spirv2llvm::exectest::compileCompute(Asm, Opts, Error, "test.spvasm");
  EXPECT_FALSE(S);
  EXPECT_NE(Error.find("unsupported: a scope other than Subgroup"), std::string::npos) << Error;
}

} // namespace
