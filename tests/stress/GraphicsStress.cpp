//===- GraphicsStress.cpp - Pipelines and draws from many threads ---------===//
//
// The graphics part of s2l-thread-stress (ThreadStress.cpp): each host
// thread translates both stages of every case, JIT-compiles them, creates
// its own pipeline and draws with it, and also draws with a pipeline of
// each case created once and shared by all threads, into its own
// attachments (Graphics.h allows one pipeline to draw on several threads
// at once into different attachments). Draws run on the worker pool
// (Threads = 2) and on the calling thread alone (Threads = 1). Every
// attachment and buffer must equal the single-threaded draw's, byte for
// byte: tiles keep the primitives' order, so the result does not depend
// on which worker shades which tile.
//
// The cases cover the rasterizer's moving parts: interpolation and alpha
// blending over several tiles; 4x multisampling with a depth test and a
// resolve; a fragment shader that takes derivatives (helper lanes) and
// counts fragments per row with atomics in a storage buffer.
//
//===----------------------------------------------------------------------===//
#include "GraphicsStress.h"

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

namespace spirv2llvm::stress {

namespace {

const char *const VertexSource = R"(#version 450
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() { gl_Position = vec4(pos, 1.0); vcolor = color; }
)";

struct GraphicsCase {
  const char *Name;
  const char *FragmentSource;
  uint32_t Samples;
  bool Depth, Blend;
  /// Words of a storage buffer at set 0, binding 0 (0: none).
  uint32_t BufferWords;
};

constexpr uint32_t FbW = 200, FbH = 150; // 4 x 3 tiles of 64

const GraphicsCase GraphicsCases[] = {
    {"blend", R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0) out vec4 o;
void main() { o = vcolor; }
)",
     1, false, true, 0},
    {"msaa-depth", R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0) out vec4 o;
void main() { o = vec4(vcolor.rgb * gl_FragCoord.z, 1.0); }
)",
     4, true, false, 0},
    {"derivatives-atomics", R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer Rows { uint rows[]; };
void main() {
  atomicAdd(rows[uint(gl_FragCoord.y)], 1u);
  o = vec4(vcolor.rgb, 1.0) / (1.0 + 64.0 * fwidth(vcolor.r));
}
)",
     1, false, false, FbH},
};
constexpr size_t NumGraphicsCases =
    sizeof(GraphicsCases) / sizeof(GraphicsCases[0]);

/// 60 overlapping triangles (x, y, z, r, g, b, a per vertex) from a fixed
/// linear congruential sequence.
std::vector<float> triangles() {
  std::vector<float> V;
  uint32_t Seed = 12345;
  auto Next = [&] {
    Seed = Seed * 1664525u + 1013904223u;
    return float(Seed >> 8) / float(1u << 24);
  };
  for (int I = 0; I < 60 * 3; ++I) {
    V.push_back(Next() * 2.4f - 1.2f);
    V.push_back(Next() * 2.4f - 1.2f);
    V.push_back(Next());
    for (int C = 0; C < 4; ++C)
      V.push_back(Next());
  }
  return V;
}

std::unique_ptr<JitShader> compileStage(const char *Src, const char *File,
                                        std::string &Err) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Glsl;
  Opts.Width = 8;
  std::string S = Src;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(S.data()),
                              S.size()),
      File, Opts);
  if (!T) {
    Err = llvm::toString(T.takeError());
    return nullptr;
  }
  auto J = JitShader::create(std::move(*T));
  if (!J) {
    Err = J.status().message();
    return nullptr;
  }
  return std::move(*J);
}

/// Translates, compiles and creates the pipeline of \p C.
std::unique_ptr<GraphicsPipeline> createPipeline(const GraphicsCase &C,
                                                 std::string &Err) {
  auto VS = compileStage(VertexSource, "stress.vert", Err);
  if (!VS)
    return nullptr;
  auto FS = compileStage(C.FragmentSource, "stress.frag", Err);
  if (!FS)
    return nullptr;
  GraphicsPipelineDesc D;
  D.VertexBindings = {{0, 7 * 4, VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R32G32B32_SFLOAT, 0},
                        {1, 0, Format::R32G32B32A32_SFLOAT, 12}};
  D.ColorFormats = {Format::R8G8B8A8_UNORM};
  D.Multisample.Samples = C.Samples;
  D.Width = 8;
  if (C.Depth) {
    D.DepthStencilFormat = Format::D32_SFLOAT;
    D.DepthStencil.DepthTestEnable = true;
    D.DepthStencil.DepthWriteEnable = true;
  }
  if (C.Blend) {
    ColorBlendAttachment A;
    A.BlendEnable = true;
    A.SrcColor = BlendFactor::SrcAlpha;
    A.DstColor = BlendFactor::OneMinusSrcAlpha;
    D.Blend.Attachments = {A};
  }
  auto P = GraphicsPipeline::create(D, std::move(VS), std::move(FS));
  if (!P) {
    Err = P.status().message();
    return nullptr;
  }
  return std::move(*P);
}

