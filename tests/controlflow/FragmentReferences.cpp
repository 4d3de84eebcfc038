//===- FragmentReferences.cpp - C++ references of the fragment shaders ----===//
//
// One function per shader of shaders/controlflow/*.frag{,.spvasm}: the same
// code as the shader, in scalar C++, for one invocation's input x. It
// returns the outputs, or nullopt where the shader kills, terminates or
// demotes the invocation. Keep each in step with its shader.
//
//===----------------------------------------------------------------------===//
#include "FragmentReferences.h"

#include <cmath>

namespace spirv2llvm::cftest {
namespace {

FragResult one(int32_t R) { return std::array<int32_t, 4>{R, 0, 0, 0}; }
FragResult four(int32_t A, int32_t B, int32_t C, int32_t D) {
  return std::array<int32_t, 4>{A, B, C, D};
}

//===--- Migrated from tests/exec/ControlFlowExecTest.cpp ----------------===//

FragResult breakInVaryingLoop(float X) {
  int N = int(X), S = 0;
  for (int I = 0; I < 100; I++) {
    if (I >= N)
      break;
    S += I * I;
  }
  return one(S);
}

FragResult continueNestedLoops(float X) {
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
  return one(S);
}

FragResult switchFallthrough(float X) {
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
  return one(S);
}

FragResult discard(float X) {
  if (X < 3.0f)
    return std::nullopt;
  return one(int(X) * 2);
}

FragResult returnInsideLoop(float X) {
  int N = int(X);
  for (int I = 0; I < 50; I++)
    if (I * I > N)
      return one(I);
  return one(99);
}

FragResult liveOutOfDivergentLoop(float X) {
  int N = int(X), Last = 0, I;
  for (I = 0; I < N; I++) {
    Last = I * 3;
    if (Last > 20)
      break;
  }
  return one(Last * 100 + I);
}

FragResult whileDoWhile(float X) {
  int V = int(X), Steps = 0;
  while (V != 1 && Steps < 40) {
    V = (V % 2 == 0) ? V / 2 : 3 * V + 1;
    Steps++;
  }
  int D = 0;
  do {
    D += 7;
  } while (D < int(X));
  return one(Steps * 1000 + D);
}

FragResult onlyExitUnderVaryingBranch(float X) {
  int I = 0, S = 0;
  for (;;) {
    if (float(I) > X)
      return one(I * 10 + S);
    S += I;
    I++;
  }
}

FragResult indexedLocalArray(float X) {
  float A[8];
  int N = int(X);
  for (int K = 0; K < 8; K++)
    A[K] = float(K * K) + float(N % 3);
  int J = N % 8;
  A[J] = -1.0f;
  int V[3][2] = {{1, 2}, {3, 4}, {5, 6}};
  V[N % 3][1] += N;
  return one(int(A[(J + 3) % 8] * 10.0f) + int(A[J]) * 1000 +
             V[(N + 1) % 3][1] * 100000 + V[N % 3][1]);
}

FragResult nestedVaryingIfElse(float X) {
  int A = int(X), S;
  if (A > 10)
    S = A % 2 == 0 ? A : -A;
  else if (A > 5)
    S = A * 3;
  else
    S = 7;
  return one(S);
}

//===--- New shaders ------------------------------------------------------===//

} // namespace

const std::vector<FragmentShaderCase> &fragmentShaders() {
  static const std::vector<FragmentShaderCase> Cases = {
      {"break_in_varying_loop", "break_in_varying_loop.frag",
       breakInVaryingLoop},
      {"continue_nested_loops", "continue_nested_loops.frag",
       continueNestedLoops},
      {"switch_fallthrough", "switch_fallthrough.frag", switchFallthrough},
      {"discard", "discard.frag", discard},
      {"return_inside_loop", "return_inside_loop.frag", returnInsideLoop},
      {"live_out_of_divergent_loop", "live_out_of_divergent_loop.frag",
       liveOutOfDivergentLoop},
      {"while_do_while", "while_do_while.frag", whileDoWhile},
      {"only_exit_under_varying_branch", "only_exit_under_varying_branch.frag",
       onlyExitUnderVaryingBranch},
      {"indexed_local_array", "indexed_local_array.frag", indexedLocalArray},
      {"nested_varying_if_else", "nested_varying_if_else.frag",
       nestedVaryingIfElse},
  };
  return Cases;
}

} // namespace spirv2llvm::cftest
