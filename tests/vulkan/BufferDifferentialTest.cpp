//===- BufferDifferentialTest.cpp - Buffer features against lavapipe ------===//
//
// Descriptor arrays, buffer_reference (PhysicalStorageBuffer) pointers and
// explicit-layout workgroup blocks, each run on lavapipe and on the JIT at
// W = 4 and 8 (and one invocation per call: Invocation/*, Scalar/*) from
// the same SPIR-V words and the same inputs; the buffers
// are compared word for word. (Separate from DifferentialTest.cpp, whose
// table has no descriptor arrays or device addresses.)
//
// Device-address buffers hold addresses, which differ between lavapipe and
// the JIT: they are compared only where a case says they hold none.
//
//===----------------------------------------------------------------------===//
#include "VulkanComputeRunner.h"

#include "frontend/Frontend.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;

namespace {

struct Buf {
  uint32_t Set = 0, Binding = 0, Element = 0;
  bool Uniform = false;
  /// Descriptor-array element (bound with bindArrayElement on the JIT).
  bool Arrayed = false;
  /// Reached through its device address, written to the push constants at
  /// PushOffset.
  bool DeviceAddress = false;
  uint32_t PushOffset = 0;
  bool Compare = true;
  std::vector<uint32_t> Words;
};

struct BufCase {
  const char *Name;
  const char *File;
  std::function<std::vector<Buf>()> Buffers;
  std::vector<uint32_t> Push;
  const char *Feature = nullptr;
  /// Also run through the one-invocation back ends (Invocation/*,
  /// Scalar/*); they have no PhysicalStorageBuffer pointers yet.
  bool OneInvocation = true;
};

std::vector<uint32_t> iota(size_t N, uint32_t Mul, uint32_t Add) {
  std::vector<uint32_t> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = uint32_t(I) * Mul + Add;
  return V;
}

std::vector<Buf> descriptorArrayBuffers() {
  std::vector<Buf> R;
  for (uint32_t K = 0; K < 4; ++K) {
    // Different lengths, so length() differs per element.
    Buf B{0, 0, K, false, true};
    B.Words = iota(1 + 80 + 4 * K, 3, 1000 * K);
    B.Words[0] = 8;
    R.push_back(B);
  }
  for (uint32_t K = 0; K < 2; ++K) {
    Buf B{0, 1, K, true, true};
    B.Words = iota(16, 7, 100 * K + 5);
    R.push_back(B);
  }
  for (uint32_t K = 0; K < 2; ++K) {
    Buf B{0, 2, K, false, true};
    B.Words = iota(4, 1, 10 * K);
    R.push_back(B);
  }
  Buf Out{0, 3};
  Out.Words.assign(64 * 3 + 1, 0xdeadbeef);
  R.push_back(Out);
  return R;
}

std::vector<Buf> referenceBuffers() {
  std::vector<Buf> R;
  Buf Out{0, 0};
  Out.Words.assign(32 * 4, 0);
  R.push_back(Out);
  Buf Pool;
  Pool.DeviceAddress = true;
  Pool.PushOffset = 0;
  Pool.Compare = false; // holds addresses
  Pool.Words.assign(32 * 4, 0);
  R.push_back(Pool);
  Buf Counter;
  Counter.DeviceAddress = true;
  Counter.PushOffset = 8;
  Counter.Words = {5, 7};
  R.push_back(Counter);
  Buf Words;
  Words.DeviceAddress = true;
  Words.PushOffset = 16;
  Words.Words = iota(80, 11, 3);
  R.push_back(Words);
  return R;
}

std::vector<Buf> workgroupBuffers() {
  Buf Out{0, 0};
  Out.Words.assign(16 + 32 + 16, 0);
  return {Out};
}

const std::vector<BufCase> &cases() {
  static const std::vector<BufCase> C = {
      {"descriptor_array", "buf_descriptor_array.comp", descriptorArrayBuffers,
       {2}},
      {"buffer_reference", "buf_reference.comp", referenceBuffers,
       {0, 0, 0, 0, 0, 0}, "bufferDeviceAddress", /*OneInvocation=*/false},
      {"workgroup_explicit_layout", "buf_workgroup_layout.comp",
       workgroupBuffers, {}, "workgroupMemoryExplicitLayout16BitAccess"},
  };
  return C;
}

std::vector<uint8_t> bytesOf(const std::vector<uint32_t> &W) {
  std::vector<uint8_t> B(W.size() * 4);
  std::memcpy(B.data(), W.data(), B.size());
  return B;
}

llvm::Expected<std::vector<uint32_t>> spirvFor(const BufCase &C) {
  std::string Path =
      std::string(S2L_SOURCE_DIR) + "/shaders/compute/" + C.File;
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return llvm::createStringError(Text.getError(), "cannot read " + Path);
  frontend::GlslOptions Opts;
  Opts.Stage = frontend::ShaderStage::Compute;
  Opts.TargetEnv = SPV_ENV_VULKAN_1_2;
  Opts.FileName = C.File;
  return frontend::compileGlsl((*Text)->getBuffer(), Opts);
}

VulkanComputeRunner *runner() {
  static std::unique_ptr<VulkanComputeRunner> R = [] {
    auto Created = VulkanComputeRunner::create();
    if (!Created) {
      llvm::consumeError(Created.takeError());
      return std::unique_ptr<VulkanComputeRunner>();
    }
    return std::move(*Created);
  }();
  return R.get();
}

std::vector<uint8_t> pushBytes(const BufCase &C) {
  std::vector<uint8_t> P;
  for (uint32_t W : C.Push)
    for (int K = 0; K < 4; ++K)
      P.push_back(uint8_t(W >> (8 * K)));
  return P;
}

llvm::Expected<std::vector<std::vector<uint8_t>>>
lavapipe(const BufCase &C, const std::vector<uint32_t> &Words,
         const std::vector<Buf> &Bufs) {
  VkDispatch D;
  D.Spirv = Words;
  D.PushConstants = pushBytes(C);
  for (size_t I = 0; I < Bufs.size(); ++I) {
    const Buf &B = Bufs[I];
    VkBufferSpec S{B.Set, B.Binding, B.Uniform, bytesOf(B.Words)};
    S.ArrayElement = B.Element;
    S.DeviceAddress = B.DeviceAddress;
    if (B.DeviceAddress)
      D.AddressesInPush.push_back({uint32_t(I), B.PushOffset});
    D.Buffers.push_back(std::move(S));
  }
  if (llvm::Error E = runner()->run(D))
    return E;
  std::vector<std::vector<uint8_t>> R;
  for (VkBufferSpec &S : D.Buffers)
    R.push_back(std::move(S.Data));
  return R;
}

llvm::Expected<std::vector<std::vector<uint8_t>>>
jit(const BufCase &C, const std::vector<uint32_t> &Words,
    const std::vector<Buf> &Bufs, unsigned W, Backend Bk) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Binary;
  Opts.Backend = Bk;
  if (Bk == Backend::Simd)
    Opts.Width = W;
  Opts.TargetEnv = "vulkan1.2";
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Words.data()),
                              Words.size() * 4),
      C.File, Opts);
  if (!T)
    return T.takeError();
  auto S = ComputeShader::create(std::move(*T));
  if (!S)
    return llvm::createStringError(S.status().message());
  std::vector<std::vector<uint8_t>> Data;
  for (const Buf &B : Bufs)
    Data.push_back(bytesOf(B.Words));
  DispatchResources R;
  R.PushConstants = pushBytes(C);
  for (size_t I = 0; I < Bufs.size(); ++I) {
    const Buf &B = Bufs[I];
    if (B.DeviceAddress) {
      uint64_t Addr = reinterpret_cast<uintptr_t>(Data[I].data());
      std::memcpy(R.PushConstants.data() + B.PushOffset, &Addr, 8);
    } else if (B.Arrayed) {
      R.bindArrayElement(B.Set, B.Binding, B.Element, Data[I].data(),
                         Data[I].size());
    } else {
      R.bind(B.Set, B.Binding, Data[I].data(), Data[I].size());
    }
  }
  if (Status E = (*S)->dispatch({1, 1, 1}, R, /*Threads=*/2); !E.ok())
    return llvm::createStringError(E.message());
  return Data;
}

