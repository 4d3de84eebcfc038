//===- DxilPipelineExecTest.cpp - DXIL passes on real translations --------===//
//
// Compute shaders translated by spirv2llvm (SIMD back end), then run through
// each DXIL pipeline of include/spirv2llvm/Passes.h, JIT-compiled and
// dispatched: the buffers must be bit-identical to those of the untouched
// translation. The pipelines that lower to dx.op calls are linked with the
// reference dx.op runtime of the lit tests (tests/lit/passes/Inputs), which
// implements each opcode with the LLVM intrinsic it stands for.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"
#include "spirv2llvm/Passes.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

enum class Variant { None, Scalar, Dxil, NativeVectors };

std::string name(Variant V) {
  switch (V) {
  case Variant::None: return "none";
  case Variant::Scalar: return "scalar";
  case Variant::Dxil: return "dxil";
  case Variant::NativeVectors: return "native-vectors";
  }
  return "";
}

unsigned dxOpCalls(llvm::Module &M) {
  unsigned N = 0;
  for (llvm::Function &F : M)
    if (F.getName().starts_with("dx.op."))
      N += F.getNumUses();
  return N;
}

std::unique_ptr<ComputeShader> build(const std::string &Source, unsigned W,
                                     Variant V, unsigned *DxOps = nullptr) {
  TranslateOptions Opts;
  Opts.Width = W;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      "test.comp", Opts);
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return nullptr;
  }
  llvm::Module &M = *T->IR;
  if (V != Variant::None) {
    runDxilPipeline(M, V == Variant::Scalar ? DxilPipeline::Scalar
                       : V == Variant::Dxil ? DxilPipeline::Dxil
                                            : DxilPipeline::DxilNativeVectors);
    std::string Err;
    llvm::raw_string_ostream OS(Err);
    if (llvm::verifyModule(M, &OS)) {
      ADD_FAILURE() << name(V) << ": invalid module: " << Err;
      return nullptr;
    }
    if (DxOps)
      *DxOps = dxOpCalls(M);
  }
  if (V == Variant::Dxil || V == Variant::NativeVectors) {
    llvm::SMDiagnostic Diag;
    auto RT = llvm::parseAssemblyFile(
        S2L_SOURCE_DIR "/tests/lit/passes/Inputs/dxil-runtime.ll", Diag,
        M.getContext());
    if (!RT) {
      ADD_FAILURE() << Diag.getMessage().str();
      return nullptr;
    }
    RT->setDataLayout(M.getDataLayout());
    RT->setTargetTriple(M.getTargetTriple());
    if (llvm::Linker::linkModules(M, std::move(RT),
                                  llvm::Linker::LinkOnlyNeeded)) {
      ADD_FAILURE() << "linking the dx.op runtime failed";
      return nullptr;
    }
  }
  auto S = ComputeShader::create(std::move(*T));
  if (!S) {
    ADD_FAILURE() << name(V) << ": " << S.status().message();
    return nullptr;
  }
  return std::move(*S);
}

