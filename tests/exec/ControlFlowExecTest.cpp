//===- ControlFlowExecTest.cpp - Divergent control flow, executed ---------===//
//
// Small fragment shaders whose lanes disagree in the construct each one
// tests (varying loop trip counts, break, continue, switch with
// fall-through, discard, return inside a loop, values live out of a
// divergent loop), run through the JIT at every width, with and without
// canonicalization, and compared lane by lane with the same code in C++.
// Every shader reads `float x` (location 0) and writes `int r` (location 0).
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Jit.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

using namespace spirv2llvm;

namespace {

struct Shader {
  const char *Name;
  const char *Body; ///< GLSL statements of main(); x is the input, r the output
  /// Reference: returns r, or nullopt if the invocation is discarded.
  std::function<std::optional<int32_t>(float)> Reference;
};

const Shader Shaders[] = {
    {"BreakInVaryingLoop",
     R"(int n = int(x); int s = 0;
        for (int i = 0; i < 100; i++) { if (i >= n) break; s += i * i; }
        r = s;)",
     [](float X) -> std::optional<int32_t> {
       int N = int(X), S = 0;
       for (int I = 0; I < 100; I++) {
         if (I >= N)
           break;
         S += I * I;
       }
       return S;
     }},
    {"ContinueAndNestedLoops",
     R"(int n = int(x); int s = 0;
        for (int i = 0; i < n; i++) {
          if ((i & 1) == 1) continue;
          for (int j = 0; j < i; j++) { if (j == 3) break; s += j + i; }
        }
        r = s;)",
     [](float X) -> std::optional<int32_t> {
       int N = int(X), S = 0;
       for (int I = 0; I < N; I++) {
         if ((I & 1) == 1)
           continue;
         for (int J = 0; J < I; J++) {
           if (J == 3)
             break;
           S += J + I;
         }
       }
       return S;
     }},
    {"SwitchFallThrough",
     R"(int k = int(x) % 6; int s = 100;
        switch (k) {
        case 0: s += 1;
        case 1: s += 10; break;
        default: s += 1000;
        case 3: s += 5; break;
        case 4: s = -s; break;
        }
        r = s;)",
     [](float X) -> std::optional<int32_t> {
       int K = int(X) % 6, S = 100;
       switch (K) {
       case 0:
         S += 1;
         [[fallthrough]];
       case 1:
         S += 10;
         break;
       default:
         S += 1000;
         [[fallthrough]];
       case 3:
         S += 5;
         break;
       case 4:
         S = -S;
         break;
       }
       return S;
     }},
    {"Discard",
     R"(if (x < 3.0) discard; r = int(x) * 2;)",
     [](float X) -> std::optional<int32_t> {
       if (X < 3.0f)
         return std::nullopt;
       return int(X) * 2;
     }},
    {"ReturnInsideLoop",
     R"(int n = int(x); r = -1;
        for (int i = 0; i < 50; i++) { if (i * i > n) { r = i; return; } }
        r = 99;)",
     [](float X) -> std::optional<int32_t> {
       int N = int(X);
       for (int I = 0; I < 50; I++)
         if (I * I > N)
           return I;
       return 99;
     }},
    {"LiveOutOfDivergentLoop",
     R"(int n = int(x); int last = 0; int i;
        for (i = 0; i < n; i++) { last = i * 3; if (last > 20) break; }
        r = last * 100 + i;)",
     [](float X) -> std::optional<int32_t> {
       int N = int(X), Last = 0, I;
       for (I = 0; I < N; I++) {
         Last = I * 3;
         if (Last > 20)
           break;
       }
       return Last * 100 + I;
     }},
    {"WhileAndDoWhile",
     R"(int v = int(x); int steps = 0;
        while (v != 1 && steps < 40) { v = (v % 2 == 0) ? v / 2 : 3 * v + 1; steps++; }
        int d = 0; do { d += 7; } while (d < int(x));
        r = steps * 1000 + d;)",
     [](float X) -> std::optional<int32_t> {
       int V = int(X), Steps = 0;
       while (V != 1 && Steps < 40) {
         V = (V % 2 == 0) ? V / 2 : 3 * V + 1;
         Steps++;
       }
       int D = 0;
       do {
         D += 7;
       } while (D < int(X));
       return Steps * 1000 + D;
     }},
    {"OnlyExitUnderVaryingBranch",
     // The break block post-dominates the loop, yet lanes reach it in
     // different iterations.
     R"(int i = 0; int s = 0;
        for (;;) { if (float(i) > x) { r = i * 10 + s; break; } s += i; i++; })",
     [](float X) -> std::optional<int32_t> {
       int I = 0, S = 0;
       for (;;) {
         if (float(I) > X)
           return I * 10 + S;
         S += I;
         I++;
       }
     }},
    {"DynamicallyIndexedLocalArray",
     // A Function array indexed with uniform and varying indices lives in
     // memory, one copy per lane.
     R"(float a[8]; int n = int(x);
        for (int k = 0; k < 8; k++) a[k] = float(k * k) + float(n % 3);
        int j = n % 8; a[j] = -1.0;
        ivec2 v[3] = ivec2[3](ivec2(1, 2), ivec2(3, 4), ivec2(5, 6));
        v[n % 3].y += n;
        r = int(a[(j + 3) % 8] * 10.0) + int(a[j]) * 1000 + v[(n + 1) % 3].y * 100000 + v[n % 3].y;)",
     [](float X) -> std::optional<int32_t> {
       float A[8];
       int N = int(X);
       for (int K = 0; K < 8; K++)
         A[K] = float(K * K) + float(N % 3);
       int J = N % 8;
       A[J] = -1.0f;
       int V[3][2] = {{1, 2}, {3, 4}, {5, 6}};
       V[N % 3][1] += N;
       return int(A[(J + 3) % 8] * 10.0f) + int(A[J]) * 1000 +
              V[(N + 1) % 3][1] * 100000 + V[N % 3][1];
     }},
    {"NestedVaryingIfElse",
     R"(int a = int(x); int s;
        if (a > 10) { if (a % 2 == 0) s = a; else s = -a; }
        else if (a > 5) { s = a * 3; } else { s = 7; }
        r = s;)",
     [](float X) -> std::optional<int32_t> {
       int A = int(X), S;
       if (A > 10)
         S = A % 2 == 0 ? A : -A;
       else if (A > 5)
         S = A * 3;
       else
         S = 7;
       return S;
     }},
};

