//===- VulkanGraphicsRunner.h - Graphics pipelines on lavapipe --*- C++ -*-===//
//
// Renders a pipeline described by spirv2llvm's own GraphicsPipelineDesc
// (spirv2llvm/Graphics.h) on Mesa's lavapipe, the reference of the graphics
// differential tests: the same job goes through lavapipe and through
// spirv2llvm::GraphicsPipeline, and the attachments are compared.
//
//   GraphicsJob J;
//   J.Desc = &Desc;                       // shaders, state, formats
//   J.Color = {&ColorImage};              // spirv2llvm::Image, in and out
//   J.VertexBuffers = {Bytes};            // by VertexBinding::Binding
//   J.Draws = {DrawCommand{6}};
//   auto R = VulkanGraphicsRunner::create();
//   if (llvm::Error E = (*R)->run(J)) ...
//
// Device: the one of VulkanComputeRunner (VulkanDevice.h: lavapipe found by
// name, headless, every feature it reports but robustness), plus the
// fixed-function extensions lavapipe has: VK_EXT_vertex_attribute_divisor,
// VK_EXT_line_rasterization, VK_EXT_provoking_vertex,
// VK_EXT_index_type_uint8, VK_EXT_primitive_topology_list_restart. A job
// that needs a feature the device lacks fails naming it (lavapipe 22.3 has
// no depthBounds and only 1 and 4 samples).
//
// What a run does: one render pass with one subpass (colour attachments by
// location, the depth/stencil attachment, pResolveAttachments when resolve
// images are given), every attachment with loadOp LOAD and storeOp STORE,
// so the images' initial contents count and their final contents come
// back; the pipeline built from the Desc field by field (docs/graphics.md,
// "Reference renders on lavapipe", has the mapping); one vkCmdDraw or
// vkCmdDrawIndexed per DrawCommand, in order, in that render pass. The
// Desc's viewports, scissors, blend constants, stencil references and
// line width are static state and hold for every draw.
//
// Attachments are transferred in the packed layout of spirv2llvm::Image:
// single-sampled ones with buffer copies (combined depth/stencil formats
// aspect by aspect, repacked as ImageFormats.def lays them out);
// multisampled ones, which buffer copies cannot reach, by small shaders:
// colour through an unsigned-integer view of the same texel size
// (compute, imageStore / texelFetch per sample), depth and stencil by a
// per-sample fragment pass that writes gl_FragDepth and, with
// VK_EXT_shader_stencil_export, the stencil reference, and a compute pass
// that fetches them back.
//
// Input attachments are attachments of the same subpass (loaded, never
// written), referenced by pInputAttachments and bound as INPUT_ATTACHMENT
// descriptors of the fragment stage.
//
// Limitations: one queue, one job at a time, not thread safe; level 0 and
// layer 0 of the attachments; descriptor images and input attachments are
// single-sampled.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_VULKAN_VULKANGRAPHICSRUNNER_H
#define SPIRV2LLVM_TESTS_VULKAN_VULKANGRAPHICSRUNNER_H