/// Draws the triangles with \p P into fresh attachments; returns every
/// byte they and the storage buffer hold afterwards.
std::vector<uint8_t> draw(const GraphicsCase &C, GraphicsPipeline &P,
                          const std::vector<float> &Verts, unsigned Threads,
                          std::string &Err) {
  auto Make = [&](Format F, uint32_t Samples) {
    auto I = Image::create({F, S2L_VIEW_2D, FbW, FbH, 1, 1, 1, Samples});
    if (!I)
      Err = I.status().message();
    return I ? std::optional<Image>(std::move(*I)) : std::nullopt;
  };
  std::optional<Image> Color = Make(Format::R8G8B8A8_UNORM, C.Samples);
  std::optional<Image> Depth, Resolve;
  if (C.Depth)
    Depth = Make(Format::D32_SFLOAT, C.Samples);
  if (C.Samples > 1)
    Resolve = Make(Format::R8G8B8A8_UNORM, 1);
  if (!Err.empty())
    return {};
  if (Depth)
    for (size_t K = 0; K < Depth->bytes().size(); K += 4) {
      float One = 1;
      std::memcpy(&Depth->bytes()[K], &One, 4);
    }
  std::vector<uint32_t> Buffer(C.BufferWords, 0);
  Framebuffer Fb;
  Fb.Color = {&Color->descriptor()};
  if (Depth)
    Fb.DepthStencil = &Depth->descriptor();
  if (Resolve)
    Fb.Resolve = {&Resolve->descriptor()};
  DrawResources R;
  R.VertexBuffers = {{Verts.data(), Verts.size() * 4}};
  if (C.BufferWords)
    R.bind(0, 0, Buffer.data(), Buffer.size() * 4);
  if (Status S = P.draw(Fb, R, DrawCommand{uint32_t(Verts.size() / 7)},
                        Threads);
      !S.ok()) {
    Err = S.message();
    return {};
  }
  std::vector<uint8_t> Out(Color->bytes().begin(), Color->bytes().end());
  for (const std::optional<Image> *I : {&Depth, &Resolve})
    if (*I)
      Out.insert(Out.end(), (*I)->bytes().begin(), (*I)->bytes().end());
  const auto *B = reinterpret_cast<const uint8_t *>(Buffer.data());
  Out.insert(Out.end(), B, B + Buffer.size() * 4);
  return Out;
}

} // namespace

unsigned runGraphicsStress(unsigned NumThreads, unsigned Reps) {
  const std::vector<float> Verts = triangles();
  // The reference: each case alone, on the calling thread only.
  std::vector<std::unique_ptr<GraphicsPipeline>> Shared;
  std::vector<std::vector<uint8_t>> Expected;
  for (const GraphicsCase &C : GraphicsCases) {
    std::string Err;
    auto P = createPipeline(C, Err);
    if (P)
      Expected.push_back(draw(C, *P, Verts, 1, Err));
    // A reference that draws (almost) nothing would compare nothing.
    if (Err.empty() &&
        std::count(Expected.back().begin(), Expected.back().end(), 0) >
            long(Expected.back().size() / 2))
      Err = "the reference draw left most bytes zero";
    if (!Err.empty()) {
      std::fprintf(stderr, "graphics %s: %s\n", C.Name, Err.c_str());
      return 1;
    }
    Shared.push_back(std::move(P));
  }

  std::atomic<unsigned> Failures{0};
  std::mutex PrintMutex;
  auto Check = [&](unsigned T, const char *What, size_t K,
                   const std::vector<uint8_t> &Got, const std::string &Err) {
    if (Err.empty() && Got == Expected[K])
      return;
    ++Failures;
    std::lock_guard<std::mutex> L(PrintMutex);
    std::fprintf(stderr, "thread %u, %s, graphics %s: %s\n", T, What,
                 GraphicsCases[K].Name,
                 Err.empty() ? "output differs from the single-threaded draw"
                             : Err.c_str());
  };

  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < NumThreads; ++T)
    Threads.emplace_back([&, T] {
      for (unsigned Rep = 0; Rep < Reps; ++Rep)
        for (size_t J = 0; J < NumGraphicsCases; ++J) {
          size_t K = (J + T) % NumGraphicsCases;
          const GraphicsCase &C = GraphicsCases[K];
          unsigned DrawThreads = 1 + (T + Rep) % 2;
          std::string Err;
          // Translate, JIT and create while other threads do the same.
          auto P = createPipeline(C, Err);
          std::vector<uint8_t> Got;
          if (P)
            Got = draw(C, *P, Verts, DrawThreads, Err);
          Check(T, "own pipeline", K, Got, Err);
          // One pipeline drawing from every thread at once, each into its
          // own attachments.
          Err.clear();
          Got = draw(C, *Shared[K], Verts, DrawThreads, Err);
          Check(T, "shared pipeline", K, Got, Err);
        }
    });
  for (std::thread &T : Threads)
    T.join();

  unsigned Runs = NumThreads * Reps * unsigned(NumGraphicsCases) * 2;
  if (Failures) {
    std::fprintf(stderr, "graphics: %u of %u draws failed\n", Failures.load(),
                 Runs);
    return Failures;
  }
  std::printf("%u threads x %zu pipelines x %u repetitions: %u draws matched "
              "the single-threaded results\n",
              NumThreads, NumGraphicsCases, Reps, Runs);
  return 0;
}

} // namespace spirv2llvm::stress