struct Case {
  size_t ShaderIndex;
  unsigned Width;
  bool Canonicalize;
  unsigned OptLevel;
};

std::string caseName(const testing::TestParamInfo<Case> &I) {
  return std::string(Shaders[I.param.ShaderIndex].Name) + "_w" +
         std::to_string(I.param.Width) +
         (I.param.Canonicalize ? "" : "_nocanon") + "_O" +
         std::to_string(I.param.OptLevel);
}

class ControlFlowExec : public testing::TestWithParam<Case> {};

TEST_P(ControlFlowExec, MatchesReference) {
  const Case &C = GetParam();
  const Shader &S = Shaders[C.ShaderIndex];
  std::string Source = "#version 450\n"
                       "layout(location = 0) in float x;\n"
                       "layout(location = 0) out int r;\n"
                       "void main() {\n" +
                       std::string(S.Body) + "\n}\n";
  TranslateOptions Opts;
  Opts.Width = C.Width;
  Opts.Canonicalize = C.Canonicalize;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                        Source.size()),
      std::string(S.Name) + ".frag", Opts);
  ASSERT_TRUE(!!T) << llvm::toString(T.takeError());
  auto J = JitShader::create(std::move(*T), C.OptLevel);
  ASSERT_TRUE(!!J) << llvm::toString(J.takeError());
  const InterfaceLayout &L = (*J)->layout();
  const InterfaceVariable *In = L.findInputLocation(0);
  const InterfaceVariable *Out = L.findOutputLocation(0);
  ASSERT_TRUE(In && Out);

  const unsigned W = C.Width;
  std::vector<uint8_t> InBuf(L.InputSize), OutBuf(L.OutputSize);
  const int32_t Sentinel = 0x5A5A5A5A;
  const uint32_t Full = (1u << W) - 1;
  // Inputs 0..63 in an order that mixes small and large values in a group.
  for (uint32_t Mask : {Full, Full & 0x6996u}) {
    for (unsigned Base = 0; Base < 64; Base += W) {
      std::vector<float> Xs(W);
      for (unsigned Lane = 0; Lane < W; ++Lane)
        Xs[Lane] = float(((Base + Lane) * 37) % 64) + 0.25f;
      std::memcpy(&InBuf[In->ComponentOffsets[0]], Xs.data(), 4 * W);
      for (unsigned Lane = 0; Lane < W; ++Lane)
        std::memcpy(&OutBuf[Out->ComponentOffsets[0] + 4 * Lane], &Sentinel,
                    4);
      s2l_group_args Args = {};
      Args.active_mask = Mask;
      Args.inputs = InBuf.data();
      Args.outputs = OutBuf.data();
      uint32_t Alive = (*J)->run(Args);
      for (unsigned Lane = 0; Lane < W; ++Lane) {
        int32_t Got;
        std::memcpy(&Got, &OutBuf[Out->ComponentOffsets[0] + 4 * Lane], 4);
        bool Active = Mask & (1u << Lane);
        std::optional<int32_t> Want = S.Reference(Xs[Lane]);
        if (!Active) {
          EXPECT_EQ(Got, Sentinel) << "inactive lane " << Lane << " written";
          EXPECT_FALSE(Alive & (1u << Lane));
          continue;
        }
        EXPECT_EQ(bool(Alive & (1u << Lane)), Want.has_value())
            << "x = " << Xs[Lane] << " lane " << Lane;
        if (Want)
          EXPECT_EQ(Got, *Want) << "x = " << Xs[Lane] << " lane " << Lane;
      }
    }
  }
}

std::vector<Case> allCases() {
  std::vector<Case> Cases;
  for (size_t S = 0; S < std::size(Shaders); ++S)
    for (unsigned W : {4u, 8u, 16u})
      for (bool Canon : {true, false})
        Cases.push_back({S, W, Canon, W == 8 ? 0u : 2u});
  return Cases;
}

INSTANTIATE_TEST_SUITE_P(Shaders, ControlFlowExec,
                         testing::ValuesIn(allCases()), caseName);

} // namespace