struct Param {
  size_t Index;
  unsigned Width;
  Backend Bk = Backend::Simd;
};

void PrintTo(const Param &P, std::ostream *OS) {
  *OS << cases()[P.Index].Name << " at W = " << P.Width;
  if (P.Bk != Backend::Simd)
    *OS << " (one invocation per call)";
}

class BufferDifferential : public testing::TestWithParam<Param> {};

TEST_P(BufferDifferential, SameBuffers) {
  const BufCase &C = cases()[GetParam().Index];
  VulkanComputeRunner *R = runner();
  ASSERT_TRUE(R) << "cannot create the vulkan runner";
  if (C.Feature && !R->hasFeature(C.Feature))
    GTEST_SKIP() << "lavapipe lacks " << C.Feature;
  auto Words = spirvFor(C);
  ASSERT_TRUE(bool(Words)) << llvm::toString(Words.takeError());
  std::vector<Buf> Bufs = C.Buffers();
  auto Ref = lavapipe(C, *Words, Bufs);
  ASSERT_TRUE(bool(Ref)) << "lavapipe: " << llvm::toString(Ref.takeError());
  auto Got = jit(C, *Words, Bufs, GetParam().Width, GetParam().Bk);
  ASSERT_TRUE(bool(Got)) << "spirv2llvm: " << llvm::toString(Got.takeError());
  for (size_t I = 0; I < Bufs.size(); ++I) {
    if (!Bufs[I].Compare)
      continue;
    const std::vector<uint8_t> &A = (*Ref)[I], &B = (*Got)[I];
    ASSERT_EQ(A.size(), B.size());
    // The inputs must have changed where the shader writes: a sanity check
    // that the comparison is not of two untouched buffers.
    size_t Mismatches = 0;
    for (size_t K = 0; K + 4 <= A.size(); K += 4) {
      uint32_t X, Y;
      std::memcpy(&X, &A[K], 4);
      std::memcpy(&Y, &B[K], 4);
      if (X != Y && Mismatches++ < 8)
        ADD_FAILURE() << "buffer " << I << " word " << K / 4
                      << ": lavapipe " << X << ", spirv2llvm " << Y;
    }
    EXPECT_EQ(Mismatches, 0u) << "buffer " << I;
  }
}

std::vector<Param> paramsFor(unsigned W, Backend Bk = Backend::Simd) {
  std::vector<Param> P;
  for (size_t I = 0; I < cases().size(); ++I)
    if (Bk == Backend::Simd || cases()[I].OneInvocation)
      P.push_back({I, W, Bk});
  return P;
}

std::string paramName(const testing::TestParamInfo<Param> &Info) {
  return cases()[Info.param.Index].Name;
}

INSTANTIATE_TEST_SUITE_P(W4, BufferDifferential,
                         testing::ValuesIn(paramsFor(4)), paramName);
INSTANTIATE_TEST_SUITE_P(W8, BufferDifferential,
                         testing::ValuesIn(paramsFor(8)), paramName);
// The one-invocation back ends: --backend=invocation and --backend=scalar.
INSTANTIATE_TEST_SUITE_P(Invocation, BufferDifferential,
                         testing::ValuesIn(paramsFor(1, Backend::Invocation)),
                         paramName);
INSTANTIATE_TEST_SUITE_P(Scalar, BufferDifferential,
                         testing::ValuesIn(paramsFor(1, Backend::Scalar)),
                         paramName);

} // namespace
