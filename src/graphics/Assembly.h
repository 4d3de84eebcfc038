//===- graphics/Assembly.h - Index reading, primitive assembly --*- C++ -*-===//
//
// The two steps between a draw command and its primitives (Vulkan 1.3
// "Drawing Commands", "Primitive Topologies"): the list of vertex indices
// the draw uses, and primitives as positions into that list, with the
// spec's vertex order and provoking vertex.
//
// Limitation: the restart marker is the index value 0xffffffff; with
// restart disabled, a 32-bit index that comes out as 0xffffffff after the
// vertex offset still ends a strip (such a vertex can only be read out of
// bounds, as zeros, anyway).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_GRAPHICS_ASSEMBLY_H
#define SPIRV2LLVM_GRAPHICS_ASSEMBLY_H

#include "spirv2llvm/Graphics.h"

#include <cstdint>
#include <vector>

namespace spirv2llvm::graphics {

/// The entry readIndices() writes for a primitive restart.
constexpr uint32_t RestartIndex = 0xffffffffu;

/// Replaces \p Out with the vertex indices the draw \p Cmd uses, in order:
/// non-indexed, First + i; indexed, Count indices of the index buffer
/// (R.IndexData, R.IndexSize bytes of R.Index: 8-, 16- or 32-bit) from
/// index First, each plus VertexOffset (uint32 wrap-around). With
/// \p PrimitiveRestart (indexed draws only), an index equal to the index
/// type's maximum (0xff, 0xffff, 0xffffffff; compared before the offset
/// is added) becomes RestartIndex. Fails, naming the index range and the
/// buffer size, when an indexed draw has no index buffer or reads beyond
/// it, and for an unknown index type.
Status readIndices(const DrawResources &R, const DrawCommand &Cmd,
                   bool PrimitiveRestart, std::vector<uint32_t> &Out);

/// A point, line or triangle as positions into the index list (not index
/// values): V[0..N). Provoking is the position in V (0..N-1) of the
/// provoking vertex, whose outputs flat inputs take.
struct Primitive {
  uint32_t V[3];
  uint8_t N;
  uint8_t Provoking;
};

/// Replaces \p Out with the primitives of topology \p T over \p Indices,
/// in order. RestartIndex entries end a strip or fan (the next vertex
/// starts a new one, with strip parity and fan centre from there) and, in
/// lists, drop the incomplete primitive before them; incomplete trailing
/// primitives are dropped. \p ProvokingFirst: Vulkan's default
/// (VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT); false: the last-vertex
/// mode of VK_EXT_provoking_vertex.
void assemble(PrimitiveTopology T, bool ProvokingFirst,
              const std::vector<uint32_t> &Indices,
              std::vector<Primitive> &Out);

/// Vertices per primitive of \p T (1, 2 or 3).
unsigned verticesPerPrimitive(PrimitiveTopology T);

} // namespace spirv2llvm::graphics

#endif
