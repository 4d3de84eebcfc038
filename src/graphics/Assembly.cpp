//===- graphics/Assembly.cpp - Index reading and primitive assembly -------===//
//
// Vertex orders and provoking vertices of Vulkan 1.3 "Primitive
// Topologies" (vertices v0, v1, ... of one strip, i counting primitives
// from 0), with the provoking vertex of each mode of VK_EXT_provoking_vertex
// ("first" is Vulkan's default):
//
//   topology        primitive i                       first     last
//   point list      v_i                               v_i       v_i
//   line list       v_2i, v_2i+1                      v_2i      v_2i+1
//   line strip      v_i, v_i+1                        v_i       v_i+1
//   triangle list   v_3i, v_3i+1, v_3i+2              v_3i      v_3i+2
//   triangle strip  v_i, v_i+(1+i%2), v_i+(2-i%2)     v_i       v_i+2
//   triangle fan    v_i+1, v_i+2, v_0                 v_i+1     v_i+2
//
// The strip order swaps the last two vertices of odd triangles so that
// every triangle of a strip has the winding of the first; v_i+2 is then
// the second vertex of an odd triangle, which is why the last-vertex
// provoking position alternates (2, 1, 2, ...). A fan's first-vertex mode
// takes v_i+1, not the centre v_0.
//
// Primitive restart (Vulkan "Programmable Primitive Shading"): a restart
// index ends the strip or fan; the vertices after it are v0, v1, ... of a
// new one. Lists (which need primitiveTopologyListRestart for restart) are
// cut the same way, so an incomplete primitive before a restart is
// dropped and counting starts again, as lavapipe does.
//
//===----------------------------------------------------------------------===//
#include "graphics/Assembly.h"

#include <string>

