//===- FragmentReferences.cpp - C++ references of the fragment shaders ----===//
//
// One function per shader of shaders/controlflow/*.frag{,.spvasm}: the same
// code as the shader, in scalar C++, for one invocation's input x. It
// returns the outputs, or nullopt where the shader kills, terminates or
// demotes the invocation. Keep each in step with its shader.
//
//===----------------------------------------------------------------------===//
#include "FragmentReferences.h"

#include <algorithm>
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

FragResult killInLoop(float X) {
  int N = int(X), S = 0;
  for (int I = 0; I < 12; I++) {
    S += (N >> (I & 3)) + I;
    if (I == N % 13 && (N & 1) == 1)
      return std::nullopt; // discard
  }
  int T = 0;
  if (N % 3 != 0) {
    if (S > 60 + N)
      return std::nullopt; // discard in checkBudget
    T = S / 2;
  }
  return one(S * 100 + T);
}

FragResult terminateInvocation(float X) {
  int N = int(X), S = 1;
  for (int I = 0; I < 6; I++) {
    switch ((N + I) % 7) {
    case 3:
      if (I > 2 && N > 40)
        return std::nullopt;
      S += 3;
      break;
    case 5:
      S *= 2;
      continue;
    default:
      S += I;
    }
    S ^= N;
  }
  return one(S);
}

// A demoted lane's outputs are discarded: nullopt. Lanes never demoted
// never see helperInvocationEXT() true.
FragResult demoteHelper(float X) {
  int N = int(X), S = 0;
  for (int I = 0; I < 8; I++) {
    if (I == N % 11 && N % 4 == 1)
      return std::nullopt;
    S += I * N;
  }
  return four(S, 0, 3, N);
}

FragResult demoteInFunction(float X) {
  int N = int(X), S = 0;
  for (int I = 0; I < N % 5; I++) {
    if ((N & 2) != 0 && (N + I) % 9 == 4)
      return std::nullopt;
    S += N - I;
  }
  return four(S, 0, 0, -N);
}

FragResult funcInoutParams(float X) {
  int N = int(X), Acc = 0, MinV = 1000, MaxV = -1000;
  for (int I = 0; I < N % 7; I++) {
    int V = ((N * (I + 3)) % 17) - 4;
    if (V < 0)
      continue;
    Acc += V;
    MinV = std::min(MinV, V);
    MaxV = std::max(MaxV, V);
  }
  int Lo = 5, Hi = 5;
  if (N % 3 != 1) {
    Lo = N % 10;
    Hi = N >= 10 ? N / 10 : -1;
  }
  int A[4] = {1, 2, 3, 4};
  int T = 0;
  if ((N & 4) != 0) {
    A[N & 3] += N;
    T = A[0] + A[1] + A[2] + A[3];
  }
  return four(Acc, MinV * 10000 + MaxV, Lo * 100 + Hi, T * 100 + A[N & 3]);
}

FragResult switchInLoopReturn(float X) {
  int N = int(X), S = 0, I;
  bool Stop = false;
  for (I = 0; I < 10 && !Stop; I++) {
    switch ((N >> (I % 5)) & 3) {
    case 0:
      S += 1;
      break;
    case 1:
      S += 10;
      continue;
    case 2:
      if (S > 25) {
        Stop = true;
        break;
      }
      S *= 2;
      break;
    default:
      if (N > 55 && I > 5)
        return four(S, I, 0, 1);
      S -= 1;
    }
    S += I;
  }
  return four(S, I, Stop ? 1 : 0, 2);
}

FragResult selectVectors(float X) {
  int N = int(X);
  int A[4] = {N, N * 2, N * 3, N * 4}, B[4] = {-1, -2, -3, -4};
  int M[4], T[4], U[4], R[4];
  for (int K = 0; K < 4; K++)
    M[K] = (N >> K) & 1 ? B[K] : A[K];
  for (int K = 0; K < 4; K++)
    T[K] = N % 3 == 0 ? M[K] : A[3 - K];
  for (int K = 0; K < 4; K++)
    U[K] = N > 40 ? (N > 50 ? T[K] + 1 : T[K] - 1) : T[K] * 2;
  int Extra = N % 5 == 2 ? U[0] + U[1] : U[2] - U[3];
  for (int K = 0; K < 4; K++)
    R[K] = (N & 16) != 0 ? (K == 0 ? Extra : U[K]) : U[K] + Extra;
  return four(R[0], R[1], R[2], R[3]);
}

FragResult uniformLoopInDivergent(float X) {
  int N = int(X), S = 0;
  if (N % 2 == 0) {
    for (int I = 0; I < 4; I++)
      S += I * N;
  } else if (N % 3 == 0) {
    for (int I = 0; I < 3; I++)
      S ^= N << I;
  } else {
    S = -N;
  }
  for (int I = 0; I < N % 6; I++) {
    for (int J = 0; J < 2; J++)
      S += J + I;
    if (I == 3)
      break;
  }
  return one(S); // x is never above 100
}

