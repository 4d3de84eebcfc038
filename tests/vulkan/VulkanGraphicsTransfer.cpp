//===- VulkanGraphicsTransfer.cpp - Attachments in and out ----------------===//
//
// The graphics runner's transfers in the packed layout of
// spirv2llvm::Image: buffer copies for single-sampled attachments (depth
// and stencil aspect by aspect) and descriptor images, small shaders for
// multisampled attachments, which copies cannot reach (docs/graphics.md,
// "Transfers in the packed layout").
//
//===----------------------------------------------------------------------===//
#include "VulkanGraphicsRun.h"

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
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace spirv2llvm;
using llvm::Error;

namespace spirv2llvm::vk::detail {

namespace {

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
  for (int64_t C :
       {int64_t(Nearest), int64_t(Nearest) - 1, int64_t(Nearest) + 1})
    if (C >= 0 && C <= Max && float(uint32_t(C)) * Scale == F)
      return uint32_t(C);
  return Nearest;
}

/// Dispatches the transfer shader over W*H*S samples, 64 per group, in
/// rows of at most 65535 groups.
void dispatchSamples(VkCommandBuffer Commands, uint64_t Samples) {
  uint64_t Groups = std::max<uint64_t>(1, llvm::divideCeil(Samples, 64));
  uint32_t X = uint32_t(std::min<uint64_t>(Groups, 65535));
  uint32_t Y = uint32_t(llvm::divideCeil(Groups, X));
  vkCmdDispatch(Commands, X, Y, 1);
}

} // namespace

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
    atExit([this, K] { vkDestroyPipeline(Dev, TransferPipeline[K], nullptr); });
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
      VkDescriptorImageInfo II{K ? NearestSampler : VK_NULL_HANDLE, A.AliasView,
                               VK_IMAGE_LAYOUT_GENERAL};
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
  for (HostBuffer *B :
       {&Ds.DepthIn, &Ds.StencilIn, &Ds.DepthOut, &Ds.StencilOut}) {
    if (Error E = R.createHostBuffer(
            Words * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false, *B))
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
    if (Error E = check(
            vkCreatePipelineLayout(Dev, &LayoutInfo, nullptr, &Ds.Layout[K]),
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
  VkStencilOpState Replace{VK_STENCIL_OP_REPLACE,
                           VK_STENCIL_OP_REPLACE,
                           VK_STENCIL_OP_REPLACE,
                           VK_COMPARE_OP_ALWAYS,
                           0xff,
                           0xff,
                           0};
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
  if (Error E =
          check(vkCreateComputePipelines(Dev, VK_NULL_HANDLE, 1, &CompInfo,
                                         nullptr, &Ds.Pipeline[1]),
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
    vkCmdPipelineBarrier(
        Commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        0, 0, nullptr, 0, nullptr, uint32_t(Barriers.size()), Barriers.data());
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
    vkCmdPushConstants(Commands, Ds.Layout[0], VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       sizeof(Push), Push);
    vkCmdDraw(Commands, 3, 1, 0, 0);
    vkCmdEndRenderPass(Commands);
  }
  barrier(VK_PIPELINE_STAGE_TRANSFER_BIT |
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
              VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT |
              VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
          VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
              VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
              VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
              VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
              VK_ACCESS_INPUT_ATTACHMENT_READ_BIT);
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
    vkCmdBindPipeline(Commands, VK_PIPELINE_BIND_POINT_COMPUTE, Ds.Pipeline[1]);
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
        // (The shader variant reads no words of an aspect the format lacks.)
        if (Ds.Depth)
          Depth[T] = depthToFloatBits(
              uint32_t((V >> Ds.DepthPart.Offset) & bitMask(Ds.DepthPart.Bits)),
              Ds.DepthPart.Bits);
        if (Ds.Stencil)
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

} // namespace spirv2llvm::vk::detail
