//===- VulkanDevice.cpp - The lavapipe device of the runners
//---------------===//
//
// Instance and device creation shared by the compute and graphics runners
// (VulkanDevice.h).
//
//===----------------------------------------------------------------------===//
#include "VulkanDevice.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <vector>

using llvm::Error;
using llvm::Expected;

namespace spirv2llvm::vk::detail {

namespace {
constexpr uint32_t SpirvMagic = 0x07230203;
const char *const NoLavapipeHint =
    "; install mesa-vulkan-drivers, and if VK_ICD_FILENAMES or "
    "VK_DRIVER_FILES is set, include "
    "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
constexpr uint32_t OpEntryPoint = 15;
} // namespace

Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

const char *resultName(VkResult R) {
  switch (R) {
#define S2L_RESULT(Name)                                                       \
  case Name:                                                                   \
    return #Name;
    S2L_RESULT(VK_SUCCESS)
    S2L_RESULT(VK_NOT_READY)
    S2L_RESULT(VK_TIMEOUT)
    S2L_RESULT(VK_INCOMPLETE)
    S2L_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    S2L_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    S2L_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    S2L_RESULT(VK_ERROR_DEVICE_LOST)
    S2L_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    S2L_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    S2L_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    S2L_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    S2L_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    S2L_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    S2L_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    S2L_RESULT(VK_ERROR_FRAGMENTED_POOL)
    S2L_RESULT(VK_ERROR_UNKNOWN)
    S2L_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    S2L_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    S2L_RESULT(VK_ERROR_FRAGMENTATION)
    S2L_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    S2L_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
    S2L_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef S2L_RESULT
  default:
    return "unknown VkResult";
  }
}

Error check(VkResult R, const char *Call) {
  if (R == VK_SUCCESS)
    return Error::success();
  return makeError(llvm::formatv("{0} failed: {1} ({2})", Call, resultName(R),
                                 static_cast<int>(R)));
}

std::string versionString(uint32_t V) {
  return llvm::formatv("{0}.{1}.{2}", VK_API_VERSION_MAJOR(V),
                       VK_API_VERSION_MINOR(V), VK_API_VERSION_PATCH(V));
}

VkSamplerCreateInfo samplerCreateInfo(const s2l_sampler &S) {
  auto Info =
      makeStruct<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
  Info.magFilter = VkFilter(S.mag_filter);
  Info.minFilter = VkFilter(S.min_filter);
  Info.mipmapMode = VkSamplerMipmapMode(S.mipmap_mode);
  Info.addressModeU = VkSamplerAddressMode(S.address_mode[0]);
  Info.addressModeV = VkSamplerAddressMode(S.address_mode[1]);
  Info.addressModeW = VkSamplerAddressMode(S.address_mode[2]);
  Info.mipLodBias = S.mip_lod_bias;
  Info.anisotropyEnable = S.max_anisotropy > 1;
  Info.maxAnisotropy = std::max(S.max_anisotropy, 1.0f);
  Info.compareEnable = S.compare_enable != 0;
  Info.compareOp = VkCompareOp(S.compare_op);
  Info.minLod = S.min_lod;
  Info.maxLod = S.max_lod;
  Info.borderColor = VkBorderColor(S.border_color);
  Info.unnormalizedCoordinates = S.unnormalized_coordinates != 0;
  return Info;
}

Expected<std::string> findEntryPoint(llvm::ArrayRef<uint32_t> Words,
                                     uint32_t Model, llvm::StringRef Name,
                                     llvm::StringRef ModelName) {
  if (Words.size() < 5)
    return makeError(llvm::formatv(
        "spir-v module too short: {0} words, the header alone has 5",
        Words.size()));
  if (Words[0] != SpirvMagic)
    return makeError(llvm::formatv(
        "not a spir-v module in host byte order: magic number {0:x8}",
        Words[0]));
  std::vector<std::string> Found, OfModel;
  for (size_t I = 5; I < Words.size();) {
    uint32_t Count = Words[I] >> 16, Opcode = Words[I] & 0xffff;
    if (Count == 0 || I + Count > Words.size())
      return makeError(llvm::formatv(
          "malformed spir-v: instruction at word {0} has word count {1}", I,
          Count));
    if (Opcode == OpEntryPoint && Count >= 4) {
      const char *Begin = reinterpret_cast<const char *>(&Words[I + 3]);
      std::string EntryName(Begin, strnlen(Begin, (Count - 3) * 4));
      if (Words[I + 1] == Model) {
        if (EntryName == Name)
          return EntryName;
        OfModel.push_back(EntryName);
      }
      Found.push_back(EntryName);
    }
    I += Count;
  }
  if (Name.empty() && OfModel.size() == 1)
    return OfModel.front();
  std::string List =
      Found.empty() ? std::string("none") : llvm::join(Found, ", ");
  if (Name.empty())
    return makeError(llvm::formatv(
        "no entry point name given and the module has {0} {1} entry points "
        "(entry points: {2})",
        OfModel.size(), ModelName, List));
  return makeError(llvm::formatv("no {0} entry point named '{1}' (entry "
                                 "points: {2})",
                                 ModelName, Name, List));
}

RunnerState::~RunnerState() {
  // After a timeout the device is still executing; destroying it is
  // undefined, so leak it (the process is about to report and exit).
  if (Hung)
    return;
  if (Device) {
    vkDeviceWaitIdle(Device);
    if (CommandPool)
      vkDestroyCommandPool(Device, CommandPool, nullptr);
    vkDestroyDevice(Device, nullptr);
  }
  if (Instance)
    vkDestroyInstance(Instance, nullptr);
}

Error RunnerState::createInstance() {
  uint32_t LoaderVersion = VK_API_VERSION_1_0;
  if (Error E = check(vkEnumerateInstanceVersion(&LoaderVersion),
                      "vkEnumerateInstanceVersion"))
    return E;
  if (LoaderVersion < VK_API_VERSION_1_2)
    return makeError("the vulkan loader implements " +
                     versionString(LoaderVersion) + "; 1.2 is needed");
  VkApplicationInfo App =
      makeStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  App.pApplicationName = "spirv2llvm-vulkan-runner";
  App.apiVersion = std::min<uint32_t>(LoaderVersion, VK_API_VERSION_1_3);
  // No extensions or layers: the runner is headless and needs no surface.
  // Validation can still be switched on from outside, with
  // VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation, where installed.
  VkInstanceCreateInfo Info =
      makeStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  Info.pApplicationInfo = &App;
  ApiVersion = App.apiVersion;
  // The loader unloads the ICD when the instance goes away; LeakSanitizer
  // then cannot name the library that leaked (lavapipe keeps a few caches
  // for the process's lifetime), and tests/sanitizers/lsan.supp cannot
  // match it. Keeping the ICD resident costs nothing otherwise.
  static void *KeepIcd = dlopen("libvulkan_lvp.so", RTLD_LAZY | RTLD_NODELETE);
  (void)KeepIcd;
  // The loader fails this way when it finds no driver at all: as much "no
  // lavapipe device" as an empty device list (tests skip on those words).
  VkResult Created = vkCreateInstance(&Info, nullptr, &Instance);
  if (Created == VK_ERROR_INCOMPATIBLE_DRIVER)
    return makeError("no lavapipe device: " +
                     llvm::toString(check(Created, "vkCreateInstance")) +
                     " (no vulkan driver found)" + NoLavapipeHint);
  return check(Created, "vkCreateInstance");
}

Error RunnerState::pickDevice() {
  uint32_t Count = 0;
  // The loader fails this way when no driver has a device.
  if (Error E = check(vkEnumeratePhysicalDevices(Instance, &Count, nullptr),
                      "vkEnumeratePhysicalDevices"))
    return makeError("no lavapipe device: " + llvm::toString(std::move(E)) +
                     NoLavapipeHint);
  std::vector<VkPhysicalDevice> Devices(Count);
  if (Error E =
          check(vkEnumeratePhysicalDevices(Instance, &Count, Devices.data()),
                "vkEnumeratePhysicalDevices"))
    return E;
  std::vector<std::string> Names;
  for (VkPhysicalDevice D : Devices) {
    VkPhysicalDeviceProperties P;
    vkGetPhysicalDeviceProperties(D, &P);
    Names.push_back(P.deviceName);
    // The name and not the device type or the loader's order: hardware
    // drivers may come first, and the reference must be lavapipe.
    if (!llvm::StringRef(P.deviceName).contains("llvmpipe"))
      continue;
    Physical = D;
    Props = P;
    uint32_t DeviceVersion =
        VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(P.apiVersion),
                            VK_API_VERSION_MINOR(P.apiVersion), 0);
    if (DeviceVersion < VK_API_VERSION_1_2)
      return makeError(llvm::formatv("{0} implements vulkan {1}; 1.2 is needed",
                                     P.deviceName,
                                     versionString(P.apiVersion)));
    ApiVersion = std::min(ApiVersion, DeviceVersion);
    vkGetPhysicalDeviceMemoryProperties(D, &MemoryProps);
    return Error::success();
  }
  return makeError(
      "no lavapipe device (deviceName containing 'llvmpipe'); devices found: " +
      (Names.empty() ? std::string("none") : llvm::join(Names, ", ")) +
      NoLavapipeHint);
}

