//===- S2lBench.cpp - spirv2llvm against lavapipe, shader by shader -------===//
//
// s2l-bench runs every shader of bench/shaders/ (the table is in
// BenchCases.cpp) on spirv2llvm's compute runtime and on Mesa's lavapipe with
// the same SPIR-V and the same input bytes, at 1 thread and at all cores,
// and prints invocations per second, their ratio, whether the outputs agree,
// compile times and peak memory. docs/performance.md explains the columns.
//
// Fairness:
//  - lavapipe reads LP_NUM_THREADS (its compute thread pool) when its
//    screen is created, so the program creates two Vulkan instances, one
//    with LP_NUM_THREADS=1 and one with all cores, before anything else.
//  - Timed dispatches alternate lavapipe, spirv2llvm, lavapipe, ... so
//    frequency changes and noise from other processes hit both alike; each
//    side reports its median.
//  - The plain C++ version of each shader (bench/cpp/, clang -O3) runs in
//    the same alternation, on the same inputs, with its workgroups spread
//    over the same threads: the ceiling column.
//  - Both sides reuse everything between dispatches (lavapipe: the
//    recorded command buffer; spirv2llvm: the compiled shader) and time
//    one dispatch to completion on the calling thread.
//
//===----------------------------------------------------------------------===//
#include "BenchCases.h"
#include "BenchUtil.h"
#include "ProcessMemory.h"
#include "VulkanComputeRunner.h"
#include "cpp/Kernels.h"

#include "frontend/Frontend.h"
#include "runtime/ThreadPool.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <thread>

using namespace llvm;
using namespace spirv2llvm;
using namespace spirv2llvm::bench;

namespace {

cl::opt<unsigned> Width("width",
                        cl::desc("spirv2llvm invocations per call: 4, 8, 16 "
                                 "(default: the runtime's default)"),
                        cl::init(0));
cl::opt<double> Seconds("seconds",
                        cl::desc("time budget per shader, side and thread "
                                 "count (default 0.4)"),
                        cl::init(0.4));
cl::opt<unsigned> Scale("scale", cl::desc("problem size multiplier"),
                        cl::init(1));
cl::opt<unsigned> MaxThreads("all-threads",
                             cl::desc("the 'all cores' thread count "
                                      "(default: hardware concurrency)"),
                             cl::init(0));
cl::opt<std::string> Filter("filter",
                            cl::desc("run only shaders whose name contains "
                                     "this"),
                            cl::init(""));
cl::opt<std::string> ShaderDir("shader-dir", cl::desc("bench shaders"),
                               cl::init(S2L_BENCH_SHADER_DIR));
cl::opt<bool> NoSpeculate("no-speculate-small-blocks",
                           cl::desc("keep the any-lane branch around every "
                                    "divergent block"));
cl::opt<bool> NoContract("no-contract",
                          cl::desc("no fused multiply-adds (A/B of "
                                   "contraction, TranslateOptions::Contract)"));
cl::opt<bool> NoCpp("no-cpp", cl::desc("skip the plain C++ column"));
cl::opt<bool> Avx2Host(
    "avx2-host",
    cl::desc("measure as on a host with AVX2 but no AVX-512: spirv2llvm "
             "generates Haswell code (-s2l-jit-cpu=haswell), lavapipe runs "
             "without AVX-512 (Mesa's GALLIUM_OVERRIDE_CPU_CAPS=avx) and "
             "the C++ column is compiled with -march=haswell"));
cl::opt<unsigned> OptLevel("O", cl::desc("LLVM optimization level (default 2)"),
                           cl::init(2), cl::Prefix);

std::unique_ptr<vk::VulkanComputeRunner> lavapipeWithThreads(unsigned N) {
  setenv("LP_NUM_THREADS", std::to_string(N).c_str(), 1);
  return orFail(vk::VulkanComputeRunner::create(),
                "cannot create the lavapipe runner");
}

struct Row {
  std::string Name, Kind;
  double XlateMs = 0, CompileMs = 0, LvpFirstMs = 0, LvpSteadyMs = 0;
  double S2lPeakMb = 0, LvpPeakMb = 0;
  std::vector<double> S2lRate, LvpRate; ///< per thread count, invocations/s
  std::vector<double> CppRate;          ///< empty without a C++ kernel
  std::string Agree;                    ///< "yes" or the first difference
  std::string CppAgree;                 ///< the same for the C++ kernel
};

/// Runs workgroups [0, Groups) of a C++ kernel on \p Threads threads (the
/// pool spirv2llvm's runtime uses), each taking batches from a counter.
void runCpp(CppKernel K, const CppArgs &A, uint32_t Groups,
            unsigned Threads) {
  if (Threads <= 1)
    return K(A, 0, Groups);
  uint32_t Batch = std::max<uint32_t>(1, Groups / (Threads * 16));
  std::atomic<uint32_t> Next{0};
  runOnWorkers(Threads, [&](unsigned) {
    for (;;) {
      uint32_t First = Next.fetch_add(Batch, std::memory_order_relaxed);
      if (First >= Groups)
        return;
      K(A, First, std::min(Groups, First + Batch));
    }
  });
}

/// "yes", or what differs between \p Mine and \p Ref in the compared
/// buffers.
std::string agreement(const BenchCase &C,
                      const std::vector<std::vector<uint8_t>> &Mine,
                      const std::vector<vk::VkBufferSpec> &Ref) {
  for (size_t I = 0; I < C.Buffers.size(); ++I) {
    if (C.Buffers[I].Cmp.K == Compare::None)
      continue;
    std::string Msg = compareBuffers(C.Buffers[I].Cmp, Mine[I], Ref[I].Data);
    if (!Msg.empty())
      return "NO: binding " + std::to_string(C.Buffers[I].Binding) + ": " +
             Msg;
  }
  return "yes";
}

} // namespace

