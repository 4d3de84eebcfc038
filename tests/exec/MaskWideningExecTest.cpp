//===- MaskWideningExecTest.cpp - Lane masks as <W x i32> sign masks ------===//
//
// target/MaskWidening.h computes lane masks on <W x i32> twins on x86
// without AVX-512. This host may have AVX-512, so the tests force the
// rewrite (-s2l-mask-widening=always) and check two things: the optimized
// IR has no <W x i1> phi left (the rewrite ran), and shaders whose masks
// cross blocks in every way the SIMD back end makes them (a switch in a
// loop, a divergent loop with break and continue, nested divergent ifs
// with an early return) give, lane by lane, what a scalar C++ model of
// the shader gives, at W = 8 and 16 with full and partial SIMD groups.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>

using namespace spirv2llvm;

namespace {

/// Sets -s2l-mask-widening for the life of the object.
class WideningMode {
public:
  explicit WideningMode(const char *Value) { set(Value); }
  ~WideningMode() { set("auto"); }

private:
  static void set(const char *Value) {
    auto &Opts = llvm::cl::getRegisteredOptions();
    auto It = Opts.find("s2l-mask-widening");
    ASSERT_NE(It, Opts.end());
    ASSERT_FALSE(It->second->addOccurrence(0, "s2l-mask-widening", Value));
  }
};

struct Case {
  const char *Name;
  const char *Source;
  std::function<uint32_t(uint32_t)> Model;
};

// Every shader reads src[i], writes dst[i] for i < n and leaves the rest
// of dst alone.
const Case Cases[] = {
    {"switch-in-loop", R"(#version 450
  layout(local_size_x = 64) in;
  layout(set = 0, binding = 0) buffer In { uint src[]; };
  layout(set = 0, binding = 1) buffer Out { uint dst[]; };
  layout(push_constant) uniform P { uint n; };
  void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    uint v = src[i], acc = 0u;
    for (uint r = 0u; r < 12u; ++r) {
      switch ((v >> (r & 7u)) & 7u) {
      case 0u: acc += v * 3u; break;
      case 1u: acc ^= v >> 3; break;
      case 2u: acc = acc * 5u + 1u; break;
      case 3u: acc -= v & 0xffu; break;
      case 4u:
        if ((acc & 1u) != 0u) acc = (acc >> 1) ^ 0xedb88320u; else acc >>= 1;
        break;
      case 5u: acc += acc << 7; break;
      case 6u: acc = min(acc, v) + 17u; break;
      default: acc = ~acc; break;
      }
      v = v * 1664525u + 1013904223u;
    }
    dst[i] = acc;
  })",
     [](uint32_t V) {
       uint32_t Acc = 0;
       for (uint32_t R = 0; R < 12; ++R) {
         switch ((V >> (R & 7)) & 7) {
         case 0:
           Acc += V * 3;
           break;
         case 1:
           Acc ^= V >> 3;
           break;
         case 2:
           Acc = Acc * 5 + 1;
           break;
         case 3:
           Acc -= V & 0xff;
           break;
         case 4:
           Acc = (Acc & 1) ? (Acc >> 1) ^ 0xedb88320u : Acc >> 1;
           break;
         case 5:
           Acc += Acc << 7;
           break;
         case 6:
           Acc = std::min(Acc, V) + 17;
           break;
         default:
           Acc = ~Acc;
           break;
         }
         V = V * 1664525u + 1013904223u;
       }
       return Acc;
     }},
    {"loop-break-continue", R"(#version 450
  layout(local_size_x = 64) in;
  layout(set = 0, binding = 0) buffer In { uint src[]; };
  layout(set = 0, binding = 1) buffer Out { uint dst[]; };
  layout(push_constant) uniform P { uint n; };
  void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    uint x = src[i], k = 0u, s = 0u;
    while (k < 200u) {
      ++k;
      x = (x & 1u) != 0u ? 3u * x + 1u : x >> 1;
      if ((x & 3u) == 2u) continue;
      s += x & 255u;
      if (x <= 1u) break;
    }
    dst[i] = s * 256u + k;
  })",
     [](uint32_t X) {
       uint32_t K = 0, S = 0;
       while (K < 200) {
         ++K;
         X = (X & 1) ? 3 * X + 1 : X >> 1;
         if ((X & 3) == 2)
           continue;
         S += X & 255;
         if (X <= 1)
           break;
       }
       return S * 256 + K;
     }},
    {"nested-ifs", R"(#version 450
  layout(local_size_x = 64) in;
  layout(set = 0, binding = 0) buffer In { uint src[]; };
  layout(set = 0, binding = 1) buffer Out { uint dst[]; };
  layout(push_constant) uniform P { uint n; };
  void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    uint v = src[i], r = v;
    if ((v & 1u) != 0u) {
      if ((v & 2u) != 0u) {
        r = v * 7u;
        if ((v & 4u) != 0u) { dst[i] = r ^ 0x55u; return; }
      } else {
        r = v + 13u;
      }
    } else if ((v & 8u) != 0u) {
      r = ~v;
    }
    dst[i] = r + ((v & 16u) != 0u ? 1u : 2u);
  })",
     [](uint32_t V) {
       uint32_t R = V;
       if (V & 1) {
         if (V & 2) {
           R = V * 7;
           if (V & 4)
             return R ^ 0x55u;
         } else {
           R = V + 13;
         }
       } else if (V & 8) {
         R = ~V;
       }
       return R + ((V & 16) ? 1u : 2u);
     }},
};

