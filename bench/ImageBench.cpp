//===- ImageBench.cpp - Image sampling: spirv2llvm against lavapipe -------===//
//
// s2l-image-bench runs the image shaders of bench/shaders/images/ (bilinear
// RGBA8 sampling, trilinear over a mip chain, texelFetch, imageStore) on
// spirv2llvm's compute runtime and on Mesa's lavapipe with the same SPIR-V,
// the same texels and the same sampler, at 1 thread and at all cores, and
// prints image operations per second, their ratio and how far the outputs
// are apart. Then it times s2l_image_op called directly from C++, one
// operation after another, to split the JIT's time per operation into the
// call and the format work (docs/performance.md, "Images").
//
// Fairness is S2lBench.cpp's: two lavapipe instances (LP_NUM_THREADS is
// read when the screen is created), timed dispatches alternating lavapipe
// and spirv2llvm, medians, everything reused between dispatches.
//
//===----------------------------------------------------------------------===//
#include "BenchUtil.h"
#include "VulkanComputeRunner.h"

#include "frontend/Frontend.h"
#include "image/ImageOpsInternal.h"
#include "image/TexelCodecInternal.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/ImageFormat.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <thread>
#include <time.h>

using namespace llvm;
using namespace spirv2llvm;
using namespace spirv2llvm::vk;
using namespace spirv2llvm::bench;

