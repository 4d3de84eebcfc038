//===- spirv2llvm/Graphics.h - The graphics pipeline ------------*- C++ -*-===//
//
// A software rasterizer around spirv2llvm's shaders: a pipeline made of a
// vertex and a fragment shader and fixed-function state in Vulkan's terms
// (the enums carry Vulkan's numbers), drawing into attachments that are
// images of the images API (Image.h, abi.h's s2l_image).
//
//   spirv2llvm::GraphicsPipelineDesc D;
//   D.Vertex.Spirv = VertWords;  D.Fragment.Spirv = FragWords;
//   D.VertexBindings = {{0, sizeof(Vtx), VertexInputRate::Vertex}};
//   D.VertexAttributes = {{0, 0, Format::R32G32B32_SFLOAT, 0}};
//   D.ColorFormats = {Format::R8G8B8A8_UNORM};
//   auto P = spirv2llvm::GraphicsPipeline::create(D);
//   if (!P) { std::cerr << P.status().message() << "\n"; return 1; }
//   spirv2llvm::Framebuffer Fb;
//   Fb.Color = {&ColorImage.descriptor()};
//   spirv2llvm::DrawResources R;
//   R.VertexBuffers = {{Vertices.data(), Vertices.size() * sizeof(Vtx)}};
//   spirv2llvm::Status S = (*P)->draw(Fb, R, spirv2llvm::DrawCommand{3});
//
// How a draw runs (docs/graphics.md): vertices are shaded W per call (each
// distinct index once: a post-transform cache), primitives are assembled,
// clipped against the view volume (near and far planes, w > 0, a guard
// band for x and y), set up with integer edge functions at 8 bits of
// subpixel precision, binned into 64x64 screen tiles, and the tiles are
// rasterized and shaded on worker threads, W/4 2x2 quads per fragment call
// with helper lanes. Each tile keeps the primitives' order, so blending and
// depth are as if drawn one after another. Like Jit.h, this header
// compiles without LLVM's include path.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_GRAPHICS_H
#define SPIRV2LLVM_GRAPHICS_H

#include "spirv2llvm/Compute.h"
#include "spirv2llvm/ImageFormat.h"
#include "spirv2llvm/Status.h"
#include "spirv2llvm/abi.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spirv2llvm {

class CompileCache;

// --- Vulkan's enums (same numbers) -------------------------------------------

enum class PrimitiveTopology : uint32_t {
  PointList = 0,
  LineList = 1,
  LineStrip = 2,
  TriangleList = 3,
  TriangleStrip = 4,
  TriangleFan = 5,
};

enum class VertexInputRate : uint32_t { Vertex = 0, Instance = 1 };

enum class IndexType : uint32_t { UInt16 = 0, UInt32 = 1, UInt8 = 1000265000 };

enum class PolygonMode : uint32_t { Fill = 0, Line = 1, Point = 2 };

/// Bit flags: Front = 1, Back = 2.
enum class CullMode : uint32_t { None = 0, Front = 1, Back = 2, FrontAndBack = 3 };

enum class FrontFace : uint32_t { CounterClockwise = 0, Clockwise = 1 };

/// VkLineRasterizationModeEXT: Default is Rectangular when strict lines
/// are asked for (as here), Bresenham the diamond-exit rule.
enum class LineRasterization : uint32_t {
  Default = 0,
  Rectangular = 1,
  Bresenham = 2,
  RectangularSmooth = 3,
};

enum class CompareOp : uint32_t {
  Never = 0,
  Less = 1,
  Equal = 2,
  LessOrEqual = 3,
  Greater = 4,
  NotEqual = 5,
  GreaterOrEqual = 6,
  Always = 7,
};

enum class StencilOp : uint32_t {
  Keep = 0,
  Zero = 1,
  Replace = 2,
  IncrementAndClamp = 3,
  DecrementAndClamp = 4,
  Invert = 5,
  IncrementAndWrap = 6,
  DecrementAndWrap = 7,
};

enum class BlendFactor : uint32_t {
  Zero = 0,
  One = 1,
  SrcColor = 2,
  OneMinusSrcColor = 3,
  DstColor = 4,
  OneMinusDstColor = 5,
  SrcAlpha = 6,
  OneMinusSrcAlpha = 7,
  DstAlpha = 8,
  OneMinusDstAlpha = 9,
  ConstantColor = 10,
  OneMinusConstantColor = 11,
  ConstantAlpha = 12,
  OneMinusConstantAlpha = 13,
  SrcAlphaSaturate = 14,
  Src1Color = 15,
  OneMinusSrc1Color = 16,
  Src1Alpha = 17,
  OneMinusSrc1Alpha = 18,
};

