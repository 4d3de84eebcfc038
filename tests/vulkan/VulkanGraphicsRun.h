//===- VulkanGraphicsRun.h - One job of the graphics runner ------*- C++
//-*-===//
//
// What the graphics runner's files share (VulkanGraphicsRunner.cpp: the
// job's checks, attachments, render pass, descriptors, commands;
// VulkanGraphicsState.cpp: the pipeline state; VulkanGraphicsTransfer.cpp:
// moving attachments and images in and out). Private to them: it includes
// vulkan.h.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_VULKAN_VULKANGRAPHICSRUN_H
#define SPIRV2LLVM_TESTS_VULKAN_VULKANGRAPHICSRUN_H

#include "VulkanDevice.h"
#include "VulkanGraphicsRunner.h"

#include "spirv2llvm/ImageFormat.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <tuple>
#include <utility>
#include <vector>

namespace spirv2llvm::vk::detail {

// --- State (VulkanGraphicsState.cpp) -----------------------------------------

/// Whether the device has the feature \p Name, of those graphics state can
/// need (VulkanGraphicsRunner::hasFeature).
bool featureEnabled(const RunnerState &R, llvm::StringRef Name);
/// Fails naming \p Feature (and what wanted it) unless the device has it.
llvm::Error need(const RunnerState &R, const char *Feature,
                 const llvm::Twine &For);
/// Every piece of fixed-function state that needs an optional feature.
llvm::Error checkStateFeatures(const RunnerState &R, const GraphicsJob &J);

// --- Transfers (VulkanGraphicsTransfer.cpp) ----------------------------------

/// An unsigned integer format of \p Bytes per texel, through which the
/// transfer shaders see a colour attachment (views of the same texel size
/// are compatible); UNDEFINED when there is none.
VkFormat uintAlias(uint32_t Bytes);

/// One aspect of a depth/stencil texel as a buffer copy lays it out: its
/// bytes per texel and where the component sits in the packed texel.
struct AspectCopy {
  VkImageAspectFlagBits Aspect;
  uint32_t CopyBytes;    ///< bytes per texel in the copy's buffer
  uint32_t Offset, Bits; ///< the component in the packed texel
};

/// The buffer-copy pieces of a single-sampled attachment of format \p F:
/// the whole texel for colour formats, one entry per aspect for depth and
/// stencil (D24 depth copies as 32-bit words with the depth in bits 0-23,
/// stencil as bytes).
std::vector<AspectCopy> aspectCopies(const FormatInfo &F);

/// The little-endian value of the first \p Bytes (at most 8) at \p P.
uint64_t loadBits(const uint8_t *P, uint32_t Bytes);
/// The low \p Bits bits set.
uint64_t bitMask(uint32_t Bits);

// --- The run (VulkanGraphicsRunner.cpp)
// ----------------------------------------

/// One job: every object it needs, created by build(), destroyed (in
/// reverse order of creation) with the GraphicsRun.
class GraphicsRun {
public:
  GraphicsRun(RunnerState &R, const GraphicsJob &J)
      : R(R), J(J), D(*J.Desc), Dev(R.Device) {}
  ~GraphicsRun();
  GraphicsRun(const GraphicsRun &) = delete;
  GraphicsRun &operator=(const GraphicsRun &) = delete;

  llvm::Error build();
  void upload();
  llvm::Error submitAndWait();
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

  llvm::Error checkJob();
  llvm::Error checkAttachment(const Image *I, Format Want, uint32_t Samples,
                              const std::string &What, bool Color);
  /// The image and its view: for an attachment a 2D view of level 0,
  /// layer 0 (framebuffers take single levels), else the whole image.
  llvm::Error createImage(DeviceImage &I, VkImageUsageFlags Usage,
                          VkImageCreateFlags Flags, bool Attachment);
  llvm::Error createAttachments();
  llvm::Error createRenderPass();
  llvm::Error createShaderModule(llvm::ArrayRef<uint32_t> Words,
                                 VkShaderModule &Module);
  llvm::Error createDescriptors();
  llvm::Error createPipeline();
  llvm::Error createGeometryBuffers();
  llvm::Error createTransferPipelines();
  llvm::Error recordCommands();
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
  /// The stages descriptors and push constants are visible to: vertex,
  /// fragment, and geometry when the pipeline has one.
  VkShaderStageFlags shaderStages() const {
    return VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT |
           (D.Geometry ? VK_SHADER_STAGE_GEOMETRY_BIT : 0);
  }
  VkDevice Dev;
  uint32_t Width = 0, Height = 0;
  /// Destructors of every created object, run last to first.
  std::vector<std::function<void()>> Cleanups;

  /// Attachments in render pass order: colours (non-null), depth/stencil,
  /// resolves (non-null), input attachments.
  std::vector<DeviceImage> Attachments;
  std::vector<uint32_t> ColorIndex, ResolveIndex; // by location; ~0u: none
  /// J.InputAttachments' attachment numbers, in that order.
  std::vector<uint32_t> InputIndex;
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
  llvm::Error createDsTransfer();
  llvm::Error createDsPipelines();
  /// NearestSampler, created on first use.
  llvm::Error createNearestSampler();

  /// Transfer shaders for multisampled colour attachments.
  VkDescriptorSetLayout TransferSetLayout[2] = {};
  VkPipelineLayout TransferLayout[2] = {};
  VkPipeline TransferPipeline[2] = {}; // upload, download
  VkSampler NearestSampler = VK_NULL_HANDLE;

  VkCommandBuffer Commands = VK_NULL_HANDLE;
  VkFence Fence = VK_NULL_HANDLE;
};

} // namespace spirv2llvm::vk::detail

#endif
