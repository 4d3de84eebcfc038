//===- GeometryStage.h - The optional geometry stage ------------*- C++ -*-===//
//
// Between the vertex shader and primitive assembly: the vertex shader's
// outputs that the geometry shader reads are kept per vertex, each input
// primitive (times Invocations) is one lane of a geometry call, and the
// vertices it emits become the draw's vertices, assembled into points,
// lines or triangles by their strips (GeometryStage.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_GRAPHICS_GEOMETRYSTAGE_H
#define SPIRV2LLVM_GRAPHICS_GEOMETRYSTAGE_H

#include "graphics/Assembly.h"
#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Interface.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace spirv2llvm::graphics {

struct DrawContext;
struct ShadedVertices;

/// How the geometry shader's inputs are fed, decided at pipeline creation.
struct GeometryLink {
  /// A 32-bit word of a vertex output and where the geometry shader reads
  /// it for each vertex of its input primitive (lane 0 offsets; absent
  /// outputs are a VsOffset of ~0u: the input reads 0).
  struct Word {
    uint32_t VsOffset = ~0u;
    std::vector<uint32_t> GsOffsets;
  };
  std::vector<Word> Words;
  std::optional<uint32_t> PrimitiveIdOffset, InvocationIdOffset;
  /// The geometry shader's PrimitiveId output (lane 0 offset in a vertex),
  /// for the fragment shader's PrimitiveId.
  std::optional<uint32_t> PrimitiveIdOut;
  /// The topology of the emitted strips.
  PrimitiveTopology OutputTopology = PrimitiveTopology::TriangleStrip;
};

/// Links \p VL (vertex outputs) to \p GL (geometry inputs) and checks the
/// geometry shader against \p D's topology. Errors name the input.
Result<GeometryLink> linkGeometry(const GraphicsPipelineDesc &D,
                                  const InterfaceLayout &VL,
                                  const InterfaceLayout &GL);

/// Runs the vertex and geometry shaders for one instance: the primitives
/// \p Prims of \p Indices go through the geometry shader; \p Out gets its
/// emitted vertices (as shadeVertices would give a vertex shader's),
/// \p Slot and \p OutPrims the assembled output primitives (positions into
/// Slot, Slot to vertices of Out), \p PrimIds each output primitive's
/// PrimitiveId for the fragment shader.
void shadeGeometry(DrawContext &Ctx, const std::vector<uint32_t> &Indices,
                   const std::vector<Primitive> &Prims, uint32_t Instance,
                   uint32_t FirstInstance, ShadedVertices &Out,
                   std::vector<uint32_t> &Slot,
                   std::vector<Primitive> &OutPrims,
                   std::vector<uint32_t> &PrimIds, DrawStats &Stats);

struct SetupPrim;

/// One instance of a draw with a geometry shader: shadeGeometry, then
/// clipping, setup (each primitive's PrimitiveId the geometry shader's) and
/// rasterization as without one. \p Verts and \p Setup are scratch.
void drawGeometryInstance(DrawContext &Ctx,
                          const std::vector<uint32_t> &Indices,
                          const std::vector<Primitive> &Prims,
                          uint32_t Instance, uint32_t FirstInstance,
                          ShadedVertices &Verts, std::vector<SetupPrim> &Setup,
                          DrawStats &Stats);

} // namespace spirv2llvm::graphics

#endif
