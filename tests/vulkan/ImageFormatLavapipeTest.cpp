//===- ImageFormatLavapipeTest.cpp - Texel decoding against lavapipe ------===//
//
// For each sampled format lavapipe supports: random bytes are copied into a
// 2D image (vkCmdCopyBufferToImage), a compute shader texelFetches every
// texel into a buffer, and the values are compared with decodeTexel (one
// texel at a time) or decodeBlock (BC). So the layout and conversion of
// each format is checked against Mesa's, not only against our reading of
// the spec.
//
// Writes (imageStore into each storage format, copied back) are compared
// with encodeTexel bit for bit, except where Vulkan allows either of the two
// nearest values (see writeAllowed).
//
// Comparison of reads: integer views bit for bit; float views exactly, except
//  - NaN equals NaN (payloads are not compared);
//  - a denormal may read as zero of the same sign: llvmpipe runs shaders
//    with denormals flushed, which Vulkan allows unless DenormPreserve;
//  - UNORM/SNORM within 1e-6 (lavapipe multiplies by 1/(2^b - 1) rather
//    than dividing, which can differ in the last bit);
//  - sRGB within 0.5/255: llvmpipe's shader code approximates the EOTF
//    with a polynomial (measured: up to 1e-3 away from the exact value we
//    compute); a missing or wrong conversion is off by far more;
//  - BC within 2/255 for unsigned, 2/127 for signed and 5/255 for sRGB
//    (after linearization): Mesa decodes S3TC/RGTC to 8 bits with integer
//    interpolation truncated toward zero, and interpolates signed blocks
//    from -128 rather than -127 (differences of up to 1.6 steps
//    measured), where the format
//    specification interpolates in float; both are allowed. A wrong mode,
//    index or endpoint is off by a third of the endpoint distance or more.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/ImageFormat.h"

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

using namespace spirv2llvm;

namespace {

#define VK_OK(Call)                                                            \
  do {                                                                         \
    VkResult R_ = (Call);                                                      \
    ASSERT_EQ(R_, VK_SUCCESS) << #Call;                                        \
  } while (0)

std::vector<uint32_t> readSpv(const std::string &Name) {
  std::ifstream In(std::string(S2L_SPV_DIR) + "/" + Name, std::ios::binary);
  std::vector<char> B{std::istreambuf_iterator<char>(In), {}};
  std::vector<uint32_t> W(B.size() / 4);
  std::memcpy(W.data(), B.data(), W.size() * 4);
  return W;
}

/// Instance, lavapipe device, queue, the three fetch pipelines.
class ImageFormatLavapipe : public ::testing::Test {
public:
  struct State;

protected:
  static void SetUpTestSuite() {
    S = new State();
    S->init();
  }
  static void TearDownTestSuite() {
    S->destroy();
    delete S;
    S = nullptr;
  }
  void SetUp() override {
    if (!S->Device)
      GTEST_SKIP() << "no lavapipe device: " << S->Why;
  }

public:
  struct State {
    VkInstance Instance = VK_NULL_HANDLE;
    VkPhysicalDevice Phys = VK_NULL_HANDLE;
    VkDevice Device = VK_NULL_HANDLE;
    VkQueue Queue = VK_NULL_HANDLE;
    uint32_t Family = 0;
    VkCommandPool Pool = VK_NULL_HANDLE;
    // [Direction]: Fetch (sampled image -> buffer), Store (buffer ->
    // storage image); pipelines [Direction][ViewKind].
    VkDescriptorSetLayout SetLayout[2] = {};
    VkPipelineLayout Layout[2] = {};
    VkPipeline Pipelines[2][3] = {};
    std::string Why;

