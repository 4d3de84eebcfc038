//===- VulkanGraphicsRunner.cpp - Graphics pipelines on lavapipe ----------===//
//
// One GraphicsRun per job owns every object the job needs (shader modules,
// render pass, framebuffer, pipeline, buffers, images, descriptors, the
// command buffer) and destroys them in reverse order of creation. The
// command buffer uploads the attachments and descriptor images, renders
// all draws in one render pass and reads everything back. This file has
// the job's checks, the attachments, render pass, descriptors, geometry
// buffers and commands; VulkanGraphicsState.cpp the pipeline state,
// VulkanGraphicsTransfer.cpp the transfers.
//
//===----------------------------------------------------------------------===//
#include "VulkanGraphicsRunner.h"
#include "VulkanGraphicsRun.h"

#include "spirv2llvm/ImageFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

using namespace spirv2llvm;
using llvm::Error;
using llvm::Expected;

namespace spirv2llvm::vk::detail {

namespace {

std::string formatName(Format F) {
  if (F == Format::UNDEFINED)
    return "UNDEFINED";
  const FormatInfo *I = formatInfo(F);
  return I ? std::string(I->Name)
           : llvm::formatv("VkFormat {0}", uint32_t(F)).str();
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

uint32_t indexBytes(IndexType T) {
  return T == IndexType::UInt8 ? 1 : T == IndexType::UInt16 ? 2 : 4;
}

} // namespace

GraphicsRun::~GraphicsRun() {
  // A timed-out job's objects are still in use (RunnerState::Hung).
  if (R.Hung)
    return;
  for (auto It = Cleanups.rbegin(); It != Cleanups.rend(); ++It)
    (*It)();
}

Error GraphicsRun::checkAttachment(const Image *I, Format Want,
                                   uint32_t Samples, const std::string &What,
                                   bool Color) {
  const ImageDesc &Id = I->desc();
  if (Id.Fmt != Want)
    return makeError(llvm::formatv("{0} is {1}; the pipeline's format is {2}",
                                   What, formatName(Id.Fmt), formatName(Want)));
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
    Need |=
        VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  if ((Props.optimalTilingFeatures & Need) != Need)
    return makeError(llvm::formatv(
        "{0}: {1} is not a {2} attachment format "
        "on {3}",
        What, F.Name, Color ? "colour" : "depth/stencil", R.Props.deviceName));
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
    if (Error E =
            checkAttachment(J.Color[I], D.ColorFormats[I], Samples, What, true))
      return E;
    bool Blend =
        I < D.Blend.Attachments.size() && D.Blend.Attachments[I].BlendEnable;
    VkFormatProperties Props;
    vkGetPhysicalDeviceFormatProperties(R.Physical, VkFormat(D.ColorFormats[I]),
                                        &Props);
    if (Blend && !(Props.optimalTilingFeatures &
                   VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT))
      return makeError(What + ": " + formatName(D.ColorFormats[I]) +
                       " cannot be blended on " + R.Props.deviceName);
  }
  if (J.DepthStencil) {
    if (D.DepthStencilFormat == Format::UNDEFINED)
      return makeError(
          "a depth/stencil image is given but DepthStencilFormat is UNDEFINED");
    if (Error E = checkAttachment(J.DepthStencil, D.DepthStencilFormat, Samples,
                                  "the depth/stencil attachment", false))
      return E;
    // Multisampled depth/stencil is uploaded by a per-sample fragment pass.
    if (Samples > 1) {
      if (Error E = need(R, "sampleRateShading",
                         "uploading a multisampled depth/stencil attachment"))
        return E;
      if (J.DepthStencil->formatInfo().hasStencil() &&
          !R.Extensions.StencilExport)
        return makeError(
            llvm::formatv("uploading a multisampled stencil attachment needs "
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
  std::set<uint32_t> InputNumbers;
  for (size_t I = 0; I < J.InputAttachments.size(); ++I) {
    const GraphicsInputAttachment &A = J.InputAttachments[I];
    std::string What = llvm::formatv("input attachment {0}", A.Index);
    if (!A.Img)
      return makeError(What + " has no image");
    if (!InputNumbers.insert(A.Index).second)
      return makeError(What + " is given twice");
    if (Error E = checkAttachment(A.Img, A.Img->desc().Fmt, 1, What, true))
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
      return makeError(
          llvm::formatv("no vertex buffer for binding {0}", B.Binding));
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
  bool Cube =
      Id.ViewType == S2L_VIEW_CUBE || Id.ViewType == S2L_VIEW_CUBE_ARRAY;
  bool Is3D = Id.ViewType == S2L_VIEW_3D;
  bool OneD = Id.ViewType == S2L_VIEW_1D || Id.ViewType == S2L_VIEW_1D_ARRAY;
  auto Info =
      makeStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  Info.flags = Flags | (Cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0);
  Info.imageType = OneD   ? VK_IMAGE_TYPE_1D
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
  if (Error E =
          check(vkCreateImage(Dev, &Info, nullptr, &I.Handle), "vkCreateImage"))
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
  auto View = makeStruct<VkImageViewCreateInfo>(
      VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  View.image = I.Handle;
  View.viewType =
      Attachment ? VK_IMAGE_VIEW_TYPE_2D : VkImageViewType(Id.ViewType);
  View.format = Info.format;
  View.subresourceRange = {I.Aspect, 0, Attachment ? 1 : Id.Levels, 0,
                           Attachment ? 1 : Id.Layers};
  if (Error E = check(vkCreateImageView(Dev, &View, nullptr, &I.View),
                      "vkCreateImageView"))
    return E;
  VkImageView V = I.View;
  atExit([this, V] { vkDestroyImageView(Dev, V, nullptr); });
  return Error::success();
}

Error GraphicsRun::createAttachments() {
  auto Add = [&](Image *Img, bool Color, bool Input = false) -> Error {
    DeviceImage &A = Attachments.emplace_back();
    A.Host = Img;
    A.Info = &Img->formatInfo();
    A.Samples = Img->desc().Samples;
    A.WriteBack = true;
    // An input attachment is only read: no colour or depth usage needed.
    VkImageUsageFlags Usage = Input ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT
                              : Color
                                  ? VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT
                                  : VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    VkImageCreateFlags Flags = 0;
    A.Aspect = 0;
    for (const AspectCopy &C : aspectCopies(*A.Info))
      A.Aspect |= C.Aspect;
    if (A.Samples == 1) {
      Usage |=
          VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
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
        if (Error E = R.createHostBuffer(Texels * C.CopyBytes,
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
      if (Error E = R.createHostBuffer(
              Bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false, *B))
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
  for (const GraphicsInputAttachment &In : J.InputAttachments) {
    InputIndex.push_back(uint32_t(Attachments.size()));
    if (Error E = Add(In.Img, true, /*Input=*/true))
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
  // pInputAttachments by input attachment number, gaps unused.
  std::vector<VkAttachmentReference> InputRefs;
  for (size_t I = 0; I < J.InputAttachments.size(); ++I) {
    uint32_t N = J.InputAttachments[I].Index;
    if (InputRefs.size() <= N)
      InputRefs.resize(N + 1, {VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_GENERAL});
    InputRefs[N] = {InputIndex[I], VK_IMAGE_LAYOUT_GENERAL};
  }
  VkSubpassDescription Subpass{};
  Subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  Subpass.inputAttachmentCount = uint32_t(InputRefs.size());
  Subpass.pInputAttachments = InputRefs.data();
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

Error GraphicsRun::createDescriptors() {
  // Bindings: (set, binding) -> (type, count).
  std::map<std::pair<uint32_t, uint32_t>, std::pair<VkDescriptorType, uint32_t>>
      Bindings;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> Elements;
  auto Note = [&](uint32_t Set, uint32_t Binding, uint32_t Element,
                  VkDescriptorType Type) -> Error {
    if (!Elements.insert({Set, Binding, Element}).second)
      return makeError(
          llvm::formatv("two descriptors at set {0} binding {1} element {2}",
                        Set, Binding, Element));
    if (Set >= R.Props.limits.maxBoundDescriptorSets)
      return makeError(llvm::formatv("set {0} is out of range: the device "
                                     "binds {1} sets",
                                     Set,
                                     R.Props.limits.maxBoundDescriptorSets));
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
    if (Error E =
            Note(I.Set, I.Binding, I.ArrayElement, descriptorType(I.Kind)))
      return E;
  for (const GraphicsInputAttachment &I : J.InputAttachments)
    if (Error E = Note(I.Set, I.Binding, 0,
                       VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT))
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
  const VkShaderStageFlags Stages = shaderStages();
  for (uint32_t Set = 0; Set < SetCount; ++Set) {
    std::vector<VkDescriptorSetLayoutBinding> LBs;
    for (const auto &[Key, TypeCount] : Bindings)
      if (Key.first == Set)
        // Input attachments exist in fragment shaders only (Vulkan:
        // VkDescriptorSetLayoutBinding's stageFlags).
        LBs.push_back({Key.second, TypeCount.first, TypeCount.second,
                       TypeCount.first == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT
                           ? VkShaderStageFlags(VK_SHADER_STAGE_FRAGMENT_BIT)
                           : Stages,
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
    if (Error E =
            R.createHostBuffer(std::max<VkDeviceSize>(B.Data->size(), 4),
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
    I.Aspect = I.Info->hasDepth()     ? VK_IMAGE_ASPECT_DEPTH_BIT
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
  ImageInfos.reserve(J.Images.size() + J.InputAttachments.size());
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
  for (size_t I = 0; I < J.InputAttachments.size(); ++I) {
    const GraphicsInputAttachment &G = J.InputAttachments[I];
    ImageInfos.push_back({VK_NULL_HANDLE, Attachments[InputIndex[I]].View,
                          VK_IMAGE_LAYOUT_GENERAL});
    auto W = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    W.dstSet = Sets[G.Set];
    W.dstBinding = G.Binding;
    W.descriptorCount = 1;
    W.descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
    W.pImageInfo = &ImageInfos.back();
    Writes.push_back(W);
  }
  vkUpdateDescriptorSets(Dev, uint32_t(Writes.size()), Writes.data(), 0,
                         nullptr);
  return Error::success();
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
    MaxInstance = std::max<uint64_t>(MaxInstance, uint64_t(C.FirstInstance) +
                                                      C.InstanceCount - 1);
    if (!C.Indexed) {
      AnyVertex = true;
      MaxVertex =
          std::max<uint64_t>(MaxVertex, uint64_t(C.First) + C.Count - 1);
      continue;
    }
    if (uint64_t(C.First) + C.Count > IndexCount)
      return makeError(llvm::formatv(
          "an indexed draw reads indices {0}..{1}; the index data has {2}",
          C.First, uint64_t(C.First) + C.Count - 1, IndexCount));
    for (uint64_t K = C.First; K < uint64_t(C.First) + C.Count; ++K) {
      uint32_t Index =
          uint32_t(loadBits(&J.IndexData[K * IndexSize], IndexSize));
      if (D.PrimitiveRestartEnable && Index == Restart)
        continue;
      int64_t V = int64_t(Index) + C.VertexOffset;
      if (V < 0)
        return makeError(
            llvm::formatv("index {0} plus vertex offset {1} is negative", Index,
                          C.VertexOffset));
      AnyVertex = true;
      MaxVertex = std::max<uint64_t>(MaxVertex, uint64_t(V));
    }
  }
  for (const VertexAttribute &A : D.VertexAttributes) {
    const VertexBinding &B =
        *llvm::find_if(D.VertexBindings, [&](const VertexBinding &B) {
          return B.Binding == A.Binding;
        });
    const FormatInfo *F = formatInfo(A.Fmt);
    uint64_t Element = B.InputRate == VertexInputRate::Vertex ? MaxVertex
                       : B.Divisor == 0                       ? 0
                                        : MaxInstance / B.Divisor;
    if (B.InputRate == VertexInputRate::Vertex && !AnyVertex)
      continue;
    uint64_t Need =
        uint64_t(A.Offset) + Element * B.Stride + (F ? F->BlockBytes : 0);
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
    vkCmdPushConstants(Commands, Layout, shaderStages(), 0,
                       uint32_t(PushData.size()), PushData.data());
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

} // namespace spirv2llvm::vk::detail

namespace spirv2llvm::vk {

using detail::featureEnabled;
using detail::GraphicsRun;
using detail::makeError;
using detail::RunnerState;

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
