//===- VulkanRunnerTest.cpp - The lavapipe compute runner -----------------===//
//
// Checks the reference side of the differential tests on its own: that the
// runner finds lavapipe headless, and that buffers, uniform buffers, push
// constants, spec constants, shared memory with barriers, atomics and
// subgroup sizes reach the shader and the results come back exactly. Also
// the runner's own diagnostics for bad dispatches.
//
//===----------------------------------------------------------------------===//
#include "VulkanComputeRunner.h"

#include "frontend/Frontend.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <numeric>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;

namespace {

template <typename T> std::vector<uint8_t> toBytes(const std::vector<T> &V) {
  std::vector<uint8_t> Bytes(V.size() * sizeof(T));
  if (!V.empty())
    std::memcpy(Bytes.data(), V.data(), Bytes.size());
  return Bytes;
}

template <typename T> std::vector<T> fromBytes(const std::vector<uint8_t> &B) {
  std::vector<T> V(B.size() / sizeof(T));
  if (!V.empty())
    std::memcpy(V.data(), B.data(), V.size() * sizeof(T));
  return V;
}

/// "" on success, else the message: ASSERT_EQ(errorText(...), "") prints it.
std::string errorText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

std::vector<uint32_t> compileCompute(llvm::StringRef Source) {
  frontend::GlslOptions Opts;
  Opts.Stage = frontend::ShaderStage::Compute;
  Opts.TargetEnv = SPV_ENV_VULKAN_1_2;
  Opts.FileName = "test.comp";
  llvm::Expected<std::vector<uint32_t>> Words =
      frontend::compileGlsl(Source, Opts);
  if (!Words) {
    ADD_FAILURE() << llvm::toString(Words.takeError());
    return {};
  }
  return std::move(*Words);
}

/// Index times 3 plus a push constant plus a uniform; the uniform buffer is
/// in set 2 so that set 1 is an unused (empty) layout.
const char *LinearSource = R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint Values[]; } Result;
layout(set = 2, binding = 1) uniform Params { uvec4 Offsets; } Param;
layout(push_constant) uniform Push { uint Add; } PC;
void main() {
  uint I = gl_GlobalInvocationID.x;
  Result.Values[I] = I * 3u + PC.Add + Param.Offsets[I & 3u];
}
)";

/// Tree reduction over one workgroup in shared memory; every step needs
/// the barrier, and Scale is a spec constant.
const char *ReductionSource = R"(#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint Scale = 1u;
layout(set = 0, binding = 0) readonly buffer In { uint Values[]; } Input;
layout(set = 0, binding = 1) writeonly buffer Out { uint Sums[]; } Output;
shared uint Partial[64];
void main() {
  uint L = gl_LocalInvocationID.x;
  Partial[L] = Input.Values[gl_GlobalInvocationID.x] * Scale;
  barrier();
  for (uint Stride = 32u; Stride > 0u; Stride >>= 1u) {
    if (L < Stride)
      Partial[L] += Partial[L + Stride];
    barrier();
  }
  if (L == 0u)
    Output.Sums[gl_WorkGroupID.x] = Partial[0];
}
)";

/// Every invocation takes a ticket from one counter; the tickets must be a
/// permutation. Two-dimensional dispatch.
const char *AtomicSource = R"(#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Counters {
  uint Count, Sum, Max;
} C;
layout(set = 0, binding = 1) buffer Tickets { uint Ticket[]; } T;
void main() {
  uint Id = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x +
            gl_GlobalInvocationID.x;
  T.Ticket[Id] = atomicAdd(C.Count, 1u);
  atomicAdd(C.Sum, Id);
  atomicMax(C.Max, Id);
}
)";

const char *SubgroupSource = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint Size; uint Lane[]; } O;
void main() {
  if (gl_LocalInvocationIndex == 0u)
    O.Size = gl_SubgroupSize;
  O.Lane[gl_LocalInvocationIndex] = gl_SubgroupInvocationID;
}
)";