enum class BlendOp : uint32_t {
  Add = 0,
  Subtract = 1,
  ReverseSubtract = 2,
  Min = 3,
  Max = 4,
};

enum class LogicOp : uint32_t {
  Clear = 0,
  And = 1,
  AndReverse = 2,
  Copy = 3,
  AndInverted = 4,
  NoOp = 5,
  Xor = 6,
  Or = 7,
  Nor = 8,
  Equivalent = 9,
  Invert = 10,
  OrReverse = 11,
  CopyInverted = 12,
  OrInverted = 13,
  Nand = 14,
  Set = 15,
};

/// VkColorComponentFlags.
enum : uint32_t {
  ColorComponentR = 1,
  ColorComponentG = 2,
  ColorComponentB = 4,
  ColorComponentA = 8,
  ColorComponentAll = 15,
};

// --- Pipeline state ----------------------------------------------------------

/// A shader stage: SPIR-V words, the entry point (empty: the module's only
/// one of the stage) and specialization constants (SpecId, value as text:
/// "1.5", "7", "true"; as TranslateOptions::SpecValues).
struct ShaderStageDesc {
  std::vector<uint32_t> Spirv;
  std::string EntryPoint;
  std::vector<std::pair<uint32_t, std::string>> SpecValues;
};

struct VertexBinding {
  uint32_t Binding = 0;
  uint32_t Stride = 0;
  VertexInputRate InputRate = VertexInputRate::Vertex;
  /// VK_EXT_vertex_attribute_divisor: instances per element (0: every
  /// instance reads element 0); only for InputRate Instance.
  uint32_t Divisor = 1;
};

struct VertexAttribute {
  uint32_t Location = 0;
  uint32_t Binding = 0;
  Format Fmt = Format::R32G32B32A32_SFLOAT;
  uint32_t Offset = 0;
};

struct Viewport {
  float X = 0, Y = 0, Width = 0, Height = 0;
  float MinDepth = 0, MaxDepth = 1;
};

struct Rect2D {
  int32_t X = 0, Y = 0;
  uint32_t Width = 0, Height = 0;
};

struct RasterizationState {
  bool DepthClampEnable = false;
  /// VK_EXT_depth_clamp_zero_one's depthClampZeroOne feature: depth clamp
  /// clamps to [0, 1] rather than to the viewport's depth range, and
  /// without depth clamp a floating-point depth attachment keeps depths
  /// outside [0, 1] when DepthRangeUnrestricted is set too (the spec's
  /// depth test rules; otherwise they are clamped to [0, 1] as before).
  bool DepthClampZeroOne = false;
  /// VK_EXT_depth_range_unrestricted is enabled (only read together with
  /// DepthClampZeroOne).
  bool DepthRangeUnrestricted = false;
  bool RasterizerDiscardEnable = false;
  PolygonMode Polygon = PolygonMode::Fill;
  CullMode Cull = CullMode::None;
  FrontFace Front = FrontFace::CounterClockwise;
  bool DepthBiasEnable = false;
  float DepthBiasConstantFactor = 0, DepthBiasClamp = 0,
        DepthBiasSlopeFactor = 0;
  float LineWidth = 1;
  LineRasterization LineMode = LineRasterization::Default;
  /// The first vertex of a primitive is the provoking one (Vulkan's
  /// default); false: the last (VK_EXT_provoking_vertex).
  bool ProvokingVertexFirst = true;
};

struct MultisampleState {
  /// 1, 2, 4 or 8; the attachments have this many samples.
  uint32_t Samples = 1;
  bool SampleShadingEnable = false;
  float MinSampleShading = 0;
  uint32_t SampleMask = ~0u;
  bool AlphaToCoverageEnable = false;
  bool AlphaToOneEnable = false;
};

struct StencilOpState {
  StencilOp FailOp = StencilOp::Keep;
  StencilOp PassOp = StencilOp::Keep;
  StencilOp DepthFailOp = StencilOp::Keep;
  CompareOp Compare = CompareOp::Always;
  uint32_t CompareMask = 0xff, WriteMask = 0xff, Reference = 0;
};

struct DepthStencilState {
  bool DepthTestEnable = false;
  bool DepthWriteEnable = false;
  CompareOp DepthCompare = CompareOp::Less;
  bool DepthBoundsTestEnable = false;
  float MinDepthBounds = 0, MaxDepthBounds = 1;
  bool StencilTestEnable = false;
  StencilOpState Front, Back;
};

