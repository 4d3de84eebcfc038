//===- FragmentStage.h - Shading quads and merging outputs ------*- C++ -*-===//
//
// A worker thread's fragment stage: it collects up to W/4 covered 2x2
// quads, feeds their inputs (interpolated varyings and built-ins), runs the
// fragment shader once for all of them and merges the outputs into the
// attachments sample by sample (depth bounds, stencil and depth tests,
// blending). Tests run before the shader when that is not observable, or
// when the shader asks (EarlyFragmentTests).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_GRAPHICS_FRAGMENTSTAGE_H
#define SPIRV2LLVM_GRAPHICS_FRAGMENTSTAGE_H

#include "graphics/DrawContext.h"

namespace spirv2llvm::graphics {

/// A 2x2 quad to shade: its top-left pixel, the primitive, and the
/// covered samples (bit Pixel * Samples + Sample; pixel k of the quad is
/// (X + (k & 1), Y + (k >> 1))).
struct Quad {
  int32_t X, Y;
  const SetupPrim *Prim;
  uint32_t Coverage;
  /// Per-sample shading: the sample this quad shades (-1: per pixel).
  int32_t Sample;
};

class FragmentStage {
public:
  FragmentStage(DrawContext &Ctx, const ShadedVertices &Verts);
  /// Whether depth/stencil tests may run before shading (then test()
  /// narrows coverage, and the late tests are skipped).
  bool earlyTests() const { return Early; }
  /// Early tests of quad \p Q: clears the samples that fail and applies
  /// their stencil updates.
  void test(Quad &Q);
  /// Adds \p Q; shades the batch when it is full or already holds a quad
  /// at the same place (the batch's outputs are merged in order).
  void add(const Quad &Q);
  /// Shades what is pending.
  void flush();

private:
  DrawContext &Ctx;
  const ShadedVertices &Verts;
  const GraphicsPipeline::Impl &P;
  unsigned W, QuadsPerCall;
  bool Early = false;
  std::vector<Quad> Batch;
  std::vector<uint8_t> In, Out;
  s2l_group_args Args = {};
  /// Per lane: the perspective-correct and linear weights of vertices 1
  /// and 2, depth and 1/w at the shading point, the point coordinate.
  std::vector<float> B1, B2, LB1, LB2, Z, InvW, PX, PY, SX, SY;

  /// Depth and stencil tests of one sample; \p Z is the fragment's depth.
  /// Returns whether the sample passes (and updates the attachment).
  bool depthStencil(int32_t X, int32_t Y, uint32_t Sample, float Z,
                    bool Front);
  void feedInputs();
  void merge(uint32_t Alive);
};

} // namespace spirv2llvm::graphics

#endif
