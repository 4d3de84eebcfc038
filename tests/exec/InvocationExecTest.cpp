//===- InvocationExecTest.cpp - One-invocation back ends, executed --------===//
//
// Vertex and fragment shaders through --backend=invocation and
// --backend=scalar, one call per invocation (abi.h at width 1), compared
// invocation by invocation with the SIMD back end running the same inputs
// (and the bit-reverse shader with its C++ reference). The compute side is
// covered by the differential tests against lavapipe
// (tests/vulkan/DifferentialTest.cpp, Invocation/*, Scalar/*, DxilData/*);
// here: the groupshared mapping and the refusal to run dx.op calls.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

std::unique_ptr<JitShader> compile(const std::string &Source,
                                   const char *Name, Backend Bk,
                                   unsigned Width = 4) {
  TranslateOptions Opts;
  Opts.Backend = Bk;
  Opts.Width = Width;
  // The back ends are compared bit for bit: contraction would let each
  // fuse different pairs (ContractionExecTest tests it in both).
  Opts.Contract = false;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      Name, Opts);
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return nullptr;
  }
  auto J = JitShader::create(std::move(*T));
  if (!J) {
    ADD_FAILURE() << J.status().message();
    return nullptr;
  }
  return std::move(*J);
}

/// Runs \p J once per invocation: input component C of invocation I is
/// In[I][C] (all 32-bit), returns each invocation's outputs and alive flag.
struct Outcome {
  std::vector<std::vector<uint32_t>> Out;
  std::vector<bool> Alive;
};

Outcome runPerInvocation(const JitShader &J,
                     const std::vector<std::vector<uint32_t>> &In) {
  const InterfaceLayout &L = J.layout();
  EXPECT_EQ(L.Width, 1u);
  Outcome R;
  for (const std::vector<uint32_t> &Inv : In) {
    std::vector<uint8_t> InBlock(std::max<uint32_t>(L.InputSize, 4)),
        OutBlock(std::max<uint32_t>(L.OutputSize, 4));
    size_t C = 0;
    for (const InterfaceVariable &V : L.Inputs)
      for (uint32_t Off : V.ComponentOffsets)
        std::memcpy(InBlock.data() + Off, &Inv[C++], 4);
    s2l_group_args Args = {};
    Args.active_mask = 1;
    Args.inputs = InBlock.data();
    Args.outputs = OutBlock.data();
    R.Alive.push_back(J.run(Args) == 1);
    std::vector<uint32_t> Out;
    for (const InterfaceVariable &V : L.Outputs)
      for (uint32_t Off : V.ComponentOffsets) {
        uint32_t W;
        std::memcpy(&W, OutBlock.data() + Off, 4);
        Out.push_back(W);
      }
    R.Out.push_back(Out);
  }
  return R;
}

/// The same inputs through the SIMD back end at W = 4, lane by lane.
Outcome runSimd(const JitShader &J, const std::vector<std::vector<uint32_t>> &In) {
  const InterfaceLayout &L = J.layout();
  const unsigned W = L.Width;
  Outcome R;
  for (size_t First = 0; First < In.size(); First += W) {
    std::vector<uint8_t> InBlock(L.InputSize), OutBlock(L.OutputSize);
    unsigned N = unsigned(std::min<size_t>(W, In.size() - First));
    for (unsigned Lane = 0; Lane < N; ++Lane) {
      size_t C = 0;
      for (const InterfaceVariable &V : L.Inputs)
        for (uint32_t Off : V.ComponentOffsets)
          std::memcpy(InBlock.data() + Off + 4 * Lane, &In[First + Lane][C++],
                      4);
    }
    s2l_group_args Args = {};
    Args.active_mask = (1u << N) - 1;
    Args.inputs = InBlock.data();
    Args.outputs = OutBlock.data();
    uint32_t Alive = J.run(Args);
    for (unsigned Lane = 0; Lane < N; ++Lane) {
      R.Alive.push_back(Alive >> Lane & 1);
      std::vector<uint32_t> Out;
      for (const InterfaceVariable &V : L.Outputs)
        for (uint32_t Off : V.ComponentOffsets) {
          uint32_t Wd;
          std::memcpy(&Wd, OutBlock.data() + Off + 4 * Lane, 4);
          Out.push_back(Wd);
        }
      R.Out.push_back(Out);
    }
  }
  return R;
}

uint32_t bitsOf(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}

class InvocationExec : public testing::TestWithParam<Backend> {};

std::string backendName(const testing::TestParamInfo<Backend> &I) {
  return I.param == Backend::Invocation ? "invocation" : "scalar";
}

