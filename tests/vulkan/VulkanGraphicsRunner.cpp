//===- VulkanGraphicsRunner.cpp - Graphics pipelines on lavapipe ----------===//
//
// One GraphicsRun per job owns every object the job needs (shader modules,
// render pass, framebuffer, pipeline, buffers, images, descriptors, the
// command buffer) and destroys them in reverse order of creation. The
// command buffer uploads the attachments and descriptor images, renders
// all draws in one render pass and reads everything back.
//
//===----------------------------------------------------------------------===//
#include "VulkanGraphicsRunner.h"
#include "VulkanDevice.h"

#include "spirv2llvm/ImageFormat.h"

#include "fullscreen_vert.h"
#include "ms_color_download.h"
#include "ms_color_upload.h"
#include "ms_depth_download.h"
#include "ms_depth_stencil_download.h"
#include "ms_depth_stencil_upload.h"
#include "ms_depth_upload.h"
#include "ms_stencil_download.h"
#include "ms_stencil_upload.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <tuple>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;
using namespace spirv2llvm::vk::detail;
using llvm::Error;
using llvm::Expected;

namespace {

// --- Features ----------------------------------------------------------------

/// The features graphics state can need, by their Vulkan member names, for
/// hasFeature() and the "needs <feature>" errors.
struct GraphicsFeature {
  const char *Name;
  bool (*Get)(const RunnerState &);
};
// clang-format off
#define S2L_FEATURE(Expr, Member)                                              \
  GraphicsFeature{#Member, [](const RunnerState &R) -> bool {                 \
                    return R.Expr.Member;                                      \
                  }}
// clang-format on
const GraphicsFeature GraphicsFeatures[] = {
    S2L_FEATURE(Enabled.Core.features, depthClamp),
    S2L_FEATURE(Enabled.Core.features, depthBiasClamp),
    S2L_FEATURE(Enabled.Core.features, fillModeNonSolid),
    S2L_FEATURE(Enabled.Core.features, wideLines),
    S2L_FEATURE(Enabled.Core.features, largePoints),
    S2L_FEATURE(Enabled.Core.features, sampleRateShading),
    S2L_FEATURE(Enabled.Core.features, alphaToOne),
    S2L_FEATURE(Enabled.Core.features, depthBounds),
    S2L_FEATURE(Enabled.Core.features, logicOp),
    S2L_FEATURE(Enabled.Core.features, dualSrcBlend),
    S2L_FEATURE(Enabled.Core.features, independentBlend),
    S2L_FEATURE(Enabled.Core.features, multiViewport),
    S2L_FEATURE(Enabled.Core.features, vertexPipelineStoresAndAtomics),
    S2L_FEATURE(Enabled.Core.features, fragmentStoresAndAtomics),
    S2L_FEATURE(Enabled.Core.features, shaderStorageImageMultisample),
    S2L_FEATURE(Enabled.Core.features, shaderStorageImageWriteWithoutFormat),
    S2L_FEATURE(Enabled.VertexDivisor, vertexAttributeInstanceRateDivisor),
    S2L_FEATURE(Enabled.VertexDivisor, vertexAttributeInstanceRateZeroDivisor),
    S2L_FEATURE(Enabled.LineRasterization, rectangularLines),
    S2L_FEATURE(Enabled.LineRasterization, bresenhamLines),
    S2L_FEATURE(Enabled.LineRasterization, smoothLines),
    S2L_FEATURE(Enabled.ProvokingVertex, provokingVertexLast),
    S2L_FEATURE(Enabled.IndexTypeUint8, indexTypeUint8),
    S2L_FEATURE(Enabled.ListRestart, primitiveTopologyListRestart),
};
#undef S2L_FEATURE

bool featureEnabled(const RunnerState &R, llvm::StringRef Name) {
  return llvm::any_of(GraphicsFeatures, [&](const GraphicsFeature &F) {
    return Name == F.Name && F.Get(R);
  });
}

/// Fails naming \p Feature (and what wanted it) unless the device has it.
Error need(const RunnerState &R, const char *Feature, const llvm::Twine &For) {
  if (featureEnabled(R, Feature))
    return Error::success();
  return makeError(llvm::formatv("{0} needs the feature {1}, which {2} lacks",
                                 For.str(), Feature, R.Props.deviceName));
}

bool isDualSource(BlendFactor F) {
  return F == BlendFactor::Src1Color || F == BlendFactor::OneMinusSrc1Color ||
         F == BlendFactor::Src1Alpha || F == BlendFactor::OneMinusSrc1Alpha;
}

bool sameBlend(const ColorBlendAttachment &A, const ColorBlendAttachment &B) {
  return A.BlendEnable == B.BlendEnable && A.SrcColor == B.SrcColor &&
         A.DstColor == B.DstColor && A.ColorOp == B.ColorOp &&
         A.SrcAlpha == B.SrcAlpha && A.DstAlpha == B.DstAlpha &&
         A.AlphaOp == B.AlphaOp && A.WriteMask == B.WriteMask;
}

/// Every piece of fixed-function state that needs an optional feature.
Error checkStateFeatures(const RunnerState &R, const GraphicsJob &J) {
  const GraphicsPipelineDesc &D = *J.Desc;
  const RasterizationState &Rs = D.Rasterization;
  for (const VertexBinding &B : D.VertexBindings) {
    if (B.Divisor == 1)
      continue;
    std::string What =
        llvm::formatv("vertex binding {0} with divisor {1}", B.Binding,
                      B.Divisor);
    if (B.InputRate != VertexInputRate::Instance)
      return makeError(What + ": divisors apply to per-instance bindings");
    if (Error E = need(R, "vertexAttributeInstanceRateDivisor", What))
      return E;
    if (B.Divisor == 0)
      if (Error E = need(R, "vertexAttributeInstanceRateZeroDivisor", What))
        return E;
  }
  bool List = D.Topology == PrimitiveTopology::PointList ||
              D.Topology == PrimitiveTopology::LineList ||
              D.Topology == PrimitiveTopology::TriangleList;
  if (D.PrimitiveRestartEnable && List)
    if (Error E = need(R, "primitiveTopologyListRestart",
                       "primitive restart with a list topology"))
      return E;
  if (D.Viewports.size() > 1 || D.Scissors.size() > 1)
    if (Error E = need(R, "multiViewport", "more than one viewport"))
      return E;
  if (Rs.DepthClampEnable)
    if (Error E = need(R, "depthClamp", "DepthClampEnable"))
      return E;
  if (Rs.Polygon != PolygonMode::Fill)
    if (Error E = need(R, "fillModeNonSolid", "a polygon mode other than Fill"))
      return E;
  if (Rs.DepthBiasEnable && Rs.DepthBiasClamp != 0)
    if (Error E = need(R, "depthBiasClamp", "a non-zero DepthBiasClamp"))
      return E;
  if (Rs.LineWidth != 1.0f) {
    if (Error E = need(R, "wideLines", "a LineWidth other than 1"))
      return E;
    const float *Range = R.Props.limits.lineWidthRange;
    if (!(Rs.LineWidth >= Range[0] && Rs.LineWidth <= Range[1]))
      return makeError(llvm::formatv(
          "LineWidth {0} is outside the device's range {1}..{2}",
          Rs.LineWidth, Range[0], Range[1]));
  }
  if (Rs.LineMode != LineRasterization::Default) {
    const char *Feature =
        Rs.LineMode == LineRasterization::Rectangular  ? "rectangularLines"
        : Rs.LineMode == LineRasterization::Bresenham ? "bresenhamLines"
        : Rs.LineMode == LineRasterization::RectangularSmooth
            ? "smoothLines"
            : nullptr;
    if (!Feature)
      return makeError(llvm::formatv("line rasterization mode {0} is not a "
                                     "VkLineRasterizationModeEXT",
                                     uint32_t(Rs.LineMode)));
    if (Error E = need(R, Feature,
                       "a line rasterization mode (VK_EXT_line_rasterization)"))
      return E;
  }
  if (!Rs.ProvokingVertexFirst)
    if (Error E = need(R, "provokingVertexLast",
                       "the last vertex as provoking vertex "
                       "(VK_EXT_provoking_vertex)"))
      return E;
  const MultisampleState &M = D.Multisample;
  if (M.SampleShadingEnable)
    if (Error E = need(R, "sampleRateShading", "SampleShadingEnable"))
      return E;
  if (M.AlphaToOneEnable)
    if (Error E = need(R, "alphaToOne", "AlphaToOneEnable"))
      return E;
  if (D.DepthStencil.DepthBoundsTestEnable)
    if (Error E = need(R, "depthBounds", "DepthBoundsTestEnable"))
      return E;
  const ColorBlendState &B = D.Blend;
  if (B.LogicOpEnable)
    if (Error E = need(R, "logicOp", "LogicOpEnable"))
      return E;
  for (const ColorBlendAttachment &A : B.Attachments) {
    if (A.BlendEnable &&
        (isDualSource(A.SrcColor) || isDualSource(A.DstColor) ||
         isDualSource(A.SrcAlpha) || isDualSource(A.DstAlpha)))
      if (Error E = need(R, "dualSrcBlend", "a SRC1 blend factor"))
        return E;
    if (!sameBlend(A, B.Attachments.front()))
      if (Error E = need(R, "independentBlend",
                         "different blend states per attachment"))
        return E;
  }
  if (J.Index == IndexType::UInt8 &&
      llvm::any_of(J.Draws, [](const DrawCommand &C) { return C.Indexed; }))
    if (Error E = need(R, "indexTypeUint8", "8-bit indices"))
      return E;
  return Error::success();
}

// --- Specialization constants ------------------------------------------------

struct Specialization {
  std::vector<VkSpecializationMapEntry> Entries;
  std::vector<uint8_t> Data;
};

/// Encodes ShaderStageDesc::SpecValues ("1.5", "7", "true") as the
/// module's constants want them: the SpecId's type comes from the module
/// (OpSpecConstant* decorated with it), since the text alone cannot tell a
/// float 7 from an int 7.
Expected<Specialization>
specialize(llvm::ArrayRef<uint32_t> Words,
           const std::vector<std::pair<uint32_t, std::string>> &Values,
           llvm::StringRef Stage) {
  Specialization S;
  if (Values.empty())
    return S;
  enum : uint32_t {
    OpTypeBool = 20,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpSpecConstantTrue = 48,
    OpSpecConstantFalse = 49,
    OpSpecConstant = 50,
    OpDecorate = 71,
    DecorationSpecId = 1,
  };
  struct Type {
    bool Bool = false, Float = false, Signed = false;
    uint32_t Width = 0;
  };
  std::map<uint32_t, uint32_t> SpecIdOf;  // result id -> SpecId
  std::map<uint32_t, Type> Types;         // type id -> type
  std::map<uint32_t, uint32_t> TypeOfSpec; // SpecId -> type id
  for (size_t I = 5; I < Words.size();) {
    uint32_t Count = Words[I] >> 16, Op = Words[I] & 0xffff;
    if (Count == 0 || I + Count > Words.size())
      break; // findEntryPoint has already diagnosed malformed modules
    const uint32_t *W = &Words[I];
    if (Op == OpDecorate && Count >= 4 && W[2] == DecorationSpecId)
      SpecIdOf[W[1]] = W[3];
    else if (Op == OpTypeBool && Count >= 2)
      Types[W[1]] = Type{true, false, false, 32};
    else if (Op == OpTypeInt && Count >= 4)
      Types[W[1]] = Type{false, false, W[3] != 0, W[2]};
    else if (Op == OpTypeFloat && Count >= 3)
      Types[W[1]] = Type{false, true, false, W[2]};
    else if ((Op == OpSpecConstantTrue || Op == OpSpecConstantFalse ||
              Op == OpSpecConstant) &&
             Count >= 3 && SpecIdOf.count(W[2]))
      TypeOfSpec[SpecIdOf[W[2]]] = W[1];
    I += Count;
  }
  for (const auto &[Id, Text] : Values) {
    auto It = TypeOfSpec.find(Id);
    if (It == TypeOfSpec.end() || !Types.count(It->second))
      return makeError(llvm::formatv(
          "{0} shader: no specialization constant with SpecId {1}", Stage,
          Id));
    const Type &T = Types[It->second];
    std::string What = llvm::formatv("{0} shader: specialization constant {1} "
                                     "= '{2}'",
                                     Stage, Id, Text);
    uint64_t Bits = 0;
    uint32_t Size = T.Width / 8;
    char *End = nullptr;
    if (T.Bool) {
      if (Text == "true" || Text == "1")
        Bits = 1;
      else if (Text != "false" && Text != "0")
        return makeError(What + ": not a bool");
      Size = 4; // VkBool32
    } else if (T.Float) {
      double V = std::strtod(Text.c_str(), &End);
      if (End == Text.c_str() || *End)
        return makeError(What + ": not a number");
      if (T.Width == 32) {
        float F = float(V);
        uint32_t U;
        std::memcpy(&U, &F, 4);
        Bits = U;
      } else if (T.Width == 64) {
        std::memcpy(&Bits, &V, 8);
      } else {
        return makeError(What + ": only 32- and 64-bit floats are supported");
      }
    } else {
      Bits = T.Signed ? uint64_t(std::strtoll(Text.c_str(), &End, 0))
                      : std::strtoull(Text.c_str(), &End, 0);
      if (End == Text.c_str() || *End)
        return makeError(What + ": not an integer");
    }
    if (Size == 0 || Size > 8)
      return makeError(What + ": unsupported width");
    S.Entries.push_back({Id, uint32_t(S.Data.size()), Size});
    S.Data.resize(S.Data.size() + Size);
    std::memcpy(S.Data.data() + S.Data.size() - Size, &Bits, Size); // LE
  }
  return S;
}