class VulkanRunnerTest : public testing::Test {
protected:
  // One runner for all tests: creating the instance loads every ICD.
  static void SetUpTestSuite() {
    llvm::Expected<std::unique_ptr<VulkanComputeRunner>> R =
        VulkanComputeRunner::create();
    if (R)
      Runner = std::move(*R);
    else
      CreateError = llvm::toString(R.takeError());
  }
  static void TearDownTestSuite() { Runner.reset(); }
  void SetUp() override {
    ASSERT_TRUE(Runner) << "cannot create the vulkan runner: " << CreateError;
  }

  VkDispatch linearDispatch(uint32_t Groups, uint32_t Add) {
    VkDispatch D;
    D.Spirv = compileCompute(LinearSource);
    D.GroupsX = Groups;
    D.Buffers.push_back(
        {0, 0, false,
         toBytes(std::vector<uint32_t>(Groups * 16 + 4, 0xdeadbeef))});
    D.Buffers.push_back(
        {2, 1, true, toBytes(std::vector<uint32_t>{100, 200, 300, 400})});
    D.PushConstants = toBytes(std::vector<uint32_t>{Add});
    return D;
  }

  static inline std::unique_ptr<VulkanComputeRunner> Runner;
  static inline std::string CreateError;
};

TEST_F(VulkanRunnerTest, DeviceIsLavapipe) {
  const VkSubgroupInfo &S = Runner->subgroupInfo();
  uint32_t V = Runner->apiVersion();
  std::cout << "device: " << Runner->deviceName() << "\nvulkan "
            << (V >> 22 & 0x7f) << "." << (V >> 12 & 0x3ff)
            << "\nsubgroup size: default " << S.DefaultSize << ", control "
            << (S.SizeControl ? "yes" : "no") << " [" << S.MinSize << ", "
            << S.MaxSize << "], operations 0x" << std::hex
            << S.SupportedOperations << std::dec
            << "\nfeatures: " << llvm::join(Runner->enabledFeatures(), " ")
            << "\n";
  RecordProperty("device", Runner->deviceName());
  EXPECT_NE(Runner->deviceName().find("llvmpipe"), std::string::npos)
      << Runner->deviceName();
  EXPECT_GE(V >> 12 & 0x3ff, 2u) << "vulkan 1.2 or later";
  EXPECT_TRUE(llvm::isPowerOf2_32(S.DefaultSize)) << S.DefaultSize;
  EXPECT_LE(S.MinSize, S.DefaultSize);
  EXPECT_GE(S.MaxSize, S.DefaultSize);
  // Present on lavapipe since Mesa 21; the differential tests rely on them.
  for (const char *F : {"shaderInt64", "shaderFloat64", "shaderInt16",
                        "storageBuffer8BitAccess", "storageBuffer16BitAccess",
                        "shaderFloat16", "shaderInt8", "vulkanMemoryModel"})
    EXPECT_TRUE(Runner->hasFeature(F)) << F;
  EXPECT_FALSE(Runner->hasFeature("noSuchFeature"));
}

TEST_F(VulkanRunnerTest, PushConstantAndUniform) {
  VkDispatch D = linearDispatch(4, 7);
  ASSERT_EQ(errorText(Runner->run(D)), "");
  std::vector<uint32_t> Out = fromBytes<uint32_t>(D.Buffers[0].Data);
  ASSERT_EQ(Out.size(), 68u);
  for (uint32_t I = 0; I < 64; ++I)
    EXPECT_EQ(Out[I], I * 3 + 7 + 100 * (I % 4 + 1)) << "index " << I;
  for (uint32_t I = 64; I < 68; ++I) // beyond the dispatch: untouched
    EXPECT_EQ(Out[I], 0xdeadbeefu) << "index " << I;
  EXPECT_EQ(fromBytes<uint32_t>(D.Buffers[1].Data),
            (std::vector<uint32_t>{100, 200, 300, 400}));
}

