//===- VulkanDevice.h - The lavapipe device of the runners -------*- C++
//-*-===//
//
// What the compute runner (VulkanComputeRunner.h) and the graphics runner
// (VulkanGraphicsRunner.h) share: the instance, the choice of lavapipe's
// device, the device with its features and extensions, a queue and a
// command pool, and small helpers for Vulkan calls. Private to the
// runners' .cpp files (it includes vulkan.h, which their headers do not).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_VULKAN_VULKANDEVICE_H
#define SPIRV2LLVM_TESTS_VULKAN_VULKANDEVICE_H

#include "VulkanComputeRunner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>

namespace spirv2llvm::vk::detail {

/// How long a submission may run. lavapipe cannot preempt a shader, so a
/// non-terminating one would otherwise block the test binary until ctest
/// kills it; with a bound the caller gets an error naming the dispatch.
constexpr uint64_t FenceTimeoutNs = 60ull * 1000 * 1000 * 1000;

llvm::Error makeError(const llvm::Twine &Msg);
const char *resultName(VkResult R);
/// "vkCreateBuffer failed: VK_ERROR_OUT_OF_DEVICE_MEMORY (-2)", or success.
llvm::Error check(VkResult R, const char *Call);
std::string versionString(uint32_t V);

template <typename T> T makeStruct(VkStructureType Type) {
  T S{};
  S.sType = Type;
  return S;
}

/// \p S field by field (same numbers as Vulkan's), so that one
/// s2l_sampler drives both lavapipe and s2l_image_op.
VkSamplerCreateInfo samplerCreateInfo(const s2l_sampler &S);

/// SPIR-V execution models the runners look for.
enum : uint32_t {
  ExecutionModelVertex = 0,
  ExecutionModelGeometry = 3,
  ExecutionModelFragment = 4,
  ExecutionModelGLCompute = 5,
};

/// The name of the entry point of execution model \p Model in \p Words:
/// \p Name itself when the module declares it, or, with an empty \p Name,
/// the module's only entry point of that model. A wrong name is undefined
/// behaviour that drivers need not diagnose (and no validation layer is
/// installed), so the runners check it, listing the names they found.
/// Also checks the module header. \p ModelName ("GLCompute") is for
/// messages.
llvm::Expected<std::string> findEntryPoint(llvm::ArrayRef<uint32_t> Words,
                                           uint32_t Model, llvm::StringRef Name,
                                           llvm::StringRef ModelName);

/// The structures the device was created with, reused for reporting.
/// Vulkan13 also records subgroupSizeControl/computeFullSubgroups on a 1.2
/// device, copied from the VK_EXT_subgroup_size_control structure. The
/// graphics extensions' structures stay zero when the driver lacks the
/// extension (DeviceExtensions says which were enabled).
struct DeviceFeatures {
  VkPhysicalDeviceFeatures2 Core = makeStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  VkPhysicalDeviceVulkan11Features Vulkan11 =
      makeStruct<VkPhysicalDeviceVulkan11Features>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  VkPhysicalDeviceVulkan12Features Vulkan12 =
      makeStruct<VkPhysicalDeviceVulkan12Features>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  VkPhysicalDeviceVulkan13Features Vulkan13 =
      makeStruct<VkPhysicalDeviceVulkan13Features>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  VkPhysicalDeviceSubgroupSizeControlFeatures SizeControl =
      makeStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT AtomicFloat =
      makeStruct<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT AtomicFloat2 =
      makeStruct<VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT);
  VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR WorkgroupLayout =
      makeStruct<VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR);
  VkPhysicalDeviceRobustness2FeaturesEXT Robustness2 =
      makeStruct<VkPhysicalDeviceRobustness2FeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT);
  // Fixed-function state of the graphics runner (VulkanGraphicsRunner.h).
  VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT VertexDivisor = makeStruct<
      VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT);
  VkPhysicalDeviceLineRasterizationFeaturesEXT LineRasterization =
      makeStruct<VkPhysicalDeviceLineRasterizationFeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT);
  VkPhysicalDeviceProvokingVertexFeaturesEXT ProvokingVertex =
      makeStruct<VkPhysicalDeviceProvokingVertexFeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT);
  VkPhysicalDeviceIndexTypeUint8FeaturesEXT IndexTypeUint8 =
      makeStruct<VkPhysicalDeviceIndexTypeUint8FeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT);
  VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT ListRestart = makeStruct<
      VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT);
};

/// Device extensions that were enabled (those the driver has, of the ones
/// the runners use).
struct DeviceExtensions {
  bool VertexDivisor = false;     ///< VK_EXT_vertex_attribute_divisor
  bool LineRasterization = false; ///< VK_EXT_line_rasterization
  bool ProvokingVertex = false;   ///< VK_EXT_provoking_vertex
  bool IndexTypeUint8 = false;    ///< VK_EXT_index_type_uint8
  bool ListRestart = false;       ///< VK_EXT_primitive_topology_list_restart
  bool StencilExport = false;     ///< VK_EXT_shader_stencil_export
};

/// A buffer in host-visible, host-coherent memory, mapped for its lifetime.
struct HostBuffer {
  VkBuffer Handle = VK_NULL_HANDLE;
  VkDeviceMemory Memory = VK_NULL_HANDLE;
  void *Mapped = nullptr;
  VkDeviceSize Size = 0;
};

/// The objects that live as long as a runner: instance, lavapipe's
/// physical device, the device with every feature the driver reports
/// (VulkanComputeRunner.h's file comment has the exceptions), one queue
/// that does graphics and compute, a command pool. create() makes it.
struct RunnerState {
  VkInstance Instance = VK_NULL_HANDLE;
  VkPhysicalDevice Physical = VK_NULL_HANDLE;
  VkDevice Device = VK_NULL_HANDLE;
  VkQueue Queue = VK_NULL_HANDLE;
  uint32_t QueueFamily = 0;
  VkCommandPool CommandPool = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties Props{};
  VkPhysicalDeviceMemoryProperties MemoryProps{};
  uint32_t ApiVersion = 0;
  DeviceFeatures Enabled;
  DeviceExtensions Extensions;
  VkSubgroupInfo Subgroups;
  VkRunnerOptions Options;
  /// A dispatch timed out: its objects and the device are still in use by
  /// the driver's threads, so nothing may be destroyed or submitted.
  bool Hung = false;

  /// Instance, device selection and device creation, in that order.
  static llvm::Expected<std::unique_ptr<RunnerState>>
  create(const VkRunnerOptions &Options);
  ~RunnerState();
  llvm::Error createInstance();
  llvm::Error pickDevice();
  llvm::Error createDevice();
  llvm::Expected<uint32_t> findHostMemoryType(uint32_t TypeBits) const;
  /// Creates and maps a buffer of \p Size bytes (with
  /// VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT when \p DeviceAddress).
  llvm::Error createHostBuffer(VkDeviceSize Size, VkBufferUsageFlags Usage,
                               bool DeviceAddress, HostBuffer &B) const;
  /// Destroys \p B (null handles are skipped) and resets it.
  void destroy(HostBuffer &B) const;
};

} // namespace spirv2llvm::vk::detail

#endif
