//===- AmberScript.h - The parsed model of an Amber script ------*- C++ -*-===//
//
// What AmberParser and VkScriptParser produce and AmberRunner executes: shaders, buffers,
// pipelines and an ordered list of commands (RUN, CLEAR, EXPECT, ...). The
// subset is the one docs/amber.md lists; a script using anything else is
// parsed up to that point and marked Unsupported, so the runner SKIPs it
// with the reason instead of failing.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_AMBERSCRIPT_H
#define SPIRV2LLVM_AMBER_AMBERSCRIPT_H

#include "amber/BufferFormats.h"
#include "spirv2llvm/Graphics.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spirv2llvm::amber {

enum class ShaderStageKind { Vertex, Fragment, Compute, Geometry };
enum class ShaderSource { Glsl, Hlsl, SpirvAsm, SpirvBin, Passthrough };

struct ShaderDecl {
  std::string Name;
  ShaderStageKind Stage = ShaderStageKind::Compute;
  ShaderSource Source = ShaderSource::Glsl;
  std::string Text;            ///< source text, or the bytes of SPIRV-BIN
  std::string TargetEnv;       ///< empty: the default
  /// SHADER ... VIRTUAL_FILE path: the path (its includes are looked for
  /// beside it); empty otherwise.
  std::string VirtualPath;
  unsigned Line = 0;
};

struct BufferDecl {
  std::string Name;
  BufferFormat Format;
  std::vector<uint8_t> Data;
  /// Image buffers (FORMAT, or color attachments): size in pixels once
  /// known; 0 until a pipeline binds it.
  uint32_t Width = 0, Height = 0;
  /// IMAGE: dimensionality 1, 2 or 3 (0: a BUFFER) and depth.
  uint32_t ImageDim = 0, Depth = 1;
  /// FORMAT buffers and IMAGEs: MIP_LEVELS and SAMPLES.
  uint32_t MipLevels = 1, Samples = 1;
  /// BUFFER ... FILE PNG path: the file, relative to the script (read when
  /// images are supported).
  std::string PngPath;
  unsigned Line = 0;

  /// Where level \p L of an image buffer's mip chain lives: the levels
  /// follow level 0 tightly packed (spirv2llvm::Image's layout), so EXPECT
  /// and PNG dumps of the buffer read level 0 as before. 3D levels hold
  /// their slices one after the other.
  struct MipLevel {
    uint64_t Offset = 0, Pitch = 0;
    uint32_t Width = 0, Height = 0, Depth = 1;
    uint64_t bytes() const { return Pitch * Height * Depth; }
  };
  MipLevel mipLevel(uint32_t L) const {
    MipLevel M;
    for (uint32_t K = 0; K <= L; ++K) {
      M.Offset += K ? M.bytes() : 0;
      M.Width = std::max(1u, Width >> K);
      M.Height = std::max(1u, Height >> K);
      M.Depth = ImageDim == 3 ? std::max(1u, Depth >> K) : 1;
      M.Pitch = uint64_t(M.Width) * Format.ElementSize * Samples;
    }
    return M;
  }
  uint64_t mipChainBytes() const {
    MipLevel Last = mipLevel(MipLevels - 1);
    return Last.Offset + Last.bytes();
  }
};

/// SAMPLER name [MAG_FILTER f] ...: Vulkan sampler state by Amber's names.
struct SamplerDecl {
  std::string Name;
  std::string MagFilter = "nearest", MinFilter = "nearest";
  std::string MipmapMode = "nearest";
  std::string AddressU = "repeat", AddressV = "repeat", AddressW = "repeat";
  std::string BorderColor = "float_transparent_black";
  double MinLod = 0, MaxLod = 1;
  bool Normalized = true;
  bool Compare = false;
  std::string CompareOp = "never";
  unsigned Line = 0;
};

struct AttachDecl {
  std::string Shader;
  std::string EntryPoint;  ///< empty: "main"
  /// SPECIALIZE id AS type value: SpecId -> value text as spirv-opt takes it.
  std::vector<std::pair<uint32_t, std::string>> Spec;
  /// SHADER_OPTIMIZATION: spirv-opt flags run on the shader before it is
  /// translated (TranslateOptions::OptimizerPasses).
  std::vector<std::string> Optimizations;
  /// Set by the runner when the pipeline binds a buffer smaller than the
  /// shader's block: translate with robust buffer access (BufferBounds.h).
  bool RobustBufferAccess = false;
};

