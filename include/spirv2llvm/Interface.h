//===- spirv2llvm/Interface.h - Interface layout of an entry ----*- C++ -*-===//
//
// Where the generated entry point reads its inputs and writes its outputs
// (see abi.h): each scalar component of an interface variable gets W
// consecutive elements, in the order the variable's type flattens (vector
// components, matrix columns then rows, array elements, struct members).
// Variables are laid out in the entry point's interface order.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_INTERFACE_H
#define SPIRV2LLVM_INTERFACE_H

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace spirv2llvm {

/// Shader stage of an entry point.
/// Shader stage of an entry point (Geometry last: the compile cache stores
/// the numbers).
enum class Stage { Vertex, Fragment, Compute, Geometry };

enum class ScalarKind : uint8_t { Bool, Int, UInt, Float };

struct ScalarType {
  ScalarKind Kind = ScalarKind::Float;
  uint32_t Bits = 32;
  /// Size of one lane's element in interface memory (booleans take 4).
  uint32_t bytes() const { return Kind == ScalarKind::Bool ? 4 : Bits / 8; }
};

/// Where a scalar component sits in Vulkan's location space (Vulkan 1.3
/// "Location Assignment", "Component Assignment"): its location and its
/// first 32-bit component there (0-3; a 64-bit scalar takes two).
struct LocationSlot {
  uint32_t Location = 0;
  uint32_t Component = 0;
};

struct InterfaceVariable {
  uint32_t Id = 0;
  std::string Name;            ///< OpName, or the friendly name
  bool IsInput = true;
  int32_t Location = -1;
  int32_t BuiltIn = -1;        ///< spv::BuiltIn value, -1 if none
  /// Interpolation decorations (a rasterizer needs them): Flat,
  /// NoPerspective.
  bool Flat = false, NoPerspective = false;
  /// The Index decoration of a fragment output: 1 is the second source of
  /// dual-source blending (at location 0), 0 otherwise.
  uint32_t Index = 0;
  uint32_t Offset = 0;         ///< byte offset of component 0
  /// Per scalar component: its type and the byte offset of lane 0.
  std::vector<ScalarType> Components;
  std::vector<uint32_t> ComponentOffsets;
  /// Per scalar component of a variable with a Location (empty for
  /// built-ins): its location and component. Each array element, matrix
  /// column and struct member starts a new location; a 64-bit vector of
  /// three or four components spans two; the Component decoration offsets
  /// every location's first component. A rasterizer matches vertex
  /// attributes and fragment inputs by these.
  std::vector<LocationSlot> ComponentLocations;
  /// A block whose members are built-ins (gl_PerVertex): for each such
  /// member, the index of its first component and its spv::BuiltIn.
  std::vector<std::pair<uint32_t, int32_t>> MemberBuiltIns;
};

/// A geometry shader's execution modes and where its emitted vertices go
/// (docs/abi.md, "Geometry shaders"). The output block begins with the
/// current values of the outputs (VertexBytes, the outputs' layout as in
/// every stage); OpEmitVertex copies them, for each active lane, into
/// vertex slot Count[lane] of the region at VerticesOffset (slot k at
/// VerticesOffset + k * VertexBytes, laid out like the first VertexBytes,
/// lane L of a component at its offset + L * size) and increments
/// Count[lane]; a lane that has emitted MaxVertices drops further vertices
/// (Vulkan leaves that undefined). Cut[k][lane] is 1 when an
/// OpEndPrimitive came between vertex k - 1 and vertex k: vertex k starts a
/// new strip. The caller zeroes Count and PendingCut before each call.
struct GeometryLayout {
  enum class InputKind : uint8_t {
    Points,
    Lines,
    LinesAdjacency,
    Triangles,
    TrianglesAdjacency,
  };
  enum class OutputKind : uint8_t { Points, LineStrip, TriangleStrip };
  InputKind Input = InputKind::Triangles;
  OutputKind Output = OutputKind::TriangleStrip;
  /// Vertices of an input primitive: 1, 2, 4, 3 or 6; the length of the
  /// per-vertex input arrays.
  uint32_t InputVertices = 3;
  /// OutputVertices, and Invocations (1 when the mode is absent).
  uint32_t MaxVertices = 0, Invocations = 1;
  /// Bytes of one vertex: the outputs' part of the block.
  uint32_t VertexBytes = 0;
  /// W x uint32 each: vertices emitted, and an EndPrimitive pending.
  uint32_t CountOffset = 0, PendingCutOffset = 0;
  /// MaxVertices x W x uint32: vertex k starts a new strip.
  uint32_t CutOffset = 0;
  /// MaxVertices x VertexBytes.
  uint32_t VerticesOffset = 0;
};

struct InterfaceLayout {
  unsigned Width = 4;
  std::vector<InterfaceVariable> Inputs, Outputs;
  uint32_t InputSize = 0, OutputSize = 0;
  /// Geometry shaders only; OutputSize then includes the emitted vertices.
  bool HasGeometry = false;
  GeometryLayout Geometry;

  const InterfaceVariable *find(uint32_t Id) const;
  const InterfaceVariable *findInputLocation(int32_t Location) const;
  const InterfaceVariable *findOutputLocation(int32_t Location) const;
  const InterfaceVariable *findByName(const std::string &Name) const;
  void print(llvm::raw_ostream &OS) const;
};

/// What a compute entry point needs from its caller (reflection).
struct ComputeInfo {
  std::array<uint32_t, 3> WorkgroupSize = {1, 1, 1};
  /// What a binding holds (VkDescriptorType's kinds).
  enum class DescriptorKind : uint8_t {
    UniformBuffer,
    StorageBuffer,
    SampledImage,
    StorageImage,
    Sampler,
    CombinedImageSampler,
    UniformTexelBuffer,
    StorageTexelBuffer,
    InputAttachment,
  };
  struct Binding {
    uint32_t Set = 0, Binding = 0;
    DescriptorKind Kind = DescriptorKind::StorageBuffer;
    /// Images: the OpTypeImage's Dim (SPIR-V numbers), arrayed,
    /// multisampled, and the storage format it declares as a VkFormat
    /// number (0: Unknown).
    uint32_t ImageDim = 0;
    bool ImageArrayed = false, ImageMultisampled = false;
    uint32_t ImageFormat = 0;
    /// Uniform (std140 "uniform" block) or storage buffer.
    bool IsUniform = false;
    /// Bytes the shader's type needs (for a runtime array: its fixed
    /// prefix; any size at least this is accepted).
    uint64_t MinSize = 0;
    bool HasRuntimeArray = false;
    /// An array of blocks (descriptor array): bound as an array of
    /// s2l_descriptor, one per element (abi.h); MinSize and
    /// HasRuntimeArray describe each element. ArraySize is the declared
    /// element count, 0 for a runtime-sized array.
    bool IsArray = false;
    uint32_t ArraySize = 0;
  };
  std::vector<Binding> Bindings;
  /// Bytes of push constants the shader reads.
  uint32_t PushConstantSize = 0;
  /// Bytes of Workgroup memory per workgroup.
  uint32_t WorkgroupMemorySize = 0;
  bool HasBarriers = false;
  /// Fragment shaders: the EarlyFragmentTests execution mode, and whether
  /// any instruction can end or demote an invocation (OpKill,
  /// OpTerminateInvocation, OpDemoteToHelperInvocation): what decides
  /// whether a rasterizer may test depth before shading.
  bool EarlyFragmentTests = false;
  bool CanDiscard = false;
  /// Translated with TranslateOptions::RobustBufferAccess: every buffer
  /// access is checked against the bound descriptor's size, so a buffer
  /// smaller than a (single) binding's MinSize is safe to bind (what lies
  /// past its end reads zero, writes there are dropped), as Vulkan allows
  /// with robustBufferAccess.
  bool BoundsChecked = false;
};

} // namespace spirv2llvm

#endif