struct ColorBlendAttachment {
  bool BlendEnable = false;
  BlendFactor SrcColor = BlendFactor::One, DstColor = BlendFactor::Zero;
  BlendOp ColorOp = BlendOp::Add;
  BlendFactor SrcAlpha = BlendFactor::One, DstAlpha = BlendFactor::Zero;
  BlendOp AlphaOp = BlendOp::Add;
  uint32_t WriteMask = ColorComponentAll;
};

struct ColorBlendState {
  bool LogicOpEnable = false;
  LogicOp Logic = LogicOp::Copy;
  /// One per colour attachment (missing ones: blending off, all written).
  std::vector<ColorBlendAttachment> Attachments;
  std::array<float, 4> Constants = {0, 0, 0, 0};
};

/// Everything a pipeline is made of. Viewports, scissors, blend constants,
/// stencil references and line width may change between draws
/// (GraphicsPipeline::state()); the rest is fixed at creation.
struct GraphicsPipelineDesc {
  ShaderStageDesc Vertex;
  /// Optional: without a fragment shader only depth and stencil are
  /// written.
  std::optional<ShaderStageDesc> Fragment;
  /// Optional geometry shader (docs/graphics.md, "Geometry shaders"):
  /// its input primitive must be what Topology makes (points, lines,
  /// triangles); its emitted strips are what is rasterized.
  std::optional<ShaderStageDesc> Geometry;
  std::vector<VertexBinding> VertexBindings;
  std::vector<VertexAttribute> VertexAttributes;
  PrimitiveTopology Topology = PrimitiveTopology::TriangleList;
  bool PrimitiveRestartEnable = false;
  /// Up to GraphicsLimits::MaxViewports viewports (multiViewport): each
  /// primitive uses the viewport and scissor its provoking vertex's
  /// ViewportIndex output names (viewport 0 when the vertex shader writes
  /// none; an index out of range, undefined in Vulkan, also selects
  /// viewport 0). No viewport: the whole framebuffer at depth 0 to 1.
  std::vector<Viewport> Viewports;
  /// As many scissors as viewports, or none: the whole framebuffer.
  std::vector<Rect2D> Scissors;
  RasterizationState Rasterization;
  MultisampleState Multisample;
  DepthStencilState DepthStencil;
  ColorBlendState Blend;
  /// Colour attachment formats by location, and the depth/stencil
  /// attachment's (Undefined: none). Undefined colour entries are unused
  /// locations.
  std::vector<Format> ColorFormats;
  Format DepthStencilFormat = Format::UNDEFINED;
  /// SIMD width of both shaders: 4, 8 or 16 (0: defaultComputeWidth()).
  unsigned Width = 0;
  /// Optimization level of the JIT (0-3).
  unsigned OptLevel = 2;
  /// TranslateOptions::Contract for both shaders.
  bool Contract = true;
  /// Optional compile cache (CompileCache.h) for both shaders.
  CompileCache *Cache = nullptr;
};

// --- Draws -------------------------------------------------------------------

/// The attachments of a draw: images of the pipeline's formats and sample
/// count, all of the same width and height (level 0, layer 0 is drawn).
/// Null entries are unused locations. Resolve targets, when given, are
/// single-sampled images that get the average of each pixel's samples
/// after the draw.
struct Framebuffer {
  std::vector<const s2l_image *> Color;
  const s2l_image *DepthStencil = nullptr;
  std::vector<const s2l_image *> Resolve;
};

/// A vertex buffer: its bytes (the binding's data from offset 0).
struct VertexBufferView {
  const void *Data = nullptr;
  uint64_t Size = 0;
};

/// Descriptors and push constants of both stages, vertex and index
/// buffers. Vertex buffers are indexed by VertexBinding::Binding.
struct DrawResources : DispatchResources {
  std::vector<VertexBufferView> VertexBuffers;
  const void *IndexData = nullptr;
  uint64_t IndexSize = 0;
  IndexType Index = IndexType::UInt32;
};

/// vkCmdDraw / vkCmdDrawIndexed (Indexed) parameters.
struct DrawCommand {
  uint32_t Count = 0; ///< vertices, or indices when Indexed
  uint32_t InstanceCount = 1;
  uint32_t First = 0; ///< first vertex, or first index when Indexed
  uint32_t FirstInstance = 0;
  int32_t VertexOffset = 0; ///< Indexed: added to each index
  bool Indexed = false;
};

/// Statistics of the last draw (pipeline statistics queries in spirit).
struct DrawStats {
  uint64_t VertexInvocations = 0;
  uint64_t Primitives = 0;
  uint64_t ClippedPrimitives = 0;
  uint64_t FragmentQuads = 0;
  uint64_t FragmentCalls = 0;
};