FragResult privateGlobalsCalls(float X) {
  int N = int(X), Counter = 0, History[4] = {0, 0, 0, 0};
  auto Record = [&](int V) { History[Counter++ & 3] = V; };
  for (int I = 0; I < N % 6; I++)
    Record(N + I);
  int Odd = 0;
  if (N > 30) {
    if (N & 1) {
      Counter += 100;
      Odd = 1;
    }
  } else {
    Record(-N);
  }
  return four(Counter, History[0] + History[1] * 3, History[2] - History[3],
              Odd);
}

int search(int N, int Target) {
  for (int I = 1; I < 8; I++)
    for (int J = I; J < 8; J++) {
      if (I * J == Target)
        return I * 10 + J;
      if (I * J > N)
        break;
    }
  return -1;
}

int classify(int N) {
  for (int K = 0; K < 4; K++) {
    switch ((N >> K) & 3) {
    case 3:
      return 100 + K;
    case 2:
      if (K > 1)
        return 200 + K;
      break;
    default:
      continue;
    }
    N += 1;
  }
  return N;
}

FragResult returnValueNested(float X) {
  int N = int(X), S = 0;
  for (int T = N % 4; T < 6; T++)
    S += search(N, T * 3 + 2);
  int C = (N & 8) == 0 ? classify(N) : 0;
  return four(S, C, search(63 - N, N % 20), classify(N + 1));
}

// Per quad: every lane runs the whole loop (demoted ones too), so acc is
// 15 n everywhere; helpers are the demoted lanes and those the caller left
// off.
void demoteDerivatives(const float X[4], const bool Active[4],
                       FragResult Out[4]) {
  float Acc[4], H[4];
  bool Demoted[4];
  for (int L = 0; L < 4; ++L) {
    int N = int(X[L]);
    Demoted[L] = false;
    Acc[L] = 0.0f;
    for (int I = 0; I < 6; I++) {
      if (I == N % 7 && (N & 1) == 1)
        Demoted[L] = true;
      Acc[L] += float(I * N);
    }
    H[L] = Demoted[L] || !Active[L] ? 1.0f : 0.0f;
  }
  for (int L = 0; L < 4; ++L) {
    auto Dx = [&](const float *V) { return V[L | 1] - V[L & ~1]; };
    auto Dy = [&](const float *V) { return V[L | 2] - V[L & ~2]; };
    Out[L] = Demoted[L] ? std::nullopt
                        : four(int(Acc[L]), int(Dx(Acc)), int(Dy(Acc)),
                               int(Dx(H) + 10.0f * Dy(H)));
  }
}

void derivativeAfterCall(const float X[4], const bool *, FragResult Out[4]) {
  float A[4], B[4];
  for (int L = 0; L < 4; ++L) {
    float V = std::floor(X[L]);
    A[L] = 0.0f;
    for (int I = 0; I < int(V) % 5 + 1; I++)
      A[L] += V * float(I + 1);
    B[L] = int(X[L]) % 3 == 1 ? -V * 2.0f : V;
  }
  for (int L = 0; L < 4; ++L) {
    auto Dx = [&](const float *V) { return V[L | 1] - V[L & ~1]; };
    auto Dy = [&](const float *V) { return V[L | 2] - V[L & ~2]; };
    Out[L] = four(int(A[L]), int(Dx(A)), int(Dy(A)),
                  int(Dx(B) * 1000.0f + Dy(B)));
  }
}

FragResult killUnreachable(float X) {
  int N = int(X), S = 0;
  for (int I = 0; I < 10; I++) {
    if (I == N % 13 && N > 20)
      return std::nullopt; // OpKill
    S += N ^ I;
  }
  const int T[4] = {11, 22, 33, 44};
  return one(S * 10 + T[N & 3]);
}

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
      {"kill_in_loop", "kill_in_loop.frag", killInLoop},
      {"kill_unreachable", "kill_unreachable.frag.spvasm", killUnreachable},
      {"terminate_invocation", "terminate_invocation.frag",
       terminateInvocation},
      {"demote_helper", "demote_helper.frag", demoteHelper},
      {"demote_in_function", "demote_in_function.frag", demoteInFunction},
      {"func_inout_params", "func_inout_params.frag", funcInoutParams},
      {"switch_in_loop_return", "switch_in_loop_return.frag",
       switchInLoopReturn},
      {"select_vectors", "select_vectors.frag", selectVectors},
      {"uniform_loop_in_divergent", "uniform_loop_in_divergent.frag",
       uniformLoopInDivergent},
      {"private_globals_calls", "private_globals_calls.frag",
       privateGlobalsCalls},
      {"return_value_nested", "return_value_nested.frag", returnValueNested},
      {"demote_derivatives", "demote_derivatives.frag", nullptr,
       demoteDerivatives},
      {"derivative_after_call", "derivative_after_call.frag", nullptr,
       derivativeAfterCall},
  };
  return Cases;
}

} // namespace spirv2llvm::cftest