TEST_F(VulkanRunnerTest, SpecConstantSharedReduction) {
  const uint32_t Groups = 8;
  std::vector<uint32_t> In(Groups * 64);
  for (uint32_t I = 0; I < In.size(); ++I)
    In[I] = (I * 2654435761u) >> 20; // spread, no overflow in the sums
  for (uint32_t Scale : {0u, 1u, 3u}) {
    VkDispatch D;
    D.Spirv = compileCompute(ReductionSource);
    D.GroupsX = Groups;
    D.Buffers.push_back({0, 0, false, toBytes(In)});
    D.Buffers.push_back(
        {0, 1, false, toBytes(std::vector<uint32_t>(Groups, 0xffffffff))});
    if (Scale != 0) // 0: the default, 1
      D.SpecConstants = {{0, Scale}};
    ASSERT_EQ(errorText(Runner->run(D)), "");
    std::vector<uint32_t> Sums = fromBytes<uint32_t>(D.Buffers[1].Data);
    for (uint32_t G = 0; G < Groups; ++G) {
      uint32_t Expected =
          std::accumulate(In.begin() + G * 64, In.begin() + (G + 1) * 64, 0u) *
          (Scale ? Scale : 1);
      EXPECT_EQ(Sums[G], Expected) << "group " << G << " scale " << Scale;
    }
  }
}

TEST_F(VulkanRunnerTest, AtomicCounter) {
  const uint32_t GroupsX = 8, GroupsY = 4, N = GroupsX * GroupsY * 32;
  VkDispatch D;
  D.Spirv = compileCompute(AtomicSource);
  D.GroupsX = GroupsX;
  D.GroupsY = GroupsY;
  // Count starts at 100: the initial contents must reach the shader.
  D.Buffers.push_back({0, 0, false, toBytes(std::vector<uint32_t>{100, 0, 0})});
  D.Buffers.push_back({0, 1, false, toBytes(std::vector<uint32_t>(N, 0))});
  ASSERT_EQ(errorText(Runner->run(D)), "");
  std::vector<uint32_t> C = fromBytes<uint32_t>(D.Buffers[0].Data);
  EXPECT_EQ(C[0], 100 + N);
  EXPECT_EQ(C[1], N * (N - 1) / 2);
  EXPECT_EQ(C[2], N - 1);
  std::vector<uint32_t> Tickets = fromBytes<uint32_t>(D.Buffers[1].Data);
  std::sort(Tickets.begin(), Tickets.end());
  for (uint32_t I = 0; I < N; ++I)
    ASSERT_EQ(Tickets[I], 100 + I) << "tickets are not a permutation";
}

/// Whatever the host's vector width makes the default size, the shader must
/// see it; sizes in the control range must be honoured and the rest refused
/// by the runner, not silently ignored.
TEST_F(VulkanRunnerTest, SubgroupSize) {
  const VkSubgroupInfo &S = Runner->subgroupInfo();
  for (uint32_t Size : {0u, 4u, 8u, 16u, 32u, 64u}) {
    VkDispatch D;
    D.Spirv = compileCompute(SubgroupSource);
    D.RequiredSubgroupSize = Size;
    D.Buffers.push_back({0, 0, false, toBytes(std::vector<uint32_t>(65, 0))});
    bool Supported =
        Size == 0 || (S.SizeControl && Size >= S.MinSize && Size <= S.MaxSize);
    std::string Err = errorText(Runner->run(D));
    if (!Supported) {
      EXPECT_NE(Err.find("subgroup size"), std::string::npos) << Err;
      continue;
    }
    ASSERT_EQ(Err, "") << "size " << Size;
    std::vector<uint32_t> Out = fromBytes<uint32_t>(D.Buffers[0].Data);
    uint32_t Expected = Size ? Size : S.DefaultSize;
    EXPECT_EQ(Out[0], Expected);
    // Consecutive invocations fill a subgroup's lanes in order on lavapipe;
    // lane-by-lane comparisons with the JIT rely on that.
    for (uint32_t I = 0; I < 64; ++I)
      EXPECT_EQ(Out[1 + I], I % Expected) << "invocation " << I;
  }
}