/// Runs Source on In (binding 0, read-write) and Out (binding 1) for each
/// variant and compares with the untouched translation.
/// \p MathUlps: how many units in the last place float results may differ
/// by, for shaders whose transcendental calls the JIT maps to glibc's vector
/// math (libmvec) while their scalarized form calls scalar libm; both are
/// within Vulkan's precision but need not agree in the last bit. 0: exact.
void expectSameBuffers(const std::string &Source, unsigned W,
                       std::vector<uint32_t> In, size_t OutWords,
                       uint32_t Groups, bool ExpectDxOps,
                       unsigned MathUlps = 0) {
  std::vector<uint32_t> RefIn, RefOut;
  for (Variant V : {Variant::None, Variant::Scalar, Variant::Dxil,
                    Variant::NativeVectors}) {
    unsigned DxOps = 0;
    auto S = build(Source, W, V, &DxOps);
    ASSERT_TRUE(S) << name(V);
    if (ExpectDxOps && (V == Variant::Dxil || V == Variant::NativeVectors))
      EXPECT_GT(DxOps, 0u) << name(V) << ": nothing was lowered to dx.op";
    std::vector<uint32_t> A = In, B(OutWords, 0xdeadbeef);
    DispatchResources R;
    R.bind(0, 0, A.data(), A.size() * 4);
    R.bind(0, 1, B.data(), B.size() * 4);
    ASSERT_TRUE(S->dispatch({Groups, 1, 1}, R, 1).ok());
    if (V == Variant::None) {
      RefIn = A;
      RefOut = B;
      continue;
    }
    EXPECT_EQ(A, RefIn) << name(V) << " at W=" << W;
    for (size_t I = 0; I < OutWords; ++I) {
      // Distance in ulps of two finite floats of the same sign.
      int64_t Ulps = int64_t(int32_t(B[I])) - int64_t(int32_t(RefOut[I]));
      if (MathUlps && (B[I] ^ RefOut[I]) >> 31 == 0 &&
          (B[I] & 0x7f800000u) != 0x7f800000u && std::llabs(Ulps) <= MathUlps)
        continue;
      ASSERT_EQ(B[I], RefOut[I]) << name(V) << " at W=" << W << ", word " << I;
    }
  }
}

std::vector<uint32_t> floats(size_t N) {
  std::vector<uint32_t> V(N);
  for (size_t I = 0; I < N; ++I) {
    float F = float(int(I % 23) - 11) * 0.37f + float(I) * 0.01f;
    std::memcpy(&V[I], &F, 4);
  }
  return V;
}

class DxilPipelineExec : public testing::TestWithParam<unsigned> {};

TEST_P(DxilPipelineExec, SharedVectorsAndMath) {
  expectSameBuffers(R"(#version 450
    layout(local_size_x = 16) in;
    layout(std430, binding = 0) buffer In { vec4 v[]; };
    layout(std430, binding = 1) buffer Out { vec4 o[]; };
    shared vec3 tile[16];
    shared float grid[4][4];
    void main() {
      uint l = gl_LocalInvocationIndex;
      uint g = gl_GlobalInvocationID.x;
      vec4 x = v[g];
      tile[l] = sin(x.xyz) * 2.0 + sqrt(abs(x.zyx));
      grid[l / 4u][l % 4u] = max(x.x, x.w) + fma(x.y, x.z, 1.0);
      barrier();
      vec3 n = tile[(l + 1u) % 16u];
      float s = grid[(l + 2u) % 4u][l / 4u];
      o[g] = vec4(n, s) + vec4(floor(x.x), ceil(x.y), clamp(x.z, -1.0, 1.0),
                               dot(n, x.xyz));
    })",
                    GetParam(), floats(4 * 64), 4 * 64, 4, true,
                    /*MathUlps=*/2);
}

TEST_P(DxilPipelineExec, IntegerVectorsAndLocalArrays) {
  std::vector<uint32_t> In(4 * 32);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = uint32_t(I * 2654435761u) >> (I % 7);
  expectSameBuffers(R"(#version 450
    layout(local_size_x = 8) in;
    layout(std430, binding = 0) buffer B { ivec4 d[]; };
    layout(std430, binding = 1) buffer O { ivec4 o[]; };
    void main() {
      uint g = gl_GlobalInvocationID.x;
      ivec4 a = d[g];
      ivec2 m[3] = ivec2[3](a.xy, a.zw, a.yx);
      int k = int(g % 3u);
      m[(k + 2) % 3] += ivec2(k);
      ivec2 t = m[k] * 3 + max(m[(k + 1) % 3], ivec2(2)) + bitCount(a.xy) +
                min(abs(a.zw), ivec2(100));
      o[g] = ivec4(t, bitfieldReverse(a.x), int(uint(a.w) % 7u));
      d[g] = a.wzyx;
    })",
                    GetParam(), In, 4 * 32, 4, true);
}

INSTANTIATE_TEST_SUITE_P(Widths, DxilPipelineExec, testing::Values(4u, 8u),
                         [](const auto &I) {
                           return "W" + std::to_string(I.param);
                         });

} // namespace
