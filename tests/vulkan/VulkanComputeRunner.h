//===- VulkanComputeRunner.h - Compute dispatches on lavapipe ---*- C++ -*-===//
//
// Runs one SPIR-V compute shader on Mesa's lavapipe (the CPU Vulkan driver,
// Debian mesa-vulkan-drivers), the reference of the differential tests: the
// same module goes through lavapipe and through our JIT, and the buffers are
// compared.
//
// Device selection: the runner enumerates every physical device the Vulkan
// loader finds and takes the first whose deviceName contains "llvmpipe", so
// no VK_ICD_FILENAMES / VK_DRIVER_FILES is needed; it runs headless (no
// surface extensions). If those variables are set, they must include
// /usr/share/vulkan/icd.d/lvp_icd.x86_64.json or creation fails, listing the
// devices it did find.
//
// Features: the device is created with every core 1.0/1.1/1.2/1.3 feature the
// driver reports (and VK_EXT_shader_atomic_float{,2} when present), except
// robustBufferAccess and robustImageAccess: robustness gives out-of-bounds
// accesses defined results that the JIT does not promise, so a differential
// test must not depend on them.
//
// Subgroups: lavapipe's subgroup size is its vector width in 32-bit lanes,
// fixed when the driver loads: 8 by default ("256 bits" in the device
// name), 4 or 16 with LP_NATIVE_VECTOR_WIDTH=128 or 512 in the environment
// before create(). Subgroup size control is reported but its range is that
// one size, so RequiredSubgroupSize cannot pick another width; to compare
// with the JIT at W = 4/8/16, run the process with the matching variable.
//
// Images: storage and sampled images, samplers, combined image samplers
// and uniform/storage texel buffers (VkImageSpec), given and read back in
// the tightly packed layout of abi.h's s2l_image_level (packedImageLayout),
// so that the same bytes and the same s2l_sampler drive lavapipe and
// spirv2llvm. docs/images.md, "Images on lavapipe", has the details.
//
// Robustness: off by default (above); VkRunnerOptions::RobustAccess turns
// on robustBufferAccess, robustImageAccess and, where the driver has
// VK_EXT_robustness2, robustBufferAccess2 and robustImageAccess2, for tests
// of the out-of-range results abi.h promises (reads of zero).
//
// Descriptor arrays of images: Mesa 22.3's lavapipe lacks
// shader*ImageArrayDynamicIndexing and *TexelBufferArrayDynamicIndexing, so
// shaders must index them with constants.
//
// Limitations: one queue, one dispatch at a time, single-sample images,
// no combined depth/stencil or stencil-only images, 32-bit specialization
// constants only. Not thread safe.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_VULKAN_VULKANCOMPUTERUNNER_H
#define SPIRV2LLVM_TESTS_VULKAN_VULKANCOMPUTERUNNER_H

#include "spirv2llvm/abi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace spirv2llvm::vk {

namespace detail {
struct RunnerState;   // instance, device, queue; VulkanComputeRunner.cpp
struct PreparedState; // the objects of one prepared dispatch
} // namespace detail

/// One descriptor: a storage buffer (VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) or,
/// with IsUniform, a uniform buffer. Data is the initial content and, after
/// VulkanComputeRunner::run, the final content (same size). The descriptor
/// range is Data.size() bytes, which is what a runtime array's length() sees;
/// an empty Data gets a 4-byte buffer, since Vulkan has no empty buffers.
///
/// Descriptor arrays: buffers with the same (Set, Binding) and different
/// ArrayElement form one binding whose descriptorCount is the largest
/// element + 1 (every element up to it must be given).
/// DeviceAddress buffers are not bound to a descriptor: the shader reaches
/// them through their buffer device address (VkDispatch::AddressesInPush).
struct VkBufferSpec {
  uint32_t Set = 0, Binding = 0;
  bool IsUniform = false;
  std::vector<uint8_t> Data;
  uint32_t ArrayElement = 0;
  bool DeviceAddress = false;
};

/// What kind of descriptor a VkImageSpec is.
enum class VkImageKind {
  StorageImage,         ///< VK_DESCRIPTOR_TYPE_STORAGE_IMAGE (layout GENERAL)
  SampledImage,         ///< VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
  Sampler,              ///< VK_DESCRIPTOR_TYPE_SAMPLER: Sampler only
  CombinedImageSampler, ///< VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
  UniformTexelBuffer,   ///< VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
  StorageTexelBuffer,   ///< VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
};

