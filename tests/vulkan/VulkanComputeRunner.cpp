//===- VulkanComputeRunner.cpp - Compute dispatches on lavapipe -----------===//
//
// One instance, device, queue and command pool live as long as the runner;
// everything a dispatch needs (shader module, layouts, pipeline, buffers,
// descriptors, command buffer, fence) lives in a DispatchResources that
// destroys it when the dispatch ends, so repeated runs leak nothing.
//
//===----------------------------------------------------------------------===//
#include "VulkanComputeRunner.h"
#include "VulkanDevice.h"

#include "spirv2llvm/ImageFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

using namespace spirv2llvm::vk;
using namespace spirv2llvm::vk::detail;
using llvm::Error;
using llvm::Expected;

namespace {

/// Checks the module header and that it declares a GLCompute entry point
/// named \p Name (VulkanDevice.h's findEntryPoint).
Error checkEntryPoint(llvm::ArrayRef<uint32_t> Words, llvm::StringRef Name) {
  if (Name.empty())
    return makeError("no entry point name given for the compute shader");
  Expected<std::string> Found =
      findEntryPoint(Words, ExecutionModelGLCompute, Name, "GLCompute");
  return Found ? Error::success() : Found.takeError();
}

/// Shader-relevant features, by their Vulkan member names, for
/// enabledFeatures(). Not every enabled feature: only those a compute
/// shader's capabilities or layout can depend on.
struct FeatureName {
  const char *Name;
  bool (*Get)(const DeviceFeatures &);
};
// clang-format would split '#Member' onto a line of its own.
// clang-format off
#define S2L_FEATURE(Struct, Member)                                            \
  FeatureName{#Member, [](const DeviceFeatures &F) -> bool {                   \
                return F.Struct.Member;                                        \
              }}
// clang-format on
const FeatureName ShaderFeatures[] = {
    S2L_FEATURE(Core.features, shaderFloat64),
    S2L_FEATURE(Core.features, shaderInt64),
    S2L_FEATURE(Core.features, shaderInt16),
    S2L_FEATURE(Vulkan11, storageBuffer16BitAccess),
    S2L_FEATURE(Vulkan11, uniformAndStorageBuffer16BitAccess),
    S2L_FEATURE(Vulkan11, storagePushConstant16),
    S2L_FEATURE(Vulkan11, variablePointersStorageBuffer),
    S2L_FEATURE(Vulkan11, variablePointers),
    S2L_FEATURE(Vulkan12, storageBuffer8BitAccess),
    S2L_FEATURE(Vulkan12, uniformAndStorageBuffer8BitAccess),
    S2L_FEATURE(Vulkan12, storagePushConstant8),
    S2L_FEATURE(Vulkan12, shaderBufferInt64Atomics),
    S2L_FEATURE(Vulkan12, shaderSharedInt64Atomics),
    S2L_FEATURE(Vulkan12, shaderFloat16),
    S2L_FEATURE(Vulkan12, shaderInt8),
    S2L_FEATURE(Vulkan12, scalarBlockLayout),
    S2L_FEATURE(Vulkan12, uniformBufferStandardLayout),
    S2L_FEATURE(Vulkan12, shaderSubgroupExtendedTypes),
    S2L_FEATURE(Vulkan12, bufferDeviceAddress),
    S2L_FEATURE(Vulkan12, vulkanMemoryModel),
    S2L_FEATURE(Vulkan12, vulkanMemoryModelDeviceScope),
    S2L_FEATURE(Vulkan12, vulkanMemoryModelAvailabilityVisibilityChains),
    S2L_FEATURE(Vulkan13, subgroupSizeControl),
    S2L_FEATURE(Vulkan13, computeFullSubgroups),
    S2L_FEATURE(Vulkan13, shaderDemoteToHelperInvocation),
    S2L_FEATURE(Vulkan13, shaderTerminateInvocation),
    S2L_FEATURE(Vulkan13, shaderIntegerDotProduct),
    S2L_FEATURE(Vulkan13, shaderZeroInitializeWorkgroupMemory),
    S2L_FEATURE(Vulkan13, maintenance4),
    S2L_FEATURE(AtomicFloat, shaderBufferFloat32Atomics),
    S2L_FEATURE(AtomicFloat, shaderBufferFloat32AtomicAdd),
    S2L_FEATURE(AtomicFloat, shaderBufferFloat64Atomics),
    S2L_FEATURE(AtomicFloat, shaderBufferFloat64AtomicAdd),
    S2L_FEATURE(AtomicFloat, shaderSharedFloat32Atomics),
    S2L_FEATURE(AtomicFloat, shaderSharedFloat32AtomicAdd),
    S2L_FEATURE(AtomicFloat, shaderSharedFloat64Atomics),
    S2L_FEATURE(AtomicFloat, shaderSharedFloat64AtomicAdd),
    S2L_FEATURE(AtomicFloat2, shaderBufferFloat32AtomicMinMax),
    S2L_FEATURE(AtomicFloat2, shaderSharedFloat32AtomicMinMax),
    S2L_FEATURE(AtomicFloat2, shaderBufferFloat64AtomicMinMax),
    S2L_FEATURE(AtomicFloat2, shaderSharedFloat64AtomicMinMax),
    S2L_FEATURE(WorkgroupLayout, workgroupMemoryExplicitLayout),
    S2L_FEATURE(WorkgroupLayout, workgroupMemoryExplicitLayout16BitAccess),
    S2L_FEATURE(Core.features, robustBufferAccess),
    S2L_FEATURE(Vulkan13, robustImageAccess),
    S2L_FEATURE(Robustness2, robustBufferAccess2),
    S2L_FEATURE(Robustness2, robustImageAccess2),
    S2L_FEATURE(Core.features, shaderStorageImageReadWithoutFormat),
    S2L_FEATURE(Core.features, shaderStorageImageWriteWithoutFormat),
    S2L_FEATURE(Core.features, imageCubeArray),
};
#undef S2L_FEATURE

} // namespace