std::vector<uint32_t> input(uint32_t Count) {
  std::vector<uint32_t> Src(Count);
  uint32_t X = 12345;
  for (uint32_t &S : Src) {
    X = X * 1103515245u + 12345u;
    S = X ^ (X >> 13);
  }
  return Src;
}

class MaskWidening : public testing::TestWithParam<unsigned> {};

TEST_P(MaskWidening, NoMaskPhiLeft) {
  unsigned W = GetParam();
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Name);
    auto MaskPhis = [&](const char *Mode) {
      WideningMode Widen(Mode);
      TranslateOptions Opts;
      Opts.Width = W;
      Opts.OptLevel = 2;
      auto T = translateBytes(
          llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(C.Source),
                                  std::strlen(C.Source)),
          "case.comp", Opts);
      EXPECT_TRUE(bool(T)) << llvm::toString(T.takeError());
      unsigned N = 0;
      if (T)
        for (llvm::Function &F : *T->IR)
          for (llvm::BasicBlock &BB : F)
            for (llvm::PHINode &P : BB.phis())
              if (auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(P.getType()))
                N += VT->getElementType()->isIntegerTy(1);
      return N;
    };
    EXPECT_GT(MaskPhis("never"), 0u) << "the shader has no mask phi to widen";
    EXPECT_EQ(MaskPhis("always"), 0u);
  }
}

TEST_P(MaskWidening, ResultsMatchScalarModel) {
  unsigned W = GetParam();
  WideningMode Widen("always");
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Name);
    TranslateOptions Opts;
    Opts.Width = W;
    std::string Error;
    auto S = exectest::compileCompute(C.Source, Opts, Error);
    ASSERT_TRUE(S) << Error;
    // n not a multiple of W: the last group runs with a partial mask.
    const uint32_t Groups = 4, Count = Groups * 64, N = Count - 5;
    std::vector<uint32_t> Src = input(Count), Dst(Count, 0xdeadbeef);
    DispatchResources R;
    R.bind(0, 0, Src.data(), Src.size() * 4);
    R.bind(0, 1, Dst.data(), Dst.size() * 4);
    R.PushConstants.resize(sizeof(N));
    std::memcpy(R.PushConstants.data(), &N, sizeof(N));
    ASSERT_TRUE(S->dispatch({Groups, 1, 1}, R).ok());
    for (uint32_t I = 0; I < Count; ++I)
      ASSERT_EQ(Dst[I], I < N ? C.Model(Src[I]) : 0xdeadbeefu)
          << "invocation " << I << ", input " << Src[I];
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, MaskWidening, testing::Values(8u, 16u));

} // namespace