/// One image, sampler or texel buffer descriptor. Data holds every level
/// and layer in the packed layout of packedImageLayout (level 0 first; in
/// a level, layer or depth slice z, then row y, then texel x); run()
/// replaces it with the image's content after the dispatch. A texel
/// buffer is Width texels (ViewType is then ignored). Sampler (for Sampler
/// and CombinedImageSampler) is turned into a VkSamplerCreateInfo field by
/// field, so the same struct can be given to s2l_image_op.
///
/// Descriptor arrays: as for buffers, specs with the same (Set, Binding)
/// and different ArrayElement form one binding (same Kind, every element
/// up to the largest given).
struct VkImageSpec {
  uint32_t Set = 0, Binding = 0;
  VkImageKind Kind = VkImageKind::SampledImage;
  uint32_t Format = 0;             ///< VkFormat
  uint32_t ViewType = S2L_VIEW_2D; ///< S2L_VIEW_* (= VkImageViewType)
  uint32_t Width = 1, Height = 1, Depth = 1;
  /// Array layers: 1 for non-arrayed views, 6 per cube for cube views.
  uint32_t Layers = 1;
  uint32_t Levels = 1;
  std::vector<uint8_t> Data;
  s2l_sampler Sampler{};
  uint32_t ArrayElement = 0;
};

/// The packed layout of \p S's Data: an s2l_image (data = nullptr,
/// samples = 1) whose levels are tightly packed one after the other, as
/// abi.h describes (row pitch = texels or blocks of a row times their
/// bytes; slice pitch = row pitch times rows). \p Bytes gets the total.
/// Fails on a format the image layer does not know, a level count beyond
/// the mip chain or S2L_MAX_IMAGE_LEVELS, or extents that do not fit the
/// view type (a cube that is not square or whose layers are not 6n...).
llvm::Expected<s2l_image> packedImageLayout(const VkImageSpec &S,
                                            uint64_t *Bytes = nullptr);

/// Everything one dispatch needs.
struct VkDispatch {
  std::vector<uint32_t> Spirv; ///< module words, host byte order
  std::string EntryPoint = "main";
  std::vector<VkBufferSpec> Buffers; ///< contents in, results out
  std::vector<VkImageSpec> Images;   ///< contents in, results out
  /// Push constant bytes from offset 0; zero-padded to a multiple of 4.
  std::vector<uint8_t> PushConstants;
  /// SpecId -> 32-bit value (bool: 0 or 1; float: the bit pattern).
  std::vector<std::pair<uint32_t, uint32_t>> SpecConstants;
  uint32_t GroupsX = 1, GroupsY = 1, GroupsZ = 1;
  /// (index into Buffers, byte offset into PushConstants): the device
  /// address of that DeviceAddress buffer is written there, 8 bytes.
  std::vector<std::pair<uint32_t, uint32_t>> AddressesInPush;
  /// 0 = driver default. Otherwise the pipeline requires this subgroup size
  /// (VK_EXT_subgroup_size_control, core in 1.3); run() fails if the device
  /// cannot honour it, rather than silently running at another size.
  uint32_t RequiredSubgroupSize = 0;
};

/// What the device says about subgroups.
struct VkSubgroupInfo {
  /// VkPhysicalDeviceSubgroupProperties::subgroupSize: the size used when
  /// no size is required.
  uint32_t DefaultSize = 0;
  /// Range RequiredSubgroupSize may take (powers of two in [Min, Max]) when
  /// SizeControl; both equal DefaultSize otherwise.
  uint32_t MinSize = 0, MaxSize = 0;
  /// subgroupSizeControl is enabled and covers the compute stage.
  bool SizeControl = false;
  /// VkSubgroupFeatureFlags supported in compute shaders.
  uint32_t SupportedOperations = 0;
};

/// A dispatch whose pipeline, buffers, descriptors and command buffer
/// exist, for submitting it many times (benchmarks). It must not outlive
/// the runner that prepared it.
class VkPreparedDispatch {
public:
  ~VkPreparedDispatch();
  VkPreparedDispatch(const VkPreparedDispatch &) = delete;
  VkPreparedDispatch &operator=(const VkPreparedDispatch &) = delete;

