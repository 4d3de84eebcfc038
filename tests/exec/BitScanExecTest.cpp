//===- BitScanExecTest.cpp - ctlz/cttz through the float exponent ---------===//
//
// target/BitScan.h computes vector ctlz/cttz from the exponent of a float
// conversion on x86 without AVX-512 CD. This host may have AVX-512 CD, so
// the tests force the rewrite (-s2l-bit-scan=always) and check that no
// ctlz/cttz call is left in the optimized IR and that findMSB (unsigned
// and signed) and findLSB give what the GLSL definitions give for the
// inputs where the float form could go wrong: 0, 1, each power of two,
// bit 31 set, runs of ones that would round up (2^k - 1, 0x55555555,
// 0xFFFFFFFF), and random words, at W = 8 and 16.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace spirv2llvm;

namespace {

/// Sets -s2l-bit-scan for the life of the object.
class BitScanMode {
public:
  explicit BitScanMode(const char *Value) { set(Value); }
  ~BitScanMode() { set("auto"); }

private:
  static void set(const char *Value) {
    auto &Opts = llvm::cl::getRegisteredOptions();
    auto It = Opts.find("s2l-bit-scan");
    ASSERT_NE(It, Opts.end());
    ASSERT_FALSE(It->second->addOccurrence(0, "s2l-bit-scan", Value));
  }
};

const char *Shader = R"(#version 450
  layout(local_size_x = 64) in;
  layout(set = 0, binding = 0) buffer In { uint src[]; };
  layout(set = 0, binding = 1) buffer Out { int dst[]; };
  void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = src[i];
    dst[3 * i + 0] = findMSB(x);
    dst[3 * i + 1] = findMSB(int(x));
    dst[3 * i + 2] = findLSB(x);
  })";

int32_t umsb(uint32_t X) {
  int32_t R = -1;
  for (int32_t B = 0; B < 32; ++B)
    if (X >> B & 1)
      R = B;
  return R;
}

int32_t smsb(uint32_t X) { return int32_t(X) < 0 ? umsb(~X) : umsb(X); }

int32_t lsb(uint32_t X) {
  for (int32_t B = 0; B < 32; ++B)
    if (X >> B & 1)
      return B;
  return -1;
}

std::vector<uint32_t> inputs() {
  std::vector<uint32_t> V = {0,           1,           0x55555555u, 0xaaaaaaaau,
                             0xffffffffu, 0x7fffffffu, 0x80000000u, 0x80000001u,
                             0xfffffffeu, 0x00ffffffu, 0x01ffffffu};
  for (uint32_t B = 0; B < 32; ++B) {
    V.push_back(1u << B);
    V.push_back((1u << B) - 1);
    V.push_back(~(1u << B));
  }
  uint32_t X = 2463534242u;
  while (V.size() % 64 != 0 || V.size() < 256) {
    X ^= X << 13;
    X ^= X >> 17;
    X ^= X << 5;
    V.push_back(X >> (X & 31));
  }
  return V;
}

class BitScan : public testing::TestWithParam<unsigned> {};

TEST_P(BitScan, NoScanCallLeft) {
  BitScanMode Lower("always");
  TranslateOptions Opts;
  Opts.Width = GetParam();
  Opts.OptLevel = 2;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Shader),
                              std::strlen(Shader)),
      "scan.comp", Opts);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  for (llvm::Function &F : *T->IR)
    if (F.getName().starts_with("llvm.ctlz") ||
        F.getName().starts_with("llvm.cttz"))
      EXPECT_TRUE(F.use_empty()) << F.getName().str() << " is still called";
}

TEST_P(BitScan, ResultsMatchGlsl) {
  BitScanMode Lower("always");
  TranslateOptions Opts;
  Opts.Width = GetParam();
  std::string Error;
  auto S = exectest::compileCompute(Shader, Opts, Error);
  ASSERT_TRUE(S) << Error;
  std::vector<uint32_t> Src = inputs();
  std::vector<int32_t> Dst(3 * Src.size());
  DispatchResources R;
  R.bind(0, 0, Src.data(), Src.size() * 4);
  R.bind(0, 1, Dst.data(), Dst.size() * 4);
  ASSERT_TRUE(S->dispatch({uint32_t(Src.size() / 64), 1, 1}, R).ok());
  for (size_t I = 0; I < Src.size(); ++I) {
    SCOPED_TRACE("x = " + std::to_string(Src[I]));
    EXPECT_EQ(Dst[3 * I + 0], umsb(Src[I])) << "findMSB(uint)";
    EXPECT_EQ(Dst[3 * I + 1], smsb(Src[I])) << "findMSB(int)";
    EXPECT_EQ(Dst[3 * I + 2], lsb(Src[I])) << "findLSB";
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, BitScan, testing::Values(8u, 16u));

} // namespace
