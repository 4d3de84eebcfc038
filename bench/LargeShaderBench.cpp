//===- LargeShaderBench.cpp - One huge shader, end to end, vs lavapipe ----===//
//
// s2l-large-bench generates a compute shader with N if/else statements on
// per-invocation conditions (default 5,000: 1 + 3N = 15,001 blocks in one
// function, the size machine-generated and uber-shaders reach), compiles it
// with glslang, and times one whole run on each side:
//   - spirv2llvm: translate (validation, canonicalization, analyses, IR),
//     JIT (LLVM codegen at -O<n>) and one dispatch;
//   - lavapipe: pipeline creation, the first dispatch (where lavapipe
//     compiles the shader) and the copy back, with Mesa's shader disk cache
//     off (MESA_SHADER_CACHE_DISABLE), so that it compiles too.
// It then checks that both wrote the same buffer. The numbers are in
// docs/performance.md; timing is never a pass/fail test.
//
//===----------------------------------------------------------------------===//
#include "BenchUtil.h"
#include "VulkanComputeRunner.h"

#include "frontend/Frontend.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include <sys/resource.h>

using namespace llvm;
using namespace spirv2llvm;
using namespace spirv2llvm::bench;

namespace {

cl::opt<unsigned> Ifs("ifs", cl::desc("if/else statements (default 5000)"),
                      cl::init(5000));
cl::opt<unsigned> OptLevel("O", cl::desc("LLVM optimization level"),
                           cl::init(2), cl::Prefix);
cl::opt<unsigned> Threads("dispatch-threads",
                          cl::desc("dispatch threads (0: all)"),
                          cl::init(0));
cl::opt<bool> SkipLavapipe("no-lavapipe", cl::desc("time spirv2llvm only"));
cl::opt<std::string> DumpSpirv("dump-spirv",
                               cl::desc("write the generated module here"),
                               cl::init(""));

constexpr uint32_t Invocations = 4096, LocalSize = 64;

/// User + system CPU ms of this process and its reaped children (the
/// translation's canonicalization child, ConcurrentTranslate.cpp): on a
/// shared machine the wall times move with the load, the CPU time less.
double cpuMs() {
  double Ms = 0;
  for (int Who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage U;
    getrusage(Who, &U);
    Ms += (U.ru_utime.tv_sec + U.ru_stime.tv_sec) * 1e3 +
          (U.ru_utime.tv_usec + U.ru_stime.tv_usec) / 1e3;
  }
  return Ms;
}

/// The shader: each statement tests a different bit of the running value,
/// so every branch is varying and neither side can fold it away.
std::string generateGlsl(unsigned N) {
  std::string S = "#version 450\nlayout(local_size_x = " +
                  std::to_string(LocalSize) +
                  ") in;\n"
                  "layout(set = 0, binding = 0) buffer Data { uint v[]; };\n"
                  "void main() {\n"
                  "  uint i = gl_GlobalInvocationID.x;\n"
                  "  uint x = v[i];\n";
  for (unsigned K = 0; K < N; ++K)
    S += formatv("  if (((x >> {0}u) & 1u) != 0u) x = x * 3u + {1}u;\n"
                 "  else x = (x ^ {1}u) + 7u;\n",
                 K % 31, K + 1)
             .str();
  S += "  v[i] = x;\n}\n";
  return S;
}

} // namespace

int main(int argc, char **argv) {
  setBenchProgram("s2l-large-bench");
  cl::ParseCommandLineOptions(argc, argv,
                              "one huge shader end to end, vs lavapipe\n");
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  frontend::GlslOptions G;
  G.Stage = frontend::ShaderStage::Compute;
  G.TargetEnv = SPV_ENV_VULKAN_1_3;
  G.FileName = "ifs.comp";
  auto T0 = Clock::now();
  std::vector<uint32_t> Words =
      orFail(frontend::compileGlsl(generateGlsl(Ifs), G), "glslang");
  double GlslangMs = msSince(T0);
  if (!DumpSpirv.empty()) {
    std::error_code EC;
    raw_fd_ostream Out(DumpSpirv, EC);
    if (EC)
      fail(DumpSpirv + ": " + EC.message());
    Out.write(reinterpret_cast<const char *>(Words.data()), Words.size() * 4);
  }
  std::vector<uint8_t> Init(Invocations * 4);
  for (uint32_t I = 0; I < Invocations; ++I) {
    uint32_t V = I * 2654435761u;
    std::memcpy(&Init[I * 4], &V, 4);
  }
  outs() << formatv("{0} ifs, {1} SPIR-V words (glslang {2:F0} ms)\n", Ifs,
                    Words.size(), GlslangMs);

  // spirv2llvm, end to end.
  std::vector<uint8_t> Mine = Init;
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Words.data()),
                          Words.size() * 4);
  T0 = Clock::now();
  double Cpu0 = cpuMs();
  TranslateOptions Opts;
  Opts.Width = defaultComputeWidth();
  Translation T =
      orFail(translateBytes(Bytes, "ifs.spv", Opts), "translating");
  double XlateMs = msSince(T0), XlateCpu = cpuMs() - Cpu0;
  std::unique_ptr<ComputeShader> S =
      orFail(ComputeShader::create(std::move(T), OptLevel), "compiling");
  double CompileMs = msSince(T0), CompileCpu = cpuMs() - Cpu0;
  DispatchResources Res;
  Res.bind(0, 0, Mine.data(), Mine.size());
  orFail(S->dispatch({Invocations / LocalSize, 1, 1}, Res, Threads),
         "dispatching");
  double S2lMs = msSince(T0), S2lCpu = cpuMs() - Cpu0;
  outs() << formatv("spirv2llvm -O{0}: translate {1:F0} ms, + JIT {2:F0} ms, "
                    "+ dispatch = {3:F0} ms end to end\n",
                    unsigned(OptLevel), XlateMs, CompileMs - XlateMs, S2lMs)
         << formatv("spirv2llvm CPU: translate {0:F0} ms, JIT {1:F0} ms, "
                    "end to end {2:F0} ms\n",
                    XlateCpu, CompileCpu - XlateCpu, S2lCpu);
  if (SkipLavapipe)
    return 0;

  auto Lvp = orFail(vk::VulkanComputeRunner::create(), "lavapipe");
  vk::VkDispatch D;
  D.Spirv = Words;
  D.Buffers.push_back(vk::VkBufferSpec{0, 0, false, Init});
  D.GroupsX = Invocations / LocalSize;
  T0 = Clock::now();
  Cpu0 = cpuMs();
  orFail(Lvp->run(D), "lavapipe");
  double LvpMs = msSince(T0), LvpCpu = cpuMs() - Cpu0;
  bool Agree = D.Buffers[0].Data == Mine;
  outs() << formatv("lavapipe ({0}): {1:F0} ms end to end, CPU {2:F0} ms\n",
                    Lvp->deviceName(), LvpMs, LvpCpu)
         << formatv("outputs agree: {0}; spirv2llvm / lavapipe time: {1:F2}\n",
                    Agree ? "yes" : "NO", S2lMs / LvpMs);
  return Agree ? 0 : 1;
}