enum class BindKind {
  Storage,
  Uniform,
  PushConstant,
  Color,
  DepthStencil,
  /// A multisample resolve target: the K-th one gets the K-th colour
  /// attachment with more than one sample.
  Resolve,
  // Parsed; the runner SKIPs them until images are supported.
  StorageImage,
  SampledImage,
  CombinedImageSampler,
  Sampler,
  UniformTexelBuffer,
  StorageTexelBuffer,
};

struct BindDecl {
  std::string Buffer; ///< the buffer (BUFFER_ARRAY: the first element's)
  BindKind Kind = BindKind::Storage;
  uint32_t Set = 0, Binding = 0, Location = 0;
  /// BIND BUFFER_ARRAY: the buffer of each descriptor array element;
  /// empty for a single buffer.
  std::vector<std::string> Array;
  /// Storage and uniform bindings, per element (one for a single buffer):
  /// the descriptor's byte offset (DESCRIPTOR_OFFSET plus a dynamic
  /// buffer's OFFSET) and DESCRIPTOR_RANGE (0: to the buffer's end).
  std::vector<uint64_t> Offsets, Ranges;
  /// BIND SAMPLER[_ARRAY] and combined_image_sampler: the sampler(s).
  std::vector<std::string> Samplers;
  uint32_t BaseMipLevel = 0;
};

/// VERTEX_DATA B LOCATION n [RATE vertex|instance] [OFFSET o] [STRIDE s]
/// [FORMAT f]: an attribute read from a buffer.
struct VertexDataDecl {
  std::string Buffer;
  uint32_t Location = 0;
  bool PerInstance = false;
  uint32_t Offset = 0;
  uint32_t Stride = 0;                 ///< 0: the element size
  std::optional<BufferFormat> Format;  ///< default: the buffer's
  /// DIVISOR n (a spirv2llvm extension, VK_EXT_vertex_attribute_divisor):
  /// instances per element of a RATE instance attribute.
  uint32_t Divisor = 1;
};

/// The fixed-function state of a graphics pipeline in the rasterizer's
/// terms (spirv2llvm/Graphics.h), set by DEPTH, STENCIL, BLEND,
/// POLYGON_MODE, ... (AmberScript) or the pipeline lines of VkScript's
/// [test]; the runner copies it into a GraphicsPipelineDesc. The defaults
/// are Amber's: depth test and write off with compare op always, stencil
/// off with compare op always, blending off.
struct GraphicsStateDecl {
  RasterizationState Raster;
  DepthStencilState DepthStencil = [] {
    DepthStencilState D;
    D.DepthCompare = spirv2llvm::CompareOp::Always;
    return D;
  }();
  /// Applied to every colour attachment.
  ColorBlendAttachment Blend;
  std::array<float, 4> BlendConstants = {0, 0, 0, 0};
  bool LogicOpEnable = false;
  LogicOp Logic = LogicOp::Copy;
  bool PrimitiveRestart = false;
  /// Samples come from the attachments; the rest from MULTISAMPLE.
  MultisampleState Multisample;
  std::optional<Rect2D> Scissor;
  bool operator==(const GraphicsStateDecl &O) const;
};

struct PipelineDecl {
  std::string Name;
  bool IsCompute = true;
  std::vector<AttachDecl> Attached;
  std::vector<BindDecl> Binds;
  std::vector<VertexDataDecl> VertexData;
  std::string IndexData; ///< INDEX_DATA buffer, empty if none
  uint32_t FbWidth = 250, FbHeight = 250; ///< Amber's default
  /// VIEWPORT x y SIZE w h [MIN_DEPTH d] [MAX_DEPTH d]; unset: the
  /// framebuffer.
  std::optional<std::array<double, 4>> Viewport;
  double MinDepth = 0, MaxDepth = 1; ///< the viewport's depth range
  GraphicsStateDecl State;
  double ClearDepth = 1.0;
  uint32_t ClearStencil = 0;
  std::array<double, 4> ClearColor = {0, 0, 0, 0}; ///< in [0, 1]
  unsigned Line = 0;
};

