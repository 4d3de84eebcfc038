//===- AmberDraw.h - Amber's draws on spirv2llvm's rasterizer ---*- C++ -*-===//
//
// DRAW_RECT, DRAW_GRID and DRAW_ARRAY (and VkScript's draws) translated
// to the graphics library (spirv2llvm/Graphics.h): a pipeline's shaders
// and state become a GraphicsPipelineDesc, its colour and depth/stencil
// buffers s2l_image views over the buffers' own bytes (what the draw
// writes is what EXPECT reads), VERTEX_DATA vertex bindings and
// attributes, INDEX_DATA the index buffer. A GraphicsPipeline is made per
// pipeline, draw kind and topology the first time it draws and kept.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_AMBERDRAW_H
#define SPIRV2LLVM_AMBER_AMBERDRAW_H

#include "amber/AmberRunner.h"
#include "amber/AmberScript.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Jit.h"

#include "llvm/Support/Error.h"

#include <array>
#include <functional>
#include <map>
#include <memory>

namespace spirv2llvm::amber {

/// The runner's way to a JIT-compiled shader (translation options and
/// compile cache): shader \p D attached as \p A, for stage \p St.
using ShaderJit = std::function<llvm::Expected<std::unique_ptr<JitShader>>(
    const ShaderDecl &D, const AttachDecl &A, Stage St)>;

class Draws {
public:
  Draws(Script &S, const RunnerOptions &O, ShaderJit Jit)
      : S(S), O(O), Jit(std::move(Jit)) {}
  /// Runs draw command \p C of pipeline \p P with the buffers and push
  /// constants of \p R (images are bound here). Errors name what is wrong;
  /// makeUnsupported ones are SKIPs.
  llvm::Error draw(const Command &C, PipelineDecl &P,
                   const DispatchResources &R);

private:
  Script &S;
  const RunnerOptions &O;
  ShaderJit Jit;
  /// By pipeline name, draw kind and topology.
  std::map<std::string, std::unique_ptr<GraphicsPipeline>> Pipelines;

  llvm::Expected<GraphicsPipeline *>
  pipeline(const Command &C, PipelineDecl &P, PrimitiveTopology T);
  static std::string pipelineKey(const Command &C, const PipelineDecl &P,
                                 PrimitiveTopology T);
  llvm::Error describe(const Command &C, PipelineDecl &P, PrimitiveTopology T,
                       GraphicsPipelineDesc &D);
};

/// The vertex positions (x, y in normalized device coordinates, an
/// R32G32_SFLOAT attribute at location 0) Amber draws for DRAW_RECT
/// (x, y, w, h in framebuffer pixels): a 4-vertex triangle strip.
std::vector<std::array<float, 2>> rectPositions(std::array<double, 4> Rect,
                                                uint32_t FbWidth,
                                                uint32_t FbHeight);
/// DRAW_GRID's triangle list: \p Cols x \p Rows cells, two triangles each.
std::vector<std::array<float, 2>> gridPositions(std::array<double, 4> Rect,
                                                uint32_t Cols, uint32_t Rows,
                                                uint32_t FbWidth,
                                                uint32_t FbHeight);

/// The rasterizer's format of an Amber buffer format: a FORMAT by its
/// name, a DATA_TYPE of 1 to 4 equal tightly packed components as the
/// matching format (vec2<float> = R32G32_SFLOAT). \p What names the use
/// in the error.
llvm::Expected<Format> libraryFormat(const BufferFormat &F,
                                     const llvm::Twine &What);

} // namespace spirv2llvm::amber

#endif