TEST_P(InvocationExec, BitReverseMatchesReference) {
  std::string Source = R"(#version 450
layout(location = 0) in float in_;
layout(location = 0) out int out_;
void main() {
  int result = 0;
  int i = int(in_);
  for (int n = 0; n < 8; n++) {
    if ((i & (1 << n)) != 0) result |= 1;
    result <<= 1;
  }
  out_ = result;
}
)";
  auto J = compile(Source, "bitreverse.frag", GetParam());
  ASSERT_TRUE(J);
  std::vector<std::vector<uint32_t>> In;
  for (int I = -3; I < 300; I += 7)
    In.push_back({bitsOf(float(I) + 0.5f)});
  Outcome R = runPerInvocation(*J, In);
  for (size_t K = 0; K < In.size(); ++K) {
    int32_t X = int32_t(float(-3 + 7 * int(K)) + 0.5f), Want = 0;
    for (int N = 0; N < 8; N++) {
      if ((X & (1 << N)) != 0)
        Want |= 1;
      Want = int32_t(uint32_t(Want) << 1);
    }
    EXPECT_TRUE(R.Alive[K]);
    EXPECT_EQ(int32_t(R.Out[K][0]), Want) << "invocation " << K;
  }
}

// Vectors, a matrix input, GLSL.std.450 math, a loop with a dynamic
// vector index and discard: the same outputs as the SIMD back end.
TEST_P(InvocationExec, FragmentMatchesSimd) {
  std::string Source = R"(#version 450
layout(location = 0) in vec3 Color;
layout(location = 1) in flat mat2 Rot;
layout(location = 3) in flat int Count;
layout(location = 0) out vec4 Out;
layout(location = 1) out ivec2 Bits;
void main() {
  vec2 P = Rot * Color.xy;
  if (P.x < -4.0)
    discard;
  vec4 A = vec4(normalize(Color + vec3(0.25)) * P.y, length(P));
  for (int I = 0; I < Count; ++I)
    A[I & 3] += clamp(float(I) * 0.5, 0.0, 1.0) + floor(Color.z);
  Out = A;
  Bits = ivec2(findMSB(Count), bitCount(uint(Count)));
}
)";
  auto J = compile(Source, "test.frag", GetParam());
  auto S = compile(Source, "test.frag", Backend::Simd);
  ASSERT_TRUE(J && S);
  // Components in the layout's variable order (Rot, Color, Count). Flat
  // inputs come from one primitive: the SIMD back end reads them once per
  // group of 4, so they only change between groups.
  std::vector<std::vector<uint32_t>> In;
  for (int K = 0; K < 37; ++K) {
    float F = float(K) * 0.37f - 5.0f, G = float(K / 4) * 0.6f - 2.0f;
    std::vector<uint32_t> Inv;
    for (const InterfaceVariable &V : J->layout().Inputs) {
      if (V.Location == 0) // Color
        for (float X : {F, 1.5f - F, F * F * 0.1f})
          Inv.push_back(bitsOf(X));
      else if (V.Location == 1) // Rot
        for (float X : {0.5f, G, -1.0f, 2.0f})
          Inv.push_back(bitsOf(X));
      else // Count
        Inv.push_back(uint32_t(K / 4));
    }
    In.push_back(Inv);
  }
  Outcome A = runPerInvocation(*J, In), B = runSimd(*S, In);
  ASSERT_EQ(A.Out.size(), B.Out.size());
  int Killed = 0;
  for (size_t K = 0; K < In.size(); ++K) {
    ASSERT_EQ(A.Alive[K], B.Alive[K]) << "invocation " << K;
    if (!A.Alive[K]) {
      ++Killed;
      continue;
    }
    EXPECT_EQ(A.Out[K], B.Out[K]) << "invocation " << K;
  }
  // Some invocations discard, some do not.
  EXPECT_GT(Killed, 0);
  EXPECT_LT(Killed, int(In.size()));
}