namespace {

/// Elements of the binding (set, binding): the largest ArrayElement + 1.
uint32_t descriptorCount(const VkDispatch &D, uint32_t Set, uint32_t Binding) {
  uint32_t N = 0;
  for (const VkBufferSpec &B : D.Buffers)
    if (!B.DeviceAddress && B.Set == Set && B.Binding == Binding)
      N = std::max(N, B.ArrayElement + 1);
  for (const VkImageSpec &I : D.Images)
    if (I.Set == Set && I.Binding == Binding)
      N = std::max(N, I.ArrayElement + 1);
  return N;
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

const char *kindName(VkImageKind K) {
  switch (K) {
  case VkImageKind::StorageImage:
    return "storage image";
  case VkImageKind::SampledImage:
    return "sampled image";
  case VkImageKind::Sampler:
    return "sampler";
  case VkImageKind::CombinedImageSampler:
    return "combined image sampler";
  case VkImageKind::UniformTexelBuffer:
    return "uniform texel buffer";
  case VkImageKind::StorageTexelBuffer:
    return "storage texel buffer";
  }
  return "?";
}

bool isTexelBuffer(VkImageKind K) {
  return K == VkImageKind::UniformTexelBuffer ||
         K == VkImageKind::StorageTexelBuffer;
}
bool hasImage(VkImageKind K) {
  return K != VkImageKind::Sampler && !isTexelBuffer(K);
}
bool hasSampler(VkImageKind K) {
  return K == VkImageKind::Sampler || K == VkImageKind::CombinedImageSampler;
}
bool usesLinearFilter(const s2l_sampler &S) {
  return S.mag_filter == VK_FILTER_LINEAR || S.min_filter == VK_FILTER_LINEAR ||
         S.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR;
}

VkImageType imageType(uint32_t View) {
  switch (View) {
  case S2L_VIEW_1D:
  case S2L_VIEW_1D_ARRAY:
    return VK_IMAGE_TYPE_1D;
  case S2L_VIEW_3D:
    return VK_IMAGE_TYPE_3D;
  default:
    return VK_IMAGE_TYPE_2D;
  }
}

/// "sampled image at set 0 binding 1[2]" for messages.
std::string describe(const VkImageSpec &I) {
  return llvm::formatv(
      "{0} at set {1} binding {2}{3}", kindName(I.Kind), I.Set, I.Binding,
      I.ArrayElement ? llvm::formatv("[{0}]", I.ArrayElement).str()
                     : std::string());
}

/// Everything one VkDispatch needs, destroyed in reverse order of creation
/// (handles still null were never created).
class DispatchResources {
public:
  explicit DispatchResources(detail::RunnerState &R) : R(R) {}
  ~DispatchResources();
  DispatchResources(const DispatchResources &) = delete;
  DispatchResources &operator=(const DispatchResources &) = delete;

  /// Checks \p D against the device and creates every object, up to a
  /// recorded command buffer. Does not upload buffer contents.
  Error build(const VkDispatch &D);
  /// Writes the initial buffer contents (zero-filling the padding).
  void upload(const VkDispatch &D);
  Error submitAndWait();
  /// Copies every buffer back into D.Buffers[i].Data (same size as before).
  void download(VkDispatch &D) const;

private:
  using Buffer = HostBuffer;
  /// The objects of one VkImageSpec. Images are uploaded from StagingIn
  /// and read back into StagingOut by copies recorded around the dispatch
  /// (so that every submission of a prepared dispatch starts from D's
  /// data); texel buffers are mapped and written directly.
  struct Image {
    VkImage Handle = VK_NULL_HANDLE;
    VkDeviceMemory Memory = VK_NULL_HANDLE;
    VkImageView View = VK_NULL_HANDLE;
    VkSampler Sampler = VK_NULL_HANDLE;
    Buffer Texels; ///< texel buffer
    VkBufferView BufferView = VK_NULL_HANDLE;
    Buffer StagingIn, StagingOut;
    VkImageAspectFlags Aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    /// Per level: where it is in the packed data and in the staging
    /// buffers (aligned to 16 there, as copies want), and its size.
    struct LevelCopy {
      uint64_t Packed, Staging, Bytes;
      VkBufferImageCopy Region;
    };
    std::vector<LevelCopy> Levels;
  };

  Error checkLimits(const VkDispatch &D) const;
  Error checkImage(const VkImageSpec &I) const;
  Error createPipeline(const VkDispatch &D);
  Error createHostBuffer(VkDeviceSize Size, VkBufferUsageFlags Usage,
                         bool DeviceAddress, Buffer &B);
  Error createBuffers(const VkDispatch &D);
  Error createImages(const VkDispatch &D);
  void recordImageUploads();
  void recordImageDownloads();
  Error createDescriptors(const VkDispatch &D);
  Error recordCommands(const VkDispatch &D);

  detail::RunnerState &R;
  VkShaderModule Module = VK_NULL_HANDLE;
  /// One layout per set index 0..max used; unused indices get empty layouts
  /// because a pipeline layout cannot skip a set number.
  std::vector<VkDescriptorSetLayout> SetLayouts;
  VkPipelineLayout PipelineLayout = VK_NULL_HANDLE;
  VkPipeline Pipeline = VK_NULL_HANDLE;
  std::vector<Buffer> Buffers;
  std::vector<Image> Images;
  VkDescriptorPool Pool = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> Sets;
  VkCommandBuffer Commands = VK_NULL_HANDLE;
  VkFence Fence = VK_NULL_HANDLE;
  std::vector<uint8_t> PushData;
};

DispatchResources::~DispatchResources() {
  // See RunnerState::Hung: objects of a timed-out dispatch are still in use.
  if (R.Hung)
    return;
  VkDevice Dev = R.Device;
  if (Fence)
    vkDestroyFence(Dev, Fence, nullptr);
  if (Commands)
    vkFreeCommandBuffers(Dev, R.CommandPool, 1, &Commands);
  if (Pool) // frees Sets too
    vkDestroyDescriptorPool(Dev, Pool, nullptr);
  auto DestroyBuffer = [Dev](Buffer &B) {
    if (B.Handle)
      vkDestroyBuffer(Dev, B.Handle, nullptr);
    if (B.Memory)
      vkFreeMemory(Dev, B.Memory, nullptr); // unmaps implicitly
  };
  for (Image &I : Images) {
    if (I.Sampler)
      vkDestroySampler(Dev, I.Sampler, nullptr);
    if (I.View)
      vkDestroyImageView(Dev, I.View, nullptr);
    if (I.Handle)
      vkDestroyImage(Dev, I.Handle, nullptr);
    if (I.Memory)
      vkFreeMemory(Dev, I.Memory, nullptr);
    if (I.BufferView)
      vkDestroyBufferView(Dev, I.BufferView, nullptr);
    DestroyBuffer(I.Texels);
    DestroyBuffer(I.StagingIn);
    DestroyBuffer(I.StagingOut);
  }
  for (Buffer &B : Buffers)
    DestroyBuffer(B);
  if (Pipeline)
    vkDestroyPipeline(Dev, Pipeline, nullptr);
  if (PipelineLayout)
    vkDestroyPipelineLayout(Dev, PipelineLayout, nullptr);
  for (VkDescriptorSetLayout L : SetLayouts)
    vkDestroyDescriptorSetLayout(Dev, L, nullptr);
  if (Module)
    vkDestroyShaderModule(Dev, Module, nullptr);
}

Error DispatchResources::checkLimits(const VkDispatch &D) const {
  const VkPhysicalDeviceLimits &L = R.Props.limits;
  if (Error E = checkEntryPoint(D.Spirv, D.EntryPoint))
    return E;
  const uint32_t Groups[3] = {D.GroupsX, D.GroupsY, D.GroupsZ};
  for (unsigned I = 0; I < 3; ++I)
    if (Groups[I] == 0 || Groups[I] > L.maxComputeWorkGroupCount[I])
      return makeError(
          llvm::formatv("group count {0} in dimension {1} is outside 1..{2}",
                        Groups[I], I, L.maxComputeWorkGroupCount[I]));
  if (D.PushConstants.size() > L.maxPushConstantsSize)
    return makeError(
        llvm::formatv("{0} bytes of push constants; the device allows {1}",
                      D.PushConstants.size(), L.maxPushConstantsSize));
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> Bindings;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> Elements;
  for (const auto &[Index, Offset] : D.AddressesInPush)
    if (Index >= D.Buffers.size() || !D.Buffers[Index].DeviceAddress ||
        uint64_t(Offset) + 8 > D.PushConstants.size())
      return makeError(llvm::formatv(
          "address of buffer {0} at push constant offset {1}: not a "
          "DeviceAddress buffer, or outside the push constants",
          Index, Offset));
  for (const VkBufferSpec &B : D.Buffers) {
    if (B.DeviceAddress)
      continue;
    if (!Bindings.insert({B.Set, B.Binding, B.ArrayElement}).second)
      return makeError(llvm::formatv("two buffers at set {0} binding {1}",
                                     B.Set, B.Binding));
    ++Elements[{B.Set, B.Binding}];
    if (B.Set >= L.maxBoundDescriptorSets)
      return makeError(
          llvm::formatv("set {0} is out of range: the device binds {1} sets",
                        B.Set, L.maxBoundDescriptorSets));
    uint64_t Limit =
        B.IsUniform ? L.maxUniformBufferRange : L.maxStorageBufferRange;
    if (B.Data.size() > Limit)
      return makeError(llvm::formatv(
          "{0} buffer at set {1} binding {2} has {3} bytes; the device allows "
          "{4}",
          B.IsUniform ? "uniform" : "storage", B.Set, B.Binding, B.Data.size(),
          Limit));
  }
  std::map<std::pair<uint32_t, uint32_t>, VkDescriptorType> Types;
  for (const VkBufferSpec &B : D.Buffers)
    if (!B.DeviceAddress)
      Types[{B.Set, B.Binding}] = B.IsUniform
                                      ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                      : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  for (const VkImageSpec &I : D.Images) {
    if (!Bindings.insert({I.Set, I.Binding, I.ArrayElement}).second)
      return makeError(
          llvm::formatv("two descriptors at set {0} binding {1} element {2}",
                        I.Set, I.Binding, I.ArrayElement));
    ++Elements[{I.Set, I.Binding}];
    auto [It, New] = Types.insert({{I.Set, I.Binding}, descriptorType(I.Kind)});
    if (!New && It->second != descriptorType(I.Kind))
      return makeError(llvm::formatv(
          "set {0} binding {1} mixes descriptor types (a {2} and another "
          "kind)",
          I.Set, I.Binding, kindName(I.Kind)));
    if (I.Set >= L.maxBoundDescriptorSets)
      return makeError(
          llvm::formatv("set {0} is out of range: the device binds {1} sets",
                        I.Set, L.maxBoundDescriptorSets));
    if (Error E = checkImage(I))
      return E;
  }
  for (const auto &[Key, Count] : Elements)
    if (descriptorCount(D, Key.first, Key.second) != Count)
      return makeError(llvm::formatv(
          "descriptor array at set {0} binding {1} has missing elements",
          Key.first, Key.second));
  std::set<uint32_t> SpecIds;
  for (const auto &[Id, Value] : D.SpecConstants)
    if (!SpecIds.insert(Id).second)
      return makeError(llvm::formatv("spec constant {0} given twice", Id));
  const VkSubgroupInfo &S = R.Subgroups;
  uint32_t Size = D.RequiredSubgroupSize;
  if (Size != 0 && (!S.SizeControl || !llvm::isPowerOf2_32(Size) ||
                    Size < S.MinSize || Size > S.MaxSize))
    return makeError(
        S.SizeControl
            ? llvm::formatv("subgroup size {0} not supported: the device "
                            "allows powers of two in {1}..{2}",
                            Size, S.MinSize, S.MaxSize)
                  .str()
            : llvm::formatv("subgroup size {0} not supported: no subgroup "
                            "size control for compute (fixed size {1})",
                            Size, S.DefaultSize)
                  .str());
  return Error::success();
}

Error DispatchResources::createPipeline(const VkDispatch &D) {
  VkDevice Dev = R.Device;
  VkShaderModuleCreateInfo ModuleInfo = makeStruct<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  ModuleInfo.codeSize = D.Spirv.size() * sizeof(uint32_t);
  ModuleInfo.pCode = D.Spirv.data();
  if (Error E = check(vkCreateShaderModule(Dev, &ModuleInfo, nullptr, &Module),
                      "vkCreateShaderModule"))
    return E;

  uint32_t SetCount = 0;
  for (const VkBufferSpec &B : D.Buffers)
    if (!B.DeviceAddress)
      SetCount = std::max(SetCount, B.Set + 1);
  for (const VkImageSpec &I : D.Images)
    SetCount = std::max(SetCount, I.Set + 1);
  for (uint32_t Set = 0; Set < SetCount; ++Set) {
    std::vector<VkDescriptorSetLayoutBinding> Bindings;
    for (const VkBufferSpec &B : D.Buffers) {
      if (B.Set != Set || B.DeviceAddress || B.ArrayElement != 0)
        continue;
      VkDescriptorSetLayoutBinding LB{};
      LB.binding = B.Binding;
      LB.descriptorType = B.IsUniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                      : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      LB.descriptorCount = descriptorCount(D, B.Set, B.Binding);
      LB.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
      Bindings.push_back(LB);
    }
    for (const VkImageSpec &I : D.Images) {
      if (I.Set != Set || I.ArrayElement != 0)
        continue;
      VkDescriptorSetLayoutBinding LB{};
      LB.binding = I.Binding;
      LB.descriptorType = descriptorType(I.Kind);
      LB.descriptorCount = descriptorCount(D, I.Set, I.Binding);
      LB.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
      Bindings.push_back(LB);
    }
    VkDescriptorSetLayoutCreateInfo Info =
        makeStruct<VkDescriptorSetLayoutCreateInfo>(
            VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    Info.bindingCount = static_cast<uint32_t>(Bindings.size());
    Info.pBindings = Bindings.data();
    VkDescriptorSetLayout Layout = VK_NULL_HANDLE;
    if (Error E =
            check(vkCreateDescriptorSetLayout(Dev, &Info, nullptr, &Layout),
                  "vkCreateDescriptorSetLayout"))
      return E;
    SetLayouts.push_back(Layout);
  }

  // vkCmdPushConstants takes multiples of 4 bytes.
  PushData = D.PushConstants;
  PushData.resize(llvm::alignTo(PushData.size(), 4), 0);
  VkPushConstantRange Range{VK_SHADER_STAGE_COMPUTE_BIT, 0,
                            static_cast<uint32_t>(PushData.size())};
  VkPipelineLayoutCreateInfo LayoutInfo =
      makeStruct<VkPipelineLayoutCreateInfo>(
          VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  LayoutInfo.setLayoutCount = static_cast<uint32_t>(SetLayouts.size());
  LayoutInfo.pSetLayouts = SetLayouts.data();
  LayoutInfo.pushConstantRangeCount = PushData.empty() ? 0 : 1;
  LayoutInfo.pPushConstantRanges = &Range;
  if (Error E = check(
          vkCreatePipelineLayout(Dev, &LayoutInfo, nullptr, &PipelineLayout),
          "vkCreatePipelineLayout"))
    return E;

  std::vector<VkSpecializationMapEntry> Entries;
  std::vector<uint32_t> SpecData;
  for (const auto &[Id, Value] : D.SpecConstants) {
    Entries.push_back({Id, static_cast<uint32_t>(SpecData.size() * 4), 4});
    SpecData.push_back(Value);
  }
  VkSpecializationInfo Spec{};
  Spec.mapEntryCount = static_cast<uint32_t>(Entries.size());
  Spec.pMapEntries = Entries.data();
  Spec.dataSize = SpecData.size() * 4;
  Spec.pData = SpecData.data();

  auto SizeInfo = makeStruct<
      VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
  SizeInfo.requiredSubgroupSize = D.RequiredSubgroupSize;
  VkComputePipelineCreateInfo Info = makeStruct<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  Info.stage = makeStruct<VkPipelineShaderStageCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  if (D.RequiredSubgroupSize != 0)
    Info.stage.pNext = &SizeInfo;
  Info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  Info.stage.module = Module;
  Info.stage.pName = D.EntryPoint.c_str();
  Info.stage.pSpecializationInfo = Entries.empty() ? nullptr : &Spec;
  Info.layout = PipelineLayout;
  return check(vkCreateComputePipelines(Dev, VK_NULL_HANDLE, 1, &Info, nullptr,
                                        &Pipeline),
               "vkCreateComputePipelines");
}

Error DispatchResources::createBuffers(const VkDispatch &D) {
  VkDevice Dev = R.Device;
  for (const VkBufferSpec &Spec : D.Buffers) {
    Buffer &B = Buffers.emplace_back();
    // Vulkan has no empty buffers; the descriptor range is this size too.
    VkBufferUsageFlags Usage = Spec.IsUniform
                                   ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                                   : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (Error E = createHostBuffer(std::max<VkDeviceSize>(Spec.Data.size(), 4),
                                   Usage, Spec.DeviceAddress, B))
      return E;
  }
  // Device addresses go into the push constants before they are recorded.
  for (const auto &[Index, Offset] : D.AddressesInPush) {
    auto Info = makeStruct<VkBufferDeviceAddressInfo>(
        VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
    Info.buffer = Buffers[Index].Handle;
    VkDeviceAddress Addr = vkGetBufferDeviceAddress(Dev, &Info);
    std::memcpy(PushData.data() + Offset, &Addr, 8);
  }
  return Error::success();
}

Error DispatchResources::createHostBuffer(VkDeviceSize Size,
                                          VkBufferUsageFlags Usage,
                                          bool DeviceAddress, Buffer &B) {
  return R.createHostBuffer(Size, Usage, DeviceAddress, B);
}

Error DispatchResources::checkImage(const VkImageSpec &I) const {
  const s2l_sampler &S = I.Sampler;
  if (hasSampler(I.Kind)) {
    if (S.mag_filter > 1 || S.min_filter > 1 || S.mipmap_mode > 1 ||
        S.address_mode[0] > 4 || S.address_mode[1] > 4 ||
        S.address_mode[2] > 4 || S.border_color > 5 || S.compare_op > 7)
      return makeError(describe(I) +
                       ": sampler state out of range (filters 0-1, address "
                       "modes 0-4, border colours 0-5, compare ops 0-7)");
    if (S.max_anisotropy > 1 && !R.Enabled.Core.features.samplerAnisotropy)
      return makeError(describe(I) + ": anisotropy without samplerAnisotropy");
  }
  if (I.Kind == VkImageKind::Sampler)
    return Error::success();
  const spirv2llvm::FormatInfo *Info =
      spirv2llvm::formatInfo(spirv2llvm::Format(I.Format));
  if (!Info)
    return makeError(
        llvm::formatv("{0}: unknown VkFormat {1}", describe(I), I.Format));
  if (Info->hasStencil())
    return makeError(describe(I) + ": " + std::string(Info->Name) +
                     ": the runner has no stencil images");
  uint64_t Bytes = 0;
  Expected<s2l_image> Layout = packedImageLayout(I, &Bytes);
  if (!Layout)
    return Layout.takeError();
  if (I.Data.size() != Bytes)
    return makeError(llvm::formatv(
        "{0}: {1} bytes of data; the packed layout of {2} has {3}", describe(I),
        I.Data.size(), Info->Name, Bytes));

  VkFormatProperties Props;
  vkGetPhysicalDeviceFormatProperties(R.Physical, VkFormat(I.Format), &Props);
  VkFormatFeatureFlags Need = 0, Have = Props.optimalTilingFeatures;
  const char *Use = "";
  switch (I.Kind) {
  case VkImageKind::StorageImage:
    Need = VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
    Use = "storage images";
    break;
  case VkImageKind::SampledImage:
  case VkImageKind::CombinedImageSampler:
    Need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    Use = "sampled images";
    if (I.Kind == VkImageKind::CombinedImageSampler &&
        usesLinearFilter(I.Sampler)) {
      Need |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
      Use = "linearly filtered sampled images";
    }
    break;
  case VkImageKind::UniformTexelBuffer:
    Need = VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
    Have = Props.bufferFeatures;
    Use = "uniform texel buffers";
    break;
  case VkImageKind::StorageTexelBuffer:
    Need = VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
    Have = Props.bufferFeatures;
    Use = "storage texel buffers";
    break;
  case VkImageKind::Sampler:
    break;
  }
  if (hasImage(I.Kind) && !(Have & VK_FORMAT_FEATURE_TRANSFER_DST_BIT &&
                            Have & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT))
    return makeError(
        llvm::formatv("{0}: {1} cannot be copied to and from buffers on {2}",
                      describe(I), Info->Name, R.Props.deviceName));
  if ((Have & Need) != Need)
    return makeError(llvm::formatv("{0}: {1} does not support {2} on {3}",
                                   describe(I), Info->Name, Use,
                                   R.Props.deviceName));
  const VkPhysicalDeviceLimits &L = R.Props.limits;
  if (isTexelBuffer(I.Kind)) {
    if (I.Width > L.maxTexelBufferElements)
      return makeError(llvm::formatv("{0}: {1} texels; the device allows {2}",
                                     describe(I), I.Width,
                                     L.maxTexelBufferElements));
    return Error::success();
  }
  if ((I.ViewType == S2L_VIEW_CUBE_ARRAY) &&
      !R.Enabled.Core.features.imageCubeArray)
    return makeError(describe(I) + ": cube arrays need imageCubeArray");
  uint32_t MaxExtent =
      imageType(I.ViewType) == VK_IMAGE_TYPE_1D   ? L.maxImageDimension1D
      : imageType(I.ViewType) == VK_IMAGE_TYPE_3D ? L.maxImageDimension3D
      : (I.ViewType == S2L_VIEW_CUBE || I.ViewType == S2L_VIEW_CUBE_ARRAY)
          ? L.maxImageDimensionCube
          : L.maxImageDimension2D;
  if (std::max({I.Width, I.Height, I.Depth}) > MaxExtent ||
      I.Layers > L.maxImageArrayLayers)
    return makeError(llvm::formatv(
        "{0}: {1}x{2}x{3} with {4} layers is beyond the device's limits",
        describe(I), I.Width, I.Height, I.Depth, I.Layers));
  return Error::success();
}

Error DispatchResources::createImages(const VkDispatch &D) {
  VkDevice Dev = R.Device;
  for (const VkImageSpec &Spec : D.Images) {
    Image &I = Images.emplace_back();
    if (hasSampler(Spec.Kind)) {
      VkSamplerCreateInfo Info = samplerCreateInfo(Spec.Sampler);
      if (Error E = check(vkCreateSampler(Dev, &Info, nullptr, &I.Sampler),
                          "vkCreateSampler"))
        return E;
    }
    if (Spec.Kind == VkImageKind::Sampler)
      continue;
    const spirv2llvm::FormatInfo *FI =
        spirv2llvm::formatInfo(spirv2llvm::Format(Spec.Format));
    if (isTexelBuffer(Spec.Kind)) {
      VkBufferUsageFlags Usage = Spec.Kind == VkImageKind::UniformTexelBuffer
                                     ? VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT
                                     : VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
      if (Error E = createHostBuffer(std::max<uint64_t>(Spec.Data.size(), 4),
                                     Usage, false, I.Texels))
        return E;
      auto Info = makeStruct<VkBufferViewCreateInfo>(
          VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO);
      Info.buffer = I.Texels.Handle;
      Info.format = VkFormat(Spec.Format);
      Info.range = Spec.Data.size();
      if (Error E =
              check(vkCreateBufferView(Dev, &Info, nullptr, &I.BufferView),
                    "vkCreateBufferView"))
        return E;
      continue;
    }
    s2l_image Layout = cantFail(packedImageLayout(Spec));
    I.Aspect =
        FI->hasDepth() ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    bool Cube =
        Spec.ViewType == S2L_VIEW_CUBE || Spec.ViewType == S2L_VIEW_CUBE_ARRAY;
    bool Is3D = Spec.ViewType == S2L_VIEW_3D;
    auto Info =
        makeStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
    Info.flags = Cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
    Info.imageType = imageType(Spec.ViewType);
    Info.format = VkFormat(Spec.Format);
    Info.extent = {Spec.Width, Layout.level[0].height, Is3D ? Spec.Depth : 1};
    Info.mipLevels = Spec.Levels;
    Info.arrayLayers = Spec.Layers;
    Info.samples = VK_SAMPLE_COUNT_1_BIT;
    Info.tiling = VK_IMAGE_TILING_OPTIMAL;
    Info.usage =
        VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
        (Spec.Kind == VkImageKind::StorageImage ? VK_IMAGE_USAGE_STORAGE_BIT
                                                : VK_IMAGE_USAGE_SAMPLED_BIT);
    Info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    Info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (Error E = check(vkCreateImage(Dev, &Info, nullptr, &I.Handle),
                        "vkCreateImage"))
      return E;
    VkMemoryRequirements Req;
    vkGetImageMemoryRequirements(Dev, I.Handle, &Req);
    Expected<uint32_t> Type = R.findHostMemoryType(Req.memoryTypeBits);
    if (!Type)
      return Type.takeError();
    auto Alloc = makeStruct<VkMemoryAllocateInfo>(
        VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    Alloc.allocationSize = Req.size;
    Alloc.memoryTypeIndex = *Type;
    if (Error E = check(vkAllocateMemory(Dev, &Alloc, nullptr, &I.Memory),
                        "vkAllocateMemory"))
      return E;
    if (Error E = check(vkBindImageMemory(Dev, I.Handle, I.Memory, 0),
                        "vkBindImageMemory"))
      return E;
    auto View = makeStruct<VkImageViewCreateInfo>(
        VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
    View.image = I.Handle;
    View.viewType = VkImageViewType(Spec.ViewType);
    View.format = VkFormat(Spec.Format);
    View.subresourceRange = {I.Aspect, 0, Spec.Levels, 0, Spec.Layers};
    if (Error E = check(vkCreateImageView(Dev, &View, nullptr, &I.View),
                        "vkCreateImageView"))
      return E;

    // One copy region per level, all layers at once: the packed layout of
    // a level is the buffer layout of a copy with bufferRowLength and
    // bufferImageHeight 0 (layers or depth slices one after the other).
    uint64_t Staging = 0;
    for (uint32_t L = 0; L < Spec.Levels; ++L) {
      const s2l_image_level &Lv = Layout.level[L];
      uint64_t End =
          L + 1 < Spec.Levels ? Layout.level[L + 1].offset : Spec.Data.size();
      Image::LevelCopy C{Lv.offset, Staging, End - Lv.offset, {}};
      C.Region.bufferOffset = Staging;
      C.Region.imageSubresource = {I.Aspect, L, 0, Spec.Layers};
      C.Region.imageExtent = {Lv.width, Lv.height, Is3D ? Lv.depth : 1};
      I.Levels.push_back(C);
      Staging = llvm::alignTo(Staging + C.Bytes, 16);
    }
    if (Error E = createHostBuffer(std::max<uint64_t>(Staging, 4),
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT, false,
                                   I.StagingIn))
      return E;
    if (Error E = createHostBuffer(std::max<uint64_t>(Staging, 4),
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT, false,
                                   I.StagingOut))
      return E;
  }
  return Error::success();
}

void DispatchResources::recordImageUploads() {
  // Every image goes to GENERAL, which copies, sampling and storage all
  // accept, so no further transitions are needed. UNDEFINED as the old
  // layout is valid on every submission: the copy rewrites the content.
  std::vector<VkImageMemoryBarrier> Barriers;
  for (Image &I : Images) {
    if (!I.Handle)
      continue;
    auto B = makeStruct<VkImageMemoryBarrier>(
        VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    B.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT |
                      VK_ACCESS_SHADER_WRITE_BIT;
    B.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    B.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    B.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    B.srcQueueFamilyIndex = B.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    B.image = I.Handle;
    B.subresourceRange = {I.Aspect, 0, VK_REMAINING_MIP_LEVELS, 0,
                          VK_REMAINING_ARRAY_LAYERS};
    Barriers.push_back(B);
  }
  if (Barriers.empty())
    return;
  vkCmdPipelineBarrier(
      Commands,
      VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
      static_cast<uint32_t>(Barriers.size()), Barriers.data());
  for (Image &I : Images) {
    if (!I.Handle)
      continue;
    std::vector<VkBufferImageCopy> Regions;
    for (const Image::LevelCopy &C : I.Levels)
      Regions.push_back(C.Region);
    vkCmdCopyBufferToImage(
        Commands, I.StagingIn.Handle, I.Handle, VK_IMAGE_LAYOUT_GENERAL,
        static_cast<uint32_t>(Regions.size()), Regions.data());
  }
  auto M = makeStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  M.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  M.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(Commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &M, 0,
                       nullptr, 0, nullptr);
}

void DispatchResources::recordImageDownloads() {
  if (llvm::none_of(Images, [](const Image &I) { return I.Handle; }))
    return;
  auto M = makeStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  M.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  M.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(Commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &M, 0, nullptr, 0,
                       nullptr);
  for (Image &I : Images) {
    if (!I.Handle)
      continue;
    std::vector<VkBufferImageCopy> Regions;
    for (const Image::LevelCopy &C : I.Levels)
      Regions.push_back(C.Region);
    vkCmdCopyImageToBuffer(
        Commands, I.Handle, VK_IMAGE_LAYOUT_GENERAL, I.StagingOut.Handle,
        static_cast<uint32_t>(Regions.size()), Regions.data());
  }
}

Error DispatchResources::createDescriptors(const VkDispatch &D) {
  if (SetLayouts.empty())
    return Error::success();
  VkDevice Dev = R.Device;
  std::map<VkDescriptorType, uint32_t> Counts;
  for (const VkBufferSpec &B : D.Buffers)
    if (!B.DeviceAddress)
      ++Counts[B.IsUniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                           : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER];
  for (const VkImageSpec &I : D.Images)
    ++Counts[descriptorType(I.Kind)];
  std::vector<VkDescriptorPoolSize> Sizes;
  for (const auto &[Type, Count] : Counts)
    Sizes.push_back({Type, Count});
  VkDescriptorPoolCreateInfo PoolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  PoolInfo.maxSets = static_cast<uint32_t>(SetLayouts.size());
  PoolInfo.poolSizeCount = static_cast<uint32_t>(Sizes.size());
  PoolInfo.pPoolSizes = Sizes.data();
  if (Error E = check(vkCreateDescriptorPool(Dev, &PoolInfo, nullptr, &Pool),
                      "vkCreateDescriptorPool"))
    return E;
  VkDescriptorSetAllocateInfo Alloc = makeStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  Alloc.descriptorPool = Pool;
  Alloc.descriptorSetCount = static_cast<uint32_t>(SetLayouts.size());
  Alloc.pSetLayouts = SetLayouts.data();
  Sets.resize(SetLayouts.size());
  if (Error E = check(vkAllocateDescriptorSets(Dev, &Alloc, Sets.data()),
                      "vkAllocateDescriptorSets"))
    return E;

  // Reserved up front: the writes point into BufferInfos.
  std::vector<VkDescriptorBufferInfo> BufferInfos;
  BufferInfos.reserve(D.Buffers.size());
  std::vector<VkWriteDescriptorSet> Writes;
  for (size_t I = 0; I < D.Buffers.size(); ++I) {
    const VkBufferSpec &Spec = D.Buffers[I];
    if (Spec.DeviceAddress)
      continue;
    BufferInfos.push_back({Buffers[I].Handle, 0, Buffers[I].Size});
    VkWriteDescriptorSet W = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    W.dstSet = Sets[Spec.Set];
    W.dstBinding = Spec.Binding;
    W.dstArrayElement = Spec.ArrayElement;
    W.descriptorCount = 1;
    W.descriptorType = Spec.IsUniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                      : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    W.pBufferInfo = &BufferInfos.back();
    Writes.push_back(W);
  }
  std::vector<VkDescriptorImageInfo> ImageInfos;
  ImageInfos.reserve(D.Images.size());
  for (size_t I = 0; I < D.Images.size(); ++I) {
    const VkImageSpec &Spec = D.Images[I];
    const Image &Img = Images[I];
    VkWriteDescriptorSet W = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    W.dstSet = Sets[Spec.Set];
    W.dstBinding = Spec.Binding;
    W.dstArrayElement = Spec.ArrayElement;
    W.descriptorCount = 1;
    W.descriptorType = descriptorType(Spec.Kind);
    if (isTexelBuffer(Spec.Kind)) {
      W.pTexelBufferView = &Img.BufferView;
    } else {
      ImageInfos.push_back({Img.Sampler, Img.View, VK_IMAGE_LAYOUT_GENERAL});
      W.pImageInfo = &ImageInfos.back();
    }
    Writes.push_back(W);
  }
  vkUpdateDescriptorSets(Dev, static_cast<uint32_t>(Writes.size()),
                         Writes.data(), 0, nullptr);
  return Error::success();
}

Error DispatchResources::recordCommands(const VkDispatch &D) {
  VkDevice Dev = R.Device;
  VkCommandBufferAllocateInfo Alloc = makeStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  Alloc.commandPool = R.CommandPool;
  Alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  Alloc.commandBufferCount = 1;
  if (Error E = check(vkAllocateCommandBuffers(Dev, &Alloc, &Commands),
                      "vkAllocateCommandBuffers"))
    return E;
  // Not one-time-submit: timeDispatch submits it repeatedly.
  VkCommandBufferBeginInfo Begin = makeStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  if (Error E =
          check(vkBeginCommandBuffer(Commands, &Begin), "vkBeginCommandBuffer"))
    return E;
  recordImageUploads();
  vkCmdBindPipeline(Commands, VK_PIPELINE_BIND_POINT_COMPUTE, Pipeline);
  if (!Sets.empty())
    vkCmdBindDescriptorSets(
        Commands, VK_PIPELINE_BIND_POINT_COMPUTE, PipelineLayout, 0,
        static_cast<uint32_t>(Sets.size()), Sets.data(), 0, nullptr);
  if (!PushData.empty())
    vkCmdPushConstants(Commands, PipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       static_cast<uint32_t>(PushData.size()), PushData.data());
  vkCmdDispatch(Commands, D.GroupsX, D.GroupsY, D.GroupsZ);
  recordImageDownloads();
  // The submission makes host writes visible to the shader; the shader's
  // writes (and the image read-back copies) need this barrier to become
  // visible to host reads.
  VkMemoryBarrier Barrier =
      makeStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  Barrier.srcAccessMask =
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  Barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(
      Commands,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &Barrier, 0, nullptr, 0, nullptr);
  if (Error E = check(vkEndCommandBuffer(Commands), "vkEndCommandBuffer"))
    return E;
  VkFenceCreateInfo FenceInfo =
      makeStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  return check(vkCreateFence(Dev, &FenceInfo, nullptr, &Fence),
               "vkCreateFence");
}

Error DispatchResources::build(const VkDispatch &D) {
  if (Error E = checkLimits(D))
    return E;
  if (Error E = createPipeline(D))
    return E;
  if (Error E = createBuffers(D))
    return E;
  if (Error E = createImages(D))
    return E;
  if (Error E = createDescriptors(D))
    return E;
  return recordCommands(D);
}

void DispatchResources::upload(const VkDispatch &D) {
  for (size_t I = 0; I < Buffers.size(); ++I) {
    const std::vector<uint8_t> &Data = D.Buffers[I].Data;
    auto *Dst = static_cast<uint8_t *>(Buffers[I].Mapped);
    if (!Data.empty())
      std::memcpy(Dst, Data.data(), Data.size());
    std::memset(Dst + Data.size(), 0, Buffers[I].Size - Data.size());
  }
  for (size_t I = 0; I < Images.size(); ++I) {
    const std::vector<uint8_t> &Data = D.Images[I].Data;
    const Image &Img = Images[I];
    if (Img.Texels.Mapped && !Data.empty())
      std::memcpy(Img.Texels.Mapped, Data.data(), Data.size());
    for (const Image::LevelCopy &C : Img.Levels)
      std::memcpy(static_cast<uint8_t *>(Img.StagingIn.Mapped) + C.Staging,
                  Data.data() + C.Packed, C.Bytes);
  }
}

Error DispatchResources::submitAndWait() {
  if (Error E = check(vkResetFences(R.Device, 1, &Fence), "vkResetFences"))
    return E;
  VkSubmitInfo Submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  Submit.commandBufferCount = 1;
  Submit.pCommandBuffers = &Commands;
  if (Error E =
          check(vkQueueSubmit(R.Queue, 1, &Submit, Fence), "vkQueueSubmit"))
    return E;
  VkResult Wait = vkWaitForFences(R.Device, 1, &Fence, VK_TRUE, FenceTimeoutNs);
  if (Wait == VK_TIMEOUT) {
    R.Hung = true;
    return makeError(llvm::formatv(
        "vkWaitForFences failed: VK_TIMEOUT after {0} s (the shader does not "
        "terminate?); the runner is unusable from now on",
        FenceTimeoutNs / 1000000000));
  }
  return check(Wait, "vkWaitForFences");
}

void DispatchResources::download(VkDispatch &D) const {
  for (size_t I = 0; I < Buffers.size(); ++I) {
    std::vector<uint8_t> &Data = D.Buffers[I].Data;
    if (!Data.empty())
      std::memcpy(Data.data(), Buffers[I].Mapped, Data.size());
  }
  for (size_t I = 0; I < Images.size(); ++I) {
    std::vector<uint8_t> &Data = D.Images[I].Data;
    const Image &Img = Images[I];
    if (Img.Texels.Mapped && !Data.empty())
      std::memcpy(Data.data(), Img.Texels.Mapped, Data.size());
    for (const Image::LevelCopy &C : Img.Levels)
      std::memcpy(Data.data() + C.Packed,
                  static_cast<const uint8_t *>(Img.StagingOut.Mapped) +
                      C.Staging,
                  C.Bytes);
  }
}

Error checkUsable(const detail::RunnerState &R) {
  if (R.Hung)
    return makeError("vulkan runner unusable: an earlier dispatch timed out");
  return Error::success();
}

} // namespace

namespace spirv2llvm::vk {

namespace detail {
struct PreparedState {
  explicit PreparedState(RunnerState &R) : R(R), Res(R) {}
  RunnerState &R;
  DispatchResources Res;
};
} // namespace detail

Expected<s2l_image> packedImageLayout(const VkImageSpec &S, uint64_t *Bytes) {
  const FormatInfo *Info = formatInfo(Format(S.Format));
  if (!Info)
    return makeError(llvm::formatv("unknown VkFormat {0}", S.Format));
  s2l_image Img{};
  Img.format = S.Format;
  Img.view_type = S.ViewType;
  Img.layers = S.Layers;
  Img.levels = S.Levels;
  Img.samples = 1;
  bool TexelBuffer = isTexelBuffer(S.Kind);
  if (TexelBuffer)
    Img.view_type = S2L_VIEW_BUFFER;
  uint32_t V = Img.view_type;
  bool Arrayed = V == S2L_VIEW_1D_ARRAY || V == S2L_VIEW_2D_ARRAY ||
                 V == S2L_VIEW_CUBE_ARRAY;
  bool Cube = V == S2L_VIEW_CUBE || V == S2L_VIEW_CUBE_ARRAY;
  bool OneD = V == S2L_VIEW_1D || V == S2L_VIEW_1D_ARRAY || TexelBuffer;
  std::string What =
      llvm::formatv("{0} {1}x{2}x{3}, {4} layers, {5} levels", Info->Name,
                    S.Width, S.Height, S.Depth, S.Layers, S.Levels);
  if (V > S2L_VIEW_BUFFER)
    return makeError(llvm::formatv("view type {0} is not an S2L_VIEW_*", V));
  if (S.Width == 0 || S.Height == 0 || S.Depth == 0 || S.Layers == 0 ||
      S.Levels == 0)
    return makeError(What + ": extents, layers and levels must not be 0");
  if ((OneD && S.Height != 1) || (V != S2L_VIEW_3D && S.Depth != 1))
    return makeError(What + ": a 1D image has height 1, only 3D images depth");
  if ((Cube && (S.Width != S.Height || S.Layers % 6 != 0)) ||
      (V == S2L_VIEW_CUBE && S.Layers != 6) ||
      (!Arrayed && !Cube && S.Layers != 1))
    return makeError(What + ": layers do not fit the view type (cubes are "
                            "square with 6 layers per cube; non-arrayed "
                            "views have 1)");
  uint32_t Largest = std::max({S.Width, S.Height, S.Depth});
  uint32_t Chain = llvm::Log2_32(Largest) + 1;
  if (S.Levels > Chain || S.Levels > S2L_MAX_IMAGE_LEVELS ||
      (TexelBuffer && S.Levels != 1))
    return makeError(llvm::formatv(
        "{0}: at most {1} levels", What,
        std::min<uint32_t>(TexelBuffer ? 1 : Chain, S2L_MAX_IMAGE_LEVELS)));
  uint64_t Offset = 0;
  for (uint32_t L = 0; L < S.Levels; ++L) {
    s2l_image_level &Lv = Img.level[L];
    Lv.width = std::max(1u, S.Width >> L);
    Lv.height = std::max(1u, S.Height >> L);
    Lv.depth = std::max(1u, S.Depth >> L);
    Lv.offset = Offset;
    Lv.row_pitch = uint64_t(llvm::divideCeil(Lv.width, Info->BlockWidth)) *
                   Info->BlockBytes;
    Lv.slice_pitch =
        Lv.row_pitch * llvm::divideCeil(Lv.height, Info->BlockHeight);
    Offset += Lv.slice_pitch * (V == S2L_VIEW_3D ? Lv.depth : S.Layers);
  }
  if (Bytes)
    *Bytes = Offset;
  return Img;
}

VkPreparedDispatch::VkPreparedDispatch(std::unique_ptr<detail::PreparedState> P)
    : P(std::move(P)) {}
VkPreparedDispatch::~VkPreparedDispatch() = default;

void VkPreparedDispatch::upload(const VkDispatch &D) { P->Res.upload(D); }

Error VkPreparedDispatch::submitAndWait() {
  if (Error E = checkUsable(P->R))
    return E;
  return P->Res.submitAndWait();
}

void VkPreparedDispatch::download(VkDispatch &D) const { P->Res.download(D); }

Expected<std::unique_ptr<VkPreparedDispatch>>
VulkanComputeRunner::prepare(const VkDispatch &D) {
  if (Error E = checkUsable(*P))
    return E;
  auto S = std::make_unique<detail::PreparedState>(*P);
  if (Error E = S->Res.build(D))
    return E;
  return std::unique_ptr<VkPreparedDispatch>(
      new VkPreparedDispatch(std::move(S)));
}

VulkanComputeRunner::VulkanComputeRunner(std::unique_ptr<detail::RunnerState> P)
    : P(std::move(P)) {}

VulkanComputeRunner::~VulkanComputeRunner() = default;

Expected<std::unique_ptr<VulkanComputeRunner>>
VulkanComputeRunner::create(const VkRunnerOptions &Options) {
  Expected<std::unique_ptr<detail::RunnerState>> I =
      detail::RunnerState::create(Options);
  if (!I)
    return I.takeError();
  return std::unique_ptr<VulkanComputeRunner>(
      new VulkanComputeRunner(std::move(*I)));
}

Error VulkanComputeRunner::run(VkDispatch &D) {
  if (Error E = checkUsable(*P))
    return E;
  DispatchResources Res(*P);
  if (Error E = Res.build(D))
    return E;
  Res.upload(D);
  if (Error E = Res.submitAndWait())
    return E;
  Res.download(D);
  return Error::success();
}

Expected<double> VulkanComputeRunner::timeDispatch(VkDispatch &D,
                                                   unsigned Repeats) {
  if (Repeats == 0)
    return makeError("timeDispatch needs at least one repeat");
  if (Error E = checkUsable(*P))
    return E;
  DispatchResources Res(*P);
  if (Error E = Res.build(D))
    return E;
  std::vector<double> Ms;
  for (unsigned I = 0; I < Repeats; ++I) {
    Res.upload(D);
    auto Start = std::chrono::steady_clock::now();
    if (Error E = Res.submitAndWait())
      return E;
    auto End = std::chrono::steady_clock::now();
    Ms.push_back(
        std::chrono::duration<double, std::milli>(End - Start).count());
  }
  Res.download(D);
  std::sort(Ms.begin(), Ms.end());
  size_t Mid = Ms.size() / 2;
  return Ms.size() % 2 ? Ms[Mid] : (Ms[Mid - 1] + Ms[Mid]) / 2;
}

std::string VulkanComputeRunner::deviceName() const {
  return P->Props.deviceName;
}

uint32_t VulkanComputeRunner::apiVersion() const { return P->ApiVersion; }

uint32_t VulkanComputeRunner::subTexelPrecisionBits() const {
  return P->Props.limits.subTexelPrecisionBits;
}

uint32_t VulkanComputeRunner::mipmapPrecisionBits() const {
  return P->Props.limits.mipmapPrecisionBits;
}

const VkSubgroupInfo &VulkanComputeRunner::subgroupInfo() const {
  return P->Subgroups;
}

std::vector<std::string> VulkanComputeRunner::enabledFeatures() const {
  std::vector<std::string> Names;
  for (const FeatureName &F : ShaderFeatures)
    if (F.Get(P->Enabled))
      Names.push_back(F.Name);
  return Names;
}

bool VulkanComputeRunner::hasFeature(llvm::StringRef Name) const {
  return llvm::any_of(ShaderFeatures, [&](const FeatureName &F) {
    return Name == F.Name && F.Get(P->Enabled);
  });
}

} // namespace spirv2llvm::vk