namespace {

cl::opt<unsigned> Width("width",
                        cl::desc("spirv2llvm invocations per call: 4, 8, 16 "
                                 "(default: the runtime's default)"),
                        cl::init(0));
cl::opt<double> Seconds("seconds",
                        cl::desc("time budget per case, side and thread "
                                 "count (default 0.4; at least --reps "
                                 "dispatches each)"),
                        cl::init(0.4));
cl::opt<unsigned> Reps("reps",
                       cl::desc("minimum timed dispatches per side "
                                "(default 5)"),
                       cl::init(5));
cl::opt<unsigned> Size("size",
                       cl::desc("texture side in texels (default "
                                "1024; a power of two)"),
                       cl::init(1024));
cl::opt<unsigned> MaxThreads("all-threads",
                             cl::desc("the 'all cores' thread count "
                                      "(default: hardware concurrency)"),
                             cl::init(0));
cl::opt<std::string> Filter("filter",
                            cl::desc("run only cases whose name contains "
                                     "this"),
                            cl::init(""));
cl::opt<std::string> ShaderDir("shader-dir", cl::desc("image bench shaders"),
                               cl::init(S2L_BENCH_SHADER_DIR "/images"));
cl::opt<bool> NoCallCost("no-call-cost",
                         cl::desc("skip timing s2l_image_op from C++"));
cl::opt<unsigned> OptLevel("O", cl::desc("LLVM optimization level (default 2)"),
                           cl::init(2), cl::Prefix);

constexpr uint32_t Rgba8 = uint32_t(Format::R8G8B8A8_UNORM);

/// The sampler of the filtered cases: linear filters, clamp to edge;
/// \p LinearMips selects VK_SAMPLER_MIPMAP_MODE_LINEAR.
s2l_sampler linearSampler(bool LinearMips, uint32_t Levels) {
  s2l_sampler S{};
  S.mag_filter = S.min_filter = 1;
  S.mipmap_mode = LinearMips ? 1 : 0;
  for (uint32_t &A : S.address_mode)
    A = 2; // VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
  S.max_lod = float(Levels);
  S.max_anisotropy = 1;
  return S;
}

/// Random RGBA8 texels for every level of \p S (fixed seed: both sides
/// sample the same bytes).
std::vector<uint8_t> randomTexels(const VkImageSpec &S, uint32_t Seed) {
  uint64_t Bytes = 0;
  orFail(packedImageLayout(S, &Bytes), "image layout");
  std::vector<uint8_t> Out(Bytes);
  std::mt19937 G(Seed);
  for (size_t I = 0; I < Out.size(); I += 4) {
    uint32_t V = G();
    std::memcpy(&Out[I], &V, std::min<size_t>(4, Out.size() - I));
  }
  return Out;
}

struct ImageCase {
  std::string Name, File, Kind;
  VkImageSpec Image;                ///< binding 0
  uint32_t OutVec4s = 0;            ///< binding 1: vec4 results (0: none)
  uint32_t Invocations[2] = {0, 0}; ///< x, y
  uint64_t Ops = 0;                 ///< image operations per dispatch
  /// Largest difference allowed: per float of the output buffer, or per
  /// byte of the image for stores.
  double Tolerance = 0;
};

std::vector<ImageCase> imageCases(uint32_t N) {
  std::vector<ImageCase> Cases;
  auto Sampled = [&](const char *Name, const char *File, const char *Kind,
                     uint32_t Levels, double Tolerance) {
    ImageCase C;
    C.Name = Name;
    C.File = File;
    C.Kind = Kind;
    C.Image.Kind = VkImageKind::CombinedImageSampler;
    C.Image.Format = Rgba8;
    C.Image.Width = C.Image.Height = N;
    C.Image.Levels = Levels;
    C.Image.Sampler = linearSampler(Levels > 1, Levels);
    C.Image.Data = randomTexels(C.Image, 7 + Levels);
    // Each invocation covers a 2x2 block of level 0: 4 operations.
    C.Invocations[0] = C.Invocations[1] = N / 2;
    C.OutVec4s = (N / 2) * (N / 2);
    C.Ops = uint64_t(C.OutVec4s) * 4;
    C.Tolerance = Tolerance;
    Cases.push_back(std::move(C));
  };
  uint32_t Chain = 1 + uint32_t(std::log2(double(N)));
  // A filtered value may differ by a few 8-bit steps: lavapipe filters
  // RGBA8 in 8-bit fixed point (weights rounded to 1/256); the sum of 4.
  Sampled("bilinear", "bilinear.comp", "textureLod, linear, RGBA8", 1,
          4 * 2.0 / 255);
  Sampled("trilinear", "trilinear.comp", "textureLod, linear mips", Chain,
          4 * 3.0 / 255);
  // UNORM to float: lavapipe may multiply by 1/255 (one ulp from the exact
  // quotient); the sum of 4 values in [0, 1].
  Sampled("fetch", "fetch.comp", "texelFetch, RGBA8", 1, 4e-6);

  ImageCase S;
  S.Name = "store";
  S.File = "store.comp";
  S.Kind = "imageStore, rgba8";
  S.Image.Kind = VkImageKind::StorageImage;
  S.Image.Format = Rgba8;
  S.Image.Width = S.Image.Height = N;
  S.Image.Data.assign(size_t(N) * N * 4, 0);
  S.Invocations[0] = S.Invocations[1] = N;
  S.Ops = uint64_t(N) * N;
  S.Tolerance = 1; // float-to-UNORM rounding may differ by one step
  Cases.push_back(std::move(S));
  return Cases;
}

/// The largest difference between two outputs (floats or bytes).
double maxDifference(const std::vector<uint8_t> &A,
                     const std::vector<uint8_t> &B, bool Floats) {
  if (A.size() != B.size())
    return INFINITY;
  double Max = 0;
  if (!Floats) {
    for (size_t I = 0; I < A.size(); ++I)
      Max = std::max(Max, std::abs(double(A[I]) - double(B[I])));
    return Max;
  }
  for (size_t I = 0; I + 4 <= A.size(); I += 4) {
    float X, Y;
    std::memcpy(&X, &A[I], 4);
    std::memcpy(&Y, &B[I], 4);
    if (std::isnan(X) != std::isnan(Y))
      return INFINITY;
    Max = std::max(Max, std::abs(double(X) - double(Y)));
  }
  return Max;
}

/// Sum of the output's floats (or bytes): the checksum shown in the table.
double checksum(const std::vector<uint8_t> &A, bool Floats) {
  double Sum = 0;
  if (!Floats) {
    for (uint8_t V : A)
      Sum += V;
    return Sum;
  }
  for (size_t I = 0; I + 4 <= A.size(); I += 4) {
    float X;
    std::memcpy(&X, &A[I], 4);
    Sum += X;
  }
  return Sum;
}

struct Row {
  std::string Name, Kind;
  std::vector<double> S2lRate, LvpRate; ///< per thread count, ops/s
  /// The same per second of process CPU time (all threads).
  std::vector<double> S2lCpuRate, LvpCpuRate;
  double S2lSum = 0, LvpSum = 0, MaxDiff = 0, Tolerance = 0;
  double CompileMs = 0;
};

/// Times \p Calls calls of s2l_image_op with operands from \p Make(i) and
/// returns nanoseconds of thread CPU time per call (the median of 5 runs).
template <typename MakeOps>
double nsPerCall(const s2l_image &Img, const s2l_sampler *Smp, unsigned Calls,
                 MakeOps Make) {
  std::vector<s2l_image_operands> Ops(Calls);
  for (unsigned I = 0; I < Calls; ++I)
    Ops[I] = Make(I);
  std::vector<double> Runs;
  uint32_t Sink = 0;
  for (int R = 0; R < 5; ++R) {
    double T0 = threadCpuNs();
    for (unsigned I = 0; I < Calls; ++I) {
      uint32_t Result[4];
      s2l_image_op(&Ops[I], &Img, Smp, Result);
      Sink += Result[0];
    }
    Runs.push_back((threadCpuNs() - T0) / Calls);
  }
  // Keep the results alive so the calls are not dropped.
  if (Sink == 0x12345678)
    errs() << "";
  return median(Runs);
}

/// s2l_image_op from C++ on the cases' images: the cost of one call by
/// operation, without the JIT around it.
void printCallCost(const std::vector<ImageCase> &Cases, uint32_t N) {
  const unsigned Calls = 1u << 18;
  outs() << "\n### s2l_image_op called from C++ (1 thread, " << Calls
         << " calls per run, thread CPU time, median of 5)\n\n"
            "| operation | ns per call |\n"
            "|---|--:|\n";
  auto Find = [&](StringRef Name) -> const ImageCase * {
    for (const ImageCase &C : Cases)
      if (C.Name == Name)
        return &C;
    return nullptr;
  };
  std::vector<uint8_t> Store;
  auto Layout = [&](const ImageCase &C, std::vector<uint8_t> &Copy) {
    s2l_image L = orFail(packedImageLayout(C.Image), "layout");
    Copy = C.Image.Data;
    L.data = Copy.data();
    return L;
  };
  // The same coordinates as the shaders: invocation I of a row-major grid
  // of N/2 x N/2 samples its 2x2 block.
  uint32_t Half = N / 2;
  auto Coord = [&](unsigned I, float *Out) {
    uint32_t X = I % Half, Y = (I / Half) % Half;
    Out[0] = (X * 2.0f + 0.3f) / N;
    Out[1] = (Y * 2.0f + 0.7f) / N;
  };
  auto Base = [](uint32_t Op) {
    s2l_image_operands O{};
    O.op = Op;
    O.dim = 1; // Dim2D
    O.kind = S2L_IMAGE_FLOAT;
    return O;
  };
  auto Print = [&](const char *What, double Ns) {
    outs() << formatv("| {0} | {1:f1} |\n", What, Ns);
  };
  if (const ImageCase *C = Find("fetch")) {
    std::vector<uint8_t> Copy;
    s2l_image L = Layout(*C, Copy);
    Print("query levels (the call and the switch)",
          nsPerCall(L, nullptr, Calls,
                    [&](unsigned) { return Base(S2L_IMAGE_OP_QUERY_LEVELS); }));
    Print("texelFetch RGBA8", nsPerCall(L, nullptr, Calls, [&](unsigned I) {
            s2l_image_operands O = Base(S2L_IMAGE_OP_FETCH);
            O.icoord[0] = int32_t(I % N);
            O.icoord[1] = int32_t((I / N) % N);
            return O;
          }));
  }
  for (const char *Name : {"bilinear", "trilinear"}) {
    const ImageCase *C = Find(Name);
    if (!C)
      continue;
    std::vector<uint8_t> Copy;
    s2l_image L = Layout(*C, Copy);
    bool Tri = C->Image.Levels > 1;
    s2l_sampler Nearest = C->Image.Sampler;
    Nearest.mag_filter = Nearest.min_filter = Nearest.mipmap_mode = 0;
    auto Sample = [&](unsigned I) {
      s2l_image_operands O = Base(S2L_IMAGE_OP_SAMPLE);
      O.flags = S2L_IMAGE_HAS_LOD;
      Coord(I, O.coord);
      O.lod = Tri ? 0.3f + 0.6f * float(I & 3) : 0.0f;
      return O;
    };
    if (!Tri)
      Print("textureLod, nearest, RGBA8",
            nsPerCall(L, &Nearest, Calls, Sample));
    Print(Tri ? "textureLod, trilinear, RGBA8" : "textureLod, bilinear, RGBA8",
          nsPerCall(L, &C->Image.Sampler, Calls, Sample));
  }
  if (const ImageCase *C = Find("store")) {
    std::vector<uint8_t> Copy;
    s2l_image L = Layout(*C, Copy);
    Print("imageStore rgba8", nsPerCall(L, nullptr, Calls, [&](unsigned I) {
            s2l_image_operands O = Base(S2L_IMAGE_OP_WRITE);
            O.storage_format = Rgba8;
            O.icoord[0] = int32_t(I % N);
            O.icoord[1] = int32_t((I / N) % N);
            float V[4] = {0.25f, 0.5f, float(I & 255) / 255, 1};
            std::memcpy(O.value, V, sizeof(V));
            return O;
          }));
  }
}

/// Times \p Body(i) for i in [0, N) on thread CPU time: ns per iteration,
/// median of 5 runs. Body returns a value that is summed so that the work
/// is not optimized away.
template <typename BodyFn> double nsPerIteration(unsigned N, BodyFn Body) {
  std::vector<double> Runs;
  float Sink = 0;
  for (int R = 0; R < 5; ++R) {
    double T0 = threadCpuNs();
    for (unsigned I = 0; I < N; ++I)
      Sink += Body(I);
    Runs.push_back((threadCpuNs() - T0) / N);
  }
  if (Sink == 1234.5f)
    errs() << "";
  return median(Runs);
}

/// The pieces of one bilinear RGBA8 sample, timed alone, against a
/// hand-written sample: where s2l_image_op's time goes.
void printSampleParts(const ImageCase &C, uint32_t N) {
  const unsigned Iters = 1u << 20;
  const uint8_t *Texels = C.Image.Data.data();
  const FormatInfo *Info = formatInfo(Format::R8G8B8A8_UNORM);
  outs() << "\n### Inside one bilinear RGBA8 sample (1 thread, thread CPU "
            "time, median of 5)\n\n| part | ns |\n|---|--:|\n";
  auto Print = [&](const char *What, double Ns) {
    outs() << formatv("| {0} | {1:f1} |\n", What, Ns);
  };
  volatile uint32_t FormatNumber = Rgba8; // not folded into a constant
  Print("formatInfo(RGBA8) (binary search, once per call)",
        nsPerIteration(Iters, [&](unsigned) {
          return float(formatInfo(Format(FormatNumber))->BlockBytes);
        }));
  Print("decodeTexelUnchecked, one RGBA8 texel (4 per bilinear sample)",
        nsPerIteration(Iters, [&](unsigned I) {
          Float4 T;
          spirv2llvm::detail::decodeTexelUnchecked(
              *Info, Texels + (I % (N * N)) * 4, T);
          return T[0] + T[3];
        }));
  s2l_image Desc = orFail(packedImageLayout(C.Image), "layout");
  Desc.data = const_cast<uint8_t *>(Texels);
  imageops::ImageAccess A;
  if (!A.init(Desc, S2L_IMAGE_FLOAT))
    fail("ImageAccess::init");
  Print("ImageAccess::load, one RGBA8 texel (bounds, address, decode)",
        nsPerIteration(Iters, [&](unsigned I) {
          imageops::Texel T;
          A.load(0, int32_t(I % N), int32_t((I / N) % N), 0, 0, T);
          return T[0] + T[3];
        }));
  // Exact UNORM8 values (c / 255 rounded once) from a table.
  float Unorm8[256];
  for (int V = 0; V < 256; ++V)
    Unorm8[V] = float(double(V) / 255.0);
  auto Texel = [&](int X, int Y, float *Out) {
    X = std::clamp(X, 0, int(N) - 1);
    Y = std::clamp(Y, 0, int(N) - 1);
    const uint8_t *P = Texels + (size_t(Y) * N + X) * 4;
    for (int K = 0; K < 4; ++K)
      Out[K] = Unorm8[P[K]];
  };
  Print("hand-written: one RGBA8 texel, table decode",
        nsPerIteration(Iters, [&](unsigned I) {
          float T[4];
          Texel(int(I % N), int((I / N) % N), T);
          return T[0] + T[3];
        }));
  uint32_t Half = N / 2;
  Print("hand-written: bilinear sample (clamp to edge, float weights)",
        nsPerIteration(Iters, [&](unsigned I) {
          float U = ((I % Half) * 2.0f + 0.3f) / N * N - 0.5f;
          float V = (((I / Half) % Half) * 2.0f + 0.7f) / N * N - 0.5f;
          float FU = std::floor(U), FV = std::floor(V);
          int X = int(FU), Y = int(FV);
          float A = U - FU, B = V - FV;
          float T00[4], T10[4], T01[4], T11[4];
          Texel(X, Y, T00);
          Texel(X + 1, Y, T10);
          Texel(X, Y + 1, T01);
          Texel(X + 1, Y + 1, T11);
          float Sum = 0;
          for (int K = 0; K < 4; ++K)
            Sum += (1 - B) * ((1 - A) * T00[K] + A * T10[K]) +
                   B * ((1 - A) * T01[K] + A * T11[K]);
          return Sum;
        }));
}

} // namespace

