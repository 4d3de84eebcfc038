//===- MipChainLavapipeTest.cpp - Mip chains: blits vs lavapipe -----------===//
//
// generateMipLevels (MipChain.h) against lavapipe doing what Amber and
// most applications do: level 0 uploaded with vkCmdCopyBufferToImage, each
// level L blitted from level L - 1 with vkCmdBlitImage and VK_FILTER_LINEAR,
// every level copied back. Random level 0 data, 1D, 2D (powers of two and
// odd sizes) and 3D images.
//
// Expected agreement (docs/images.md, "Mip chains"):
//  - 8-bit UNORM formats: bit for bit (the byte lerp and weights are
//    lavapipe's);
//  - sRGB colour channels: within 1 (llvmpipe's shader code approximates
//    the sRGB encoding; MipChain encodes exactly);
//  - SNORM and 16-bit UNORM: within 1 step; half floats within 2 ULP;
//    32-bit floats exact for sizes that halve, within 1e-5 relative for
//    odd sizes (llvmpipe filters them with float weights, as MipChain
//    does);
// and the test counts how many values differ at all, printed for the docs.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Image.h"
#include "spirv2llvm/MipChain.h"

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <random>
#include <string>
#include <vector>

using namespace spirv2llvm;

namespace {

/// lavapipe's device, made once for the test binary.
struct Lavapipe {
  VkInstance Instance = VK_NULL_HANDLE;
  VkPhysicalDevice Phys = VK_NULL_HANDLE;
  VkDevice Device = VK_NULL_HANDLE;
  VkQueue Queue = VK_NULL_HANDLE;
  VkCommandPool Pool = VK_NULL_HANDLE;
  std::string Why; ///< why there is no device