Error RunnerState::createDevice() {
  uint32_t ExtCount = 0;
  if (Error E = check(vkEnumerateDeviceExtensionProperties(Physical, nullptr,
                                                           &ExtCount, nullptr),
                      "vkEnumerateDeviceExtensionProperties"))
    return E;
  std::vector<VkExtensionProperties> Exts(ExtCount);
  if (Error E = check(vkEnumerateDeviceExtensionProperties(
                          Physical, nullptr, &ExtCount, Exts.data()),
                      "vkEnumerateDeviceExtensionProperties"))
    return E;
  auto HasExt = [&](const char *Name) {
    return llvm::any_of(Exts, [&](const VkExtensionProperties &P) {
      return std::strcmp(P.extensionName, Name) == 0;
    });
  };

  // Query and enable the same chain: whatever the driver reports.
  bool Is13 = ApiVersion >= VK_API_VERSION_1_3;
  bool SizeControlExt =
      !Is13 && HasExt(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  std::vector<const char *> EnabledExts;
  DeviceFeatures &F = Enabled;
  void **Tail = &F.Core.pNext;
  auto Append = [&](auto &S) {
    *Tail = &S;
    Tail = &S.pNext;
  };
  Append(F.Vulkan11);
  Append(F.Vulkan12);
  if (Is13)
    Append(F.Vulkan13);
  // The promoted structure must not be chained next to Vulkan13Features.
  if (SizeControlExt) {
    Append(F.SizeControl);
    EnabledExts.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  }
  bool AtomicFloat = HasExt(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (AtomicFloat) {
    Append(F.AtomicFloat);
    EnabledExts.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    // atomic_float2 requires atomic_float.
    if (HasExt(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME)) {
      Append(F.AtomicFloat2);
      EnabledExts.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
    }
  }
  if (HasExt(VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME)) {
    Append(F.WorkgroupLayout);
    EnabledExts.push_back(
        VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME);
  }
  // The graphics runner's fixed-function extensions, each where the
  // driver has it (jobs that need a missing one fail naming it).
  auto Optional = [&](const char *Name, bool &Enabled, auto &Features) {
    if (!HasExt(Name))
      return;
    Enabled = true;
    Append(Features);
    EnabledExts.push_back(Name);
  };
  Optional(VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME,
           Extensions.VertexDivisor, F.VertexDivisor);
  Optional(VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME,
           Extensions.LineRasterization, F.LineRasterization);
  Optional(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME, Extensions.ProvokingVertex,
           F.ProvokingVertex);
  Optional(VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME, Extensions.IndexTypeUint8,
           F.IndexTypeUint8);
  Optional(VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME,
           Extensions.ListRestart, F.ListRestart);
  if (HasExt(VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME)) {
    Extensions.StencilExport = true;
    EnabledExts.push_back(VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME);
  }
  bool Robustness2 =
      Options.RobustAccess && HasExt(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
  if (Robustness2) {
    Append(F.Robustness2);
    EnabledExts.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
  }
  vkGetPhysicalDeviceFeatures2(Physical, &F.Core);
  // Needs transform feedback, which the runners do not enable.
  F.ProvokingVertex.transformFeedbackPreservesProvokingVertex = VK_FALSE;
  // Robustness defines out-of-bounds results that our JIT does not; a
  // reference must not hide a shader's out-of-bounds access behind them,
  // unless the test asks for them (image ops promise zero there).
  if (!Options.RobustAccess) {
    F.Core.features.robustBufferAccess = VK_FALSE;
    F.Vulkan13.robustImageAccess = VK_FALSE;
  } else if (!Is13) {
    F.Vulkan13.robustImageAccess = VK_FALSE; // not chained on 1.2
  }
  // No null descriptors: every binding the runner makes is real.
  F.Robustness2.nullDescriptor = VK_FALSE;

  uint32_t FamilyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(Physical, &FamilyCount, nullptr);
  std::vector<VkQueueFamilyProperties> Families(FamilyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(Physical, &FamilyCount,
                                           Families.data());
  // One queue for both runners: graphics and compute.
  const VkQueueFlags Wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
  auto It = llvm::find_if(Families, [&](const VkQueueFamilyProperties &P) {
    return (P.queueFlags & Wanted) == Wanted;
  });
  if (It == Families.end())
    return makeError(llvm::Twine(Props.deviceName) +
                     " has no queue family for graphics and compute");
  QueueFamily = static_cast<uint32_t>(It - Families.begin());

  float Priority = 1.0f;
  VkDeviceQueueCreateInfo QueueInfo = makeStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  QueueInfo.queueFamilyIndex = QueueFamily;
  QueueInfo.queueCount = 1;
  QueueInfo.pQueuePriorities = &Priority;
  VkDeviceCreateInfo Info =
      makeStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  Info.pNext = &F.Core; // features come from the chain, not pEnabledFeatures
  Info.queueCreateInfoCount = 1;
  Info.pQueueCreateInfos = &QueueInfo;
  Info.enabledExtensionCount = static_cast<uint32_t>(EnabledExts.size());
  Info.ppEnabledExtensionNames = EnabledExts.data();
  if (Error E = check(vkCreateDevice(Physical, &Info, nullptr, &Device),
                      "vkCreateDevice"))
    return E;
  vkGetDeviceQueue(Device, QueueFamily, 0, &Queue);

  VkCommandPoolCreateInfo PoolInfo = makeStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  PoolInfo.queueFamilyIndex = QueueFamily;
  if (Error E =
          check(vkCreateCommandPool(Device, &PoolInfo, nullptr, &CommandPool),
                "vkCreateCommandPool"))
    return E;

  // Reporting only from here on: record the subgroup facts.
  if (SizeControlExt) {
    F.Vulkan13.subgroupSizeControl = F.SizeControl.subgroupSizeControl;
    F.Vulkan13.computeFullSubgroups = F.SizeControl.computeFullSubgroups;
  }
  auto SubgroupProps = makeStruct<VkPhysicalDeviceSubgroupProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  auto SizeProps = makeStruct<VkPhysicalDeviceSubgroupSizeControlProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
  auto Props2 = makeStruct<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  Props2.pNext = &SubgroupProps;
  if (Is13 || SizeControlExt)
    SubgroupProps.pNext = &SizeProps;
  vkGetPhysicalDeviceProperties2(Physical, &Props2);
  Subgroups.DefaultSize = SubgroupProps.subgroupSize;
  if (SubgroupProps.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)
    Subgroups.SupportedOperations = SubgroupProps.supportedOperations;
  Subgroups.SizeControl =
      F.Vulkan13.subgroupSizeControl &&
      (SizeProps.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  Subgroups.MinSize =
      Subgroups.SizeControl ? SizeProps.minSubgroupSize : Subgroups.DefaultSize;
  Subgroups.MaxSize =
      Subgroups.SizeControl ? SizeProps.maxSubgroupSize : Subgroups.DefaultSize;
  return Error::success();
}

Expected<uint32_t> RunnerState::findHostMemoryType(uint32_t TypeBits) const {
  // Coherent, so that neither the upload nor the read-back needs a flush
  // or an invalidate; lavapipe's only memory type has every property.
  const VkMemoryPropertyFlags Wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t I = 0; I < MemoryProps.memoryTypeCount; ++I)
    if ((TypeBits & (1u << I)) &&
        (MemoryProps.memoryTypes[I].propertyFlags & Wanted) == Wanted)
      return I;
  return makeError("no host-visible, host-coherent memory type for a buffer");
}

Error RunnerState::createHostBuffer(VkDeviceSize Size, VkBufferUsageFlags Usage,
                                    bool DeviceAddress, HostBuffer &B) const {
  VkDevice Dev = Device;
  {
    B.Size = Size;
    VkBufferCreateInfo Info =
        makeStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    Info.size = B.Size;
    Info.usage = Usage;
    if (DeviceAddress)
      Info.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    Info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (Error E = check(vkCreateBuffer(Dev, &Info, nullptr, &B.Handle),
                        "vkCreateBuffer"))
      return E;
    VkMemoryRequirements Req;
    vkGetBufferMemoryRequirements(Dev, B.Handle, &Req);
    Expected<uint32_t> Type = findHostMemoryType(Req.memoryTypeBits);
    if (!Type)
      return Type.takeError();
    VkMemoryAllocateInfo Alloc = makeStruct<VkMemoryAllocateInfo>(
        VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    Alloc.allocationSize = Req.size;
    Alloc.memoryTypeIndex = *Type;
    auto Flags = makeStruct<VkMemoryAllocateFlagsInfo>(
        VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
    Flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    if (DeviceAddress)
      Alloc.pNext = &Flags;
    if (Error E = check(vkAllocateMemory(Dev, &Alloc, nullptr, &B.Memory),
                        "vkAllocateMemory"))
      return E;
    if (Error E = check(vkBindBufferMemory(Dev, B.Handle, B.Memory, 0),
                        "vkBindBufferMemory"))
      return E;
    if (Error E =
            check(vkMapMemory(Dev, B.Memory, 0, VK_WHOLE_SIZE, 0, &B.Mapped),
                  "vkMapMemory"))
      return E;
  }
  return Error::success();
}

void RunnerState::destroy(HostBuffer &B) const {
  if (B.Handle)
    vkDestroyBuffer(Device, B.Handle, nullptr);
  if (B.Memory)
    vkFreeMemory(Device, B.Memory, nullptr); // unmaps implicitly
  B = HostBuffer();
}

Expected<std::unique_ptr<RunnerState>>
RunnerState::create(const VkRunnerOptions &Options) {
  auto I = std::make_unique<RunnerState>();
  I->Options = Options;
  if (Error E = I->createInstance())
    return E;
  if (Error E = I->pickDevice())
    return E;
  if (Error E = I->createDevice())
    return E;
  return I;
}

} // namespace spirv2llvm::vk::detail
