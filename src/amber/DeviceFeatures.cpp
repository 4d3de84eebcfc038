//===- DeviceFeatures.cpp - What the JIT offers as a Vulkan device --------===//
//
// DEVICE_FEATURE and DEVICE_EXTENSION names the runner accepts; a script
// requiring anything else is skipped. The list follows what the translator
// implements (docs/amber.md).
//
//===----------------------------------------------------------------------===//
#include "amber/ParserImpl.h"

#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace spirv2llvm::amber::detail {

/// Features of a Vulkan device this runner provides (DEVICE_FEATURE names
/// as Amber spells them).
bool featureSupported(StringRef F) {
  static const StringSet<> Known = {
      "shaderFloat64",
      "shaderInt64",
      "shaderInt16",
      // Every shader of the script is translated with robust buffer
      // access (AmberRunner.cpp, translationInput).
      "robustBufferAccess",
      "vertexPipelineStoresAndAtomics",
      "fragmentStoresAndAtomics",
      "Float16Int8Features.shaderFloat16",
      "Float16Int8Features.shaderInt8",
      "Storage16BitFeatures.storageBuffer16BitAccess",
      "Storage16BitFeatures.uniformAndStorageBuffer16BitAccess",
      "Storage16BitFeatures.storagePushConstant16",
      "Storage8BitFeatures.storageBuffer8BitAccess",
      "Storage8BitFeatures.uniformAndStorageBuffer8BitAccess",
      "Storage8BitFeatures.storagePushConstant8",
      "SubgroupSizeControl.subgroupSizeControl",
      "SubgroupSizeControl.computeFullSubgroups",
      "ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes",
      // OpSelect of StorageBuffer and Workgroup pointers, into different
      // variables too (EmitPointerSelect.cpp); OpPhi of pointers and
      // pointer-typed variables are refused by the translator with a
      // message (docs/amber.md "Variable pointers").
      "VariablePointerFeatures.variablePointersStorageBuffer",
      "VariablePointerFeatures.variablePointers",
      // The rasterizer's (spirv2llvm/Graphics.h): polygon modes, depth
      // clamp, bias clamp and bounds, logic ops, wide lines and large
      // points, sample shading, 8-bit indices, restart in list topologies.
      "fillModeNonSolid",
      "depthClamp",
      "depthBiasClamp",
      "depthBounds",
      "logicOp",
      "wideLines",
      "largePoints",
      "independentBlend",
      // Dual-source blending (SRC1 factors on attachment 0) and several
      // viewports (AmberScript sets one, ViewportIndex 0 selects it).
      "dualSrcBlend",
      "multiViewport",
      // Geometry shaders (stream 0; docs/graphics.md "Geometry shaders").
      "geometryShader",
      "sampleRateShading",
      "IndexTypeUint8Features.indexTypeUint8",
      "PrimitiveTopologyListRestartFeaturesEXT.primitiveTopologyListRestart",
      // Depth clamp to [0, 1] and unclamped float depths (RasterizationState).
      "DepthClampZeroOneFeatures.depthClampZeroOne",
      // Multisampled storage images: ImageRead/ImageWrite/texel pointers
      // with a Sample operand address the texel's sample (ImageAccess.cpp).
      "shaderStorageImageMultisample",
      // The Vulkan memory model: every atomic is sequentially consistent
      // and every barrier a sequentially consistent fence (ComputeOps.cpp,
      // EmitCompute.cpp), stronger than any availability and visibility
      // the model asks for, and the parser accepts its memory operands.
      "VulkanMemoryModelFeatures.vulkanMemoryModel",
      "VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope",
      // The runtime zeroes workgroup memory before each workgroup
      // (runtime/Compute.cpp), which is what the only initializer the
      // feature allows, OpConstantNull, asks.
      "ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory",
  };
  return Known.contains(F);
}

bool extensionSupported(StringRef E) {
  static const StringSet<> Known = {
      "VK_KHR_storage_buffer_storage_class",
      "VK_KHR_shader_terminate_invocation",
      "VK_KHR_spirv_1_4",
      "VK_KHR_16bit_storage",
      "VK_KHR_8bit_storage",
      "VK_KHR_shader_float16_int8",
      "VK_KHR_zero_initialize_workgroup_memory",
      "VK_KHR_shader_subgroup_uniform_control_flow",
      "VK_KHR_shader_subgroup_extended_types",
      "VK_EXT_subgroup_size_control",
      "VK_KHR_variable_pointers",
      "VK_KHR_shader_non_semantic_info",
      "VK_KHR_vulkan_memory_model",
      "VK_EXT_shader_demote_to_helper_invocation",
      "VK_KHR_get_physical_device_properties2",
      "VK_EXT_index_type_uint8",
      "VK_EXT_primitive_topology_list_restart",
      "VK_EXT_depth_clamp_zero_one",
      "VK_EXT_depth_range_unrestricted",
      // Block-decorated Workgroup variables alias at offset 0
      // (ComputeReflection.cpp), explicit layouts as in buffers.
      "VK_KHR_workgroup_memory_explicit_layout",
  };
  return Known.contains(E);
}

} // namespace spirv2llvm::amber::detail
