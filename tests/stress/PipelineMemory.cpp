//===- PipelineMemory.cpp - Pipelines release their memory when destroyed -===//
//
// ShaderMemory.cpp's method for graphics pipelines: creates a pipeline
// from SPIR-V (both stages translated and JIT-compiled, the state
// checked), draws once (vertex and fragment stages, binning over the
// worker pool, a depth test, a resolve) and destroys it, ITERATIONS times,
// and checks that the resident set stays flat after a warm-up: the loop
// may retain on average less than a tenth of what one live pipeline costs,
// measured here by keeping KEEP pipelines alive. Leaking one pipeline (or
// one of its shaders) per iteration retains at least ten times the bound.
//
//   s2l-pipeline-memory [ITERATIONS (default 400)]
//
// Not run in the sanitized build (as ShaderMemory.cpp).
//
//===----------------------------------------------------------------------===//
#include "ResidentSet.h"

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"

#include "frontend/Frontend.h"

#include "llvm/Support/Error.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace spirv2llvm;
using spirv2llvm::stress::settledKb;

namespace {

const char *const VertexSource = R"(#version 450
layout(location = 0) in vec2 pos;
layout(location = 0) out vec2 uv;
void main() { gl_Position = vec4(pos, 0.5, 1.0); uv = pos * 0.5 + 0.5; }
)";

const char *const FragmentSource = R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() { o = vec4(sin(uv * 20.0) * 0.5 + 0.5, fwidth(uv.x) * 16.0, 1.0); }
)";

std::vector<uint32_t> spirv(const char *Src, frontend::ShaderStage St) {
  frontend::GlslOptions O;
  O.Stage = St;
  auto W = frontend::compileGlsl(Src, O);
  if (!W) {
    std::fprintf(stderr, "%s\n", llvm::toString(W.takeError()).c_str());
    std::exit(1);
  }
  return *W;
}

GraphicsPipelineDesc description() {
  GraphicsPipelineDesc D;
  D.Vertex.Spirv = spirv(VertexSource, frontend::ShaderStage::Vertex);
  D.Fragment =
      ShaderStageDesc{spirv(FragmentSource, frontend::ShaderStage::Fragment)};
  D.VertexBindings = {{0, 8, VertexInputRate::Vertex}};
  D.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0}};
  D.ColorFormats = {Format::R8G8B8A8_UNORM};
  D.DepthStencilFormat = Format::D32_SFLOAT;
  D.DepthStencil.DepthTestEnable = D.DepthStencil.DepthWriteEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Always;
  D.Multisample.Samples = 4;
  return D;
}

std::unique_ptr<GraphicsPipeline> create(const GraphicsPipelineDesc &D) {
  auto P = GraphicsPipeline::create(D);
  if (!P) {
    std::fprintf(stderr, "%s\n", P.status().message().c_str());
    std::exit(1);
  }
  return std::move(*P);
}

Image image(Format F, uint32_t Samples) {
  auto I = Image::create({F, S2L_VIEW_2D, 96, 80, 1, 1, 1, Samples});
  if (!I) {
    std::fprintf(stderr, "%s\n", I.status().message().c_str());
    std::exit(1);
  }
  return std::move(*I);
}

void draw(GraphicsPipeline &P) {
  const float Verts[] = {-1, -1, 1, -1, -1, 1, 1, -1, 1, 1, -1, 1};
  Image Color = image(Format::R8G8B8A8_UNORM, 4);
  Image Depth = image(Format::D32_SFLOAT, 4);
  Image Resolve = image(Format::R8G8B8A8_UNORM, 1);
  Framebuffer Fb;
  Fb.Color = {&Color.descriptor()};
  Fb.DepthStencil = &Depth.descriptor();
  Fb.Resolve = {&Resolve.descriptor()};
  DrawResources R;
  R.VertexBuffers = {{Verts, sizeof Verts}};
  if (Status S = P.draw(Fb, R, DrawCommand{6}, 2); !S.ok()) {
    std::fprintf(stderr, "%s\n", S.message().c_str());
    std::exit(1);
  }
}

} // namespace

int main(int Argc, char **Argv) {
  const int Iterations = Argc > 1 ? std::atoi(Argv[1]) : 400;
  const int WarmUp = 50, Keep = 30;
  const GraphicsPipelineDesc D = description();

  for (int I = 0; I < WarmUp; ++I)
    draw(*create(D));

  // What a live pipeline costs.
  long Before = settledKb();
  std::vector<std::unique_ptr<GraphicsPipeline>> Live;
  for (int I = 0; I < Keep; ++I) {
    Live.push_back(create(D));
    draw(*Live.back());
  }
  long PerPipelineKb = (settledKb() - Before) / Keep;
  Live.clear();

  long Start = settledKb();
  for (int I = WarmUp; I < Iterations; ++I)
    draw(*create(D));
  long End = settledKb();
  int Measured = Iterations - WarmUp;
  long GrowthKb = End - Start;
  // Less than a tenth of a pipeline per iteration, and at least 1 MiB of
  // slack for allocator noise.
  long BoundKb = std::max<long>(1024, PerPipelineKb * Measured / 10);
  std::printf("one live pipeline: %ld KiB; %d create/draw/destroy "
              "iterations after %d warm-up: resident set %ld -> %ld KiB "
              "(%+ld KiB, bound %ld KiB)\n",
              PerPipelineKb, Measured, WarmUp, Start, End, GrowthKb, BoundKb);
  if (PerPipelineKb <= 0) {
    std::fprintf(stderr, "cannot measure the size of a pipeline\n");
    return 1;
  }
  if (GrowthKb > BoundKb) {
    std::fprintf(stderr, "the resident set grew by %ld KiB: pipelines are "
                         "not released\n",
                 GrowthKb);
    return 1;
  }
  return 0;
}
