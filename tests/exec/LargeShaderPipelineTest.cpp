//===- LargeShaderPipelineTest.cpp - The JIT's pipeline for huge shaders --===//
//
// Shaders whose largest function has more than -s2l-large-shader-blocks
// blocks get the cheap pipeline and -O0 code generation at -O1..-O3
// (docs/performance.md, "JIT latency"). The generated if/else chain of
// s2l-large-bench, run through both pipelines (the threshold moved below
// and above the shader's size), must compute what a C++ model of it does.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace spirv2llvm;

namespace {

constexpr unsigned Ifs = 120; // 361 blocks
constexpr uint32_t Invocations = 1024;

std::string ifChain() {
  std::string S = "#version 450\nlayout(local_size_x = 64) in;\n"
                  "layout(set = 0, binding = 0) buffer Data { uint v[]; };\n"
                  "void main() {\n  uint i = gl_GlobalInvocationID.x;\n"
                  "  uint x = v[i];\n";
  for (unsigned K = 0; K < Ifs; ++K)
    S += llvm::formatv("  if (((x >> {0}u) & 1u) != 0u) x = x * 3u + {1}u;\n"
                       "  else x = (x ^ {1}u) + 7u;\n",
                       K % 31, K + 1)
             .str();
  return S + "  v[i] = x;\n}\n";
}

uint32_t model(uint32_t X) {
  for (unsigned K = 0; K < Ifs; ++K)
    X = ((X >> (K % 31)) & 1u) ? X * 3u + (K + 1) : (X ^ (K + 1)) + 7u;
  return X;
}

void setLargeShaderBlocks(unsigned N) {
  auto &Opts = llvm::cl::getRegisteredOptions();
  auto It = Opts.find("s2l-large-shader-blocks");
  ASSERT_NE(It, Opts.end());
  static_cast<llvm::cl::opt<unsigned> *>(It->second)->setValue(N);
}

void runAndCheck(unsigned OptLevel) {
  std::string Src = ifChain();
  TranslateOptions O;
  O.Kind = InputKind::Glsl;
  O.ShaderStage = Stage::Compute;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Src.data()),
                              Src.size()),
      "ifs.comp", O);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  auto S = ComputeShader::create(std::move(*T), OptLevel);
  ASSERT_TRUE(S.ok()) << S.status().message();
  std::vector<uint32_t> Data(Invocations);
  for (uint32_t I = 0; I < Invocations; ++I)
    Data[I] = I * 2654435761u;
  std::vector<uint32_t> Want(Invocations);
  for (uint32_t I = 0; I < Invocations; ++I)
    Want[I] = model(Data[I]);
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  ASSERT_TRUE((*S)->dispatch({Invocations / 64, 1, 1}, R).ok());
  for (uint32_t I = 0; I < Invocations; ++I)
    ASSERT_EQ(Data[I], Want[I]) << "invocation " << I;
}

TEST(LargeShaderPipeline, CheapPipelineComputesTheSame) {
  setLargeShaderBlocks(100);
  runAndCheck(2);
  runAndCheck(1);
  setLargeShaderBlocks(2000);
}

TEST(LargeShaderPipeline, DefaultPipelineComputesTheSame) {
  setLargeShaderBlocks(1000000);
  runAndCheck(2);
  setLargeShaderBlocks(2000);
}

} // namespace