    void init();
    void destroy();
    uint32_t memoryType(uint32_t Bits) const {
      VkPhysicalDeviceMemoryProperties P;
      vkGetPhysicalDeviceMemoryProperties(Phys, &P);
      for (uint32_t I = 0; I < P.memoryTypeCount; ++I)
        if ((Bits & (1u << I)) && (P.memoryTypes[I].propertyFlags &
                                   (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) ==
                                      (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
          return I;
      return 0;
    }
  };

protected:
  static State *S;

  enum Direction { Fetch = 0, Store = 1 };
  /// Fetch: uploads In (texels) as a Width x Height image of F and
  /// texelFetches it with the pipeline of View; Out gets Width*Height*16
  /// bytes of vec4s. Store: imageStores In (vec4s) into a storage image of
  /// F and copies it back; Out gets the texels.
  void run(Direction Dir, Format F, uint32_t Width, uint32_t Height,
           const std::vector<uint8_t> &In, ViewKind View,
           std::vector<uint8_t> &Out);
  void fetch(Format F, uint32_t Width, uint32_t Height,
             const std::vector<uint8_t> &Bytes, ViewKind View,
             std::vector<uint8_t> &Out) {
    run(Fetch, F, Width, Height, Bytes, View, Out);
  }
};
ImageFormatLavapipe::State *ImageFormatLavapipe::S = nullptr;

void ImageFormatLavapipe::State::init() {
  VkApplicationInfo App{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  App.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ICI{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ICI.pApplicationInfo = &App;
  if (vkCreateInstance(&ICI, nullptr, &Instance) != VK_SUCCESS) {
    Why = "vkCreateInstance failed";
    Instance = VK_NULL_HANDLE;
    return;
  }
  uint32_t N = 0;
  vkEnumeratePhysicalDevices(Instance, &N, nullptr);
  std::vector<VkPhysicalDevice> Devs(N);
  vkEnumeratePhysicalDevices(Instance, &N, Devs.data());
  for (VkPhysicalDevice D : Devs) {
    VkPhysicalDeviceProperties P;
    vkGetPhysicalDeviceProperties(D, &P);
    if (std::strstr(P.deviceName, "llvmpipe"))
      Phys = D;
  }
  if (!Phys) {
    Why = "no llvmpipe among " + std::to_string(N) + " devices";
    return;
  }
  uint32_t NF = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(Phys, &NF, nullptr);
  std::vector<VkQueueFamilyProperties> Fams(NF);
  vkGetPhysicalDeviceQueueFamilyProperties(Phys, &NF, Fams.data());
  for (uint32_t I = 0; I < NF; ++I)
    if (Fams[I].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      Family = I;
      break;
    }
  VkPhysicalDeviceFeatures Supported, Enabled{};
  vkGetPhysicalDeviceFeatures(Phys, &Supported);
  Enabled.textureCompressionBC = Supported.textureCompressionBC;
  Enabled.shaderStorageImageWriteWithoutFormat =
      Supported.shaderStorageImageWriteWithoutFormat;
  float Prio = 1;
  VkDeviceQueueCreateInfo QCI{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  QCI.queueFamilyIndex = Family;
  QCI.queueCount = 1;
  QCI.pQueuePriorities = &Prio;
  VkDeviceCreateInfo DCI{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  DCI.queueCreateInfoCount = 1;
  DCI.pQueueCreateInfos = &QCI;
  DCI.pEnabledFeatures = &Enabled;
  if (vkCreateDevice(Phys, &DCI, nullptr, &Device) != VK_SUCCESS) {
    Why = "vkCreateDevice failed";
    Device = VK_NULL_HANDLE;
    return;
  }
  vkGetDeviceQueue(Device, Family, 0, &Queue);
  VkCommandPoolCreateInfo PCI{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  PCI.queueFamilyIndex = Family;
  vkCreateCommandPool(Device, &PCI, nullptr, &Pool);

  for (int Dir = 0; Dir < 2; ++Dir) {
    VkDescriptorSetLayoutBinding B[2] = {};
    B[0].binding = 0;
    B[0].descriptorType = Dir == 0 ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
                                   : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    B[0].descriptorCount = 1;
    B[0].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    B[1] = B[0];
    B[1].binding = 1;
    B[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    VkDescriptorSetLayoutCreateInfo SLI{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    SLI.bindingCount = 2;
    SLI.pBindings = B;
    vkCreateDescriptorSetLayout(Device, &SLI, nullptr, &SetLayout[Dir]);
    VkPushConstantRange PR{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo PLI{
        VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    PLI.setLayoutCount = 1;
    PLI.pSetLayouts = &SetLayout[Dir];
    PLI.pushConstantRangeCount = 1;
    PLI.pPushConstantRanges = &PR;
    vkCreatePipelineLayout(Device, &PLI, nullptr, &Layout[Dir]);
    const char *Names[2][3] = {{"image_fetch_float.spv", "image_fetch_int.spv",
                                "image_fetch_uint.spv"},
                               {"image_store_float.spv", "image_store_int.spv",
                                "image_store_uint.spv"}};
    for (int I = 0; I < 3; ++I) {
      std::vector<uint32_t> Code = readSpv(Names[Dir][I]);
      VkShaderModuleCreateInfo MCI{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      MCI.codeSize = Code.size() * 4;
      MCI.pCode = Code.data();
      VkShaderModule M;
      if (Code.empty() ||
          vkCreateShaderModule(Device, &MCI, nullptr, &M) != VK_SUCCESS) {
        Why = std::string("cannot load ") + Names[Dir][I];
        destroy();
        return;
      }
      VkComputePipelineCreateInfo CPI{
          VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      CPI.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
      CPI.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
      CPI.stage.module = M;
      CPI.stage.pName = "main";
      CPI.layout = Layout[Dir];
      vkCreateComputePipelines(Device, VK_NULL_HANDLE, 1, &CPI, nullptr,
                               &Pipelines[Dir][I]);
      vkDestroyShaderModule(Device, M, nullptr);
    }
  }
}

void ImageFormatLavapipe::State::destroy() {
  if (Device) {
    for (int Dir = 0; Dir < 2; ++Dir) {
      for (VkPipeline P : Pipelines[Dir])
        if (P)
          vkDestroyPipeline(Device, P, nullptr);
      vkDestroyPipelineLayout(Device, Layout[Dir], nullptr);
      vkDestroyDescriptorSetLayout(Device, SetLayout[Dir], nullptr);
    }
    vkDestroyCommandPool(Device, Pool, nullptr);
    vkDestroyDevice(Device, nullptr);
    Device = VK_NULL_HANDLE;
  }
  if (Instance)
    vkDestroyInstance(Instance, nullptr);
  Instance = VK_NULL_HANDLE;
}

struct HostBuffer {
  VkDevice Dev;
  VkBuffer Buf = VK_NULL_HANDLE;
  VkDeviceMemory Mem = VK_NULL_HANDLE;
  void *Map = nullptr;
  ~HostBuffer() {
    if (Buf)
      vkDestroyBuffer(Dev, Buf, nullptr);
    if (Mem)
      vkFreeMemory(Dev, Mem, nullptr);
  }
};

void makeBuffer(const ImageFormatLavapipe::State &S, VkDeviceSize Size,
                VkBufferUsageFlags Usage, HostBuffer &B) {
  B.Dev = S.Device;
  VkBufferCreateInfo CI{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  CI.size = Size;
  CI.usage = Usage;
  VK_OK(vkCreateBuffer(S.Device, &CI, nullptr, &B.Buf));
  VkMemoryRequirements R;
  vkGetBufferMemoryRequirements(S.Device, B.Buf, &R);
  VkMemoryAllocateInfo AI{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  AI.allocationSize = R.size;
  AI.memoryTypeIndex = S.memoryType(R.memoryTypeBits);
  VK_OK(vkAllocateMemory(S.Device, &AI, nullptr, &B.Mem));
  VK_OK(vkBindBufferMemory(S.Device, B.Buf, B.Mem, 0));
  VK_OK(vkMapMemory(S.Device, B.Mem, 0, Size, 0, &B.Map));
}

void ImageFormatLavapipe::run(Direction Dir, Format F, uint32_t Width,
                              uint32_t Height, const std::vector<uint8_t> &In,
                              ViewKind View, std::vector<uint8_t> &Out) {
  VkDevice Dev = S->Device;
  const FormatInfo *Info = formatInfo(F);
  VkImageAspectFlags Aspect = Info->hasDepth()     ? VK_IMAGE_ASPECT_DEPTH_BIT
                              : Info->hasStencil() ? VK_IMAGE_ASPECT_STENCIL_BIT
                                                   : VK_IMAGE_ASPECT_COLOR_BIT;
  // Fetch: Staging (texels) -> image -> shader -> Values (vec4s).
  // Store: Values (vec4s) -> shader -> image -> Staging (texels).
  size_t TexelBytes = size_t(Width) * Height * Info->BlockBytes /
                      (Info->BlockWidth * Info->BlockHeight);
  size_t ValueBytes = size_t(Width) * Height * 16;
  HostBuffer Staging, Values;
  makeBuffer(*S, TexelBytes,
             VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
             Staging);
  makeBuffer(*S, ValueBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, Values);
  if (Dir == Fetch) {
    std::memcpy(Staging.Map, In.data(), TexelBytes);
    std::memset(Values.Map, 0xcd, ValueBytes);
  } else {
    std::memcpy(Values.Map, In.data(), ValueBytes);
    std::memset(Staging.Map, 0xcd, TexelBytes);
  }
  VkDescriptorType ImageType = Dir == Fetch ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
                                            : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  VkImageLayout ShaderLayout = Dir == Fetch
                                   ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
                                   : VK_IMAGE_LAYOUT_GENERAL;

  VkImageCreateInfo ICI{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ICI.imageType = VK_IMAGE_TYPE_2D;
  ICI.format = VkFormat(F);
  ICI.extent = {Width, Height, 1};
  ICI.mipLevels = 1;
  ICI.arrayLayers = 1;
  ICI.samples = VK_SAMPLE_COUNT_1_BIT;
  ICI.tiling = VK_IMAGE_TILING_OPTIMAL;
  ICI.usage =
      Dir == Fetch
          ? VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT
          : VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage Img;
  VK_OK(vkCreateImage(Dev, &ICI, nullptr, &Img));
  VkMemoryRequirements R;
  vkGetImageMemoryRequirements(Dev, Img, &R);
  VkMemoryAllocateInfo AI{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  AI.allocationSize = R.size;
  AI.memoryTypeIndex = S->memoryType(R.memoryTypeBits);
  VkDeviceMemory ImgMem;
  VK_OK(vkAllocateMemory(Dev, &AI, nullptr, &ImgMem));
  VK_OK(vkBindImageMemory(Dev, Img, ImgMem, 0));
  VkImageViewCreateInfo VCI{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  VCI.image = Img;
  VCI.viewType = VK_IMAGE_VIEW_TYPE_2D;
  VCI.format = VkFormat(F);
  VCI.subresourceRange = {Aspect, 0, 1, 0, 1};
  VkImageView ImgView;
  VK_OK(vkCreateImageView(Dev, &VCI, nullptr, &ImgView));

  VkDescriptorPoolSize Sizes[2] = {{ImageType, 1},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
  VkDescriptorPoolCreateInfo DPI{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  DPI.maxSets = 1;
  DPI.poolSizeCount = 2;
  DPI.pPoolSizes = Sizes;
  VkDescriptorPool DPool;
  VK_OK(vkCreateDescriptorPool(Dev, &DPI, nullptr, &DPool));
  VkDescriptorSetAllocateInfo SAI{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  SAI.descriptorPool = DPool;
  SAI.descriptorSetCount = 1;
  SAI.pSetLayouts = &S->SetLayout[Dir];
  VkDescriptorSet Set;
  VK_OK(vkAllocateDescriptorSets(Dev, &SAI, &Set));
  VkDescriptorImageInfo DII{VK_NULL_HANDLE, ImgView, ShaderLayout};
  VkDescriptorBufferInfo DBI{Values.Buf, 0, ValueBytes};
  VkWriteDescriptorSet W[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
                               {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  W[0].dstSet = Set;
  W[0].dstBinding = 0;
  W[0].descriptorCount = 1;
  W[0].descriptorType = ImageType;
  W[0].pImageInfo = &DII;
  W[1].dstSet = Set;
  W[1].dstBinding = 1;
  W[1].descriptorCount = 1;
  W[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  W[1].pBufferInfo = &DBI;
  vkUpdateDescriptorSets(Dev, 2, W, 0, nullptr);

  VkCommandBufferAllocateInfo CAI{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  CAI.commandPool = S->Pool;
  CAI.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  CAI.commandBufferCount = 1;
  VkCommandBuffer Cmd;
  VK_OK(vkAllocateCommandBuffers(Dev, &CAI, &Cmd));
  VkCommandBufferBeginInfo BI{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  VK_OK(vkBeginCommandBuffer(Cmd, &BI));
  VkImageMemoryBarrier IB{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  IB.srcQueueFamilyIndex = IB.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  IB.image = Img;
  IB.subresourceRange = {Aspect, 0, 1, 0, 1};
  VkBufferImageCopy Copy{};
  Copy.imageSubresource = {Aspect, 0, 0, 1};
  Copy.imageExtent = {Width, Height, 1};
  if (Dir == Fetch) {
    IB.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    IB.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    IB.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(Cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &IB);
    vkCmdCopyBufferToImage(Cmd, Staging.Buf, Img,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &Copy);
    IB.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    IB.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  } else {
    IB.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  }
  IB.newLayout = ShaderLayout;
  IB.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(
      Cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 1, &IB);
  vkCmdBindPipeline(Cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                    S->Pipelines[Dir][int(View)]);
  vkCmdBindDescriptorSets(Cmd, VK_PIPELINE_BIND_POINT_COMPUTE, S->Layout[Dir],
                          0, 1, &Set, 0, nullptr);
  int32_t Push[2] = {int32_t(Width), int32_t(Height)};
  vkCmdPushConstants(Cmd, S->Layout[Dir], VK_SHADER_STAGE_COMPUTE_BIT, 0, 8,
                     Push);
  vkCmdDispatch(Cmd, (Width * Height + 63) / 64, 1, 1);
  if (Dir == Store) {
    IB.oldLayout = ShaderLayout;
    IB.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    IB.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    IB.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(Cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &IB);
    vkCmdCopyImageToBuffer(Cmd, Img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           Staging.Buf, 1, &Copy);
  }
  VkMemoryBarrier MB{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  MB.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  MB.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(
      Cmd,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &MB, 0, nullptr, 0, nullptr);
  VK_OK(vkEndCommandBuffer(Cmd));
  VkSubmitInfo SI{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  SI.commandBufferCount = 1;
  SI.pCommandBuffers = &Cmd;
  VK_OK(vkQueueSubmit(S->Queue, 1, &SI, VK_NULL_HANDLE));
  VK_OK(vkQueueWaitIdle(S->Queue));
  const HostBuffer &Result = Dir == Fetch ? Values : Staging;
  size_t OutSize = Dir == Fetch ? ValueBytes : TexelBytes;
  Out.assign(static_cast<uint8_t *>(Result.Map),
             static_cast<uint8_t *>(Result.Map) + OutSize);
  vkFreeCommandBuffers(Dev, S->Pool, 1, &Cmd);
  vkDestroyDescriptorPool(Dev, DPool, nullptr);
  vkDestroyImageView(Dev, ImgView, nullptr);
  vkDestroyImage(Dev, Img, nullptr);
  vkFreeMemory(Dev, ImgMem, nullptr);
}

/// Up to 8 bytes as a little-endian number, for messages.
uint64_t getLE(const uint8_t *P, unsigned Bytes) {
  uint64_t V = 0;
  for (unsigned I = std::min(Bytes, 8u); I-- > 0;)
    V = V << 8 | P[I];
  return V;
}

bool isNormalized(NumericKind N) {
  return N == NumericKind::UNorm || N == NumericKind::SNorm ||
         N == NumericKind::SRGB;
}

/// Whether lavapipe's float L matches ours, O (see the file comment).
bool floatMatches(float L, float O, float Tolerance) {
  if (std::isnan(O) || std::isnan(L))
    return std::isnan(O) && std::isnan(L);
  if (std::bit_cast<uint32_t>(L) == std::bit_cast<uint32_t>(O))
    return true;
  if (O != 0 && std::fpclassify(O) == FP_SUBNORMAL && L == 0 &&
      std::signbit(L) == std::signbit(O))
    return true;
  return std::fabs(L - O) <= Tolerance;
}

TEST_F(ImageFormatLavapipe, EveryUncompressedSampledFormat) {
  std::mt19937 Rng(7);
  const uint32_t W = 16, H = 16;
  unsigned Tested = 0;
  std::string Skipped;
  for (const FormatInfo &I : allFormats()) {
    if (I.isCompressed() || (I.hasDepth() && I.hasStencil()))
      continue; // combined depth/stencil: one aspect per copy, not here
    if (I.has64BitComponents())
      continue; // vertex formats only here
    VkFormatProperties P;
    vkGetPhysicalDeviceFormatProperties(S->Phys, VkFormat(I.Fmt), &P);
    if (!(P.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)) {
      Skipped += std::string(" ") + std::string(I.Name);
      continue;
    }
    std::vector<uint8_t> Bytes(size_t(W) * H * I.BlockBytes);
    for (uint8_t &B : Bytes)
      B = uint8_t(Rng());
    if (I.Fmt == Format::D32_SFLOAT) // Depth images hold [0, 1] only.
      for (size_t T = 0; T < size_t(W) * H; ++T) {
        float V = float(Rng() % 100001) / 100000.0f;
        std::memcpy(&Bytes[T * 4], &V, 4);
      }
    if (I.Fmt == Format::X8_D24_UNORM_PACK32) // The X8 bits are undefined.
      for (size_t T = 0; T < size_t(W) * H; ++T)
        Bytes[T * 4 + 3] = 0;
    std::vector<uint8_t> Out;
    ViewKind View = I.view();
    fetch(I.Fmt, W, H, Bytes, View, Out);
    if (HasFatalFailure())
      return;
    ++Tested;
    float Tolerance = I.isSRGB()                              ? 0.5f / 255
                      : isNormalized(I.Components[0].Numeric) ? 1e-6f
                                                              : 0.0f;
    unsigned Bad = 0;
    for (size_t T = 0; T < size_t(W) * H && Bad < 4; ++T) {
      const uint8_t *Src = &Bytes[T * I.BlockBytes];
      const uint8_t *Got = &Out[T * 16];
      if (View == ViewKind::Float) {
        Float4 O, L;
        ASSERT_TRUE(decodeTexel(I.Fmt, Src, O).ok());
        std::memcpy(L.data(), Got, 16);
        for (int C = 0; C < 4; ++C)
          if (!floatMatches(L[C], O[C], Tolerance)) {
            ADD_FAILURE() << I.Name << " texel " << T << " component " << C
                          << ": lavapipe " << L[C] << ", ours " << O[C];
            ++Bad;
          }
      } else {
        UInt4 O, L;
        Status St = View == ViewKind::UInt
                        ? decodeTexel(I.Fmt, Src, O)
                        : decodeTexel(I.Fmt, Src, reinterpret_cast<Int4 &>(O));
        ASSERT_TRUE(St.ok());
        std::memcpy(L.data(), Got, 16);
        for (int C = 0; C < 4; ++C)
          if (L[C] != O[C]) {
            ADD_FAILURE() << I.Name << " texel " << T << " component " << C
                          << ": lavapipe " << L[C] << ", ours " << O[C];
            ++Bad;
          }
      }
    }
  }
  std::cout << "compared " << Tested << " formats with lavapipe; not sampled "
            << "there:" << (Skipped.empty() ? " none" : Skipped) << "\n";
  EXPECT_GE(Tested, 70u); // lavapipe (Mesa 22.3) samples 70 of them
}

uint32_t bitsAt(const uint8_t *T, const ComponentInfo &C) {
  uint32_t V = 0;
  for (unsigned B = 0; B < C.Bits; ++B)
    V |= uint32_t((T[(C.Offset + B) / 8] >> ((C.Offset + B) % 8)) & 1) << B;
  return V;
}

/// Whether lavapipe's write of component C (Got) is one Vulkan allows when
/// ours is Expected, for the 32-bit input value at In. Vulkan lets a
/// float-to-normalized conversion return either of the two closest values
/// ("should" round to nearest), and lets float-to-half and to the small
/// unsigned floats round toward zero (lavapipe does, so a finite value
/// beyond the largest half writes 0x7bff where we write infinity). NaN
/// payloads are not compared.
bool writeAllowed(const ComponentInfo &C, const uint8_t *Expected,
                  const uint8_t *Got, const uint8_t *In) {
  uint32_t E = bitsAt(Expected, C), G = bitsAt(Got, C);
  if (E == G)
    return true;
  float Input;
  std::memcpy(&Input, In, 4);
  switch (C.Numeric) {
  case NumericKind::UNorm:
    return E - G == 1 || G - E == 1;
  case NumericKind::SNorm: {
    int32_t D = int32_t(E << (32 - C.Bits)) - int32_t(G << (32 - C.Bits));
    return D == int32_t(1u << (32 - C.Bits)) ||
           D == -int32_t(1u << (32 - C.Bits));
  }
  case NumericKind::SFloat:
  case NumericKind::UFloat: {
    if (C.Bits == 32)
      return std::isnan(Input);
    unsigned M = C.Bits == 16 ? 10 : C.Bits - 5;
    uint32_t ExpAll = 0x1fu << M;
    auto IsNaN = [&](uint32_t V) {
      return (V & ExpAll) == ExpAll && (V & ((1u << M) - 1));
    };
    if (IsNaN(E) && IsNaN(G))
      return true;
    if (!std::isfinite(Input))
      return false;
    // The small unsigned floats never write infinity for a finite value
    // (the spec clamps to the largest finite one).
    if (C.Numeric == NumericKind::UFloat && E == ExpAll)
      return false;
    uint32_t Sign = C.Bits == 16 ? 0x8000u : 0u;
    // One code toward zero, same sign.
    return (E & Sign) == (G & Sign) && (E & ~Sign) == (G & ~Sign) + 1;
  }
  default:
    return false;
  }
}

/// A value for a component of kind N in a store test: in range and out of
/// range, the edges, and for float kinds specials and small/large
/// magnitudes. Never NaN for normalized kinds (where Vulkan does not say
/// what NaN becomes).
float storeValue(NumericKind N, std::mt19937 &Rng) {
  unsigned Pick = Rng() % 16;
  float U = float(int32_t(Rng() % 2000001) - 1000000) / 800000.0f; // +-1.25
  bool IsFloat = N == NumericKind::SFloat || N == NumericKind::UFloat;
  if (!IsFloat) {
    static const float Edges[] = {0.0f, 1.0f,  -1.0f,    0.5f,
                                  7.0f, -7.0f, INFINITY, -INFINITY};
    return Pick < 8 ? Edges[Pick] : U;
  }
  static const float Specials[] = {0.0f,     -0.0f,    INFINITY, -INFINITY, NAN,
                                   65504.0f, 65520.0f, 1e10f,    65024.0f};
  if (Pick < 9)
    return Specials[Pick];
  // A random magnitude between 2^-30 and 2^20, either sign.
  float M = std::ldexp(1.0f + float(Rng() % 1024) / 1024, int(Rng() % 51) - 30);
  return Rng() % 2 ? M : -M;
}

TEST_F(ImageFormatLavapipe, EveryStorageFormatWrite) {
  VkPhysicalDeviceFeatures Features;
  vkGetPhysicalDeviceFeatures(S->Phys, &Features);
  if (!Features.shaderStorageImageWriteWithoutFormat)
    GTEST_SKIP() << "no shaderStorageImageWriteWithoutFormat";
  std::mt19937 Rng(3);
  const uint32_t W = 32, H = 32;
  unsigned Tested = 0, Neighbours = 0;
  for (const FormatInfo &I : allFormats()) {
    if (I.isCompressed() || I.hasDepth() || I.hasStencil() ||
        I.has64BitComponents())
      continue;
    VkFormatProperties P;
    vkGetPhysicalDeviceFormatProperties(S->Phys, VkFormat(I.Fmt), &P);
    if (!(P.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
      continue;
    ViewKind View = I.view();
    // The values, as the shader reads them (vec4/ivec4/uvec4), in range
    // for integer formats (Vulkan leaves out-of-range integer writes
    // undefined).
    std::vector<uint8_t> Values(size_t(W) * H * 16);
    for (size_t T = 0; T < size_t(W) * H; ++T)
      for (unsigned C = 0; C < 4; ++C) {
        // The component the value slot C goes to (the first one when the
        // format has none there; that value is then dropped).
        const ComponentInfo *Target = &I.Components[0];
        for (unsigned K = 0; K < I.NumComponents; ++K)
          if (unsigned(I.Components[K].Channel) == C)
            Target = &I.Components[K];
        const ComponentInfo &CI = *Target;
        uint32_t Bits;
        if (View == ViewKind::Float) {
          Bits = std::bit_cast<uint32_t>(storeValue(CI.Numeric, Rng));
        } else {
          uint32_t Raw = Rng() & (CI.Bits == 32 ? ~0u : (1u << CI.Bits) - 1);
          if (View == ViewKind::SInt && CI.Bits < 32 &&
              (Raw >> (CI.Bits - 1)) & 1)
            Raw |= ~0u << CI.Bits; // sign-extend
          Bits = Raw;
        }
        std::memcpy(&Values[T * 16 + C * 4], &Bits, 4);
      }
    std::vector<uint8_t> Out;
    run(Store, I.Fmt, W, H, Values, View, Out);
    if (HasFatalFailure())
      return;
    ++Tested;
    unsigned Bad = 0;
    for (size_t T = 0; T < size_t(W) * H && Bad < 4; ++T) {
      uint8_t Expected[16] = {};
      const uint8_t *V = &Values[T * 16];
      Status St;
      if (View == ViewKind::Float) {
        Float4 F;
        std::memcpy(F.data(), V, 16);
        St = encodeTexel(I.Fmt, F, Expected);
      } else if (View == ViewKind::SInt) {
        Int4 F;
        std::memcpy(F.data(), V, 16);
        St = encodeTexel(I.Fmt, F, Expected);
      } else {
        UInt4 F;
        std::memcpy(F.data(), V, 16);
        St = encodeTexel(I.Fmt, F, Expected);
      }
      ASSERT_TRUE(St.ok()) << St.message();
      const uint8_t *Got = &Out[T * I.BlockBytes];
      if (std::memcmp(Expected, Got, I.BlockBytes) == 0)
        continue;
      bool Allowed = true;
      for (unsigned K = 0; K < I.NumComponents; ++K)
        Allowed &= writeAllowed(I.Components[K], Expected, Got,
                                &V[4 * unsigned(I.Components[K].Channel)]);
      if (Allowed) {
        ++Neighbours;
        continue;
      }
      float F[4];
      std::memcpy(F, V, 16);
      ADD_FAILURE() << I.Name << " texel " << T << " from (" << F[0] << ", "
                    << F[1] << ", " << F[2] << ", " << F[3]
                    << "): lavapipe wrote " << std::hex
                    << getLE(Got, I.BlockBytes) << ", we write "
                    << getLE(Expected, I.BlockBytes) << std::dec;
      ++Bad;
    }
  }
  std::cout << "compared writes of " << Tested << " storage formats ("
            << Tested * W * H << " texels); " << Neighbours
            << " texels differ by one allowed rounding step\n";
  EXPECT_GE(Tested, 44u); // lavapipe (Mesa 22.3) stores 44 of them
}

TEST_F(ImageFormatLavapipe, BlockCompressedFormats) {
  std::mt19937 Rng(11);
  const uint32_t W = 128, H = 128; // 1024 blocks
  unsigned Tested = 0;
  for (const FormatInfo &I : allFormats()) {
    if (!I.isCompressed())
      continue;
    uint8_t Probe[16] = {};
    Float4 Dummy[16];
    if (!decodeBlock(I.Fmt, Probe, Dummy).ok())
      continue; // a format decodeBlock does not decode (none today)
    VkFormatProperties P;
    vkGetPhysicalDeviceFormatProperties(S->Phys, VkFormat(I.Fmt), &P);
    if (!(P.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
      continue;
    const uint32_t BW = W / 4, BH = H / 4;
    std::vector<uint8_t> Bytes(size_t(BW) * BH * I.BlockBytes);
    for (uint8_t &B : Bytes)
      B = uint8_t(Rng());
    // BC7: every mode equally often (random first bytes would pick mode m
    // with probability 2^-(m+1)), and the reserved mode 8 once.
    bool BC7 =
        I.Fmt == Format::BC7_UNORM_BLOCK || I.Fmt == Format::BC7_SRGB_BLOCK;
    if (BC7)
      for (uint32_t B = 0; B < BW * BH; ++B) {
        uint8_t &First = Bytes[B * I.BlockBytes];
        unsigned Mode = B % 9;
        First = Mode == 8 ? 0 : uint8_t((First << (Mode + 1)) | (1u << Mode));
      }
    // BC6H: likewise for its 14 modes (2- and 5-bit mode fields) and one
    // reserved mode.
    bool BC6 = I.Fmt == Format::BC6H_UFLOAT_BLOCK ||
               I.Fmt == Format::BC6H_SFLOAT_BLOCK;
    if (BC6)
      for (uint32_t B = 0; B < BW * BH; ++B) {
        static const uint8_t ModeBits[15] = {0,  1,  2, 6, 10, 14, 18, 22,
                                             26, 30, 3, 7, 11, 15, 19};
        uint8_t &First = Bytes[B * I.BlockBytes];
        uint8_t M = ModeBits[B % 15];
        First = M < 2 ? uint8_t((First & ~3) | M) : uint8_t((First & ~31) | M);
      }
    std::vector<uint8_t> Out;
    fetch(I.Fmt, W, H, Bytes, ViewKind::Float, Out);
    if (HasFatalFailure())
      return;
    ++Tested;
    // BC7 is integer arithmetic throughout: exact but for 1/255 scaling
    // (and llvmpipe's sRGB approximation).
    float Tolerance = BC6          ? 0.0f
                      : BC7        ? (I.isSRGB() ? 0.5f / 255 : 1e-6f)
                      : I.isSRGB() ? 5.0f / 255
                      : I.Components[0].Numeric == NumericKind::SNorm
                          ? 2.0f / 127
                          : 2.0f / 255;
    unsigned Bad = 0;
    for (uint32_t B = 0; B < BW * BH && Bad < 4; ++B) {
      Float4 O[16];
      ASSERT_TRUE(decodeBlock(I.Fmt, &Bytes[B * I.BlockBytes], O).ok());
      for (int T = 0; T < 16; ++T) {
        uint32_t X = (B % BW) * 4 + T % 4, Y = (B / BW) * 4 + T / 4;
        Float4 L;
        std::memcpy(L.data(), &Out[(size_t(Y) * W + X) * 16], 16);
        for (int C = 0; C < 4; ++C)
          if (!(std::fabs(L[C] - O[T][C]) <= Tolerance) &&
              !(std::isnan(L[C]) && std::isnan(O[T][C]))) {
            ADD_FAILURE() << I.Name << " block " << B << " texel " << T
                          << " component " << C << ": lavapipe " << L[C]
                          << ", ours " << O[T][C];
            ++Bad;
          }
      }
    }
  }
  EXPECT_EQ(Tested, 16u) << "BC1-BC7 should all be sampled by lavapipe";
}

} // namespace