int main(int argc, char **argv) {
  setBenchProgram("s2l-bench");
  cl::ParseCommandLineOptions(argc, argv,
                              "spirv2llvm against lavapipe, per shader\n");
  if (Avx2Host) {
    // Before the Vulkan instances: Mesa reads its override at start-up.
    setenv("GALLIUM_OVERRIDE_CPU_CAPS", "avx", 1);
    auto &Opts = cl::getRegisteredOptions();
    auto It = Opts.find("s2l-jit-cpu");
    if (It == Opts.end() || It->second->addOccurrence(0, "s2l-jit-cpu",
                                                      "haswell"))
      fail("--avx2-host: the JIT's -s2l-jit-cpu option is missing");
  }
  auto CppKernelFor = Avx2Host ? avx2::cppKernel : native::cppKernel;
  const char *CppFlags =
      Avx2Host ? avx2::cppKernelFlags() : native::cppKernelFlags();
  unsigned All = MaxThreads ? MaxThreads
                            : std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> ThreadCounts = {1};
  if (All > 1)
    ThreadCounts.push_back(All);

  // Both lavapipe instances first: LP_NUM_THREADS is read at creation.
  std::vector<std::unique_ptr<vk::VulkanComputeRunner>> Lvp;
  for (unsigned T : ThreadCounts)
    Lvp.push_back(lavapipeWithThreads(T));

  outs() << "machine: " << cpuModel() << ", " << All << " threads"
         << (Avx2Host ? " (as an AVX2 host: --avx2-host)" : "") << "\n"
         << "lavapipe: " << Lvp.back()->deviceName() << "\n";

  std::vector<Row> Rows;
  bool AllAgree = true;
  for (BenchCase &C : benchCases(Scale)) {
    if (!StringRef(C.Name).contains(Filter))
      continue;
    Row R;
    R.Name = C.Name;
    R.Kind = C.Kind;
    std::string Path = ShaderDir + "/" + C.File;
    auto Text = orFail(errorOrToExpected(MemoryBuffer::getFile(Path)), Path);
    frontend::GlslOptions G;
    G.Stage = frontend::ShaderStage::Compute;
    G.TargetEnv = SPV_ENV_VULKAN_1_3;
    G.FileName = C.File;
    std::vector<uint32_t> Words =
        orFail(frontend::compileGlsl(Text->getBuffer(), G), Path);
    ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Words.data()),
                            Words.size() * 4);

    // spirv2llvm: translate, then optimize and compile to machine code.
    std::unique_ptr<ComputeShader> S;
    {
      PeakMemory Mem;
      TranslateOptions Opts;
      Opts.Width = Width ? unsigned(Width) : defaultComputeWidth();
      Opts.SpeculateSmallBlocks = !NoSpeculate;
      Opts.Contract = !NoContract;
      auto T0 = Clock::now();
      Translation T = orFail(translateBytes(Bytes, C.Name + ".spv", Opts),
                             "translating " + C.Name);
      R.XlateMs = msSince(T0);
      S = orFail(ComputeShader::create(std::move(T), OptLevel),
                 "compiling " + C.Name);
      R.CompileMs = msSince(T0);
      R.S2lPeakMb = Mem.growthMb();
    }
    std::vector<std::vector<uint8_t>> S2lData;
    DispatchResources Res;
    for (BenchBuffer &B : C.Buffers)
      S2lData.push_back(B.Init);
    for (size_t I = 0; I < C.Buffers.size(); ++I)
      Res.bind(0, C.Buffers[I].Binding, S2lData[I].data(), S2lData[I].size());
    Res.PushConstants = C.Push;

    // Plain C++: its own copy of the buffers.
    CppKernel Cpp = NoCpp ? nullptr : CppKernelFor(C.Name.c_str());
    std::vector<std::vector<uint8_t>> CppData;
    std::vector<uint8_t *> CppPtrs;
    for (BenchBuffer &B : C.Buffers)
      CppData.push_back(B.Init);
    for (auto &Data : CppData)
      CppPtrs.push_back(Data.data());
    CppArgs CA{CppPtrs.data(), C.Push.data(), C.Groups[0], C.Groups[1]};
    uint32_t CppGroups = C.Groups[0] * C.Groups[1] * C.Groups[2];

    // lavapipe: pipeline, buffers, first dispatch (where it compiles).
    vk::VkDispatch D;
    D.Spirv = Words;
    for (BenchBuffer &B : C.Buffers)
      D.Buffers.push_back(vk::VkBufferSpec{0, B.Binding, false, B.Init});
    D.PushConstants = C.Push;
    D.GroupsX = C.Groups[0];
    D.GroupsY = C.Groups[1];
    D.GroupsZ = C.Groups[2];
    std::vector<std::unique_ptr<vk::VkPreparedDispatch>> Prep;
    for (size_t I = 0; I < Lvp.size(); ++I) {
      bool Measure = I + 1 == Lvp.size();
      uint64_t BufferBytes = 0;
      for (BenchBuffer &B : C.Buffers)
        BufferBytes += B.Init.size();
      PeakMemory Mem;
      auto T0 = Clock::now();
      Prep.push_back(orFail(Lvp[I]->prepare(D), "lavapipe: " + C.Name));
      Prep.back()->upload(D);
      orFail(Prep.back()->submitAndWait(), "lavapipe: " + C.Name);
      if (Measure) {
        R.LvpFirstMs = msSince(T0);
        // The device buffers are lavapipe's copy of inputs we also hold.
        R.LvpPeakMb = std::max(0.0, Mem.growthMb() - BufferBytes / 1048576.0);
      }
    }

    for (size_t TI = 0; TI < ThreadCounts.size(); ++TI) {
      unsigned Threads = ThreadCounts[TI];
      orFail(S->dispatch(C.Groups, Res, Threads), "spirv2llvm: " + C.Name);
      if (Cpp)
        runCpp(Cpp, CA, CppGroups, Threads);
      std::vector<double> SMs, LMs, CMs;
      auto Start = Clock::now();
      double Budget = (Cpp ? 3 : 2) * Seconds * 1000;
      while ((msSince(Start) < Budget && SMs.size() < 1000) ||
             SMs.size() < 5) {
        auto T0 = Clock::now();
        orFail(Prep[TI]->submitAndWait(), "lavapipe: " + C.Name);
        LMs.push_back(msSince(T0));
        T0 = Clock::now();
        orFail(S->dispatch(C.Groups, Res, Threads), "spirv2llvm: " + C.Name);
        SMs.push_back(msSince(T0));
        if (Cpp) {
          T0 = Clock::now();
          runCpp(Cpp, CA, CppGroups, Threads);
          CMs.push_back(msSince(T0));
        }
      }
      R.S2lRate.push_back(C.Invocations / (median(SMs) / 1000));
      if (Cpp)
        R.CppRate.push_back(C.Invocations / (median(CMs) / 1000));
      R.LvpRate.push_back(C.Invocations / (median(LMs) / 1000));
      if (TI + 1 == ThreadCounts.size())
        R.LvpSteadyMs = median(LMs);
    }

    Prep.back()->download(D);
    R.Agree = agreement(C, S2lData, D.Buffers);
    AllAgree &= R.Agree == "yes";
    if (Cpp)
      R.CppAgree = agreement(C, CppData, D.Buffers);
    errs() << "  " << C.Name << " done\n";
    Rows.push_back(std::move(R));
  }

  unsigned W = Width ? unsigned(Width) : defaultComputeWidth();
  outs() << formatv("spirv2llvm: W = {0}, -O{1}\n\n", W, unsigned(OptLevel));
  outs() << "C++: " << CppFlags << "\n\n";
  outs() << "| shader | kind | threads | s2l Minv/s | lavapipe Minv/s | "
            "ratio | outputs agree | C++ Minv/s | s2l / C++ | C++ agrees "
            "|\n|---|---|--:|--:|--:|--:|---|--:|--:|---|\n";
  std::vector<double> LogSum(ThreadCounts.size(), 0.0);
  std::vector<double> CppLogSum(ThreadCounts.size(), 0.0);
  size_t CppRows = 0;
  for (const Row &R : Rows) {
    CppRows += !R.CppRate.empty();
    for (size_t TI = 0; TI < ThreadCounts.size(); ++TI) {
      double Ratio = R.S2lRate[TI] / R.LvpRate[TI];
      LogSum[TI] += std::log(Ratio);
      std::string CppCols = "- | - | -";
      if (!R.CppRate.empty()) {
        double CppRatio = R.S2lRate[TI] / R.CppRate[TI];
        CppLogSum[TI] += std::log(CppRatio);
        CppCols = formatv("{0:f1} | {1:f2} | {2}", R.CppRate[TI] / 1e6,
                          CppRatio, R.CppAgree);
      }
      outs() << formatv(
          "| {0} | {1} | {2} | {3:f1} | {4:f1} | {5:f2} | {6} | {7} |\n",
          R.Name, R.Kind, ThreadCounts[TI], R.S2lRate[TI] / 1e6,
          R.LvpRate[TI] / 1e6, Ratio, R.Agree, CppCols);
    }
  }
  outs() << "\n";
  for (size_t TI = 0; TI < ThreadCounts.size(); ++TI) {
    outs() << formatv("geometric mean of ratios at {0} thread(s): {1:f2}",
                      ThreadCounts[TI],
                      Rows.empty() ? 0.0 : std::exp(LogSum[TI] / Rows.size()));
    if (CppRows)
      outs() << formatv("; s2l / C++: {0:f2}",
                        std::exp(CppLogSum[TI] / CppRows));
    outs() << "\n";
  }
  outs() << "\n| shader | translate ms | s2l compile ms | lavapipe first "
            "dispatch ms (steady) | s2l peak MB | lavapipe peak MB |\n"
            "|---|--:|--:|--:|--:|--:|\n";
  for (const Row &R : Rows)
    outs() << formatv("| {0} | {1:f1} | {2:f1} | {3:f1} ({4:f1}) | {5:f1} | "
                      "{6:f1} |\n",
                      R.Name, R.XlateMs, R.CompileMs, R.LvpFirstMs,
                      R.LvpSteadyMs, R.S2lPeakMb, R.LvpPeakMb);
  return AllAgree ? 0 : 1;
}