// --- Attachment transfers ------------------------------------------------------

/// An unsigned integer format of \p Bytes per texel, through which the
/// transfer shaders see a colour attachment (views of the same texel size
/// are compatible); UNDEFINED when there is none.
VkFormat uintAlias(uint32_t Bytes) {
  switch (Bytes) {
  case 1:
    return VK_FORMAT_R8_UINT;
  case 2:
    return VK_FORMAT_R16_UINT;
  case 4:
    return VK_FORMAT_R32_UINT;
  case 8:
    return VK_FORMAT_R32G32_UINT;
  case 16:
    return VK_FORMAT_R32G32B32A32_UINT;
  default:
    return VK_FORMAT_UNDEFINED;
  }
}

/// One aspect of a depth/stencil texel as a buffer copy lays it out: its
/// bytes per texel and where the component sits in the packed texel.
struct AspectCopy {
  VkImageAspectFlagBits Aspect;
  uint32_t CopyBytes;        ///< bytes per texel in the copy's buffer
  uint32_t Offset, Bits;     ///< the component in the packed texel
};

/// The buffer-copy pieces of a single-sampled attachment of format \p F:
/// the whole texel for colour formats, one entry per aspect for depth and
/// stencil (D24 depth copies as 32-bit words with the depth in bits 0-23,
/// stencil as bytes).
std::vector<AspectCopy> aspectCopies(const FormatInfo &F) {
  if (!F.hasDepth() && !F.hasStencil())
    return {{VK_IMAGE_ASPECT_COLOR_BIT, F.BlockBytes, 0,
             uint32_t(F.BlockBytes) * 8}};
  std::vector<AspectCopy> C;
  for (unsigned I = 0; I < F.NumComponents; ++I) {
    const ComponentInfo &Comp = F.Components[I];
    if (Comp.Channel == ChannelKind::Depth)
      C.push_back({VK_IMAGE_ASPECT_DEPTH_BIT, Comp.Bits == 16 ? 2u : 4u,
                   Comp.Offset, Comp.Bits});
    else if (Comp.Channel == ChannelKind::Stencil)
      C.push_back({VK_IMAGE_ASPECT_STENCIL_BIT, 1, Comp.Offset, Comp.Bits});
  }
  return C;
}

uint64_t loadBits(const uint8_t *P, uint32_t Bytes) {
  uint64_t V = 0;
  std::memcpy(&V, P, std::min<uint32_t>(Bytes, 8)); // little endian host
  return V;
}

uint64_t bitMask(uint32_t Bits) {
  return Bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
}

/// The float that makes lavapipe store the \p Bits-bit unorm depth \p N
/// (D32: the float of those bits): the nearest float to N / (2^Bits - 1),
/// which lavapipe, rounding to nearest, turns back into N (measured for
/// D24 over 4096 values spread over the range, and checked by
/// MultisampleDepthStencilPerSample).
uint32_t depthToFloatBits(uint32_t N, uint32_t Bits) {
  if (Bits == 32)
    return N;
  float F = float(double(N) / double((1u << Bits) - 1));
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}

/// The stored depth from the float lavapipe samples for it. llvmpipe
/// converts a unorm of up to 24 bits as float(N) * float(1 / (2^Bits - 1))
/// (lp_build_unsigned_norm_to_float), not the nearest float to
/// N / (2^Bits - 1), so rounding F * (2^24 - 1) is one off for many D24
/// values; that product is one-to-one, and the N among the neighbours of
/// the rounded value that converts to \p FBits is the one (the rounded
/// value if none does: another driver).
uint32_t floatBitsToDepth(uint32_t FBits, uint32_t Bits) {
  if (Bits == 32)
    return FBits;
  float F;
  std::memcpy(&F, &FBits, 4);
  const uint32_t Max = (1u << Bits) - 1;
  const float Scale = float(1.0 / double(Max));
  double Rounded = std::round(double(F) * Max);
  uint32_t Nearest = uint32_t(std::clamp(Rounded, 0.0, double(Max)));
  for (int64_t C : {int64_t(Nearest), int64_t(Nearest) - 1,
                    int64_t(Nearest) + 1})
    if (C >= 0 && C <= Max && float(uint32_t(C)) * Scale == F)
      return uint32_t(C);
  return Nearest;
}

// --- The run -------------------------------------------------------------------

class GraphicsRun {
public:
  GraphicsRun(RunnerState &R, const GraphicsJob &J)
      : R(R), J(J), D(*J.Desc), Dev(R.Device) {}
  ~GraphicsRun();
  GraphicsRun(const GraphicsRun &) = delete;
  GraphicsRun &operator=(const GraphicsRun &) = delete;

  Error build();
  void upload();
  Error submitAndWait();
  void download();

private:
  /// A device image made from a spirv2llvm::Image (attachment or
  /// descriptor), its view and its transfer buffers.
  struct DeviceImage {
    Image *Host = nullptr;
    const FormatInfo *Info = nullptr;
    VkImage Handle = VK_NULL_HANDLE;
    VkImageView View = VK_NULL_HANDLE;
    VkImageAspectFlags Aspect = 0;
    uint32_t Samples = 1;
    bool WriteBack = false;
    /// Single-sampled: one staging buffer per aspect (attachments) or the
    /// whole image, every level, with copy regions (descriptor images).
    struct Piece {
      AspectCopy Copy;
      HostBuffer Staging;
      std::vector<VkBufferImageCopy> Regions;
      /// Descriptor images: (packed offset, staging offset, bytes) per
      /// level.
      std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> Levels;
    };
    std::vector<Piece> Pieces;
    /// Multisampled colour: the uint view and the buffers and descriptor
    /// sets of the transfer shaders.
    VkImageView AliasView = VK_NULL_HANDLE;
    HostBuffer In, Out;
    VkDescriptorSet UploadSet = VK_NULL_HANDLE, DownloadSet = VK_NULL_HANDLE;
  };

  Error checkJob();
  Error checkAttachment(const Image *I, Format Want, uint32_t Samples,
                        const std::string &What, bool Color);
  /// The image and its view: for an attachment a 2D view of level 0,
  /// layer 0 (framebuffers take single levels), else the whole image.
  Error createImage(DeviceImage &I, VkImageUsageFlags Usage,
                    VkImageCreateFlags Flags, bool Attachment);
  Error createAttachments();
  Error createRenderPass();
  Error createShaderModule(llvm::ArrayRef<uint32_t> Words,
                           VkShaderModule &Module);
  Error createDescriptors();
  Error createPipeline();
  Error createGeometryBuffers();
  Error createTransferPipelines();
  Error recordCommands();
  void recordUploads();
  void recordDownloads();
  void barrier(VkPipelineStageFlags Src, VkAccessFlags SrcAccess,
               VkPipelineStageFlags Dst, VkAccessFlags DstAccess);
  template <typename F> void atExit(F &&Fn) {
    Cleanups.push_back(std::forward<F>(Fn));
  }

  RunnerState &R;
  const GraphicsJob &J;
  const GraphicsPipelineDesc &D;
  VkDevice Dev;
  uint32_t Width = 0, Height = 0;
  /// Destructors of every created object, run last to first.
  std::vector<std::function<void()>> Cleanups;

  /// Attachments in render pass order: colours (non-null), depth/stencil,
  /// resolves (non-null).
  std::vector<DeviceImage> Attachments;
  std::vector<uint32_t> ColorIndex, ResolveIndex; // by location; ~0u: none
  uint32_t DepthIndex = VK_ATTACHMENT_UNUSED;
  std::vector<DeviceImage> DescriptorImages;
  std::vector<VkSampler> DescriptorSamplers;
  std::vector<HostBuffer> Buffers; // J.Buffers order
  std::vector<std::pair<uint32_t, HostBuffer>> VertexBuffers;
  HostBuffer IndexBuffer;

  VkRenderPass RenderPass = VK_NULL_HANDLE;
  VkFramebuffer Framebuffer = VK_NULL_HANDLE;
  std::vector<VkDescriptorSetLayout> SetLayouts;
  std::vector<VkDescriptorSet> Sets;
  VkPipelineLayout Layout = VK_NULL_HANDLE;
  VkPipeline Pipeline = VK_NULL_HANDLE;
  std::vector<uint8_t> PushData;

  /// The multisampled depth/stencil attachment's transfers: a per-sample
  /// fragment pass writes it (K = 0), a compute pass reads it (K = 1).
  struct DsTransfer {
    bool Active = false, Depth = false, Stencil = false;
    AspectCopy DepthPart{}, StencilPart{};
    VkImageView DepthView = VK_NULL_HANDLE, StencilView = VK_NULL_HANDLE;
    HostBuffer DepthIn, StencilIn, DepthOut, StencilOut;
    VkRenderPass Pass = VK_NULL_HANDLE;
    VkFramebuffer Framebuffer = VK_NULL_HANDLE;
    VkDescriptorSetLayout SetLayout[2] = {};
    VkPipelineLayout Layout[2] = {};
    VkPipeline Pipeline[2] = {};
    VkDescriptorSet Set[2] = {};
  } Ds;
  Error createDsTransfer();
  Error createDsPipelines();
  /// NearestSampler, created on first use.
  Error createNearestSampler();

  /// Transfer shaders for multisampled colour attachments.
  VkDescriptorSetLayout TransferSetLayout[2] = {};
  VkPipelineLayout TransferLayout[2] = {};
  VkPipeline TransferPipeline[2] = {}; // upload, download
  VkSampler NearestSampler = VK_NULL_HANDLE;

  VkCommandBuffer Commands = VK_NULL_HANDLE;
  VkFence Fence = VK_NULL_HANDLE;
};

GraphicsRun::~GraphicsRun() {
  // A timed-out job's objects are still in use (RunnerState::Hung).
  if (R.Hung)
    return;
  for (auto It = Cleanups.rbegin(); It != Cleanups.rend(); ++It)
    (*It)();
}

std::string formatName(Format F) {
  if (F == Format::UNDEFINED)
    return "UNDEFINED";
  const FormatInfo *I = formatInfo(F);
  return I ? std::string(I->Name)
           : llvm::formatv("VkFormat {0}", uint32_t(F)).str();
}

Error GraphicsRun::checkAttachment(const Image *I, Format Want,
                                   uint32_t Samples, const std::string &What,
                                   bool Color) {
  const ImageDesc &Id = I->desc();
  if (Id.Fmt != Want)
    return makeError(llvm::formatv("{0} is {1}; the pipeline's format is {2}",
                                   What, formatName(Id.Fmt),
                                   formatName(Want)));
  if (Id.Samples != Samples)
    return makeError(llvm::formatv("{0} has {1} samples; {2} are needed", What,
                                   Id.Samples, Samples));
  if (Id.ViewType != S2L_VIEW_2D && Id.ViewType != S2L_VIEW_2D_ARRAY)
    return makeError(What + " is not a 2D image");
  if (Width == 0) {
    Width = Id.Width;
    Height = Id.Height;
  } else if (Id.Width != Width || Id.Height != Height) {
    return makeError(llvm::formatv("{0} is {1}x{2}; other attachments are "
                                   "{3}x{4}",
                                   What, Id.Width, Id.Height, Width, Height));
  }
  const FormatInfo &F = I->formatInfo();
  VkFormatProperties Props;
  vkGetPhysicalDeviceFormatProperties(R.Physical, VkFormat(Want), &Props);
  VkFormatFeatureFlags Need =
      Color ? VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT
            : VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
  if (Samples == 1)
    Need |= VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
            VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  if ((Props.optimalTilingFeatures & Need) != Need)
    return makeError(llvm::formatv("{0}: {1} is not a {2} attachment format "
                                   "on {3}",
                                   What, F.Name,
                                   Color ? "colour" : "depth/stencil",
                                   R.Props.deviceName));
  return Error::success();
}