TEST_F(VulkanRunnerTest, EmptyBufferGetsFourBytes) {
  // Binding 1 is declared by the shader but given no data.
  VkDispatch D;
  D.Spirv = compileCompute(ReductionSource);
  D.Buffers.push_back({0, 0, false, toBytes(std::vector<uint32_t>(64, 1))});
  D.Buffers.push_back({0, 1, false, {}});
  ASSERT_EQ(errorText(Runner->run(D)), "");
  EXPECT_TRUE(D.Buffers[1].Data.empty());
}

TEST_F(VulkanRunnerTest, RepeatedRunsAndTiming) {
  // Resources are created and destroyed per run; this would run out of
  // something if they leaked.
  for (uint32_t I = 0; I < 20; ++I) {
    VkDispatch D = linearDispatch(1, I);
    ASSERT_EQ(errorText(Runner->run(D)), "");
    EXPECT_EQ(fromBytes<uint32_t>(D.Buffers[0].Data)[5], 15 + I + 200);
  }
  VkDispatch D;
  D.Spirv = compileCompute(AtomicSource);
  D.GroupsX = 4;
  D.Buffers.push_back({0, 0, false, toBytes(std::vector<uint32_t>{0, 0, 0})});
  D.Buffers.push_back({0, 1, false, toBytes(std::vector<uint32_t>(128, 0))});
  llvm::Expected<double> Ms = Runner->timeDispatch(D, 5);
  ASSERT_TRUE(static_cast<bool>(Ms)) << llvm::toString(Ms.takeError());
  EXPECT_GT(*Ms, 0.0);
  // Inputs are restored before each repeat: one dispatch's worth.
  EXPECT_EQ(fromBytes<uint32_t>(D.Buffers[0].Data)[0], 128u);
}

TEST_F(VulkanRunnerTest, Diagnostics) {
  {
    VkDispatch D = linearDispatch(1, 0);
    D.EntryPoint = "notmain";
    EXPECT_EQ(errorText(Runner->run(D)),
              "no GLCompute entry point named 'notmain' (entry points: main)");
  }
  {
    VkDispatch D = linearDispatch(1, 0);
    D.Buffers[1].Set = 0;
    D.Buffers[1].Binding = 0;
    EXPECT_EQ(errorText(Runner->run(D)), "two buffers at set 0 binding 0");
  }
  {
    VkDispatch D = linearDispatch(1, 0);
    D.PushConstants.resize(4096);
    EXPECT_NE(errorText(Runner->run(D)).find("bytes of push constants"),
              std::string::npos);
  }
  {
    VkDispatch D = linearDispatch(1, 0);
    D.GroupsY = 0;
    EXPECT_NE(errorText(Runner->run(D)).find("group count 0 in dimension 1"),
              std::string::npos);
  }
  {
    VkDispatch D = linearDispatch(1, 0);
    D.Spirv[0] = 0x03022307;
    EXPECT_EQ(
        errorText(Runner->run(D)),
        "not a spir-v module in host byte order: magic number 0x03022307");
  }
  {
    VkDispatch D = linearDispatch(1, 0);
    D.SpecConstants = {{3, 1}, {3, 2}};
    EXPECT_EQ(errorText(Runner->run(D)), "spec constant 3 given twice");
  }
  // Still usable after refused dispatches.
  VkDispatch D = linearDispatch(1, 1);
  ASSERT_EQ(errorText(Runner->run(D)), "");
  EXPECT_EQ(fromBytes<uint32_t>(D.Buffers[0].Data)[0], 101u);
}

} // namespace