// The GLSL.std.450 instructions with operands of other shapes (matrices,
// pointers, structs): the same bits as the SIMD back end, which computes
// them with the same formulas component by component.
TEST_P(InvocationExec, GlslMatchesSimd) {
  std::string Source = R"(#version 450
layout(location = 0) in vec3 V;
layout(location = 0) out vec4 O0;
layout(location = 1) out vec4 O1;
layout(location = 2) out ivec3 E;
void main() {
  mat3 M = mat3(V, V.yzx + vec3(1.0), vec3(0.5, -V.x, 2.0));
  mat3 Inv = inverse(M);
  vec3 W;
  vec3 F = modf(V * 3.7, W);
  ivec3 Ex;
  vec3 Mant = frexp(V * 100.0, Ex);
  vec3 R = refract(normalize(V), normalize(vec3(0.0, 1.0, 0.2)), 0.66);
  O0 = vec4(Inv[0] + Inv[2], determinant(M));
  O1 = vec4(F + W * 0.001 + Mant, R.x + R.y + R.z);
  E = Ex;
}
)";
  auto J = compile(Source, "test.frag", GetParam());
  auto S = compile(Source, "test.frag", Backend::Simd);
  ASSERT_TRUE(J && S);
  std::vector<std::vector<uint32_t>> In;
  for (int K = 0; K < 16; ++K)
    In.push_back({bitsOf(float(K) * 0.31f - 2.0f), bitsOf(1.0f / (K + 1)),
                  bitsOf(float(K % 5) - 1.5f)});
  Outcome A = runPerInvocation(*J, In), B = runSimd(*S, In);
  for (size_t K = 0; K < In.size(); ++K)
    EXPECT_EQ(A.Out[K], B.Out[K]) << "invocation " << K;
}

// Bit fields (count 0 and full width included) and extended arithmetic.
TEST_P(InvocationExec, BitwiseMatchesSimd) {
  std::string Source = R"(#version 450
layout(location = 0) in flat uvec2 U;
layout(location = 1) in flat ivec2 S;
layout(location = 0) out uvec4 O;
layout(location = 1) out ivec4 P;
void main() {
  int Off = int(U.x & 7u), Cnt = int(U.y % 33u) - int(U.y % 33u > 32u - Off ? Off : 0);
  uvec2 Carry, Hi;
  uvec2 Sum = uaddCarry(U, U.yx * 3u, Carry);
  umulExtended(U, U.yx, Hi, Sum.yx);
  ivec2 SHi, SLo;
  imulExtended(S, S.yx, SHi, SLo);
  O = uvec4(bitfieldInsert(U.x, U.y, Off, Cnt), bitfieldExtract(U.y, Off, Cnt),
            Carry.x + Sum.x * 2u + Hi.x, Hi.y + Sum.y);
  P = ivec4(bitfieldExtract(S.x, Off, Cnt), bitfieldExtract(S, 3, 0).y, SHi.x ^ SLo.y, SLo.x);
}
)";
  auto J = compile(Source, "test.frag", GetParam());
  auto S = compile(Source, "test.frag", Backend::Simd);
  ASSERT_TRUE(J && S);
  // Flat inputs: one value per group of 4 invocations (see above).
  std::vector<std::vector<uint32_t>> In;
  for (uint32_t K = 0; K < 64; ++K) {
    uint32_t G = K / 4;
    uint32_t A = 0x9E3779B9u * (G + 1), Bv = 0x85EBCA6Bu ^ (G * 0x01000193u);
    In.push_back({A, Bv, A ^ 0x80000000u, Bv + G});
  }
  Outcome A = runPerInvocation(*J, In), B = runSimd(*S, In);
  for (size_t K = 0; K < In.size(); ++K)
    EXPECT_EQ(A.Out[K], B.Out[K]) << "invocation " << K;
}

TEST_P(InvocationExec, VertexMatchesSimd) {
  std::string Source = R"(#version 450
layout(location = 0) in vec4 Pos;
layout(location = 1) in vec2 Uv;
layout(location = 0) out vec2 OutUv;
void main() {
  mat4 M = mat4(vec4(2, 0, 0, 0), vec4(0, 3, 0, 0), vec4(0, 0, 1, 0),
                vec4(Uv, 0, 1));
  gl_Position = transpose(M) * (M * Pos);
  OutUv = reflect(vec2(Uv.y, -Uv.x), normalize(vec2(1.0, 2.0)));
}
)";
  auto J = compile(Source, "test.vert", GetParam());
  auto S = compile(Source, "test.vert", Backend::Simd);
  ASSERT_TRUE(J && S);
  std::vector<std::vector<uint32_t>> In;
  for (int K = 0; K < 11; ++K) {
    float F = float(K) - 4.5f;
    std::vector<uint32_t> Inv;
    for (const InterfaceVariable &V : J->layout().Inputs)
      for (float X : V.Location == 0 ? std::vector<float>{F, 2 * F, 1, 1}
                                     : std::vector<float>{F * 0.25f, 0.75f})
        Inv.push_back(bitsOf(X));
    In.push_back(Inv);
  }
  Outcome A = runPerInvocation(*J, In), B = runSimd(*S, In);
  for (size_t K = 0; K < In.size(); ++K)
    EXPECT_EQ(A.Out[K], B.Out[K]) << "invocation " << K;
}

