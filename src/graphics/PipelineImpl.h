//===- PipelineImpl.h - What a graphics pipeline holds ----------*- C++ -*-===//
//
// The compiled shaders and everything about the state that can be decided
// once per pipeline: how each fragment input is fed, where each output
// goes, the output mergers, the vertex fetcher. Draw.cpp runs draws over
// it.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_GRAPHICS_PIPELINEIMPL_H
#define SPIRV2LLVM_GRAPHICS_PIPELINEIMPL_H

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Jit.h"

#include "graphics/Assembly.h"
#include "graphics/GeometryStage.h"
#include "graphics/OutputMerge.h"
#include "graphics/VertexFetch.h"

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace spirv2llvm::graphics {

/// SPIR-V BuiltIn numbers the pipeline feeds or reads.
enum : int32_t {
  BuiltInPosition = 0,
  BuiltInPointSize = 1,
  BuiltInClipDistance = 3,
  BuiltInCullDistance = 4,
  BuiltInVertexId = 5,
  BuiltInInstanceId = 6,
  BuiltInPrimitiveId = 7,
  BuiltInInvocationId = 8,
  BuiltInLayer = 9,
  BuiltInViewportIndex = 10,
  BuiltInFragCoord = 15,
  BuiltInPointCoord = 16,
  BuiltInFrontFacing = 17,
  BuiltInSampleId = 18,
  BuiltInSamplePosition = 19,
  BuiltInSampleMask = 20,
  BuiltInFragDepth = 22,
  BuiltInHelperInvocation = 23,
  BuiltInVertexIndex = 42,
  BuiltInInstanceIndex = 43,
};

/// One 32-bit word a vertex carries to the rasterizer: a component of a
/// vertex shader output that some fragment input reads.
struct Varying {
  /// Where the vertex shader wrote it (lane 0's byte offset).
  uint32_t VsOffset = 0;
  /// Interpolated (a 32-bit float, not Flat) or copied from the
  /// provoking vertex.
  bool Interpolated = false;
  bool NoPerspective = false;
};

/// How one fragment shader input component is fed.
struct FragmentInput {
  enum class Kind : uint8_t {
    Varying,   ///< Index: the varying
    FragCoord, ///< Index: component 0-3
    FrontFacing,
    Helper,
    SampleId,
    SamplePosition, ///< Index: component
    SampleMaskIn,
    PointCoord, ///< Index: component
    PrimitiveId,
    ViewportIndex,
    Zero,
  } K = Kind::Zero;
  uint32_t Index = 0;
  uint32_t Offset = 0; ///< lane 0's byte offset in the input block
  ScalarType Type;
};

/// A fragment shader colour output and its attachment.
struct ColorOutput {
  uint32_t Location = 0;
  /// Component offsets (up to 4) and their type.
  uint32_t Offsets[4] = {};
  unsigned NumComponents = 0;
  ScalarType Type;
};

/// Checks the viewport and scissor state of \p S (counts within
/// GraphicsLimits::MaxViewports, as many scissors as viewports or none);
/// GraphicsPipeline::create and each draw call it (the state is dynamic).
/// Viewports.cpp.
Status checkViewportCounts(const GraphicsPipelineDesc &S);

/// The component of \p L's outputs holding built-in \p B (a variable of
/// its own or a member of gl_PerVertex): its variable and component index.
std::optional<std::pair<const InterfaceVariable *, uint32_t>>
findBuiltInOutput(const InterfaceLayout &L, int32_t B);
/// The components of built-in output \p B (ClipDistance[N] has N), as
/// lane 0 offsets.
std::vector<uint32_t> builtInOutputComponents(const InterfaceLayout &L,
                                              int32_t B);
/// The output component at \p Slot (InterfaceVariable::ComponentLocations):
/// its variable and index.
std::optional<std::pair<const InterfaceVariable *, uint32_t>>
findLocation(const InterfaceLayout &L, LocationSlot Slot);

struct PipelineShaders {
  std::unique_ptr<JitShader> Vertex, Fragment;
};

} // namespace spirv2llvm::graphics

namespace spirv2llvm {

struct GraphicsPipeline::Impl {
  GraphicsPipelineDesc Desc;
  unsigned Width = 4;
  std::unique_ptr<JitShader> Vertex, Fragment;
  /// The optional geometry stage and how its inputs are fed. With it, the
  /// fields below up to Varyings describe the geometry shader's outputs
  /// (the last stage before rasterization), offsets within one emitted
  /// vertex.
  std::unique_ptr<JitShader> Geometry;
  std::optional<graphics::GeometryLink> GeoLink;
  std::optional<graphics::VertexFetcher> Fetcher;
  /// Vertex outputs: the position and point size (null when not written).
  const InterfaceVariable *Position = nullptr, *PointSize = nullptr;
  /// Their first component in those variables (gl_PerVertex members).
  uint32_t PositionComponent = 0, PointSizeComponent = 0;
  /// Lane 0 offset of the vertex shader's ViewportIndex output, if any.
  std::optional<uint32_t> ViewportIndexOffset;
  /// Lane 0 offsets of the ClipDistance and CullDistance components.
  std::vector<uint32_t> ClipDistances, CullDistances;
  std::vector<graphics::Varying> Varyings;
  std::vector<graphics::FragmentInput> FragmentInputs;
  std::vector<graphics::ColorOutput> ColorOutputs;
  /// The second source of dual-source blending: the output with Index 1
  /// (at location 0), if the fragment shader has one.
  std::optional<graphics::ColorOutput> Src1Output;
  /// FragDepth and SampleMask outputs (lane 0 offsets), if written.
  std::optional<uint32_t> FragDepthOffset, SampleMaskOffset;
  /// One per colour location (null for unused ones).
  std::vector<std::optional<graphics::ColorMerger>> Mergers;
  /// The fragment shader may write memory (storage buffers or images):
  /// helper lanes then do not run, and tests stay late unless the shader
  /// asks for early ones.
  bool FragmentWritesMemory = false;
  /// The fragment shader has Flat inputs, which the translator keeps
  /// scalar (one value per SIMD group: docs/abi.md): a call then holds
  /// quads of one primitive and one sample only.
  bool FragmentHasFlatInputs = false;
  /// The last draw's statistics (draws may run on several threads).
  DrawStats Stats;
  std::mutex StatsMutex;
};

} // namespace spirv2llvm

#endif