int main(int argc, char **argv) {
  setBenchProgram("s2l-image-bench");
  cl::ParseCommandLineOptions(argc, argv,
                              "image sampling: spirv2llvm against lavapipe\n");
  if (Size < 16 || (Size & (Size - 1)))
    fail("--size must be a power of two, at least 16");
  unsigned All = MaxThreads ? MaxThreads
                            : std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> ThreadCounts = {1};
  if (All > 1)
    ThreadCounts.push_back(All);

  // Both lavapipe instances first: LP_NUM_THREADS is read at creation.
  std::vector<std::unique_ptr<VulkanComputeRunner>> Lvp;
  for (unsigned T : ThreadCounts) {
    setenv("LP_NUM_THREADS", std::to_string(T).c_str(), 1);
    Lvp.push_back(orFail(VulkanComputeRunner::create(),
                         "cannot create the lavapipe runner"));
  }

  unsigned W = Width ? unsigned(Width) : defaultComputeWidth();
  outs() << "machine: " << cpuModel() << " (" << cpuVectorIsa() << "), " << All
         << " threads\n"
         << "lavapipe: " << Lvp.back()->deviceName() << "\n"
         << formatv("spirv2llvm: W = {0}, -O{1}; texture {2}x{2}\n\n", W,
                    unsigned(OptLevel), unsigned(Size));

  std::vector<ImageCase> Cases = imageCases(Size);
  std::vector<Row> Rows;
  bool AllAgree = true;
  for (ImageCase &C : Cases) {
    if (!StringRef(C.Name).contains(Filter))
      continue;
    Row R;
    R.Name = C.Name;
    R.Kind = C.Kind;
    R.Tolerance = C.Tolerance;
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

    // Push constants: 1 / size, then invocations per row.
    std::vector<uint8_t> Push(12);
    float Inv = 1.0f / float(Size);
    std::memcpy(&Push[0], &Inv, 4);
    std::memcpy(&Push[4], &Inv, 4);
    std::memcpy(&Push[8], &C.Invocations[0], 4);
    std::array<uint32_t, 3> Groups = {C.Invocations[0] / 8,
                                      C.Invocations[1] / 8, 1};

    std::unique_ptr<ComputeShader> S;
    {
      TranslateOptions Opts;
      Opts.Width = W;
      auto T0 = Clock::now();
      Translation T = orFail(translateBytes(Bytes, C.Name + ".spv", Opts),
                             "translating " + C.Name);
      S = orFail(ComputeShader::create(std::move(T), OptLevel),
                 "compiling " + C.Name);
      R.CompileMs = msSince(T0);
    }
    std::vector<uint8_t> S2lImage = C.Image.Data;
    std::vector<uint8_t> S2lOut(size_t(C.OutVec4s) * 16);
    s2l_image Desc = orFail(packedImageLayout(C.Image), "layout " + C.Name);
    Desc.data = S2lImage.data();
    DispatchResources Res;
    if (C.Image.Kind == VkImageKind::CombinedImageSampler)
      Res.bindCombinedImageSampler(0, 0, &Desc, &C.Image.Sampler);
    else
      Res.bindImage(0, 0, &Desc);
    if (C.OutVec4s)
      Res.bind(0, 1, S2lOut.data(), S2lOut.size());
    Res.PushConstants = Push;

    VkDispatch D;
    D.Spirv = Words;
    D.Images.push_back(C.Image);
    if (C.OutVec4s)
      D.Buffers.push_back(VkBufferSpec{0, 1, false, S2lOut});
    D.PushConstants = Push;
    D.GroupsX = Groups[0];
    D.GroupsY = Groups[1];
    std::vector<std::unique_ptr<VkPreparedDispatch>> Prep;
    for (auto &L : Lvp) {
      Prep.push_back(orFail(L->prepare(D), "lavapipe: " + C.Name));
      Prep.back()->upload(D);
      orFail(Prep.back()->submitAndWait(), "lavapipe: " + C.Name);
    }

    for (size_t TI = 0; TI < ThreadCounts.size(); ++TI) {
      unsigned Threads = ThreadCounts[TI];
      orFail(S->dispatch(Groups, Res, Threads), "spirv2llvm: " + C.Name);
      std::vector<double> SMs, LMs, SCpu, LCpu;
      auto Start = Clock::now();
      while ((msSince(Start) < 2 * Seconds * 1000 && SMs.size() < 1000) ||
             SMs.size() < Reps) {
        double C0 = processCpuMs();
        auto T0 = Clock::now();
        orFail(Prep[TI]->submitAndWait(), "lavapipe: " + C.Name);
        LMs.push_back(msSince(T0));
        double C1 = processCpuMs();
        LCpu.push_back(C1 - C0);
        T0 = Clock::now();
        orFail(S->dispatch(Groups, Res, Threads), "spirv2llvm: " + C.Name);
        SMs.push_back(msSince(T0));
        SCpu.push_back(processCpuMs() - C1);
      }
      R.S2lRate.push_back(C.Ops / (median(SMs) / 1000));
      R.LvpRate.push_back(C.Ops / (median(LMs) / 1000));
      R.S2lCpuRate.push_back(C.Ops / (median(SCpu) / 1000));
      R.LvpCpuRate.push_back(C.Ops / (median(LCpu) / 1000));
    }

    Prep.back()->download(D);
    bool Floats = C.OutVec4s != 0;
    const std::vector<uint8_t> &Mine = Floats ? S2lOut : S2lImage;
    const std::vector<uint8_t> &Ref =
        Floats ? D.Buffers[0].Data : D.Images[0].Data;
    R.MaxDiff = maxDifference(Mine, Ref, Floats);
    R.S2lSum = checksum(Mine, Floats);
    R.LvpSum = checksum(Ref, Floats);
    AllAgree &= R.MaxDiff <= C.Tolerance;
    errs() << "  " << C.Name << " done\n";
    Rows.push_back(std::move(R));
  }

  outs() << "| case | kind | threads | s2l Mops/s | lavapipe Mops/s | ratio "
            "| s2l / lavapipe Mops per CPU-s | CPU ratio | checksum s2l / "
            "lavapipe | max diff (allowed) |\n"
            "|---|---|--:|--:|--:|--:|--:|--:|---|---|\n";
  for (const Row &R : Rows)
    for (size_t TI = 0; TI < ThreadCounts.size(); ++TI)
      outs() << formatv("| {0} | {1} | {2} | {3:f1} | {4:f1} | {5:f2} | "
                        "{6:f1} / {7:f1} | {8:f2} | {9:f1} / {10:f1} | "
                        "{11:e1} ({12:e1}){13} |\n",
                        R.Name, R.Kind, ThreadCounts[TI], R.S2lRate[TI] / 1e6,
                        R.LvpRate[TI] / 1e6, R.S2lRate[TI] / R.LvpRate[TI],
                        R.S2lCpuRate[TI] / 1e6, R.LvpCpuRate[TI] / 1e6,
                        R.S2lCpuRate[TI] / R.LvpCpuRate[TI], R.S2lSum, R.LvpSum,
                        R.MaxDiff, R.Tolerance,
                        R.MaxDiff <= R.Tolerance ? "" : " NO");
  outs() << "\n| case | s2l translate + compile ms |\n|---|--:|\n";
  for (const Row &R : Rows)
    outs() << formatv("| {0} | {1:f1} |\n", R.Name, R.CompileMs);

  if (!NoCallCost) {
    printCallCost(Cases, Size);
    for (const ImageCase &C : Cases)
      if (C.Name == "bilinear")
        printSampleParts(C, Size);
  }
  return AllAgree ? 0 : 1;
}
