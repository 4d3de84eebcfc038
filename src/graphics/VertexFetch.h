//===- graphics/VertexFetch.h - Vertex input --------------------*- C++ -*-===//
//
// The vertex input stage (Vulkan 1.3 "Fixed-Function Vertex Processing"):
// reads each vertex attribute from its binding's buffer, converts it as the
// format says (ImageFormat.h's texel codec) and writes it into the vertex
// shader's structure-of-arrays input block (Interface.h), W vertices per
// call; feeds the VertexIndex / InstanceIndex built-ins.
//
// create() checks the state against the shader once and precomputes, per
// attribute, where each component goes and how it is read: a plain copy
// for formats of 32-bit components in RGBA order read by 32-bit inputs of
// the same numeric type (R32G32B32_SFLOAT into a vec3), a table lookup
// per byte for 8-bit formats, a direct conversion of 16-bit components, a
// 64-bit copy for the R64 formats, the
// texel decoder otherwise. fetch() then allocates
// nothing. Reads are bounds-checked per attribute like robustBufferAccess2:
// an attribute whose bytes are not all inside its buffer reads (0,0,0,1).
//
// Limitation: an attribute is read whole or not at all; Vulkan 1.3 allows
// (without robustness) any result for a partly out-of-bounds attribute,
// robustBufferAccess2 zero for the out-of-bounds components only.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_GRAPHICS_VERTEXFETCH_H
#define SPIRV2LLVM_GRAPHICS_VERTEXFETCH_H

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Interface.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace spirv2llvm::graphics {

class VertexFetcher {
public:
  /// Checks the vertex input state of \p D against the vertex shader's
  /// inputs \p VS and precomputes the fetch: bindings unique and below
  /// GraphicsLimits::MaxVertexBindings; attributes' locations unique and
  /// below GraphicsLimits::MaxVertexAttributes, each naming an existing
  /// binding, each a vertex format (uncompressed, not depth/stencil, not
  /// E5B9G9R9); every shader input with a Location has an attribute there
  /// whose numeric type fits (float inputs: float, norm, scaled and sRGB
  /// formats; int inputs: SINT; uint inputs: UINT; 64-bit inputs: the R64
  /// formats of that type, a three- or four-component one feeding two
  /// locations), per location for inputs spanning several (arrays,
  /// matrices). The built-ins VertexIndex, InstanceIndex, VertexId and
  /// InstanceId are fed; any other built-in input is an error. Errors name
  /// the location or binding and what is wrong.
  static Result<VertexFetcher> create(const GraphicsPipelineDesc &D,
                                      const InterfaceLayout &VS);

  /// Checks that every binding an attribute of the shader reads has a
  /// buffer in \p R.VertexBuffers (indexed by VertexBinding::Binding) with
  /// non-null data. (Sizes are not checked: fetch() bounds-checks.)
  Status checkBuffers(const DrawResources &R) const;

  /// Fills lanes [0, N) of the SoA input block \p In (the layout given to
  /// create(), its Width lanes) for the vertex indices Indices[0..N)
  /// (index buffer and VertexOffset applied) of instance \p Instance (the
  /// InstanceIndex value, FirstInstance included). Per-instance bindings
  /// read element FirstInstance + (Instance - FirstInstance) / Divisor
  /// (Divisor 0: element FirstInstance). Components the format lacks read
  /// 0, the fourth 1 (1.0 or integer 1). An attribute not wholly inside
  /// its buffer reads as if every component were missing; nothing outside
  /// a buffer is ever read. Lanes N and above are left alone. Needs
  /// checkBuffers(R) to have succeeded; N <= the layout's Width. Const and
  /// allocation-free: worker threads may fetch at the same time.
  void fetch(const DrawResources &R, const uint32_t *Indices, unsigned N,
             uint32_t Instance, uint32_t FirstInstance, uint8_t *In) const;

  /// How an attribute is read (exposed for tests and statistics).
  enum class PathKind : uint8_t {
    /// 32-bit components copied as they are.
    Copy32,
    /// 64-bit components copied as they are (R64 formats).
    Copy64,
    /// Byte-aligned 8-bit components (R8G8B8A8_UNORM, B8G8R8A8_SNORM,
    /// ...) looked up in a 256-entry table of their numeric kind, which
    /// decodeTexel itself fills; 32-bit inputs.
    Bytes8,
    /// 16-bit components at 16-bit offsets (R16G16_SFLOAT, R16_UNORM,
    /// ...) converted by the scalar functions decodeTexel uses; 32-bit
    /// inputs.
    Words16,
    /// decodeTexel into float4/int4/uint4, then converted to the input's
    /// width.
    Decode,
  };
  /// The path of the attribute at \p Location, or none when the shader
  /// reads nothing there.
  std::optional<PathKind> pathAt(uint32_t Location) const;

private:
  /// One component written: from component Src (0-3) of the attribute's
  /// RGBA value to the input block at DstOffset (lane 0), DstBytes wide
  /// per lane.
  struct Target {
    uint32_t DstOffset;
    uint8_t Src;
    uint8_t DstBytes;
    ScalarKind Kind;
    /// Whether the format has component Src; the value written when it
    /// has not, or the attribute is out of bounds (DstBytes bytes).
    bool Present;
    uint8_t Missing[8];
    /// Bytes8 and Words16: the component's byte offset in the element;
    /// Bytes8: its table; Words16: its numeric kind.
    uint8_t ByteOffset = 0;
    const uint32_t *Table = nullptr;
    NumericKind Numeric = NumericKind::UNorm;
  };
  struct Attribute {
    uint32_t Location;
    uint32_t Binding;
    uint32_t Stride;
    uint32_t Offset;
    bool PerInstance;
    uint32_t Divisor;
    Format Fmt;
    /// Bytes of one element (the format's texel).
    uint32_t Bytes;
    ViewKind View;
    PathKind Path;
    std::vector<Target> Targets;
  };
  /// A built-in input: lane values written as 32-bit integers.
  enum class FeedKind : uint8_t { VertexIndex, InstanceIndex, InstanceId };
  struct BuiltInFeed {
    FeedKind Kind;
    uint32_t DstOffset;
  };

  void fetchAttribute(const Attribute &A, const DrawResources &R,
                      const uint32_t *Indices, unsigned N, uint32_t Instance,
                      uint32_t FirstInstance, uint8_t *In) const;

  std::vector<Attribute> Attributes;
  std::vector<BuiltInFeed> BuiltIns;
  unsigned Width = 4;
};

} // namespace spirv2llvm::graphics

#endif