  Lavapipe() {
    VkApplicationInfo App{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    App.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ICI{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ICI.pApplicationInfo = &App;
    // The loader unloads the ICD with the instance, and LeakSanitizer then
    // cannot name lavapipe's process-lifetime caches for its suppressions
    // (VulkanDevice.cpp does the same).
    static void *KeepIcd =
        dlopen("libvulkan_lvp.so", RTLD_LAZY | RTLD_NODELETE);
    (void)KeepIcd;
    if (vkCreateInstance(&ICI, nullptr, &Instance) != VK_SUCCESS) {
      Why = "vkCreateInstance failed";
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
    // lavapipe's only queue family does graphics, compute and transfer.
    float Prio = 1;
    VkDeviceQueueCreateInfo QCI{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    QCI.queueCount = 1;
    QCI.pQueuePriorities = &Prio;
    VkDeviceCreateInfo DCI{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    DCI.queueCreateInfoCount = 1;
    DCI.pQueueCreateInfos = &QCI;
    if (vkCreateDevice(Phys, &DCI, nullptr, &Device) != VK_SUCCESS) {
      Why = "vkCreateDevice failed";
      Device = VK_NULL_HANDLE;
      return;
    }
    vkGetDeviceQueue(Device, 0, 0, &Queue);
    VkCommandPoolCreateInfo PCI{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    vkCreateCommandPool(Device, &PCI, nullptr, &Pool);
  }
  ~Lavapipe() {
    if (Device) {
      vkDestroyCommandPool(Device, Pool, nullptr);
      vkDestroyDevice(Device, nullptr);
    }
    if (Instance)
      vkDestroyInstance(Instance, nullptr);
  }
  uint32_t memoryType(uint32_t Bits, VkMemoryPropertyFlags Want) const {
    VkPhysicalDeviceMemoryProperties P;
    vkGetPhysicalDeviceMemoryProperties(Phys, &P);
    for (uint32_t I = 0; I < P.memoryTypeCount; ++I)
      if ((Bits >> I & 1) && (P.memoryTypes[I].propertyFlags & Want) == Want)
        return I;
    return 0;
  }
};

Lavapipe &lavapipe() {
  static Lavapipe L;
  return L;
}

#define VK_OK(X) ASSERT_EQ((X), VK_SUCCESS) << #X

/// Blits the chain of \p Img (level 0 as given) on lavapipe; \p Out gets
/// every level in Img's packed layout.
void blitOnLavapipe(const Image &Img, std::vector<uint8_t> &Out) {
  Lavapipe &L = lavapipe();
  const ImageDesc &D = Img.desc();
  const s2l_image &Desc = Img.descriptor();
  VkImageCreateInfo IC{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  IC.imageType = D.ViewType == S2L_VIEW_1D   ? VK_IMAGE_TYPE_1D
                 : D.ViewType == S2L_VIEW_3D ? VK_IMAGE_TYPE_3D
                                             : VK_IMAGE_TYPE_2D;
  IC.format = VkFormat(D.Fmt);
  IC.extent = {D.Width, D.Height, D.Depth};
  IC.mipLevels = D.Levels;
  IC.arrayLayers = 1;
  IC.samples = VK_SAMPLE_COUNT_1_BIT;
  IC.tiling = VK_IMAGE_TILING_OPTIMAL;
  IC.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
             VK_IMAGE_USAGE_SAMPLED_BIT;
  VkImage Im;
  VK_OK(vkCreateImage(L.Device, &IC, nullptr, &Im));
  VkMemoryRequirements MR;
  vkGetImageMemoryRequirements(L.Device, Im, &MR);
  VkMemoryAllocateInfo MAI{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  MAI.allocationSize = MR.size;
  MAI.memoryTypeIndex = L.memoryType(MR.memoryTypeBits, 0);
  VkDeviceMemory ImMem;
  VK_OK(vkAllocateMemory(L.Device, &MAI, nullptr, &ImMem));
  VK_OK(vkBindImageMemory(L.Device, Im, ImMem, 0));
  VkBufferCreateInfo BC{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  BC.size = Img.bytes().size();
  BC.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer Buf;
  VK_OK(vkCreateBuffer(L.Device, &BC, nullptr, &Buf));
  vkGetBufferMemoryRequirements(L.Device, Buf, &MR);
  MAI.allocationSize = MR.size;
  MAI.memoryTypeIndex =
      L.memoryType(MR.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  VkDeviceMemory BufMem;
  VK_OK(vkAllocateMemory(L.Device, &MAI, nullptr, &BufMem));
  VK_OK(vkBindBufferMemory(L.Device, Buf, BufMem, 0));
  void *Map;
  VK_OK(vkMapMemory(L.Device, BufMem, 0, VK_WHOLE_SIZE, 0, &Map));
  std::memcpy(Map, Img.bytes().data(), Img.bytes().size());

  VkCommandBufferAllocateInfo CAI{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  CAI.commandPool = L.Pool;
  CAI.commandBufferCount = 1;
  VkCommandBuffer CB;
  VK_OK(vkAllocateCommandBuffers(L.Device, &CAI, &CB));
  VkCommandBufferBeginInfo BI{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  VK_OK(vkBeginCommandBuffer(CB, &BI));
  auto Barrier = [&](uint32_t Level, VkImageLayout From, VkImageLayout To) {
    VkImageMemoryBarrier B{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    B.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    B.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    B.oldLayout = From;
    B.newLayout = To;
    B.srcQueueFamilyIndex = B.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    B.image = Im;
    B.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, Level, 1, 0, 1};
    vkCmdPipelineBarrier(CB, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &B);
  };
  auto Extent = [&](uint32_t Lv) {
    const s2l_image_level &E = Desc.level[Lv];
    return VkOffset3D{int32_t(E.width), int32_t(E.height), int32_t(E.depth)};
  };
  for (uint32_t Lv = 0; Lv < D.Levels; ++Lv)
    Barrier(Lv, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  VkBufferImageCopy Up{};
  Up.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  Up.imageExtent = {D.Width, D.Height, D.Depth};
  vkCmdCopyBufferToImage(CB, Buf, Im, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                         &Up);
  Barrier(0, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  for (uint32_t Lv = 1; Lv < D.Levels; ++Lv) {
    VkImageBlit Bl{};
    Bl.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, Lv - 1, 0, 1};
    Bl.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, Lv, 0, 1};
    Bl.srcOffsets[1] = Extent(Lv - 1);
    Bl.dstOffsets[1] = Extent(Lv);
    vkCmdBlitImage(CB, Im, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, Im,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &Bl,
                   VK_FILTER_LINEAR);
    Barrier(Lv, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  }
  for (uint32_t Lv = 1; Lv < D.Levels; ++Lv) {
    VkBufferImageCopy Down{};
    Down.bufferOffset = Desc.level[Lv].offset;
    Down.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, Lv, 0, 1};
    VkOffset3D E = Extent(Lv);
    Down.imageExtent = {uint32_t(E.x), uint32_t(E.y), uint32_t(E.z)};
    vkCmdCopyImageToBuffer(CB, Im, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, Buf, 1,
                           &Down);
  }
  VK_OK(vkEndCommandBuffer(CB));
  VkSubmitInfo SI{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  SI.commandBufferCount = 1;
  SI.pCommandBuffers = &CB;
  VK_OK(vkQueueSubmit(L.Queue, 1, &SI, VK_NULL_HANDLE));
  VK_OK(vkQueueWaitIdle(L.Queue));
  const uint8_t *P = static_cast<const uint8_t *>(Map);
  Out.assign(P, P + Img.bytes().size());
  vkFreeCommandBuffers(L.Device, L.Pool, 1, &CB);
  vkDestroyBuffer(L.Device, Buf, nullptr);
  vkFreeMemory(L.Device, BufMem, nullptr);
  vkDestroyImage(L.Device, Im, nullptr);
  vkFreeMemory(L.Device, ImMem, nullptr);
}

struct MipCase {
  Format Fmt;
  uint32_t View, W, H, D;
  /// Largest difference allowed per component, in the component's units
  /// (bytes of 8-bit formats, 1/65535 of 16-bit UNORM, relative for
  /// floats), and whether that applies to alpha too.
  double Tolerance;
};

std::string describe(const MipCase &C) {
  return std::string(formatInfo(C.Fmt)->Name) + " " +
         (C.View == S2L_VIEW_1D ? "1D " : C.View == S2L_VIEW_3D ? "3D " : "") +
         std::to_string(C.W) + "x" + std::to_string(C.H) + "x" +
         std::to_string(C.D);
}

uint32_t levelsOf(const MipCase &C) {
  uint32_t M = std::max({C.W, C.H, C.D}), N = 1;
  while (M >>= 1)
    ++N;
  return N;
}

/// Level 0 of \p I with random values the format can hold (floats: values
/// in [-8, 8], no NaN; other formats: any bits).
void fillLevel0(Image &I, std::mt19937 &Rng) {
  const s2l_image_level &L0 = I.descriptor().level[0];
  uint64_t N = L0.slice_pitch * L0.depth;
  uint8_t *P = I.bytes().data();
  const FormatInfo &F = I.formatInfo();
  bool Float = F.Components[0].Numeric == NumericKind::SFloat;
  for (uint64_t K = 0; K < N; ++K)
    P[K] = uint8_t(Rng());
  if (!Float)
    return;
  std::uniform_real_distribution<float> V(-8, 8);
  for (uint32_t Z = 0; Z < L0.depth; ++Z)
    for (uint32_t Y = 0; Y < L0.height; ++Y)
      for (uint32_t X = 0; X < L0.width; ++X)
        ASSERT_TRUE(
            I.writeTexel(0, X, Y, Z, 0, Float4{V(Rng), V(Rng), V(Rng), V(Rng)})
                .ok());
}

class MipChainLavapipe : public testing::TestWithParam<MipCase> {};

TEST_P(MipChainLavapipe, SameAsLavapipe) {
  if (!lavapipe().Why.empty())
    GTEST_SKIP() << "lavapipe: " << lavapipe().Why;
  const MipCase &C = GetParam();
  Result<Image> R = Image::create(
      {C.Fmt, C.View, C.W, C.H, C.D, 1, levelsOf(C), 1});
  ASSERT_TRUE(R.ok()) << R.status().message();
  Image &I = *R;
  std::mt19937 Rng(C.W * 131 + C.H * 7 + C.D + uint32_t(C.Fmt));
  fillLevel0(I, Rng);
  std::vector<uint8_t> Ref;
  blitOnLavapipe(I, Ref);
  ASSERT_EQ(Ref.size(), I.bytes().size());
  ASSERT_TRUE(generateMipLevels(I.descriptor()).ok());

  const FormatInfo &F = I.formatInfo();
  Image Lvp = std::move(*Image::create(I.desc()));
  std::memcpy(Lvp.bytes().data(), Ref.data(), Ref.size());
  unsigned Differ = 0, Values = 0;
  double Worst = 0;
  std::string First;
  for (uint32_t Lv = 1; Lv < I.desc().Levels; ++Lv) {
    const s2l_image_level &E = I.descriptor().level[Lv];
    for (uint32_t Z = 0; Z < E.depth; ++Z)
      for (uint32_t Y = 0; Y < E.height; ++Y)
        for (uint32_t X = 0; X < E.width; ++X) {
          Float4 Got, Want;
          ASSERT_TRUE(I.readTexel(Lv, X, Y, Z, 0, Got).ok());
          ASSERT_TRUE(Lvp.readTexel(Lv, X, Y, Z, 0, Want).ok());
          for (unsigned K = 0; K < F.NumComponents; ++K) {
            // Units: one step of the stored component (8/16-bit UNORM and
            // sRGB compare their encoded bytes), or relative for floats.
            const ComponentInfo &Cm = F.Components[K];
            unsigned Ch = unsigned(Cm.Channel);
            double Diff;
            if (Cm.Numeric == NumericKind::SFloat)
              Diff = std::fabs(Got[Ch] - Want[Ch]) /
                     std::max(0.125, double(std::fabs(Want[Ch]))) * 1e3;
            else if (Cm.Numeric == NumericKind::SRGB)
              Diff = std::round(
                  std::fabs(linearToSRGB(Got[Ch]) - linearToSRGB(Want[Ch])) *
                  255);
            else if (Cm.Numeric == NumericKind::SNorm)
              Diff = std::round(std::fabs(Got[Ch] - Want[Ch]) *
                                ((1u << (Cm.Bits - 1)) - 1));
            else
              Diff = std::round(std::fabs(Got[Ch] - Want[Ch]) *
                                ((1u << Cm.Bits) - 1));
            ++Values;
            if (Diff < 1e-6)
              continue;
            ++Differ;
            Worst = std::max(Worst, Diff);
            if (First.empty())
              First = "level " + std::to_string(Lv) + " (" + std::to_string(X) +
                      "," + std::to_string(Y) + "," + std::to_string(Z) +
                      ") component " + std::to_string(K) + ": " +
                      std::to_string(Got[Ch]) + " vs lavapipe " +
                      std::to_string(Want[Ch]);
          }
        }
  }
  std::printf("%s: %u of %u values differ from lavapipe, at most %.3f\n",
              describe(C).c_str(), Differ, Values, Worst);
  EXPECT_LE(Worst, C.Tolerance + 1e-6) << describe(C) << ": first at " << First;
}

// Tolerances: 0 for 8-bit UNORM (bit-exact); 1 step for sRGB colour, 16-bit
// UNORM and SNORM; floats in thousandths of the value (or of 0.125 for
// smaller values): 2 for half floats (1-2 ULP: lavapipe's conversion to
// half), exact for 32-bit floats halved exactly, 1e-5 relative for odd
// sizes (float rounding of the coordinates).
const MipCase Cases[] = {
    {Format::R8G8B8A8_UNORM, S2L_VIEW_2D, 16, 16, 1, 0},
    {Format::R8G8B8A8_UNORM, S2L_VIEW_2D, 13, 7, 1, 0},
    {Format::R8G8B8A8_UNORM, S2L_VIEW_2D, 1, 9, 1, 0},
    {Format::B8G8R8A8_UNORM, S2L_VIEW_2D, 12, 10, 1, 0},
    {Format::R8_UNORM, S2L_VIEW_2D, 31, 17, 1, 0},
    {Format::R8G8_UNORM, S2L_VIEW_2D, 6, 6, 1, 0},
    {Format::R8G8B8A8_UNORM, S2L_VIEW_1D, 29, 1, 1, 0},
    {Format::R8G8B8A8_UNORM, S2L_VIEW_3D, 8, 8, 8, 0},
    {Format::R8_UNORM, S2L_VIEW_3D, 5, 6, 3, 0},
    {Format::R8G8B8A8_SRGB, S2L_VIEW_2D, 16, 16, 1, 1},
    {Format::B8G8R8A8_SRGB, S2L_VIEW_2D, 11, 5, 1, 1},
    {Format::R8G8B8A8_SNORM, S2L_VIEW_2D, 8, 8, 1, 1},
    {Format::R16G16B16A16_UNORM, S2L_VIEW_2D, 8, 8, 1, 1},
    {Format::R16G16B16A16_SFLOAT, S2L_VIEW_2D, 8, 8, 1, 2},
    {Format::R32G32B32A32_SFLOAT, S2L_VIEW_2D, 16, 16, 1, 0},
    {Format::R32G32B32A32_SFLOAT, S2L_VIEW_2D, 7, 5, 1, 0.01},
};

std::string caseName(const testing::TestParamInfo<MipCase> &Info) {
  std::string N = describe(Info.param);
  for (char &Ch : N)
    if (!std::isalnum(static_cast<unsigned char>(Ch)))
      Ch = '_';
  return N;
}

INSTANTIATE_TEST_SUITE_P(Blits, MipChainLavapipe, testing::ValuesIn(Cases),
                         caseName);

} // namespace