INSTANTIATE_TEST_SUITE_P(Backends, InvocationExec,
                         testing::Values(Backend::Invocation, Backend::Scalar),
                         backendName);

// Two shared arrays used by many workgroups on several threads: each
// workgroup gets its own copy of the groupshared globals.
TEST(InvocationCompute, GroupsharedPerWorkgroup) {
  std::string Source = R"(#version 450
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint X[]; };
shared uint A[32];
shared uvec2 V[32];
void main() {
  uint L = gl_LocalInvocationID.x;
  A[L] = gl_WorkGroupID.x * 1000u + L;
  V[L] = uvec2(L, gl_WorkGroupID.x);
  barrier();
  uvec2 W = V[31u - L];
  X[gl_GlobalInvocationID.x] = A[31u - L] + W.x * 0u + (W.y == gl_WorkGroupID.x ? 0u : 1000000u);
}
)";
  TranslateOptions Opts;
  Opts.Backend = Backend::Invocation;
  std::string Error;
  auto S = exectest::compileCompute(Source, Opts, Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_EQ(S->width(), 1u);
  // 32 uints and 32 uvec2s, each 16-byte aligned.
  EXPECT_GE(S->info().WorkgroupMemorySize, 32u * 4 + 32u * 8);
  std::vector<uint32_t> X(64 * 32);
  DispatchResources R;
  R.bind(0, 0, X.data(), X.size() * 4);
  ASSERT_TRUE(S->dispatch({64, 1, 1}, R, 4).ok());
  for (uint32_t G = 0; G < 64; ++G)
    for (uint32_t L = 0; L < 32; ++L)
      ASSERT_EQ(X[G * 32 + L], G * 1000 + 31 - L) << G << " " << L;
}

// One call per invocation is a subgroup of one: votes see one value, a
// ballot has bit 0, reductions return the operand, exclusive scans the
// identity.
TEST(InvocationCompute, SubgroupOfOne) {
  std::string Source = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer B { int X[]; };
void main() {
  uint I = gl_GlobalInvocationID.x;
  int V = int(I) * 7 - 40;
  uvec4 Ballot = subgroupBallot(V > 0);
  int R[12] = int[12](
      int(gl_SubgroupSize), int(gl_SubgroupInvocationID),
      subgroupElect() ? 1 : 0, subgroupAll(V > 0) ? 1 : 0,
      subgroupAdd(V), subgroupExclusiveAdd(V), subgroupExclusiveMin(V),
      subgroupMax(V), subgroupBroadcastFirst(V), subgroupShuffleXor(V, 0u),
      int(Ballot.x + Ballot.y + Ballot.z + Ballot.w),
      int(subgroupBallotBitCount(Ballot) + gl_SubgroupEqMask.x * 10u));
  for (int K = 0; K < 12; ++K)
    X[I * 12u + uint(K)] = R[K];
}
)";
  TranslateOptions Opts;
  Opts.Backend = Backend::Invocation;
  std::string Error;
  auto S = exectest::compileCompute(Source, Opts, Error);
  ASSERT_TRUE(S) << Error;
  std::vector<int32_t> X(32 * 12, -7);
  DispatchResources R;
  R.bind(0, 0, X.data(), X.size() * 4);
  ASSERT_TRUE(S->dispatch({2, 1, 1}, R, 2).ok());
  for (int I = 0; I < 32; ++I) {
    int V = I * 7 - 40, Pos = V > 0;
    std::vector<int32_t> Want = {1, 0, 1, Pos, V, 0, INT32_MAX, V, V, V,
                                 Pos, Pos + 10};
    std::vector<int32_t> Got(X.begin() + I * 12, X.begin() + I * 12 + 12);
    EXPECT_EQ(Got, Want) << "invocation " << I;
  }
}

TEST(InvocationCompute, DxilOpCallsAreRefused) {
  std::string Source = R"(#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { float X[]; };
void main() { X[gl_LocalInvocationIndex] = sin(X[gl_LocalInvocationIndex]); }
)";
  TranslateOptions Opts;
  Opts.Backend = Backend::Dxil;
  std::string Error;
  auto S = exectest::compileCompute(Source, Opts, Error);
  EXPECT_FALSE(S);
  EXPECT_NE(Error.find("dx.op."), std::string::npos) << Error;
  EXPECT_NE(Error.find("cannot run"), std::string::npos) << Error;
}

} // namespace