enum class CompareOp { EQ, NE, LT, LE, GT, GE };

struct Tolerance {
  double Value = 0;
  bool Percent = false;
};

struct Command {
  enum Kind {
    Run,          ///< compute dispatch
    DrawRect,     ///< graphics: RUN P DRAW_RECT POS x y SIZE w h
    DrawGrid,     ///< RUN P DRAW_GRID POS x y SIZE w h CELLS c r
    DrawArray,    ///< RUN P DRAW_ARRAY AS topology [INDEXED] ...
    Clear,
    ClearColor,
    ClearDepth,   ///< CLEAR_DEPTH P d
    ClearStencil, ///< CLEAR_STENCIL P s
    Copy,         ///< COPY Buffer TO Other
    ExpectValues, ///< EXPECT B IDX i [TOLERANCE ...] op v...
    ExpectProbe,  ///< EXPECT B IDX x y [SIZE w h] EQ_RGB[A] ...
    ExpectEqBuffer,
    ExpectRmse,
    ExpectEmd,
    WriteBuffer,  ///< VkScript ssbo/uniform data: Bytes at byte Offset
    ResizeBuffer, ///< VkScript `ssbo b size`: Offset is the new byte size
  } K = Run;
  unsigned Line = 0;
  std::string Pipeline;
  /// Run: workgroup counts; DrawRect, DrawGrid: x y w h.
  std::array<double, 4> Nums = {0, 0, 0, 0};
  /// DrawGrid: columns, rows. DrawArray: the draw.
  uint32_t Cells[2] = {1, 1};
  std::string Topology;
  bool Indexed = false;
  uint32_t StartIdx = 0, Count = 0, StartInstance = 0, InstanceCount = 1;
  bool CountGiven = false;
  /// DrawArray INDEXED: added to every index (Vulkan's vertexOffset).
  int32_t VertexOffset = 0;
  // EXPECT
  std::string Buffer, Other;
  uint64_t Offset = 0;              ///< ExpectValues: byte offset
  uint32_t X = 0, Y = 0, W = 1, H = 1; ///< ExpectProbe
  bool ProbeAlpha = true;
  CompareOp Op = CompareOp::EQ;
  std::vector<Tolerance> Tolerances;
  std::vector<std::string> Values;  ///< as written
  /// ExpectValues: the type to read the buffer as (VkScript `probe ssbo`
  /// names it); unset: the buffer's.
  std::optional<BufferFormat> Format;
  /// WriteBuffer: the bytes to store (the buffer grows to hold them).
  std::vector<uint8_t> Bytes;
  /// The EXPECT line as written, for messages.
  std::string Text;
};

struct Script {
  std::vector<ShaderDecl> Shaders;
  std::vector<BufferDecl> Buffers;
  std::vector<SamplerDecl> Samplers;
  std::vector<PipelineDecl> Pipelines;
  std::vector<Command> Commands;
  /// VIRTUAL_FILE path ... END: (path, text), in declaration order; shaders
  /// read them by path and GLSL/HLSL `#include` them.
  std::vector<std::pair<std::string, std::string>> VirtualFiles;
  /// Set when the script uses something outside the subset: the reason.
  std::optional<std::string> Unsupported;
  /// DEVICE_FEATURE and DEVICE_EXTENSION names: Amber enables them on its
  /// device, and a few change the rasterizer's rules (depthClampZeroOne).
  std::vector<std::string> DeviceFeatures, DeviceExtensions;
  bool needs(const std::string &FeatureOrExtension) const {
    return std::count(DeviceFeatures.begin(), DeviceFeatures.end(),
                      FeatureOrExtension) ||
           std::count(DeviceExtensions.begin(), DeviceExtensions.end(),
                      FeatureOrExtension);
  }

  ShaderDecl *findShader(const std::string &Name);
  BufferDecl *findBuffer(const std::string &Name);
  SamplerDecl *findSampler(const std::string &Name);
  PipelineDecl *findPipeline(const std::string &Name);
};

} // namespace spirv2llvm::amber

#endif