#include "VulkanComputeRunner.h"

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace spirv2llvm::vk {

/// A uniform or storage buffer descriptor of both stages. Data is the
/// initial content; a storage buffer's final content is written back into
/// it (same size). An empty buffer gets 4 bytes, as in VkBufferSpec.
struct GraphicsBuffer {
  uint32_t Set = 0, Binding = 0, ArrayElement = 0;
  bool IsUniform = false;
  std::vector<uint8_t> *Data = nullptr;
};

/// An image and/or sampler descriptor of both stages: Kind is
/// SampledImage, Sampler, CombinedImageSampler or StorageImage (the last
/// is written back into Img). Img is single-sampled, every level and
/// layer is uploaded; Sampler is turned into a VkSampler as VkImageSpec's.
struct GraphicsImage {
  uint32_t Set = 0, Binding = 0, ArrayElement = 0;
  VkImageKind Kind = VkImageKind::CombinedImageSampler;
  Image *Img = nullptr;
  s2l_sampler Sampler{};
};

/// An input attachment of the fragment shader: an attachment of the
/// render pass (loaded, so Img's content is what the shader reads; level
/// 0, layer 0; single-sampled; the framebuffer's size), the subpass's
/// input attachment number Index (the shader's InputAttachmentIndex), and
/// an INPUT_ATTACHMENT descriptor at Set/Binding.
struct GraphicsInputAttachment {
  uint32_t Set = 0, Binding = 0, Index = 0;
  Image *Img = nullptr;
};

/// Everything one render needs.
struct GraphicsJob {
  /// Shaders (SPIR-V words), all fixed-function state, formats, sample
  /// count.
  const GraphicsPipelineDesc *Desc = nullptr;
  /// Attachments: initial contents are uploaded, final contents written
  /// back into the same images. Color[i] has Desc->ColorFormats[i] (null:
  /// an unused location); DepthStencil has Desc->DepthStencilFormat;
  /// Resolve[i] (optional, null: none) is a single-sampled image of
  /// Color[i]'s format. All have Desc->Multisample.Samples samples (the
  /// resolve targets 1) and the same width and height.
  std::vector<Image *> Color;
  Image *DepthStencil = nullptr;
  std::vector<Image *> Resolve;
  /// Vertex buffer bytes by binding number (VertexBinding::Binding).
  std::vector<std::vector<uint8_t>> VertexBuffers;
  /// Index buffer bytes, for indexed draws.
  std::vector<uint8_t> IndexData;
  IndexType Index = IndexType::UInt32;
  /// Push constant bytes from offset 0, seen by both stages; zero-padded
  /// to a multiple of 4.
  std::vector<uint8_t> PushConstants;
  std::vector<GraphicsBuffer> Buffers;
  std::vector<GraphicsImage> Images;
  std::vector<GraphicsInputAttachment> InputAttachments;
  /// One vkCmdDraw / vkCmdDrawIndexed each, in one render pass.
  std::vector<DrawCommand> Draws;
};

class VulkanGraphicsRunner {
public:
  /// Creates the instance and lavapipe's device as VulkanComputeRunner
  /// does (once per process is plenty: it loads every installed ICD).
  static llvm::Expected<std::unique_ptr<VulkanGraphicsRunner>>
  create(const VkRunnerOptions &Options = {});
  ~VulkanGraphicsRunner();
  VulkanGraphicsRunner(const VulkanGraphicsRunner &) = delete;
  VulkanGraphicsRunner &operator=(const VulkanGraphicsRunner &) = delete;

  /// Renders \p J and writes the attachments, storage buffers and storage
  /// images back. Fails without rendering, with a message naming the
  /// problem, on: a missing Desc or shader entry point, attachments whose
  /// format, sample count or size do not match the Desc or each other, no
  /// attachment at all, a vertex buffer missing for a binding, state that
  /// needs a feature or extension the device lacks (the message names the
  /// feature: wideLines, logicOp, dualSrcBlend, depthBounds, ...), a format
  /// lavapipe cannot use as that attachment, or a sample count it does not
  /// support. A job running for more than a minute fails and leaves the
  /// runner unusable, as VulkanComputeRunner::run does.
  llvm::Error run(const GraphicsJob &J);

  /// VkPhysicalDeviceProperties::deviceName.
  std::string deviceName() const;
  /// VkPhysicalDeviceLimits::subPixelPrecisionBits (8 on lavapipe).
  uint32_t subPixelPrecisionBits() const;
  /// Whether the device has feature \p Name: the VkPhysicalDeviceFeatures
  /// members the graphics state needs ("wideLines", "logicOp",
  /// "dualSrcBlend", "depthBounds", "sampleRateShading", ...) and the
  /// extensions' ("vertexAttributeInstanceRateDivisor",
  /// "bresenhamLines", "provokingVertexLast", "indexTypeUint8", ...).
  bool hasFeature(llvm::StringRef Name) const;

private:
  struct Impl;
  explicit VulkanGraphicsRunner(std::unique_ptr<Impl> P);
  std::unique_ptr<Impl> P;
};

} // namespace spirv2llvm::vk

#endif