class GraphicsPipeline {
public:
  /// Translates and JIT-compiles both shaders and checks the state: the
  /// interfaces match (every fragment input has a vertex output of the same
  /// location and component count), the formats are attachment formats,
  /// counts are within limits. Errors say which state or stage is wrong.
  static Result<std::unique_ptr<GraphicsPipeline>>
  create(const GraphicsPipelineDesc &D);
  /// The same with shaders the caller compiled (from GLSL, or through its
  /// own cache): D.Vertex and D.Fragment are then not read, \p Fragment
  /// may be null. The shaders' widths must agree.
  static Result<std::unique_ptr<GraphicsPipeline>>
  create(const GraphicsPipelineDesc &D, std::unique_ptr<JitShader> Vertex,
         std::unique_ptr<JitShader> Fragment);
  /// The same with a geometry shader (null: none) between the two.
  static Result<std::unique_ptr<GraphicsPipeline>>
  create(const GraphicsPipelineDesc &D, std::unique_ptr<JitShader> Vertex,
         std::unique_ptr<JitShader> Geometry,
         std::unique_ptr<JitShader> Fragment);
  ~GraphicsPipeline();
  GraphicsPipeline(const GraphicsPipeline &) = delete;
  GraphicsPipeline &operator=(const GraphicsPipeline &) = delete;

  const GraphicsPipelineDesc &desc() const;
  /// The dynamic part of the state, changeable between draws: viewports,
  /// scissors, blend constants, stencil compare/write masks and
  /// references, line width, depth bias factors, depth bounds.
  GraphicsPipelineDesc &state();
  unsigned width() const;
  const ComputeInfo &vertexInfo() const;
  const ComputeInfo &fragmentInfo() const;
  /// The geometry shader's resources (empty without a geometry stage).
  const ComputeInfo &geometryInfo() const;

  /// Draws into \p Fb on \p Threads threads (0: all cores). Draws of one
  /// pipeline may run on several threads at once (into different
  /// attachments); changing state() meanwhile is a race. Fails without
  /// drawing when the attachments do not match the pipeline's formats,
  /// sample count or each other's size, a vertex buffer is missing or too
  /// small for the draw, an index is beyond the index buffer, or a
  /// descriptor is missing; a fault in a shader stops the draw with an
  /// error naming it.
  Status draw(const Framebuffer &Fb, const DrawResources &R,
              const DrawCommand &Cmd, unsigned Threads = 0);
  /// vkCmdDrawIndirect / vkCmdDrawIndexedIndirect: \p DrawCount commands
  /// of \p Stride bytes at \p Indirect (VkDrawIndirectCommand or
  /// VkDrawIndexedIndirectCommand, per \p Indexed).
  Status drawIndirect(const Framebuffer &Fb, const DrawResources &R,
                      const void *Indirect, uint64_t IndirectSize,
                      uint32_t DrawCount, uint32_t Stride, bool Indexed,
                      unsigned Threads = 0);
  /// Statistics of the last draw that finished.
  DrawStats stats() const;

  struct Impl;

private:
  GraphicsPipeline();
  std::unique_ptr<Impl> P;
};

/// Vulkan's standard sample locations for \p Samples (1, 2, 4, 8, 16) in
/// pixel units ([0,1)^2); empty for other counts.
std::vector<std::array<float, 2>> standardSampleLocations(uint32_t Samples);

/// Limits checked by GraphicsPipeline (a clear error beyond them).
struct GraphicsLimits {
  static constexpr uint32_t MaxColorAttachments = 8;
  /// Viewports and scissors of a pipeline (maxViewports; lavapipe's 16).
  static constexpr uint32_t MaxViewports = 16;
  static constexpr uint32_t MaxVertexBindings = 32;
  static constexpr uint32_t MaxVertexAttributes = 32;
  static constexpr uint32_t MaxFramebufferSize = 16384;
  static constexpr uint32_t MaxVertexOutputComponents = 128;
  static constexpr uint64_t MaxDrawVertices = uint64_t(1) << 28;
  /// Vertices (or indices) of one instance: a draw keeps one instance's
  /// vertices and primitives in memory at once (about 160 bytes a vertex),
  /// so this bounds a draw's memory to a few GiB.
  static constexpr uint64_t MaxInstanceVertices = uint64_t(1) << 24;
  /// Width x height x samples of a framebuffer (8 samples of 8192^2).
  static constexpr uint64_t MaxFramebufferSamples = uint64_t(1) << 29;
};

} // namespace spirv2llvm

#endif