Error GraphicsRun::checkJob() {
  uint32_t Samples = D.Multisample.Samples;
  if (Samples != 1 && Samples != 2 && Samples != 4 && Samples != 8 &&
      Samples != 16)
    return makeError(llvm::formatv("{0} samples: 1, 2, 4, 8 or 16", Samples));
  const VkPhysicalDeviceLimits &L = R.Props.limits;
  if (!(L.framebufferColorSampleCounts & Samples) ||
      (J.DepthStencil && !(L.framebufferDepthSampleCounts & Samples)))
    return makeError(llvm::formatv("{0} samples are not supported by {1}",
                                   Samples, R.Props.deviceName));
  if (J.Color.size() > D.ColorFormats.size())
    return makeError(llvm::formatv("{0} colour images for {1} colour formats",
                                   J.Color.size(), D.ColorFormats.size()));
  if (D.ColorFormats.size() > L.maxColorAttachments)
    return makeError(llvm::formatv("{0} colour attachments; the device allows "
                                   "{1}",
                                   D.ColorFormats.size(),
                                   L.maxColorAttachments));
  for (size_t I = 0; I < J.Color.size(); ++I) {
    if (!J.Color[I])
      continue;
    std::string What = llvm::formatv("colour attachment {0}", I);
    if (D.ColorFormats[I] == Format::UNDEFINED)
      return makeError(What + " is given but its format is UNDEFINED");
    if (Error E = checkAttachment(J.Color[I], D.ColorFormats[I], Samples,
                                  What, true))
      return E;
    bool Blend = I < D.Blend.Attachments.size() &&
                 D.Blend.Attachments[I].BlendEnable;
    VkFormatProperties Props;
    vkGetPhysicalDeviceFormatProperties(R.Physical,
                                        VkFormat(D.ColorFormats[I]), &Props);
    if (Blend && !(Props.optimalTilingFeatures &
                   VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT))
      return makeError(What + ": " + formatName(D.ColorFormats[I]) +
                       " cannot be blended on " + R.Props.deviceName);
  }
  if (J.DepthStencil) {
    if (D.DepthStencilFormat == Format::UNDEFINED)
      return makeError(
          "a depth/stencil image is given but DepthStencilFormat is UNDEFINED");
    if (Error E = checkAttachment(J.DepthStencil, D.DepthStencilFormat,
                                  Samples, "the depth/stencil attachment",
                                  false))
      return E;
    // Multisampled depth/stencil is uploaded by a per-sample fragment pass.
    if (Samples > 1) {
      if (Error E = need(R, "sampleRateShading",
                         "uploading a multisampled depth/stencil attachment"))
        return E;
      if (J.DepthStencil->formatInfo().hasStencil() &&
          !R.Extensions.StencilExport)
        return makeError(llvm::formatv(
            "uploading a multisampled stencil attachment needs "
            "VK_EXT_shader_stencil_export, which {0} lacks",
            R.Props.deviceName));
    }
  }
  if (J.Resolve.size() > J.Color.size())
    return makeError(llvm::formatv("{0} resolve images for {1} colour images",
                                   J.Resolve.size(), J.Color.size()));
  for (size_t I = 0; I < J.Resolve.size(); ++I) {
    if (!J.Resolve[I])
      continue;
    std::string What = llvm::formatv("resolve attachment {0}", I);
    if (!J.Color[I] || Samples == 1)
      return makeError(What + " resolves no multisampled colour attachment");
    if (Error E =
            checkAttachment(J.Resolve[I], D.ColorFormats[I], 1, What, true))
      return E;
  }
  if (Width == 0)
    return makeError("the job has no attachment (the framebuffer's size "
                     "comes from its images)");
  if (Width > L.maxFramebufferWidth || Height > L.maxFramebufferHeight)
    return makeError(llvm::formatv("{0}x{1} is larger than the device's "
                                   "framebuffers",
                                   Width, Height));
  if (J.PushConstants.size() > L.maxPushConstantsSize)
    return makeError(llvm::formatv("{0} bytes of push constants; the device "
                                   "allows {1}",
                                   J.PushConstants.size(),
                                   L.maxPushConstantsSize));
  std::set<uint32_t> Bindings;
  for (const VertexBinding &B : D.VertexBindings) {
    if (!Bindings.insert(B.Binding).second)
      return makeError(
          llvm::formatv("vertex binding {0} is described twice", B.Binding));
    if (B.Binding >= J.VertexBuffers.size())
      return makeError(llvm::formatv("no vertex buffer for binding {0}",
                                     B.Binding));
  }
  for (const VertexAttribute &A : D.VertexAttributes) {
    if (!Bindings.count(A.Binding))
      return makeError(llvm::formatv(
          "vertex attribute {0} reads binding {1}, which is not described",
          A.Location, A.Binding));
    VkFormatProperties Props;
    vkGetPhysicalDeviceFormatProperties(R.Physical, VkFormat(A.Fmt), &Props);
    if (!(Props.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
      return makeError(llvm::formatv("vertex attribute {0}: {1} is not a "
                                     "vertex format on {2}",
                                     A.Location, formatName(A.Fmt),
                                     R.Props.deviceName));
  }
  if (llvm::any_of(J.Draws, [](const DrawCommand &C) { return C.Indexed; }) &&
      J.IndexData.empty())
    return makeError("an indexed draw without index data");
  for (const GraphicsBuffer &B : J.Buffers)
    if (!B.Data)
      return makeError(llvm::formatv(
          "the buffer at set {0} binding {1} has no data", B.Set, B.Binding));
  for (const GraphicsImage &I : J.Images) {
    if (I.Kind != VkImageKind::Sampler && !I.Img)
      return makeError(llvm::formatv(
          "the image at set {0} binding {1} has no image", I.Set, I.Binding));
    if (I.Kind == VkImageKind::UniformTexelBuffer ||
        I.Kind == VkImageKind::StorageTexelBuffer)
      return makeError(llvm::formatv("set {0} binding {1}: texel buffers are "
                                     "not supported by the graphics runner",
                                     I.Set, I.Binding));
    if (I.Img && I.Img->desc().Samples != 1)
      return makeError(llvm::formatv("set {0} binding {1}: multisampled "
                                     "descriptor images are not supported "
                                     "by the graphics runner",
                                     I.Set, I.Binding));
  }
  return checkStateFeatures(R, J);
}

Error GraphicsRun::createImage(DeviceImage &I, VkImageUsageFlags Usage,
                               VkImageCreateFlags Flags, bool Attachment) {
  const ImageDesc &Id = I.Host->desc();
  bool Cube = Id.ViewType == S2L_VIEW_CUBE || Id.ViewType == S2L_VIEW_CUBE_ARRAY;
  bool Is3D = Id.ViewType == S2L_VIEW_3D;
  bool OneD = Id.ViewType == S2L_VIEW_1D || Id.ViewType == S2L_VIEW_1D_ARRAY;
  auto Info = makeStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  Info.flags = Flags | (Cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0);
  Info.imageType = OneD ? VK_IMAGE_TYPE_1D
                   : Is3D ? VK_IMAGE_TYPE_3D
                          : VK_IMAGE_TYPE_2D;
  Info.format = VkFormat(Id.Fmt);
  Info.extent = {Id.Width, Id.Height, Is3D ? Id.Depth : 1};
  Info.mipLevels = Id.Levels;
  Info.arrayLayers = Id.Layers;
  Info.samples = VkSampleCountFlagBits(Id.Samples);
  Info.tiling = VK_IMAGE_TILING_OPTIMAL;
  Info.usage = Usage;
  Info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  Info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageFormatProperties Props;
  VkResult Res = vkGetPhysicalDeviceImageFormatProperties(
      R.Physical, Info.format, Info.imageType, Info.tiling, Info.usage,
      Info.flags, &Props);
  if (Res != VK_SUCCESS || !(Props.sampleCounts & Info.samples))
    return makeError(llvm::formatv(
        "{0} images of {1} samples with this usage are not supported by {2}",
        I.Info->Name, Id.Samples, R.Props.deviceName));
  if (Error E = check(vkCreateImage(Dev, &Info, nullptr, &I.Handle),
                      "vkCreateImage"))
    return E;
  VkImage Handle = I.Handle;
  atExit([this, Handle] { vkDestroyImage(Dev, Handle, nullptr); });
  VkMemoryRequirements Req;
  vkGetImageMemoryRequirements(Dev, I.Handle, &Req);
  Expected<uint32_t> Type = R.findHostMemoryType(Req.memoryTypeBits);
  if (!Type)
    return Type.takeError();
  auto Alloc =
      makeStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  Alloc.allocationSize = Req.size;
  Alloc.memoryTypeIndex = *Type;
  VkDeviceMemory Memory = VK_NULL_HANDLE;
  if (Error E = check(vkAllocateMemory(Dev, &Alloc, nullptr, &Memory),
                      "vkAllocateMemory"))
    return E;
  atExit([this, Memory] { vkFreeMemory(Dev, Memory, nullptr); });
  if (Error E = check(vkBindImageMemory(Dev, I.Handle, Memory, 0),
                      "vkBindImageMemory"))
    return E;
  auto View =
      makeStruct<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  View.image = I.Handle;
  View.viewType =
      Attachment ? VK_IMAGE_VIEW_TYPE_2D : VkImageViewType(Id.ViewType);
  View.format = Info.format;
  View.subresourceRange = {I.Aspect, 0, Attachment ? 1 : Id.Levels, 0,
                           Attachment ? 1 : Id.Layers};
  if (Error E =
          check(vkCreateImageView(Dev, &View, nullptr, &I.View),
                "vkCreateImageView"))
    return E;
  VkImageView V = I.View;
  atExit([this, V] { vkDestroyImageView(Dev, V, nullptr); });
  return Error::success();
}

Error GraphicsRun::createAttachments() {
  auto Add = [&](Image *Img, bool Color) -> Error {
    DeviceImage &A = Attachments.emplace_back();
    A.Host = Img;
    A.Info = &Img->formatInfo();
    A.Samples = Img->desc().Samples;
    A.WriteBack = true;
    VkImageUsageFlags Usage =
        Color ? VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT
              : VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    VkImageCreateFlags Flags = 0;
    A.Aspect = 0;
    for (const AspectCopy &C : aspectCopies(*A.Info))
      A.Aspect |= C.Aspect;
    if (A.Samples == 1) {
      Usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    } else if (!Color) {
      // Read back through single-aspect sampled views (createDsTransfer).
      Usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
    } else {
      // The transfer shaders' uint view: storage for the upload, sampled
      // for the read-back. Those usages need only hold for that view.
      if (uintAlias(A.Info->BlockBytes) == VK_FORMAT_UNDEFINED)
        return makeError(llvm::formatv(
            "multisampled {0} attachments ({1}-byte texels) are not "
            "supported by the graphics runner",
            A.Info->Name, A.Info->BlockBytes));
      Usage |= VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
      Flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT |
               VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
    }
    if (Error E = createImage(A, Usage, Flags, true))
      return E;
    uint64_t Texels = uint64_t(Width) * Height * A.Samples;
    if (A.Samples == 1) {
      for (const AspectCopy &C : aspectCopies(*A.Info)) {
        DeviceImage::Piece &P = A.Pieces.emplace_back();
        P.Copy = C;
        if (Error E = R.createHostBuffer(
                Texels * C.CopyBytes,
                VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                false, P.Staging))
          return E;
        HostBuffer Copy = P.Staging;
        atExit([this, Copy]() mutable { R.destroy(Copy); });
        VkBufferImageCopy Region{};
        Region.imageSubresource = {VkImageAspectFlags(C.Aspect), 0, 0, 1};
        Region.imageExtent = {Width, Height, 1};
        P.Regions.push_back(Region);
      }
      return Error::success();
    }
    if (!Color)
      return Error::success(); // createDsTransfer
    auto View = makeStruct<VkImageViewCreateInfo>(
        VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
    View.image = A.Handle;
    View.viewType = VK_IMAGE_VIEW_TYPE_2D;
    View.format = uintAlias(A.Info->BlockBytes);
    View.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if (Error E = check(vkCreateImageView(Dev, &View, nullptr, &A.AliasView),
                        "vkCreateImageView"))
      return E;
    VkImageView V = A.AliasView;
    atExit([this, V] { vkDestroyImageView(Dev, V, nullptr); });
    uint64_t Bytes = llvm::alignTo(Texels * A.Info->BlockBytes, 4);
    for (HostBuffer *B : {&A.In, &A.Out}) {
      if (Error E = R.createHostBuffer(Bytes,
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                       false, *B))
        return E;
      HostBuffer Copy = *B;
      atExit([this, Copy]() mutable { R.destroy(Copy); });
    }
    return Error::success();
  };
  ColorIndex.assign(D.ColorFormats.size(), VK_ATTACHMENT_UNUSED);
  ResolveIndex.assign(D.ColorFormats.size(), VK_ATTACHMENT_UNUSED);
  for (size_t I = 0; I < J.Color.size(); ++I)
    if (J.Color[I]) {
      ColorIndex[I] = uint32_t(Attachments.size());
      if (Error E = Add(J.Color[I], true))
        return E;
    }
  if (J.DepthStencil) {
    DepthIndex = uint32_t(Attachments.size());
    if (Error E = Add(J.DepthStencil, false))
      return E;
  }
  for (size_t I = 0; I < J.Resolve.size(); ++I)
    if (J.Resolve[I]) {
      ResolveIndex[I] = uint32_t(Attachments.size());
      if (Error E = Add(J.Resolve[I], true))
        return E;
    }
  return Error::success();
}

Error GraphicsRun::createRenderPass() {
  // GENERAL everywhere: the transfers and the render pass all accept it,
  // so no layout transitions are needed beyond the first one.
  std::vector<VkAttachmentDescription> Descs;
  for (const DeviceImage &A : Attachments) {
    VkAttachmentDescription Desc{};
    Desc.format = VkFormat(A.Host->desc().Fmt);
    Desc.samples = VkSampleCountFlagBits(A.Samples);
    Desc.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    Desc.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    Desc.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    Desc.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
    Desc.initialLayout = VK_IMAGE_LAYOUT_GENERAL;
    Desc.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
    Descs.push_back(Desc);
  }
  std::vector<VkAttachmentReference> ColorRefs, ResolveRefs;
  for (size_t I = 0; I < ColorIndex.size(); ++I) {
    ColorRefs.push_back({ColorIndex[I], VK_IMAGE_LAYOUT_GENERAL});
    ResolveRefs.push_back({ResolveIndex[I], VK_IMAGE_LAYOUT_GENERAL});
  }
  VkAttachmentReference DepthRef{DepthIndex, VK_IMAGE_LAYOUT_GENERAL};
  bool AnyResolve = llvm::any_of(
      ResolveIndex, [](uint32_t I) { return I != VK_ATTACHMENT_UNUSED; });
  VkSubpassDescription Subpass{};
  Subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  Subpass.colorAttachmentCount = uint32_t(ColorRefs.size());
  Subpass.pColorAttachments = ColorRefs.data();
  Subpass.pResolveAttachments = AnyResolve ? ResolveRefs.data() : nullptr;
  Subpass.pDepthStencilAttachment = &DepthRef;
  auto Info = makeStruct<VkRenderPassCreateInfo>(
      VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  Info.attachmentCount = uint32_t(Descs.size());
  Info.pAttachments = Descs.data();
  Info.subpassCount = 1;
  Info.pSubpasses = &Subpass;
  if (Error E = check(vkCreateRenderPass(Dev, &Info, nullptr, &RenderPass),
                      "vkCreateRenderPass"))
    return E;
  atExit([this] { vkDestroyRenderPass(Dev, RenderPass, nullptr); });
  std::vector<VkImageView> Views;
  for (const DeviceImage &A : Attachments)
    Views.push_back(A.View);
  auto Fb = makeStruct<VkFramebufferCreateInfo>(
      VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  Fb.renderPass = RenderPass;
  Fb.attachmentCount = uint32_t(Views.size());
  Fb.pAttachments = Views.data();
  Fb.width = Width;
  Fb.height = Height;
  Fb.layers = 1;
  if (Error E = check(vkCreateFramebuffer(Dev, &Fb, nullptr, &Framebuffer),
                      "vkCreateFramebuffer"))
    return E;
  atExit([this] { vkDestroyFramebuffer(Dev, Framebuffer, nullptr); });
  return Error::success();
}

Error GraphicsRun::createShaderModule(llvm::ArrayRef<uint32_t> Words,
                                      VkShaderModule &Module) {
  auto Info = makeStruct<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  Info.codeSize = Words.size() * sizeof(uint32_t);
  Info.pCode = Words.data();
  if (Error E = check(vkCreateShaderModule(Dev, &Info, nullptr, &Module),
                      "vkCreateShaderModule"))
    return E;
  VkShaderModule M = Module;
  atExit([this, M] { vkDestroyShaderModule(Dev, M, nullptr); });
  return Error::success();
}

VkDescriptorType descriptorType(VkImageKind K) {
  switch (K) {
  case VkImageKind::StorageImage:
    return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  case VkImageKind::SampledImage:
    return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
  case VkImageKind::Sampler:
    return VK_DESCRIPTOR_TYPE_SAMPLER;
  case VkImageKind::CombinedImageSampler:
    return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  case VkImageKind::UniformTexelBuffer:
    return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  case VkImageKind::StorageTexelBuffer:
    return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
  }
  return VK_DESCRIPTOR_TYPE_MAX_ENUM;
}

Error GraphicsRun::createDescriptors() {
  // Bindings: (set, binding) -> (type, count).
  std::map<std::pair<uint32_t, uint32_t>, std::pair<VkDescriptorType, uint32_t>>
      Bindings;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> Elements;
  auto Note = [&](uint32_t Set, uint32_t Binding, uint32_t Element,
                  VkDescriptorType Type) -> Error {
    if (!Elements.insert({Set, Binding, Element}).second)
      return makeError(llvm::formatv(
          "two descriptors at set {0} binding {1} element {2}", Set, Binding,
          Element));
    if (Set >= R.Props.limits.maxBoundDescriptorSets)
      return makeError(llvm::formatv("set {0} is out of range: the device "
                                     "binds {1} sets",
                                     Set, R.Props.limits.maxBoundDescriptorSets));
    auto [It, New] = Bindings.insert({{Set, Binding}, {Type, Element + 1}});
    if (!New && It->second.first != Type)
      return makeError(llvm::formatv(
          "set {0} binding {1} mixes descriptor types", Set, Binding));
    It->second.second = std::max(It->second.second, Element + 1);
    return Error::success();
  };
  for (const GraphicsBuffer &B : J.Buffers)
    if (Error E = Note(B.Set, B.Binding, B.ArrayElement,
                       B.IsUniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                   : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER))
      return E;
  for (const GraphicsImage &I : J.Images)
    if (Error E = Note(I.Set, I.Binding, I.ArrayElement,
                       descriptorType(I.Kind)))
      return E;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> Given;
  for (const auto &[Set, Binding, Element] : Elements)
    ++Given[{Set, Binding}];
  for (const auto &[Key, TypeCount] : Bindings)
    if (Given[Key] != TypeCount.second)
      return makeError(llvm::formatv(
          "descriptor array at set {0} binding {1} has missing elements",
          Key.first, Key.second));

  uint32_t SetCount = 0;
  for (const auto &[Key, TypeCount] : Bindings)
    SetCount = std::max(SetCount, Key.first + 1);
  const VkShaderStageFlags Stages =
      VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  for (uint32_t Set = 0; Set < SetCount; ++Set) {
    std::vector<VkDescriptorSetLayoutBinding> LBs;
    for (const auto &[Key, TypeCount] : Bindings)
      if (Key.first == Set)
        LBs.push_back({Key.second, TypeCount.first, TypeCount.second, Stages,
                       nullptr});
    auto Info = makeStruct<VkDescriptorSetLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    Info.bindingCount = uint32_t(LBs.size());
    Info.pBindings = LBs.data();
    VkDescriptorSetLayout L = VK_NULL_HANDLE;
    if (Error E = check(vkCreateDescriptorSetLayout(Dev, &Info, nullptr, &L),
                        "vkCreateDescriptorSetLayout"))
      return E;
    atExit([this, L] { vkDestroyDescriptorSetLayout(Dev, L, nullptr); });
    SetLayouts.push_back(L);
  }

  // Buffers and images.
  for (const GraphicsBuffer &B : J.Buffers) {
    HostBuffer &H = Buffers.emplace_back();
    if (Error E = R.createHostBuffer(
            std::max<VkDeviceSize>(B.Data->size(), 4),
            B.IsUniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                        : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
            false, H))
      return E;
    HostBuffer Copy = H;
    atExit([this, Copy]() mutable { R.destroy(Copy); });
  }
  for (const GraphicsImage &G : J.Images) {
    DeviceImage &I = DescriptorImages.emplace_back();
    VkSampler &S = DescriptorSamplers.emplace_back();
    if (G.Kind == VkImageKind::Sampler ||
        G.Kind == VkImageKind::CombinedImageSampler) {
      VkSamplerCreateInfo Info = samplerCreateInfo(G.Sampler);
      if (Error E = check(vkCreateSampler(Dev, &Info, nullptr, &S),
                          "vkCreateSampler"))
        return E;
      VkSampler Sm = S;
      atExit([this, Sm] { vkDestroySampler(Dev, Sm, nullptr); });
    }
    if (G.Kind == VkImageKind::Sampler)
      continue;
    I.Host = G.Img;
    I.Info = &G.Img->formatInfo();
    I.Aspect = I.Info->hasDepth() ? VK_IMAGE_ASPECT_DEPTH_BIT
               : I.Info->hasStencil() ? VK_IMAGE_ASPECT_STENCIL_BIT
                                      : VK_IMAGE_ASPECT_COLOR_BIT;
    I.WriteBack = G.Kind == VkImageKind::StorageImage;
    if (I.Info->hasDepth() && I.Info->hasStencil())
      return makeError(llvm::formatv("set {0} binding {1}: combined "
                                     "depth/stencil descriptor images are "
                                     "not supported by the graphics runner",
                                     G.Set, G.Binding));
    VkImageUsageFlags Usage =
        VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
        (I.WriteBack ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT);
    if (Error E = createImage(I, Usage, 0, false))
      return E;
    // One region per level, all layers at once, from a staging buffer
    // whose levels are aligned to 16 as copies want.
    const ImageDesc &Id = G.Img->desc();
    const s2l_image &Layout = G.Img->descriptor();
    DeviceImage::Piece &P = I.Pieces.emplace_back();
    P.Copy = {VkImageAspectFlagBits(I.Aspect), I.Info->BlockBytes, 0, 0};
    uint64_t Staging = 0;
    for (uint32_t L = 0; L < Id.Levels; ++L) {
      const s2l_image_level &Lv = Layout.level[L];
      uint64_t End = L + 1 < Id.Levels ? Layout.level[L + 1].offset
                                       : G.Img->bytes().size();
      P.Levels.push_back({Lv.offset, Staging, End - Lv.offset});
      VkBufferImageCopy Region{};
      Region.bufferOffset = Staging;
      Region.imageSubresource = {I.Aspect, L, 0, Id.Layers};
      Region.imageExtent = {Lv.width, Lv.height,
                            Id.ViewType == S2L_VIEW_3D ? Lv.depth : 1};
      P.Regions.push_back(Region);
      Staging = llvm::alignTo(Staging + (End - Lv.offset), 16);
    }
    if (Error E = R.createHostBuffer(std::max<uint64_t>(Staging, 4),
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                     false, P.Staging))
      return E;
    HostBuffer Copy = P.Staging;
    atExit([this, Copy]() mutable { R.destroy(Copy); });
  }

  if (SetLayouts.empty())
    return Error::success();
  std::map<VkDescriptorType, uint32_t> Counts;
  for (const auto &[Key, TypeCount] : Bindings)
    Counts[TypeCount.first] += TypeCount.second;
  std::vector<VkDescriptorPoolSize> Sizes;
  for (const auto &[Type, Count] : Counts)
    Sizes.push_back({Type, Count});
  auto PoolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  PoolInfo.maxSets = uint32_t(SetLayouts.size());
  PoolInfo.poolSizeCount = uint32_t(Sizes.size());
  PoolInfo.pPoolSizes = Sizes.data();
  VkDescriptorPool Pool = VK_NULL_HANDLE;
  if (Error E = check(vkCreateDescriptorPool(Dev, &PoolInfo, nullptr, &Pool),
                      "vkCreateDescriptorPool"))
    return E;
  atExit([this, Pool] { vkDestroyDescriptorPool(Dev, Pool, nullptr); });
  auto Alloc = makeStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  Alloc.descriptorPool = Pool;
  Alloc.descriptorSetCount = uint32_t(SetLayouts.size());
  Alloc.pSetLayouts = SetLayouts.data();
  Sets.resize(SetLayouts.size());
  if (Error E = check(vkAllocateDescriptorSets(Dev, &Alloc, Sets.data()),
                      "vkAllocateDescriptorSets"))
    return E;
  // Reserved: the writes point into these.
  std::vector<VkDescriptorBufferInfo> BufferInfos;
  BufferInfos.reserve(J.Buffers.size());
  std::vector<VkDescriptorImageInfo> ImageInfos;
  ImageInfos.reserve(J.Images.size());
  std::vector<VkWriteDescriptorSet> Writes;
  for (size_t I = 0; I < J.Buffers.size(); ++I) {
    const GraphicsBuffer &B = J.Buffers[I];
    BufferInfos.push_back({Buffers[I].Handle, 0, Buffers[I].Size});
    auto W = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    W.dstSet = Sets[B.Set];
    W.dstBinding = B.Binding;
    W.dstArrayElement = B.ArrayElement;
    W.descriptorCount = 1;
    W.descriptorType = B.IsUniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                   : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    W.pBufferInfo = &BufferInfos.back();
    Writes.push_back(W);
  }
  for (size_t I = 0; I < J.Images.size(); ++I) {
    const GraphicsImage &G = J.Images[I];
    ImageInfos.push_back({DescriptorSamplers[I], DescriptorImages[I].View,
                          VK_IMAGE_LAYOUT_GENERAL});
    auto W = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    W.dstSet = Sets[G.Set];
    W.dstBinding = G.Binding;
    W.dstArrayElement = G.ArrayElement;
    W.descriptorCount = 1;
    W.descriptorType = descriptorType(G.Kind);
    W.pImageInfo = &ImageInfos.back();
    Writes.push_back(W);
  }
  vkUpdateDescriptorSets(Dev, uint32_t(Writes.size()), Writes.data(), 0,
                         nullptr);
  return Error::success();
}

Error GraphicsRun::createPipeline() {
  // Layout: the descriptor sets and one push constant range for both stages.
  PushData = J.PushConstants;
  PushData.resize(llvm::alignTo(PushData.size(), 4), 0);
  const VkShaderStageFlags Stages =
      VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  VkPushConstantRange Range{Stages, 0, uint32_t(PushData.size())};
  auto LayoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  LayoutInfo.setLayoutCount = uint32_t(SetLayouts.size());
  LayoutInfo.pSetLayouts = SetLayouts.data();
  LayoutInfo.pushConstantRangeCount = PushData.empty() ? 0 : 1;
  LayoutInfo.pPushConstantRanges = &Range;
  if (Error E = check(vkCreatePipelineLayout(Dev, &LayoutInfo, nullptr, &Layout),
                      "vkCreatePipelineLayout"))
    return E;
  atExit([this] { vkDestroyPipelineLayout(Dev, Layout, nullptr); });

  // Shader stages.
  struct StageData {
    std::string Entry;
    Specialization Spec;
    VkSpecializationInfo Info{};
    VkShaderModule Module = VK_NULL_HANDLE;
  };
  StageData Data[2];
  std::vector<VkPipelineShaderStageCreateInfo> StageInfos;
  const ShaderStageDesc *Descs[2] = {&D.Vertex,
                                     D.Fragment ? &*D.Fragment : nullptr};
  const char *Names[2] = {"vertex", "fragment"};
  const uint32_t Models[2] = {ExecutionModelVertex, ExecutionModelFragment};
  const char *ModelNames[2] = {"Vertex", "Fragment"};
  const VkShaderStageFlagBits Bits[2] = {VK_SHADER_STAGE_VERTEX_BIT,
                                         VK_SHADER_STAGE_FRAGMENT_BIT};
  for (int S = 0; S < 2; ++S) {
    if (!Descs[S])
      continue;
    Expected<std::string> Entry = findEntryPoint(
        Descs[S]->Spirv, Models[S], Descs[S]->EntryPoint, ModelNames[S]);
    if (!Entry)
      return makeError(llvm::Twine(Names[S]) + " shader: " +
                       llvm::toString(Entry.takeError()));
    Data[S].Entry = *Entry;
    Expected<Specialization> Spec =
        specialize(Descs[S]->Spirv, Descs[S]->SpecValues, Names[S]);
    if (!Spec)
      return Spec.takeError();
    Data[S].Spec = std::move(*Spec);
    if (Error E = createShaderModule(Descs[S]->Spirv, Data[S].Module))
      return E;
    Data[S].Info.mapEntryCount = uint32_t(Data[S].Spec.Entries.size());
    Data[S].Info.pMapEntries = Data[S].Spec.Entries.data();
    Data[S].Info.dataSize = Data[S].Spec.Data.size();
    Data[S].Info.pData = Data[S].Spec.Data.data();
    auto Info = makeStruct<VkPipelineShaderStageCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    Info.stage = Bits[S];
    Info.module = Data[S].Module;
    Info.pName = Data[S].Entry.c_str();
    Info.pSpecializationInfo =
        Data[S].Spec.Entries.empty() ? nullptr : &Data[S].Info;
    StageInfos.push_back(Info);
  }

  // Vertex input.
  std::vector<VkVertexInputBindingDescription> Bindings;
  std::vector<VkVertexInputBindingDivisorDescriptionEXT> Divisors;
  for (const VertexBinding &B : D.VertexBindings) {
    Bindings.push_back(
        {B.Binding, B.Stride, VkVertexInputRate(B.InputRate)});
    if (B.Divisor != 1)
      Divisors.push_back({B.Binding, B.Divisor});
  }
  std::vector<VkVertexInputAttributeDescription> Attributes;
  for (const VertexAttribute &A : D.VertexAttributes)
    Attributes.push_back({A.Location, A.Binding, VkFormat(A.Fmt), A.Offset});
  auto DivisorInfo = makeStruct<VkPipelineVertexInputDivisorStateCreateInfoEXT>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT);
  DivisorInfo.vertexBindingDivisorCount = uint32_t(Divisors.size());
  DivisorInfo.pVertexBindingDivisors = Divisors.data();
  auto Input = makeStruct<VkPipelineVertexInputStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  Input.pNext = Divisors.empty() ? nullptr : &DivisorInfo;
  Input.vertexBindingDescriptionCount = uint32_t(Bindings.size());
  Input.pVertexBindingDescriptions = Bindings.data();
  Input.vertexAttributeDescriptionCount = uint32_t(Attributes.size());
  Input.pVertexAttributeDescriptions = Attributes.data();

  auto Assembly = makeStruct<VkPipelineInputAssemblyStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  Assembly.topology = VkPrimitiveTopology(D.Topology);
  Assembly.primitiveRestartEnable = D.PrimitiveRestartEnable;

  // Viewports and scissors: none given means the whole framebuffer; Vulkan
  // wants as many scissors as viewports.
  std::vector<VkViewport> Viewports;
  for (const Viewport &V : D.Viewports)
    Viewports.push_back(
        {V.X, V.Y, V.Width, V.Height, V.MinDepth, V.MaxDepth});
  std::vector<VkRect2D> Scissors;
  for (const Rect2D &S : D.Scissors)
    Scissors.push_back({{S.X, S.Y}, {S.Width, S.Height}});
  size_t Count = std::max<size_t>({1, Viewports.size(), Scissors.size()});
  while (Viewports.size() < Count)
    Viewports.push_back({0, 0, float(Width), float(Height), 0, 1});
  while (Scissors.size() < Count)
    Scissors.push_back({{0, 0}, {Width, Height}});
  auto ViewportInfo = makeStruct<VkPipelineViewportStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  ViewportInfo.viewportCount = uint32_t(Count);
  ViewportInfo.pViewports = Viewports.data();
  ViewportInfo.scissorCount = uint32_t(Count);
  ViewportInfo.pScissors = Scissors.data();

  const RasterizationState &Rs = D.Rasterization;
  auto Raster = makeStruct<VkPipelineRasterizationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  Raster.depthClampEnable = Rs.DepthClampEnable;
  Raster.rasterizerDiscardEnable = Rs.RasterizerDiscardEnable;
  Raster.polygonMode = VkPolygonMode(Rs.Polygon);
  Raster.cullMode = VkCullModeFlags(Rs.Cull);
  Raster.frontFace = VkFrontFace(Rs.Front);
  Raster.depthBiasEnable = Rs.DepthBiasEnable;
  Raster.depthBiasConstantFactor = Rs.DepthBiasConstantFactor;
  Raster.depthBiasClamp = Rs.DepthBiasClamp;
  Raster.depthBiasSlopeFactor = Rs.DepthBiasSlopeFactor;
  Raster.lineWidth = Rs.LineWidth;
  const void **Tail = &Raster.pNext;
  auto Line = makeStruct<VkPipelineRasterizationLineStateCreateInfoEXT>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT);
  Line.lineRasterizationMode = VkLineRasterizationModeEXT(Rs.LineMode);
  if (Rs.LineMode != LineRasterization::Default) {
    *Tail = &Line;
    Tail = &Line.pNext;
  }
  auto Provoking =
      makeStruct<VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(
          VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT);
  Provoking.provokingVertexMode = VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  if (!Rs.ProvokingVertexFirst) {
    *Tail = &Provoking;
    Tail = &Provoking.pNext;
  }

  const MultisampleState &M = D.Multisample;
  VkSampleMask Mask = M.SampleMask;
  auto Multisample = makeStruct<VkPipelineMultisampleStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  Multisample.rasterizationSamples = VkSampleCountFlagBits(M.Samples);
  Multisample.sampleShadingEnable = M.SampleShadingEnable;
  Multisample.minSampleShading = M.MinSampleShading;
  Multisample.pSampleMask = &Mask;
  Multisample.alphaToCoverageEnable = M.AlphaToCoverageEnable;
  Multisample.alphaToOneEnable = M.AlphaToOneEnable;

  const DepthStencilState &Ds = D.DepthStencil;
  auto Stencil = [](const StencilOpState &S) {
    return VkStencilOpState{VkStencilOp(S.FailOp),  VkStencilOp(S.PassOp),
                            VkStencilOp(S.DepthFailOp),
                            VkCompareOp(S.Compare), S.CompareMask,
                            S.WriteMask,            S.Reference};
  };
  auto DepthInfo = makeStruct<VkPipelineDepthStencilStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
  DepthInfo.depthTestEnable = Ds.DepthTestEnable;
  DepthInfo.depthWriteEnable = Ds.DepthWriteEnable;
  DepthInfo.depthCompareOp = VkCompareOp(Ds.DepthCompare);
  DepthInfo.depthBoundsTestEnable = Ds.DepthBoundsTestEnable;
  DepthInfo.stencilTestEnable = Ds.StencilTestEnable;
  DepthInfo.front = Stencil(Ds.Front);
  DepthInfo.back = Stencil(Ds.Back);
  DepthInfo.minDepthBounds = Ds.MinDepthBounds;
  DepthInfo.maxDepthBounds = Ds.MaxDepthBounds;

  std::vector<VkPipelineColorBlendAttachmentState> Blends;
  for (size_t I = 0; I < D.ColorFormats.size(); ++I) {
    ColorBlendAttachment A;
    if (I < D.Blend.Attachments.size())
      A = D.Blend.Attachments[I];
    Blends.push_back({A.BlendEnable, VkBlendFactor(A.SrcColor),
                      VkBlendFactor(A.DstColor), VkBlendOp(A.ColorOp),
                      VkBlendFactor(A.SrcAlpha), VkBlendFactor(A.DstAlpha),
                      VkBlendOp(A.AlphaOp), A.WriteMask});
  }
  auto Blend = makeStruct<VkPipelineColorBlendStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  Blend.logicOpEnable = D.Blend.LogicOpEnable;
  Blend.logicOp = VkLogicOp(D.Blend.Logic);
  Blend.attachmentCount = uint32_t(Blends.size());
  Blend.pAttachments = Blends.data();
  std::copy(D.Blend.Constants.begin(), D.Blend.Constants.end(),
            Blend.blendConstants);

  auto Info = makeStruct<VkGraphicsPipelineCreateInfo>(
      VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  Info.stageCount = uint32_t(StageInfos.size());
  Info.pStages = StageInfos.data();
  Info.pVertexInputState = &Input;
  Info.pInputAssemblyState = &Assembly;
  Info.pViewportState = &ViewportInfo;
  Info.pRasterizationState = &Raster;
  Info.pMultisampleState = &Multisample;
  Info.pDepthStencilState = &DepthInfo;
  Info.pColorBlendState = &Blend;
  Info.layout = Layout;
  Info.renderPass = RenderPass;
  Info.subpass = 0;
  if (Error E = check(vkCreateGraphicsPipelines(Dev, VK_NULL_HANDLE, 1, &Info,
                                                nullptr, &Pipeline),
                      "vkCreateGraphicsPipelines"))
    return E;
  atExit([this] { vkDestroyPipeline(Dev, Pipeline, nullptr); });
  return Error::success();
}

uint32_t indexBytes(IndexType T) {
  return T == IndexType::UInt8 ? 1 : T == IndexType::UInt16 ? 2 : 4;
}

Error GraphicsRun::createGeometryBuffers() {
  // The vertices the draws read, so that a short vertex buffer is an error
  // here rather than an out-of-bounds read in lavapipe (robustness is off).
  uint64_t MaxVertex = 0, MaxInstance = 0;
  bool AnyVertex = false;
  uint32_t IndexSize = indexBytes(J.Index);
  uint64_t IndexCount = J.IndexData.size() / IndexSize;
  uint32_t Restart = J.Index == IndexType::UInt8    ? 0xffu
                     : J.Index == IndexType::UInt16 ? 0xffffu
                                                    : 0xffffffffu;
  for (const DrawCommand &C : J.Draws) {
    if (C.Count == 0 || C.InstanceCount == 0)
      continue;
    MaxInstance = std::max<uint64_t>(MaxInstance,
                                     uint64_t(C.FirstInstance) +
                                         C.InstanceCount - 1);
    if (!C.Indexed) {
      AnyVertex = true;
      MaxVertex = std::max<uint64_t>(MaxVertex, uint64_t(C.First) + C.Count - 1);
      continue;
    }
    if (uint64_t(C.First) + C.Count > IndexCount)
      return makeError(llvm::formatv(
          "an indexed draw reads indices {0}..{1}; the index data has {2}",
          C.First, uint64_t(C.First) + C.Count - 1, IndexCount));
    for (uint64_t K = C.First; K < uint64_t(C.First) + C.Count; ++K) {
      uint32_t Index = uint32_t(loadBits(&J.IndexData[K * IndexSize],
                                         IndexSize));
      if (D.PrimitiveRestartEnable && Index == Restart)
        continue;
      int64_t V = int64_t(Index) + C.VertexOffset;
      if (V < 0)
        return makeError(llvm::formatv(
            "index {0} plus vertex offset {1} is negative", Index,
            C.VertexOffset));
      AnyVertex = true;
      MaxVertex = std::max<uint64_t>(MaxVertex, uint64_t(V));
    }
  }
  for (const VertexAttribute &A : D.VertexAttributes) {
    const VertexBinding &B = *llvm::find_if(
        D.VertexBindings,
        [&](const VertexBinding &B) { return B.Binding == A.Binding; });
    const FormatInfo *F = formatInfo(A.Fmt);
    uint64_t Element =
        B.InputRate == VertexInputRate::Vertex ? MaxVertex
        : B.Divisor == 0                       ? 0
                                               : MaxInstance / B.Divisor;
    if (B.InputRate == VertexInputRate::Vertex && !AnyVertex)
      continue;
    uint64_t Need = uint64_t(A.Offset) + Element * B.Stride +
                    (F ? F->BlockBytes : 0);
    if (J.VertexBuffers[B.Binding].size() < Need)
      return makeError(llvm::formatv(
          "vertex attribute {0} reads {1} bytes of binding {2}; its buffer "
          "has {3}",
          A.Location, Need, B.Binding, J.VertexBuffers[B.Binding].size()));
  }
  for (const VertexBinding &B : D.VertexBindings) {
    auto &[Binding, H] = VertexBuffers.emplace_back();
    Binding = B.Binding;
    if (Error E = R.createHostBuffer(
            std::max<VkDeviceSize>(J.VertexBuffers[B.Binding].size(), 4),
            VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, false, H))
      return E;
    HostBuffer Copy = H;
    atExit([this, Copy]() mutable { R.destroy(Copy); });
  }
  if (!J.IndexData.empty()) {
    if (Error E = R.createHostBuffer(J.IndexData.size(),
                                     VK_BUFFER_USAGE_INDEX_BUFFER_BIT, false,
                                     IndexBuffer))
      return E;
    HostBuffer Copy = IndexBuffer;
    atExit([this, Copy]() mutable { R.destroy(Copy); });
  }
  return Error::success();
}

Error GraphicsRun::createTransferPipelines() {
  // Multisampled colour attachments are the ones with a uint view.
  if (llvm::none_of(Attachments,
                    [](const DeviceImage &A) { return A.AliasView; }))
    return Error::success();
  if (Error E = need(R, "shaderStorageImageMultisample",
                     "uploading a multisampled attachment"))
    return E;
  if (Error E = need(R, "shaderStorageImageWriteWithoutFormat",
                     "uploading a multisampled attachment"))
    return E;
  if (Error E = createNearestSampler())
    return E;
  llvm::ArrayRef<uint32_t> Code[2] = {ms_color_upload, ms_color_download};
  VkDescriptorType ImageType[2] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                   VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
  for (int K = 0; K < 2; ++K) {
    VkDescriptorSetLayoutBinding LBs[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
         nullptr},
        {1, ImageType[K], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    auto SetInfo = makeStruct<VkDescriptorSetLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    SetInfo.bindingCount = 2;
    SetInfo.pBindings = LBs;
    if (Error E = check(vkCreateDescriptorSetLayout(Dev, &SetInfo, nullptr,
                                                    &TransferSetLayout[K]),
                        "vkCreateDescriptorSetLayout"))
      return E;
    atExit([this, K] {
      vkDestroyDescriptorSetLayout(Dev, TransferSetLayout[K], nullptr);
    });
    VkPushConstantRange Range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
    auto LayoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    LayoutInfo.setLayoutCount = 1;
    LayoutInfo.pSetLayouts = &TransferSetLayout[K];
    LayoutInfo.pushConstantRangeCount = 1;
    LayoutInfo.pPushConstantRanges = &Range;
    if (Error E = check(vkCreatePipelineLayout(Dev, &LayoutInfo, nullptr,
                                               &TransferLayout[K]),
                        "vkCreatePipelineLayout"))
      return E;
    atExit([this, K] {
      vkDestroyPipelineLayout(Dev, TransferLayout[K], nullptr);
    });
    VkShaderModule Module = VK_NULL_HANDLE;
    if (Error E = createShaderModule(Code[K], Module))
      return E;
    auto Info = makeStruct<VkComputePipelineCreateInfo>(
        VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    Info.stage = makeStruct<VkPipelineShaderStageCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    Info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    Info.stage.module = Module;
    Info.stage.pName = "main";
    Info.layout = TransferLayout[K];
    if (Error E = check(vkCreateComputePipelines(Dev, VK_NULL_HANDLE, 1, &Info,
                                                 nullptr, &TransferPipeline[K]),
                        "vkCreateComputePipelines"))
      return E;
    atExit([this, K] {
      vkDestroyPipeline(Dev, TransferPipeline[K], nullptr);
    });
  }
  uint32_t Count = 0;
  for (const DeviceImage &A : Attachments)
    Count += A.AliasView != VK_NULL_HANDLE;
  VkDescriptorPoolSize Sizes[3] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * Count},
      {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, Count},
      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, Count}};
  auto PoolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  PoolInfo.maxSets = 2 * Count;
  PoolInfo.poolSizeCount = 3;
  PoolInfo.pPoolSizes = Sizes;
  VkDescriptorPool Pool = VK_NULL_HANDLE;
  if (Error E = check(vkCreateDescriptorPool(Dev, &PoolInfo, nullptr, &Pool),
                      "vkCreateDescriptorPool"))
    return E;
  atExit([this, Pool] { vkDestroyDescriptorPool(Dev, Pool, nullptr); });
  for (DeviceImage &A : Attachments) {
    if (!A.AliasView)
      continue;
    VkDescriptorSet *SetOf[2] = {&A.UploadSet, &A.DownloadSet};
    HostBuffer *BufferOf[2] = {&A.In, &A.Out};
    for (int K = 0; K < 2; ++K) {
      auto Alloc = makeStruct<VkDescriptorSetAllocateInfo>(
          VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
      Alloc.descriptorPool = Pool;
      Alloc.descriptorSetCount = 1;
      Alloc.pSetLayouts = &TransferSetLayout[K];
      if (Error E = check(vkAllocateDescriptorSets(Dev, &Alloc, SetOf[K]),
                          "vkAllocateDescriptorSets"))
        return E;
      VkDescriptorBufferInfo BI{BufferOf[K]->Handle, 0, BufferOf[K]->Size};
      VkDescriptorImageInfo II{K ? NearestSampler : VK_NULL_HANDLE,
                               A.AliasView, VK_IMAGE_LAYOUT_GENERAL};
      VkWriteDescriptorSet W[2];
      for (int B = 0; B < 2; ++B) {
        W[B] = makeStruct<VkWriteDescriptorSet>(
            VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
        W[B].dstSet = *SetOf[K];
        W[B].dstBinding = B;
        W[B].descriptorCount = 1;
      }
      W[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      W[0].pBufferInfo = &BI;
      W[1].descriptorType = ImageType[K];
      W[1].pImageInfo = &II;
      vkUpdateDescriptorSets(Dev, 2, W, 0, nullptr);
    }
  }
  return Error::success();
}

Error GraphicsRun::createNearestSampler() {
  if (NearestSampler)
    return Error::success();
  auto Info =
      makeStruct<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
  if (Error E = check(vkCreateSampler(Dev, &Info, nullptr, &NearestSampler),
                      "vkCreateSampler"))
    return E;
  atExit([this] { vkDestroySampler(Dev, NearestSampler, nullptr); });
  return Error::success();
}

Error GraphicsRun::createDsTransfer() {
  if (DepthIndex == VK_ATTACHMENT_UNUSED ||
      Attachments[DepthIndex].Samples == 1)
    return Error::success();
  const DeviceImage &A = Attachments[DepthIndex];
  Ds.Active = true;
  for (const AspectCopy &C : aspectCopies(*A.Info)) {
    if (C.Aspect == VK_IMAGE_ASPECT_DEPTH_BIT) {
      Ds.Depth = true;
      Ds.DepthPart = C;
    } else {
      Ds.Stencil = true;
      Ds.StencilPart = C;
    }
  }
  // Single-aspect views to sample, and one word per sample and aspect
  // (unused aspects get a word, so every binding has a buffer).
  auto MakeView = [&](VkImageAspectFlags Aspect, VkImageView &V) -> Error {
    auto View = makeStruct<VkImageViewCreateInfo>(
        VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
    View.image = A.Handle;
    View.viewType = VK_IMAGE_VIEW_TYPE_2D;
    View.format = VkFormat(A.Host->desc().Fmt);
    View.subresourceRange = {Aspect, 0, 1, 0, 1};
    if (Error E = check(vkCreateImageView(Dev, &View, nullptr, &V),
                        "vkCreateImageView"))
      return E;
    VkImageView Copy = V;
    atExit([this, Copy] { vkDestroyImageView(Dev, Copy, nullptr); });
    return Error::success();
  };
  if (Ds.Depth)
    if (Error E = MakeView(VK_IMAGE_ASPECT_DEPTH_BIT, Ds.DepthView))
      return E;
  if (Ds.Stencil)
    if (Error E = MakeView(VK_IMAGE_ASPECT_STENCIL_BIT, Ds.StencilView))
      return E;
  uint64_t Words = uint64_t(Width) * Height * A.Samples;
  for (HostBuffer *B : {&Ds.DepthIn, &Ds.StencilIn, &Ds.DepthOut,
                        &Ds.StencilOut}) {
    if (Error E = R.createHostBuffer(Words * 4,
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false,
                                     *B))
      return E;
    HostBuffer Copy = *B;
    atExit([this, Copy]() mutable { R.destroy(Copy); });
  }

  // The upload pass: the attachment alone, its old contents irrelevant.
  VkAttachmentDescription Desc{};
  Desc.format = VkFormat(A.Host->desc().Fmt);
  Desc.samples = VkSampleCountFlagBits(A.Samples);
  Desc.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  Desc.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  Desc.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  Desc.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
  Desc.initialLayout = VK_IMAGE_LAYOUT_GENERAL;
  Desc.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
  VkAttachmentReference Ref{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription Subpass{};
  Subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  Subpass.pDepthStencilAttachment = &Ref;
  auto PassInfo = makeStruct<VkRenderPassCreateInfo>(
      VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  PassInfo.attachmentCount = 1;
  PassInfo.pAttachments = &Desc;
  PassInfo.subpassCount = 1;
  PassInfo.pSubpasses = &Subpass;
  if (Error E = check(vkCreateRenderPass(Dev, &PassInfo, nullptr, &Ds.Pass),
                      "vkCreateRenderPass"))
    return E;
  atExit([this] { vkDestroyRenderPass(Dev, Ds.Pass, nullptr); });
  auto Fb = makeStruct<VkFramebufferCreateInfo>(
      VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  Fb.renderPass = Ds.Pass;
  Fb.attachmentCount = 1;
  Fb.pAttachments = &A.View;
  Fb.width = Width;
  Fb.height = Height;
  Fb.layers = 1;
  if (Error E = check(vkCreateFramebuffer(Dev, &Fb, nullptr, &Ds.Framebuffer),
                      "vkCreateFramebuffer"))
    return E;
  atExit([this] { vkDestroyFramebuffer(Dev, Ds.Framebuffer, nullptr); });
  return createDsPipelines();
}

Error GraphicsRun::createDsPipelines() {
  const uint32_t Samples = Attachments[DepthIndex].Samples;
  // Set layouts: the two buffers; the read-back also the sampled views.
  const VkShaderStageFlags StageOf[2] = {VK_SHADER_STAGE_FRAGMENT_BIT,
                                         VK_SHADER_STAGE_COMPUTE_BIT};
  for (int K = 0; K < 2; ++K) {
    std::vector<VkDescriptorSetLayoutBinding> LBs = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, StageOf[K], nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, StageOf[K], nullptr}};
    if (K == 1 && Ds.Depth)
      LBs.push_back({2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                     StageOf[K], nullptr});
    if (K == 1 && Ds.Stencil)
      LBs.push_back({3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                     StageOf[K], nullptr});
    auto SetInfo = makeStruct<VkDescriptorSetLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    SetInfo.bindingCount = uint32_t(LBs.size());
    SetInfo.pBindings = LBs.data();
    if (Error E = check(vkCreateDescriptorSetLayout(Dev, &SetInfo, nullptr,
                                                    &Ds.SetLayout[K]),
                        "vkCreateDescriptorSetLayout"))
      return E;
    atExit([this, K] {
      vkDestroyDescriptorSetLayout(Dev, Ds.SetLayout[K], nullptr);
    });
    VkPushConstantRange Range{StageOf[K], 0, 12};
    auto LayoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    LayoutInfo.setLayoutCount = 1;
    LayoutInfo.pSetLayouts = &Ds.SetLayout[K];
    LayoutInfo.pushConstantRangeCount = 1;
    LayoutInfo.pPushConstantRanges = &Range;
    if (Error E = check(vkCreatePipelineLayout(Dev, &LayoutInfo, nullptr,
                                               &Ds.Layout[K]),
                        "vkCreatePipelineLayout"))
      return E;
    atExit([this, K] { vkDestroyPipelineLayout(Dev, Ds.Layout[K], nullptr); });
  }

  llvm::ArrayRef<uint32_t> Upload =
      Ds.Depth && Ds.Stencil ? llvm::ArrayRef<uint32_t>(ms_depth_stencil_upload)
      : Ds.Depth             ? llvm::ArrayRef<uint32_t>(ms_depth_upload)
                             : llvm::ArrayRef<uint32_t>(ms_stencil_upload);
  llvm::ArrayRef<uint32_t> Download =
      Ds.Depth && Ds.Stencil
          ? llvm::ArrayRef<uint32_t>(ms_depth_stencil_download)
      : Ds.Depth ? llvm::ArrayRef<uint32_t>(ms_depth_download)
                 : llvm::ArrayRef<uint32_t>(ms_stencil_download);
  VkShaderModule Vert, Frag, Comp;
  if (Error E = createShaderModule(fullscreen_vert, Vert))
    return E;
  if (Error E = createShaderModule(Upload, Frag))
    return E;
  if (Error E = createShaderModule(Download, Comp))
    return E;

  // The upload: every sample of the whole framebuffer (sample shading at
  // rate 1), depth and stencil written whatever was there.
  VkPipelineShaderStageCreateInfo Stages[2];
  for (int K = 0; K < 2; ++K) {
    Stages[K] = makeStruct<VkPipelineShaderStageCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    Stages[K].stage =
        K ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_VERTEX_BIT;
    Stages[K].module = K ? Frag : Vert;
    Stages[K].pName = "main";
  }
  auto Input = makeStruct<VkPipelineVertexInputStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  auto Assembly = makeStruct<VkPipelineInputAssemblyStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  Assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport Viewport{0, 0, float(Width), float(Height), 0, 1};
  VkRect2D Scissor{{0, 0}, {Width, Height}};
  auto ViewportInfo = makeStruct<VkPipelineViewportStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  ViewportInfo.viewportCount = 1;
  ViewportInfo.pViewports = &Viewport;
  ViewportInfo.scissorCount = 1;
  ViewportInfo.pScissors = &Scissor;
  auto Raster = makeStruct<VkPipelineRasterizationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  Raster.polygonMode = VK_POLYGON_MODE_FILL;
  Raster.cullMode = VK_CULL_MODE_NONE;
  Raster.lineWidth = 1;
  auto Multisample = makeStruct<VkPipelineMultisampleStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  Multisample.rasterizationSamples = VkSampleCountFlagBits(Samples);
  Multisample.sampleShadingEnable = VK_TRUE;
  Multisample.minSampleShading = 1;
  VkStencilOpState Replace{VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_REPLACE,
                           VK_STENCIL_OP_REPLACE, VK_COMPARE_OP_ALWAYS,
                           0xff, 0xff, 0};
  auto DepthInfo = makeStruct<VkPipelineDepthStencilStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
  DepthInfo.depthTestEnable = Ds.Depth;
  DepthInfo.depthWriteEnable = Ds.Depth;
  DepthInfo.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  DepthInfo.stencilTestEnable = Ds.Stencil;
  DepthInfo.front = DepthInfo.back = Replace;
  auto Blend = makeStruct<VkPipelineColorBlendStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  auto Info = makeStruct<VkGraphicsPipelineCreateInfo>(
      VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  Info.stageCount = 2;
  Info.pStages = Stages;
  Info.pVertexInputState = &Input;
  Info.pInputAssemblyState = &Assembly;
  Info.pViewportState = &ViewportInfo;
  Info.pRasterizationState = &Raster;
  Info.pMultisampleState = &Multisample;
  Info.pDepthStencilState = &DepthInfo;
  Info.pColorBlendState = &Blend;
  Info.layout = Ds.Layout[0];
  Info.renderPass = Ds.Pass;
  if (Error E = check(vkCreateGraphicsPipelines(Dev, VK_NULL_HANDLE, 1, &Info,
                                                nullptr, &Ds.Pipeline[0]),
                      "vkCreateGraphicsPipelines"))
    return E;
  atExit([this] { vkDestroyPipeline(Dev, Ds.Pipeline[0], nullptr); });
  auto CompInfo = makeStruct<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  CompInfo.stage = makeStruct<VkPipelineShaderStageCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  CompInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  CompInfo.stage.module = Comp;
  CompInfo.stage.pName = "main";
  CompInfo.layout = Ds.Layout[1];
  if (Error E = check(vkCreateComputePipelines(Dev, VK_NULL_HANDLE, 1,
                                               &CompInfo, nullptr,
                                               &Ds.Pipeline[1]),
                      "vkCreateComputePipelines"))
    return E;
  atExit([this] { vkDestroyPipeline(Dev, Ds.Pipeline[1], nullptr); });

  // Descriptors.
  if (Error E = createNearestSampler())
    return E;
  VkDescriptorPoolSize Sizes[2] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4},
      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2}};
  auto PoolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  PoolInfo.maxSets = 2;
  PoolInfo.poolSizeCount = 2;
  PoolInfo.pPoolSizes = Sizes;
  VkDescriptorPool Pool = VK_NULL_HANDLE;
  if (Error E = check(vkCreateDescriptorPool(Dev, &PoolInfo, nullptr, &Pool),
                      "vkCreateDescriptorPool"))
    return E;
  atExit([this, Pool] { vkDestroyDescriptorPool(Dev, Pool, nullptr); });
  auto Alloc = makeStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  Alloc.descriptorPool = Pool;
  Alloc.descriptorSetCount = 2;
  Alloc.pSetLayouts = Ds.SetLayout;
  if (Error E = check(vkAllocateDescriptorSets(Dev, &Alloc, Ds.Set),
                      "vkAllocateDescriptorSets"))
    return E;
  VkDescriptorBufferInfo Buffers[2][2] = {
      {{Ds.DepthIn.Handle, 0, VK_WHOLE_SIZE},
       {Ds.StencilIn.Handle, 0, VK_WHOLE_SIZE}},
      {{Ds.DepthOut.Handle, 0, VK_WHOLE_SIZE},
       {Ds.StencilOut.Handle, 0, VK_WHOLE_SIZE}}};
  VkDescriptorImageInfo Images[2] = {
      {NearestSampler, Ds.DepthView, VK_IMAGE_LAYOUT_GENERAL},
      {NearestSampler, Ds.StencilView, VK_IMAGE_LAYOUT_GENERAL}};
  std::vector<VkWriteDescriptorSet> Writes;
  for (int K = 0; K < 2; ++K)
    for (uint32_t B = 0; B < 4; ++B) {
      if (B >= 2 && (K == 0 || !(B == 2 ? Ds.Depth : Ds.Stencil)))
        continue;
      auto W = makeStruct<VkWriteDescriptorSet>(
          VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      W.dstSet = Ds.Set[K];
      W.dstBinding = B;
      W.descriptorCount = 1;
      if (B < 2) {
        W.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        W.pBufferInfo = &Buffers[K][B];
      } else {
        W.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        W.pImageInfo = &Images[B - 2];
      }
      Writes.push_back(W);
    }
  vkUpdateDescriptorSets(Dev, uint32_t(Writes.size()), Writes.data(), 0,
                         nullptr);
  return Error::success();
}

void GraphicsRun::barrier(VkPipelineStageFlags Src, VkAccessFlags SrcAccess,
                          VkPipelineStageFlags Dst, VkAccessFlags DstAccess) {
  auto M = makeStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  M.srcAccessMask = SrcAccess;
  M.dstAccessMask = DstAccess;
  vkCmdPipelineBarrier(Commands, Src, Dst, 0, 1, &M, 0, nullptr, 0, nullptr);
}

/// Dispatches the transfer shader over W*H*S samples, 64 per group, in
/// rows of at most 65535 groups.
void dispatchSamples(VkCommandBuffer Commands, uint64_t Samples) {
  uint64_t Groups = std::max<uint64_t>(1, llvm::divideCeil(Samples, 64));
  uint32_t X = uint32_t(std::min<uint64_t>(Groups, 65535));
  uint32_t Y = uint32_t(llvm::divideCeil(Groups, X));
  vkCmdDispatch(Commands, X, Y, 1);
}

void GraphicsRun::recordUploads() {
  // Every image to GENERAL; UNDEFINED as the old layout: the upload
  // rewrites the content.
  std::vector<VkImageMemoryBarrier> Barriers;
  auto Transition = [&](const DeviceImage &I) {
    if (!I.Handle)
      return;
    auto B = makeStruct<VkImageMemoryBarrier>(
        VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    B.srcAccessMask = 0;
    B.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    B.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    B.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    B.srcQueueFamilyIndex = B.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    B.image = I.Handle;
    B.subresourceRange = {I.Aspect, 0, VK_REMAINING_MIP_LEVELS, 0,
                          VK_REMAINING_ARRAY_LAYERS};
    Barriers.push_back(B);
  };
  for (const DeviceImage &I : Attachments)
    Transition(I);
  for (const DeviceImage &I : DescriptorImages)
    Transition(I);
  if (!Barriers.empty())
    vkCmdPipelineBarrier(Commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT |
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 0, nullptr, 0, nullptr, uint32_t(Barriers.size()),
                         Barriers.data());
  auto Copy = [&](const DeviceImage &I) {
    for (const DeviceImage::Piece &P : I.Pieces)
      vkCmdCopyBufferToImage(Commands, P.Staging.Handle, I.Handle,
                             VK_IMAGE_LAYOUT_GENERAL,
                             uint32_t(P.Regions.size()), P.Regions.data());
  };
  for (const DeviceImage &I : Attachments)
    Copy(I);
  for (const DeviceImage &I : DescriptorImages)
    Copy(I);
  for (const DeviceImage &A : Attachments) {
    if (!A.AliasView)
      continue;
    vkCmdBindPipeline(Commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                      TransferPipeline[0]);
    vkCmdBindDescriptorSets(Commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                            TransferLayout[0], 0, 1, &A.UploadSet, 0, nullptr);
    uint32_t Push[4] = {Width, Height, A.Samples, A.Info->BlockBytes};
    vkCmdPushConstants(Commands, TransferLayout[0], VK_SHADER_STAGE_COMPUTE_BIT,
                       0, sizeof(Push), Push);
    dispatchSamples(Commands, uint64_t(Width) * Height * A.Samples);
  }
  if (Ds.Active) {
    auto Pass = makeStruct<VkRenderPassBeginInfo>(
        VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
    Pass.renderPass = Ds.Pass;
    Pass.framebuffer = Ds.Framebuffer;
    Pass.renderArea = {{0, 0}, {Width, Height}};
    vkCmdBeginRenderPass(Commands, &Pass, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(Commands, VK_PIPELINE_BIND_POINT_GRAPHICS,
                      Ds.Pipeline[0]);
    vkCmdBindDescriptorSets(Commands, VK_PIPELINE_BIND_POINT_GRAPHICS,
                            Ds.Layout[0], 0, 1, &Ds.Set[0], 0, nullptr);
    uint32_t Push[3] = {Width, Height, Attachments[DepthIndex].Samples};
    vkCmdPushConstants(Commands, Ds.Layout[0], VK_SHADER_STAGE_FRAGMENT_BIT,
                       0, sizeof(Push), Push);
    vkCmdDraw(Commands, 3, 1, 0, 0);
    vkCmdEndRenderPass(Commands);
  }
  barrier(VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
              VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT |
              VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
          VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
              VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
              VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
              VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void GraphicsRun::recordDownloads() {
  barrier(VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
              VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
              VK_ACCESS_SHADER_WRITE_BIT,
          VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT);
  auto Copy = [&](const DeviceImage &I) {
    if (!I.WriteBack)
      return;
    for (const DeviceImage::Piece &P : I.Pieces)
      vkCmdCopyImageToBuffer(Commands, I.Handle, VK_IMAGE_LAYOUT_GENERAL,
                             P.Staging.Handle, uint32_t(P.Regions.size()),
                             P.Regions.data());
  };
  for (const DeviceImage &I : Attachments)
    Copy(I);
  for (const DeviceImage &I : DescriptorImages)
    Copy(I);
  for (const DeviceImage &A : Attachments) {
    if (!A.AliasView)
      continue;
    vkCmdBindPipeline(Commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                      TransferPipeline[1]);
    vkCmdBindDescriptorSets(Commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                            TransferLayout[1], 0, 1, &A.DownloadSet, 0,
                            nullptr);
    uint32_t Push[4] = {Width, Height, A.Samples, A.Info->BlockBytes};
    vkCmdPushConstants(Commands, TransferLayout[1], VK_SHADER_STAGE_COMPUTE_BIT,
                       0, sizeof(Push), Push);
    dispatchSamples(Commands, uint64_t(Width) * Height * A.Samples);
  }
  if (Ds.Active) {
    vkCmdBindPipeline(Commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                      Ds.Pipeline[1]);
    vkCmdBindDescriptorSets(Commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                            Ds.Layout[1], 0, 1, &Ds.Set[1], 0, nullptr);
    uint32_t Samples = Attachments[DepthIndex].Samples;
    uint32_t Push[3] = {Width, Height, Samples};
    vkCmdPushConstants(Commands, Ds.Layout[1], VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       sizeof(Push), Push);
    dispatchSamples(Commands, uint64_t(Width) * Height * Samples);
  }
  barrier(VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

Error GraphicsRun::recordCommands() {
  auto Alloc = makeStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  Alloc.commandPool = R.CommandPool;
  Alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  Alloc.commandBufferCount = 1;
  if (Error E = check(vkAllocateCommandBuffers(Dev, &Alloc, &Commands),
                      "vkAllocateCommandBuffers"))
    return E;
  atExit([this] { vkFreeCommandBuffers(Dev, R.CommandPool, 1, &Commands); });
  auto Begin = makeStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  Begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (Error E =
          check(vkBeginCommandBuffer(Commands, &Begin), "vkBeginCommandBuffer"))
    return E;
  recordUploads();
  auto Pass = makeStruct<VkRenderPassBeginInfo>(
      VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
  Pass.renderPass = RenderPass;
  Pass.framebuffer = Framebuffer;
  Pass.renderArea = {{0, 0}, {Width, Height}};
  vkCmdBeginRenderPass(Commands, &Pass, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdBindPipeline(Commands, VK_PIPELINE_BIND_POINT_GRAPHICS, Pipeline);
  if (!Sets.empty())
    vkCmdBindDescriptorSets(Commands, VK_PIPELINE_BIND_POINT_GRAPHICS, Layout,
                            0, uint32_t(Sets.size()), Sets.data(), 0, nullptr);
  if (!PushData.empty())
    vkCmdPushConstants(Commands, Layout,
                       VK_SHADER_STAGE_VERTEX_BIT |
                           VK_SHADER_STAGE_FRAGMENT_BIT,
                       0, uint32_t(PushData.size()), PushData.data());
  for (const auto &[Binding, H] : VertexBuffers) {
    VkDeviceSize Offset = 0;
    vkCmdBindVertexBuffers(Commands, Binding, 1, &H.Handle, &Offset);
  }
  if (IndexBuffer.Handle)
    vkCmdBindIndexBuffer(Commands, IndexBuffer.Handle, 0, VkIndexType(J.Index));
  for (const DrawCommand &C : J.Draws) {
    if (C.Indexed)
      vkCmdDrawIndexed(Commands, C.Count, C.InstanceCount, C.First,
                       C.VertexOffset, C.FirstInstance);
    else
      vkCmdDraw(Commands, C.Count, C.InstanceCount, C.First, C.FirstInstance);
  }
  vkCmdEndRenderPass(Commands);
  recordDownloads();
  if (Error E = check(vkEndCommandBuffer(Commands), "vkEndCommandBuffer"))
    return E;
  auto FenceInfo =
      makeStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  if (Error E = check(vkCreateFence(Dev, &FenceInfo, nullptr, &Fence),
                      "vkCreateFence"))
    return E;
  atExit([this] { vkDestroyFence(Dev, Fence, nullptr); });
  return Error::success();
}

Error GraphicsRun::build() {
  if (Error E = checkJob())
    return E;
  if (Error E = createAttachments())
    return E;
  if (Error E = createRenderPass())
    return E;
  if (Error E = createDescriptors())
    return E;
  if (Error E = createPipeline())
    return E;
  if (Error E = createGeometryBuffers())
    return E;
  if (Error E = createTransferPipelines())
    return E;
  if (Error E = createDsTransfer())
    return E;
  return recordCommands();
}

void GraphicsRun::upload() {
  // Attachments: level 0, layer 0 is the first W*H*S texels of the packed
  // image.
  for (DeviceImage &A : Attachments) {
    const uint8_t *Src = A.Host->bytes().data();
    uint64_t Texels = uint64_t(Width) * Height * A.Samples;
    uint32_t TexelBytes = A.Info->BlockBytes;
    if (A.Samples > 1 && Ds.Active && &A == &Attachments[DepthIndex]) {
      auto *Depth = static_cast<uint32_t *>(Ds.DepthIn.Mapped);
      auto *Stencil = static_cast<uint32_t *>(Ds.StencilIn.Mapped);
      for (uint64_t T = 0; T < Texels; ++T) {
        uint64_t V = loadBits(Src + T * TexelBytes, TexelBytes);
        Depth[T] = depthToFloatBits(uint32_t((V >> Ds.DepthPart.Offset) &
                                             bitMask(Ds.DepthPart.Bits)),
                                    Ds.DepthPart.Bits);
        Stencil[T] = uint32_t((V >> Ds.StencilPart.Offset) &
                              bitMask(Ds.StencilPart.Bits));
      }
      continue;
    }
    if (A.Samples > 1) {
      std::memcpy(A.In.Mapped, Src, Texels * TexelBytes);
      std::memset(A.Out.Mapped, 0, A.Out.Size); // the download ORs into it
      continue;
    }
    for (DeviceImage::Piece &P : A.Pieces) {
      auto *Dst = static_cast<uint8_t *>(P.Staging.Mapped);
      if (P.Copy.Aspect == VK_IMAGE_ASPECT_COLOR_BIT) {
        std::memcpy(Dst, Src, Texels * TexelBytes);
        continue;
      }
      for (uint64_t T = 0; T < Texels; ++T) {
        uint64_t V = loadBits(Src + T * TexelBytes, TexelBytes);
        uint64_t C = (V >> P.Copy.Offset) & bitMask(P.Copy.Bits);
        std::memcpy(Dst + T * P.Copy.CopyBytes, &C, P.Copy.CopyBytes);
      }
    }
  }
  for (DeviceImage &I : DescriptorImages) {
    if (!I.Handle)
      continue;
    const DeviceImage::Piece &P = I.Pieces.front();
    for (const auto &[Packed, Staging, Bytes] : P.Levels)
      std::memcpy(static_cast<uint8_t *>(P.Staging.Mapped) + Staging,
                  I.Host->bytes().data() + Packed, Bytes);
  }
  for (size_t I = 0; I < J.Buffers.size(); ++I) {
    const std::vector<uint8_t> &Data = *J.Buffers[I].Data;
    auto *Dst = static_cast<uint8_t *>(Buffers[I].Mapped);
    std::memset(Dst, 0, Buffers[I].Size);
    if (!Data.empty())
      std::memcpy(Dst, Data.data(), Data.size());
  }
  for (auto &[Binding, H] : VertexBuffers) {
    const std::vector<uint8_t> &Data = J.VertexBuffers[Binding];
    std::memset(H.Mapped, 0, H.Size);
    if (!Data.empty())
      std::memcpy(H.Mapped, Data.data(), Data.size());
  }
  if (IndexBuffer.Mapped)
    std::memcpy(IndexBuffer.Mapped, J.IndexData.data(), J.IndexData.size());
}

Error GraphicsRun::submitAndWait() {
  auto Submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  Submit.commandBufferCount = 1;
  Submit.pCommandBuffers = &Commands;
  if (Error E =
          check(vkQueueSubmit(R.Queue, 1, &Submit, Fence), "vkQueueSubmit"))
    return E;
  VkResult Wait = vkWaitForFences(Dev, 1, &Fence, VK_TRUE, FenceTimeoutNs);
  if (Wait == VK_TIMEOUT) {
    R.Hung = true;
    return makeError(llvm::formatv(
        "vkWaitForFences failed: VK_TIMEOUT after {0} s (a shader does not "
        "terminate?); the runner is unusable from now on",
        FenceTimeoutNs / 1000000000));
  }
  return check(Wait, "vkWaitForFences");
}

void GraphicsRun::download() {
  for (DeviceImage &A : Attachments) {
    uint8_t *Dst = A.Host->bytes().data();
    uint64_t Texels = uint64_t(Width) * Height * A.Samples;
    uint32_t TexelBytes = A.Info->BlockBytes;
    if (A.Samples > 1 && Ds.Active && &A == &Attachments[DepthIndex]) {
      auto *Depth = static_cast<const uint32_t *>(Ds.DepthOut.Mapped);
      auto *Stencil = static_cast<const uint32_t *>(Ds.StencilOut.Mapped);
      for (uint64_t T = 0; T < Texels; ++T) {
        uint64_t V = 0;
        if (Ds.Depth)
          V |= uint64_t(floatBitsToDepth(Depth[T], Ds.DepthPart.Bits))
               << Ds.DepthPart.Offset;
        if (Ds.Stencil)
          V |= (Stencil[T] & bitMask(Ds.StencilPart.Bits))
               << Ds.StencilPart.Offset;
        std::memcpy(Dst + T * TexelBytes, &V, TexelBytes);
      }
      continue;
    }
    if (A.Samples > 1) {
      std::memcpy(Dst, A.Out.Mapped, Texels * TexelBytes);
      continue;
    }
    if (A.Pieces.front().Copy.Aspect == VK_IMAGE_ASPECT_COLOR_BIT) {
      std::memcpy(Dst, A.Pieces.front().Staging.Mapped, Texels * TexelBytes);
      continue;
    }
    // Depth and stencil: rebuild the packed texels (bits of no component,
    // X8_D24's X8 and D32S8's padding, become zero).
    for (uint64_t T = 0; T < Texels; ++T) {
      uint64_t V = 0;
      for (const DeviceImage::Piece &P : A.Pieces) {
        uint64_t C = loadBits(static_cast<const uint8_t *>(P.Staging.Mapped) +
                                  T * P.Copy.CopyBytes,
                              P.Copy.CopyBytes);
        V |= (C & bitMask(P.Copy.Bits)) << P.Copy.Offset;
      }
      std::memcpy(Dst + T * TexelBytes, &V, TexelBytes);
    }
  }
  for (DeviceImage &I : DescriptorImages) {
    if (!I.Handle || !I.WriteBack)
      continue;
    const DeviceImage::Piece &P = I.Pieces.front();
    for (const auto &[Packed, Staging, Bytes] : P.Levels)
      std::memcpy(I.Host->bytes().data() + Packed,
                  static_cast<const uint8_t *>(P.Staging.Mapped) + Staging,
                  Bytes);
  }
  for (size_t I = 0; I < J.Buffers.size(); ++I) {
    std::vector<uint8_t> &Data = *J.Buffers[I].Data;
    if (!J.Buffers[I].IsUniform && !Data.empty())
      std::memcpy(Data.data(), Buffers[I].Mapped, Data.size());
  }
}

} // namespace

namespace spirv2llvm::vk {

struct VulkanGraphicsRunner::Impl {
  std::unique_ptr<RunnerState> State;
};

VulkanGraphicsRunner::VulkanGraphicsRunner(std::unique_ptr<Impl> P)
    : P(std::move(P)) {}
VulkanGraphicsRunner::~VulkanGraphicsRunner() = default;

Expected<std::unique_ptr<VulkanGraphicsRunner>>
VulkanGraphicsRunner::create(const VkRunnerOptions &Options) {
  Expected<std::unique_ptr<RunnerState>> S = RunnerState::create(Options);
  if (!S)
    return S.takeError();
  auto I = std::make_unique<Impl>();
  I->State = std::move(*S);
  return std::unique_ptr<VulkanGraphicsRunner>(
      new VulkanGraphicsRunner(std::move(I)));
}

Error VulkanGraphicsRunner::run(const GraphicsJob &J) {
  RunnerState &R = *P->State;
  if (R.Hung)
    return makeError("vulkan runner unusable: an earlier job timed out");
  if (!J.Desc)
    return makeError("the graphics job has no pipeline description");
  GraphicsRun Run(R, J);
  if (Error E = Run.build())
    return E;
  Run.upload();
  if (Error E = Run.submitAndWait())
    return E;
  Run.download();
  return Error::success();
}

std::string VulkanGraphicsRunner::deviceName() const {
  return P->State->Props.deviceName;
}

uint32_t VulkanGraphicsRunner::subPixelPrecisionBits() const {
  return P->State->Props.limits.subPixelPrecisionBits;
}

bool VulkanGraphicsRunner::hasFeature(llvm::StringRef Name) const {
  return featureEnabled(*P->State, Name);
}

} // namespace spirv2llvm::vk
