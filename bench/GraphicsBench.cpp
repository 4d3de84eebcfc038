//===- GraphicsBench.cpp - The rasterizer against lavapipe ----------------===//
//
// s2l-graphics-bench draws the scenes of GraphicsScenes.cpp (fill rate, the
// same with a trilinear mip chain,
// 100,000 small triangles, a lit textured MSAA torus) with spirv2llvm's
// GraphicsPipeline at W = 4, 8 and 16 and with Mesa's lavapipe, at 1
// thread and at all cores, and prints draws per second, pixels or
// triangles per second, their ratio, the draw statistics and whether the
// two sides' pictures agree (docs/performance.md, "Graphics").
//
// Fairness is S2lBench.cpp's: two lavapipe instances made first
// (LP_NUM_THREADS is read when lavapipe's screen is created), timed runs
// alternating lavapipe and spirv2llvm, medians of wall time and of process
// CPU time. What one lavapipe sample is: VulkanGraphicsRunner::run builds a
// pipeline, uploads and downloads the attachments every time, so one run
// is mostly not drawing. The bench times a run of 1 draw and a run of 1 + K
// draws of the same scene in one render pass, one after the other, and
// takes (T(1 + K) - T(1)) / K: the cost of one more draw, which is what
// GraphicsPipeline::draw is timed for. K is chosen so that the K draws take
// about three times the fixed part. Consequences:
//  - the multisample resolve happens once per render pass on lavapipe, so
//    it is not in its per-draw time; spirv2llvm's draw is timed without
//    the resolve for the ratio, and the resolve alone on the side;
//  - lavapipe drops the earlier commands of a 64x64 tile that an opaque
//    triangle (no blending, depth or discard) covers entirely, so K
//    full-screen quads would cost about one: the fill shader has a
//    discard that is never taken (a push constant), on both sides.
//
// Exit status: 0, or 1 when a scene's pictures differ beyond its
// tolerance, 2 on errors, 77 when there is no lavapipe device (the smoke
// test, s2l-graphics-bench-smoke, then counts as skipped).
//
//===----------------------------------------------------------------------===//
#include "BenchUtil.h"
#include "GraphicsScenes.h"

#include "VulkanGraphicsRunner.h"

#include "spirv2llvm/Compute.h"
#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace llvm;
using namespace spirv2llvm;
using namespace spirv2llvm::bench;

namespace {

cl::opt<double> Seconds("seconds",
                        cl::desc("time budget per scene, thread count and "
                                 "side (default 0.5; at least --reps "
                                 "samples each)"),
                        cl::init(0.5));
cl::opt<unsigned> Reps("reps", cl::desc("minimum samples per side (default 5)"),
                       cl::init(5));
cl::opt<double> Scale("scale",
                      cl::desc("frame sides and tessellation multiplier "
                               "(default 1; the smoke test uses 0.05)"),
                      cl::init(1.0));
cl::opt<std::string> WidthList("widths",
                               cl::desc("spirv2llvm SIMD widths, comma "
                                        "separated (default 4,8,16)"),
                               cl::init("4,8,16"));
cl::opt<unsigned> MaxThreads("all-threads",
                             cl::desc("the 'all cores' thread count "
                                      "(default: hardware concurrency)"),
                             cl::init(0));
cl::opt<unsigned> OnlyThreads("only-threads",
                              cl::desc("run only this thread count (default: "
                                       "1 and all cores)"),
                              cl::init(0));
cl::opt<std::string> Filter("filter",
                            cl::desc("run only scenes whose name contains "
                                     "this"),
                            cl::init(""));
cl::opt<std::string> ShaderDir("shader-dir", cl::desc("graphics shaders"),
                               cl::init(S2L_BENCH_SHADER_DIR "/graphics"));
cl::opt<bool> NoLavapipe("no-lavapipe",
                         cl::desc("time spirv2llvm only (for profiling)"));
cl::opt<unsigned> OptLevel("O", cl::desc("LLVM optimization level (default 2)"),
                           cl::init(2), cl::Prefix);

/// The attachments of one side.
struct Targets {
  std::vector<Image> Color;
  std::optional<Image> Depth, Resolve;