  /// Writes D's buffer contents into the device buffers.
  void upload(const VkDispatch &D);
  /// Submits the recorded dispatch and waits for it (same timeout as run).
  llvm::Error submitAndWait();
  /// Copies the device buffers back into D.Buffers[i].Data and the
  /// images into D.Images[i].Data.
  void download(VkDispatch &D) const;

private:
  friend class VulkanComputeRunner;
  explicit VkPreparedDispatch(std::unique_ptr<detail::PreparedState> P);
  std::unique_ptr<detail::PreparedState> P;
};

/// How the device is created.
struct VkRunnerOptions {
  /// Enables robustBufferAccess, robustImageAccess and (when the driver
  /// has VK_EXT_robustness2) robustBufferAccess2 and robustImageAccess2:
  /// out-of-range image reads return zero, writes are dropped.
  bool RobustAccess = false;
};

class VulkanComputeRunner {
public:
  /// Creates the instance, picks lavapipe, creates the device (features as
  /// in the file comment), a compute queue and a command pool. Do this once:
  /// it loads every installed ICD and takes tens of milliseconds.
  static llvm::Expected<std::unique_ptr<VulkanComputeRunner>>
  create(const VkRunnerOptions &Options = {});
  ~VulkanComputeRunner();
  VulkanComputeRunner(const VulkanComputeRunner &) = delete;
  VulkanComputeRunner &operator=(const VulkanComputeRunner &) = delete;

  /// Builds the pipeline and resources for \p D, dispatches
  /// (GroupsX, GroupsY, GroupsZ), waits, copies every buffer back into
  /// D.Buffers[i].Data and every image into D.Images[i].Data, and destroys
  /// what it created. Fails (naming the
  /// Vulkan call and its VkResult, or the bad input) on: no GLCompute entry
  /// point named D.EntryPoint, a (Set, Binding) used twice, push constants
  /// or group counts or buffer sizes over the device limits, an
  /// unsupported RequiredSubgroupSize, an image whose format lavapipe does
  /// not support for its use (sampling, linear filtering, storage, texel
  /// buffer; from vkGetPhysicalDeviceFormatProperties) or whose Data is not
  /// packedImageLayout's size, or a shader that runs for more than
  /// a minute. After that last error the runner refuses further work: the
  /// CPU threads still run the shader and its objects cannot be freed.
  llvm::Error run(VkDispatch &D);

  /// Like run(), but submits the same command buffer \p Repeats times and
  /// returns the median wall time of submit + wait, in milliseconds.
  /// Buffer contents are restored from \p D before each repeat (outside
  /// the timed part), so D ends with the result of a single dispatch even
  /// for shaders that accumulate.
  llvm::Expected<double> timeDispatch(VkDispatch &D, unsigned Repeats);

  /// Creates everything \p D needs (shader module, pipeline, buffers,
  /// descriptors, recorded command buffer) without running it. lavapipe
  /// compiles the shader to machine code lazily, at the first dispatch.
  llvm::Expected<std::unique_ptr<VkPreparedDispatch>>
  prepare(const VkDispatch &D);

  /// VkPhysicalDeviceProperties::deviceName, e.g.
  /// "llvmpipe (LLVM 15.0.6, 256 bits)".
  std::string deviceName() const;
  /// VkPhysicalDeviceLimits::subTexelPrecisionBits and
  /// mipmapPrecisionBits: the precision of filtering weights and of the
  /// fraction of the level of detail, which bound how far a correct linear
  /// filter may be from lavapipe's (tests/vulkan/ImageOpLavapipeTest.cpp).
  uint32_t subTexelPrecisionBits() const;
  uint32_t mipmapPrecisionBits() const;
  /// The API version the device was created with (VK_MAKE_API_VERSION).
  uint32_t apiVersion() const;
  const VkSubgroupInfo &subgroupInfo() const;
  /// Names of the enabled shader-relevant features ("shaderFloat64",
  /// "storageBuffer8BitAccess", "shaderBufferFloat32AtomicAdd", ...), for
  /// skipping shaders that need something missing and for reports.
  std::vector<std::string> enabledFeatures() const;
  bool hasFeature(llvm::StringRef Name) const;

private:
  explicit VulkanComputeRunner(std::unique_ptr<detail::RunnerState> P);
  // Behind a pointer so that users do not include vulkan.h.
  std::unique_ptr<detail::RunnerState> P;
};

} // namespace spirv2llvm::vk

#endif
