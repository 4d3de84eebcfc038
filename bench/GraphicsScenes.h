//===- GraphicsScenes.h - The scenes of the graphics benchmark --*- C++ -*-===//
//
// Each scene is a pipeline description (both shaders compiled from
// bench/shaders/graphics/), its vertex, index and push constant bytes, an
// optional texture and the size of the frame: everything both sides of
// s2l-graphics-bench need to draw the same thing. Contents come from
// fixed seeds and formulas, so both sides see the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_BENCH_GRAPHICSSCENES_H
#define SPIRV2LLVM_BENCH_GRAPHICSSCENES_H

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spirv2llvm::bench {

struct GraphicsScene {
  std::string Name;     ///< "fill", "fill-mip", "tris", "mesh"
  std::string What;     ///< one line for the table
  std::string UnitName; ///< what Units counts: "Mpixels/s", "Mtriangles/s"
  /// Shaders and state; Width is left 0 (the bench sets it per run).
  GraphicsPipelineDesc Desc;
  uint32_t FbWidth = 0, FbHeight = 0;
  /// By VertexBinding::Binding.
  std::vector<std::vector<uint8_t>> VertexBuffers;
  std::vector<uint8_t> Indices; ///< 32-bit, for indexed draws
  std::vector<uint8_t> PushConstants;
  /// Bound as a combined image sampler at set 0, binding 0 of both stages.
  std::optional<Image> Texture;
  s2l_sampler Sampler{};
  DrawCommand Cmd;
  /// A single-sampled resolve target for colour attachment 0.
  bool Resolve = false;
  /// Pixels or triangles per draw, the numerator of the rate.
  double Units = 0;
  /// How far the two sides' final colours may be apart: at most
  /// MaxBadFraction of the pixels may differ by more than Tolerance 8-bit
  /// steps in some channel (bilinear weights, edge samples).
  unsigned Tolerance = 0;
  double MaxBadFraction = 0;
};

/// The scenes (fill, fill-mip, tris, mesh), frame sides and tessellation
/// multiplied by \p Scale
/// (1: the sizes of docs/performance.md). Shaders are read from
/// \p ShaderDir and compiled with glslang; errors end the program.
std::vector<GraphicsScene> graphicsScenes(double Scale,
                                          const std::string &ShaderDir);

} // namespace spirv2llvm::bench

#endif