  Framebuffer framebuffer(bool WithResolve) const {
    Framebuffer Fb;
    for (const Image &C : Color)
      Fb.Color.push_back(&C.descriptor());
    if (Depth)
      Fb.DepthStencil = &Depth->descriptor();
    if (WithResolve && Resolve)
      Fb.Resolve = {&Resolve->descriptor()};
    return Fb;
  }
  /// The picture to compare: the resolve target or colour attachment 0.
  const Image &picture() const { return Resolve ? *Resolve : Color[0]; }
};

/// Colour cleared to zero, depth to 1.0.
Targets makeTargets(const GraphicsScene &S) {
  Targets T;
  uint32_t Samples = S.Desc.Multisample.Samples;
  auto Make = [&](Format F, uint32_t N) {
    return orFail(
        Image::create({F, S2L_VIEW_2D, S.FbWidth, S.FbHeight, 1, 1, 1, N}),
        "attachment of " + S.Name);
  };
  for (Format F : S.Desc.ColorFormats)
    T.Color.push_back(Make(F, Samples));
  if (S.Desc.DepthStencilFormat != Format::UNDEFINED) {
    if (S.Desc.DepthStencilFormat != Format::D32_SFLOAT)
      fail("the bench clears D32_SFLOAT depth only");
    T.Depth = Make(S.Desc.DepthStencilFormat, Samples);
    std::span<uint8_t> B = T.Depth->bytes();
    const float One = 1.0f;
    for (size_t I = 0; I + 4 <= B.size(); I += 4)
      std::memcpy(&B[I], &One, 4);
  }
  if (S.Resolve)
    T.Resolve = Make(S.Desc.ColorFormats[0], 1);
  return T;
}

DrawResources drawResources(const GraphicsScene &S) {
  DrawResources R;
  for (const std::vector<uint8_t> &V : S.VertexBuffers)
    R.VertexBuffers.push_back({V.data(), V.size()});
  if (!S.Indices.empty()) {
    R.IndexData = S.Indices.data();
    R.IndexSize = S.Indices.size();
    R.Index = IndexType::UInt32;
  }
  R.PushConstants = S.PushConstants;
  if (S.Texture)
    R.bindCombinedImageSampler(0, 0, &S.Texture->descriptor(), &S.Sampler);
  return R;
}

/// One spirv2llvm pipeline at one width and its samples.
struct S2lSide {
  unsigned Width = 0;
  std::unique_ptr<GraphicsPipeline> P;
  Targets T;
  double CompileMs = 0;
  std::vector<double> Ms, CpuMs;
  /// Draws with the resolve (scenes with a resolve target, first width).
  std::vector<double> ResolveMs;
};

/// Times \p Fn: wall and process CPU milliseconds.
template <typename FnT> std::pair<double, double> timed(FnT Fn) {
  double C0 = processCpuMs();
  auto T0 = Clock::now();
  Fn();
  double Ms = msSince(T0);
  return {Ms, processCpuMs() - C0};
}

/// The lavapipe job of \p S drawing \p Draws times into \p T (whose
/// images get the result).
vk::GraphicsJob lavapipeJob(GraphicsScene &S, Targets &T, unsigned Draws) {
  vk::GraphicsJob J;
  J.Desc = &S.Desc;
  for (Image &C : T.Color)
    J.Color.push_back(&C);
  if (T.Depth)
    J.DepthStencil = &*T.Depth;
  if (T.Resolve)
    J.Resolve = {&*T.Resolve};
  J.VertexBuffers = S.VertexBuffers;
  J.IndexData = S.Indices;
  J.Index = IndexType::UInt32;
  J.PushConstants = S.PushConstants;
  if (S.Texture) {
    vk::GraphicsImage G;
    G.Kind = vk::VkImageKind::CombinedImageSampler;
    G.Img = &*S.Texture;
    G.Sampler = S.Sampler;
    J.Images.push_back(G);
  }
  J.Draws.assign(Draws, S.Cmd);
  return J;
}

struct LavapipeSide {
  vk::VulkanGraphicsRunner *Runner = nullptr;
  Targets T;
  unsigned K = 0;     ///< extra draws of a timed pair
  double FixedMs = 0; ///< median time of a 1-draw run
  std::vector<double> Ms, CpuMs, OneMs;
};

/// One sample: (T(1 + K) - T(1)) / K, wall and CPU.
std::pair<double, double> lavapipeSample(LavapipeSide &L,
                                         const vk::GraphicsJob &One,
                                         const vk::GraphicsJob &More,
                                         const std::string &Name) {
  auto [Ms1, Cpu1] =
      timed([&] { orFail(L.Runner->run(One), "lavapipe: " + Name); });
  auto [MsK, CpuK] =
      timed([&] { orFail(L.Runner->run(More), "lavapipe: " + Name); });
  L.OneMs.push_back(Ms1);
  return {(MsK - Ms1) / L.K, (CpuK - Cpu1) / L.K};
}

/// How many pixels of \p A and \p B differ by more than \p Tolerance
/// 8-bit steps in some channel, and the largest difference.
std::pair<uint64_t, unsigned> compareRgba8(const Image &A, const Image &B,
                                           unsigned Tolerance) {
  std::span<const uint8_t> X = A.bytes(), Y = B.bytes();
  if (X.size() != Y.size())
    fail("pictures of different sizes");
  uint64_t Bad = 0;
  unsigned Max = 0;
  for (size_t I = 0; I + 4 <= X.size(); I += 4) {
    unsigned PixelMax = 0;
    for (int C = 0; C < 4; ++C)
      PixelMax = std::max(PixelMax, unsigned(std::abs(X[I + C] - Y[I + C])));
    Bad += PixelMax > Tolerance;
    Max = std::max(Max, PixelMax);
  }
  return {Bad, Max};
}

struct Row {
  std::string Scene, UnitName;
  unsigned Threads = 0;
  double Units = 0;
  std::vector<std::pair<unsigned, double>> S2lMs, S2lCpuMs; ///< by width
  double LvpMs = 0, LvpCpuMs = 0;                           ///< 0: not measured
};

} // namespace