namespace spirv2llvm::graphics {

Status readIndices(const DrawResources &R, const DrawCommand &Cmd,
                   bool PrimitiveRestart, std::vector<uint32_t> &Out) {
  Out.clear();
  if (!Cmd.Indexed) {
    Out.resize(Cmd.Count);
    for (uint32_t I = 0; I < Cmd.Count; ++I)
      Out[I] = Cmd.First + I; // wraps, as vertexIndex does
    return Status::success();
  }
  unsigned Size;
  uint32_t Max;
  const char *Name;
  switch (R.Index) {
  case IndexType::UInt8:
    Size = 1, Max = 0xff, Name = "8-bit";
    break;
  case IndexType::UInt16:
    Size = 2, Max = 0xffff, Name = "16-bit";
    break;
  case IndexType::UInt32:
    Size = 4, Max = 0xffffffffu, Name = "32-bit";
    break;
  default:
    return Status::error("unknown index type " +
                             std::to_string(uint32_t(R.Index)),
                         StatusCode::InvalidArgument);
  }
  uint64_t End = uint64_t(Cmd.First) + Cmd.Count;
  std::string Range = "indices " + std::to_string(Cmd.First) + " to " +
                      std::to_string(End) + " (exclusive)";
  if (!R.IndexData)
    return Status::error("indexed draw of " + Range +
                             " without an index buffer",
                         StatusCode::InvalidArgument);
  if (End * Size > R.IndexSize)
    return Status::error(Range + " are beyond the index buffer of " +
                             std::to_string(R.IndexSize) + " bytes (" +
                             std::to_string(R.IndexSize / Size) + " " + Name +
                             " indices)",
                         StatusCode::InvalidArgument);
  Out.resize(Cmd.Count);
  const uint8_t *P =
      static_cast<const uint8_t *>(R.IndexData) + uint64_t(Cmd.First) * Size;
  const uint32_t Offset = uint32_t(Cmd.VertexOffset);
  auto Convert = [&](auto Load) {
    for (uint32_t I = 0; I < Cmd.Count; ++I) {
      uint32_t Raw = Load(P + uint64_t(I) * Size);
      Out[I] = PrimitiveRestart && Raw == Max ? RestartIndex : Raw + Offset;
    }
  };
  // Little-endian index data, read byte by byte (no alignment assumed).
  switch (Size) {
  case 1:
    Convert([](const uint8_t *Q) { return uint32_t(Q[0]); });
    break;
  case 2:
    Convert([](const uint8_t *Q) { return uint32_t(Q[0] | Q[1] << 8); });
    break;
  default:
    Convert([](const uint8_t *Q) {
      return uint32_t(Q[0]) | uint32_t(Q[1]) << 8 | uint32_t(Q[2]) << 16 |
             uint32_t(Q[3]) << 24;
    });
    break;
  }
  return Status::success();
}

unsigned verticesPerPrimitive(PrimitiveTopology T) {
  switch (T) {
  case PrimitiveTopology::PointList:
    return 1;
  case PrimitiveTopology::LineList:
  case PrimitiveTopology::LineStrip:
    return 2;
  case PrimitiveTopology::TriangleList:
  case PrimitiveTopology::TriangleStrip:
  case PrimitiveTopology::TriangleFan:
    return 3;
  }
  return 0;
}

namespace {

/// Appends the primitives of one strip, fan or list run: positions
/// [S, E) of the index list, none of them a restart.
void assembleRun(PrimitiveTopology T, bool First, uint32_t S, uint32_t E,
                 std::vector<Primitive> &Out) {
  const uint32_t Count = E - S;
  switch (T) {
  case PrimitiveTopology::PointList:
    for (uint32_t I = 0; I < Count; ++I)
      Out.push_back({{S + I, 0, 0}, 1, 0});
    return;
  case PrimitiveTopology::LineList:
    for (uint32_t I = 0; 2 * I + 1 < Count; ++I)
      Out.push_back({{S + 2 * I, S + 2 * I + 1, 0}, 2, uint8_t(First ? 0 : 1)});
    return;
  case PrimitiveTopology::LineStrip:
    for (uint32_t I = 0; I + 1 < Count; ++I)
      Out.push_back({{S + I, S + I + 1, 0}, 2, uint8_t(First ? 0 : 1)});
    return;
  case PrimitiveTopology::TriangleList:
    for (uint32_t I = 0; 3 * I + 2 < Count; ++I)
      Out.push_back({{S + 3 * I, S + 3 * I + 1, S + 3 * I + 2},
                     3,
                     uint8_t(First ? 0 : 2)});
    return;
  case PrimitiveTopology::TriangleStrip:
    for (uint32_t I = 0; I + 2 < Count; ++I) {
      uint32_t Odd = I % 2;
      // Last-vertex mode: v_i+2, at position 2 of even and 1 of odd ones.
      Out.push_back({{S + I, S + I + 1 + Odd, S + I + 2 - Odd},
                     3,
                     uint8_t(First ? 0 : 2 - Odd)});
    }
    return;
  case PrimitiveTopology::TriangleFan:
    for (uint32_t I = 0; I + 2 < Count; ++I)
      Out.push_back({{S + I + 1, S + I + 2, S}, 3, uint8_t(First ? 0 : 1)});
    return;
  }
}

} // namespace

void assemble(PrimitiveTopology T, bool ProvokingFirst,
              const std::vector<uint32_t> &Indices,
              std::vector<Primitive> &Out) {
  Out.clear();
  if (unsigned PerPrim = verticesPerPrimitive(T))
    Out.reserve(Indices.size() / (T == PrimitiveTopology::PointList ||
                                          T == PrimitiveTopology::LineList ||
                                          T == PrimitiveTopology::TriangleList
                                      ? PerPrim
                                      : 1));
  else
    return; // not a topology of the enum: the pipeline rejects it
  uint32_t Start = 0;
  const uint32_t Size = uint32_t(Indices.size());
  for (uint32_t I = 0; I <= Size; ++I) {
    if (I < Size && Indices[I] != RestartIndex)
      continue;
    assembleRun(T, ProvokingFirst, Start, I, Out);
    Start = I + 1;
  }
}

} // namespace spirv2llvm::graphics