int main(int argc, char **argv) {
  setBenchProgram("s2l-graphics-bench");
  cl::ParseCommandLineOptions(argc, argv,
                              "the graphics pipeline against lavapipe\n");
  unsigned All = MaxThreads ? MaxThreads
                            : std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> ThreadCounts = {1};
  if (All > 1)
    ThreadCounts.push_back(All);
  if (OnlyThreads)
    ThreadCounts = {OnlyThreads};
  std::vector<unsigned> Widths;
  for (StringRef Item : split(StringRef(WidthList), ',')) {
    unsigned W = 0;
    if (Item.trim().getAsInteger(10, W) || (W != 4 && W != 8 && W != 16))
      fail("--widths: '" + Item + "' is not 4, 8 or 16");
    Widths.push_back(W);
  }
  if (Widths.empty())
    fail("--widths: no width");
  // The default width first: it is the one compared with lavapipe and
  // profiled.
  unsigned DefaultW = defaultComputeWidth();
  std::stable_partition(Widths.begin(), Widths.end(),
                        [&](unsigned W) { return W == DefaultW; });

  bool WithLavapipe = !NoLavapipe;
  // Both lavapipe instances first: LP_NUM_THREADS is read at creation.
  std::vector<std::unique_ptr<vk::VulkanGraphicsRunner>> Runners;
  if (WithLavapipe)
    for (unsigned T : ThreadCounts) {
      setenv("LP_NUM_THREADS", std::to_string(T).c_str(), 1);
      auto R = vk::VulkanGraphicsRunner::create();
      if (!R) {
        std::string Msg = toString(R.takeError());
        errs() << "s2l-graphics-bench: cannot create the lavapipe graphics "
                  "runner: "
               << Msg << "\n";
        // No lavapipe at all is a skip for the smoke test (ctest's
        // SKIP_RETURN_CODE); --no-lavapipe still times spirv2llvm.
        return StringRef(Msg).contains("no lavapipe device") ? 77 : 2;
      }
      Runners.push_back(std::move(*R));
    }

  outs() << "machine: " << cpuModel() << " (" << cpuVectorIsa() << "), " << All
         << " threads\n";
  if (WithLavapipe)
    outs() << "lavapipe: " << Runners.back()->deviceName() << "\n";
  else
    outs() << "lavapipe: not run (--no-lavapipe)\n";
  outs() << formatv("spirv2llvm: default W = {0}, -O{1}\n\n", DefaultW,
                    unsigned(OptLevel));

  std::vector<GraphicsScene> Scenes = graphicsScenes(Scale, ShaderDir);
  std::vector<Row> Rows;
  std::string Details; // the second table
  std::string Stats;   // the third
  bool AllAgree = true;
  for (GraphicsScene &S : Scenes) {
    if (!StringRef(S.Name).contains(Filter))
      continue;
    outs() << "- " << S.Name << ": " << S.What << "\n";
    DrawResources Res = drawResources(S);
    std::vector<S2lSide> Sides;
    for (unsigned W : Widths) {
      S2lSide &Side = Sides.emplace_back();
      Side.Width = W;
      GraphicsPipelineDesc D = S.Desc;
      D.Width = W;
      D.OptLevel = OptLevel;
      auto T0 = Clock::now();
      Side.P =
          orFail(GraphicsPipeline::create(D), S.Name + " at W = " + Twine(W));
      Side.CompileMs = msSince(T0);
      Side.T = makeTargets(S);
    }
    std::string Agree = "not compared";
    for (size_t TI = 0; TI < ThreadCounts.size(); ++TI) {
      unsigned Threads = ThreadCounts[TI];
      Row R;
      R.Scene = S.Name;
      R.UnitName = S.UnitName;
      R.Threads = Threads;
      R.Units = S.Units;
      auto DrawS2l = [&](S2lSide &Side, bool WithResolve) {
        return timed([&] {
          orFail(Side.P->draw(Side.T.framebuffer(WithResolve), Res, S.Cmd,
                              Threads),
                 "spirv2llvm: " + S.Name);
        });
      };
      for (S2lSide &Side : Sides) { // warm up, and reach the steady state
        Side.Ms.clear();
        Side.CpuMs.clear();
        Side.ResolveMs.clear();
        DrawS2l(Side, true);
      }
      std::optional<LavapipeSide> L;
      std::optional<vk::GraphicsJob> One, More;
      if (WithLavapipe) {
        L.emplace();
        L->Runner = Runners[TI].get();
        L->T = makeTargets(S);
        One = lavapipeJob(S, L->T, 1);
        // Calibrate K: the fixed part against the cost of a draw.
        orFail(L->Runner->run(*One), "lavapipe: " + S.Name);
        double Fixed = timed([&] {
                         orFail(L->Runner->run(*One), "lavapipe: " + S.Name);
                       }).first;
        vk::GraphicsJob Five = lavapipeJob(S, L->T, 5);
        double PerDraw = (timed([&] {
                            orFail(L->Runner->run(Five), "lavapipe: " + S.Name);
                          }).first -
                          Fixed) /
                         4;
        L->K = PerDraw > 0
                   ? unsigned(std::clamp(3 * Fixed / PerDraw, 4.0, 400.0))
                   : 400;
        More = lavapipeJob(S, L->T, 1 + L->K);
      }
      auto Start = Clock::now();
      double Budget = Seconds * 1000 * (Widths.size() + WithLavapipe);
      while ((msSince(Start) < Budget && Sides[0].Ms.size() < 1000) ||
             Sides[0].Ms.size() < Reps) {
        if (L) {
          auto [Ms, Cpu] = lavapipeSample(*L, *One, *More, S.Name);
          L->Ms.push_back(Ms);
          L->CpuMs.push_back(Cpu);
        }
        for (S2lSide &Side : Sides) {
          auto [Ms, Cpu] = DrawS2l(Side, false);
          Side.Ms.push_back(Ms);
          Side.CpuMs.push_back(Cpu);
        }
        if (S.Resolve)
          Sides[0].ResolveMs.push_back(DrawS2l(Sides[0], true).first);
      }
      for (S2lSide &Side : Sides) {
        R.S2lMs.push_back({Side.Width, median(Side.Ms)});
        R.S2lCpuMs.push_back({Side.Width, median(Side.CpuMs)});
      }
      std::string LvpDetail = "-";
      if (L) {
        R.LvpMs = median(L->Ms);
        R.LvpCpuMs = median(L->CpuMs);
        LvpDetail = formatv("{0:f1} ms, K = {1}", median(L->OneMs), L->K);
        if (TI + 1 == ThreadCounts.size()) {
          // Both pictures are the steady state of the same frame.
          auto [Bad, Max] =
              compareRgba8(Sides[0].T.picture(), L->T.picture(), S.Tolerance);
          double Fraction = Bad / (double(S.FbWidth) * S.FbHeight);
          bool Ok = Fraction <= S.MaxBadFraction;
          AllAgree &= Ok;
          Agree = formatv("{0}: {1:f4}% of pixels > {2} steps apart (allowed "
                          "{3:f2}%), max {4}",
                          Ok ? "yes" : "NO", 100 * Fraction, S.Tolerance,
                          100 * S.MaxBadFraction, Max);
        }
      }
      std::string ResolveCol = "-";
      if (S.Resolve)
        ResolveCol =
            formatv("{0:f2}", median(Sides[0].ResolveMs) - R.S2lMs[0].second);
      Details += formatv("| {0} | {1} | {2} | {3} |\n", S.Name, Threads,
                         ResolveCol, LvpDetail);
      Rows.push_back(std::move(R));
    }
    const DrawStats &St = Sides[0].P->stats();
    double Lanes = St.FragmentCalls
                       ? 4.0 * St.FragmentQuads /
                             (St.FragmentCalls * double(Sides[0].Width))
                       : 0;
    std::string Compile;
    for (const S2lSide &Side : Sides)
      Compile += formatv("{0}{1}: {2:f0}", Compile.empty() ? "" : ", ",
                         Side.Width, Side.CompileMs);
    Stats += formatv("| {0} | {1} | {2} | {3} | {4} | {5} | {6:f2} | {7} | "
                     "{8} |\n",
                     S.Name, St.VertexInvocations, St.Primitives,
                     St.ClippedPrimitives, St.FragmentQuads, St.FragmentCalls,
                     Lanes, Compile, Agree);
    errs() << "  " << S.Name << " done\n";
  }

  outs() << "\n| scene | threads | W | s2l ms/draw | s2l CPU ms/draw | s2l "
            "draws/s | s2l rate | lavapipe ms/draw | lavapipe CPU ms/draw | "
            "lavapipe rate | ratio | CPU ratio |\n"
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const Row &R : Rows)
    for (size_t K = 0; K < R.S2lMs.size(); ++K) {
      auto [W, Ms] = R.S2lMs[K];
      double CpuMs = R.S2lCpuMs[K].second;
      std::string Rate =
          formatv("{0:f1} {1}", R.Units / (Ms * 1e3), R.UnitName);
      std::string Lvp = "- | - | - | - | -";
      if (R.LvpMs > 0)
        Lvp = formatv("{0:f2} | {1:f2} | {2:f1} | {3:f2} | {4:f2}", R.LvpMs,
                      R.LvpCpuMs, R.Units / (R.LvpMs * 1e3), R.LvpMs / Ms,
                      R.LvpCpuMs / CpuMs);
      outs() << formatv("| {0} | {1} | {2}{3} | {4:f2} | {5:f2} | {6:f1} | "
                        "{7} | {8} |\n",
                        R.Scene, R.Threads, W, W == DefaultW ? "*" : "", Ms,
                        CpuMs, 1000 / Ms, Rate, Lvp);
    }
  outs() << "\n(ratio: lavapipe's time / spirv2llvm's, above 1 when "
            "spirv2llvm is faster; CPU ratio: the same in process CPU time; "
            "* the default width)\n";
  outs() << "\n| scene | threads | s2l resolve ms | lavapipe 1-draw run "
            "(fixed part), K |\n|---|--:|--:|---|\n"
         << Details;
  outs() << "\n| scene | vertex invocations | primitives | clipped | "
            "fragment quads | fragment calls | lanes used | compile ms by W "
            "| agrees with lavapipe |\n|---|--:|--:|--:|--:|--:|--:|---|---|\n"
         << Stats;
  return AllAgree ? 0 : 1;
}
