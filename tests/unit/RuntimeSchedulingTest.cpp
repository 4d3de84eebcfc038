//===- RuntimeSchedulingTest.cpp - Fibers and the worker pool -------------===//
//
// The pieces the compute runtime schedules workgroups with: fiber contexts
// (runtime/Fiber.h) must preserve a fiber's state across switches and give
// it an aligned stack; the pool (runtime/ThreadPool.h) must run every job
// index exactly once, concurrently, for any thread count, call after call.
//
//===----------------------------------------------------------------------===//
#include "runtime/Fiber.h"
#include "runtime/ThreadPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

using namespace spirv2llvm;

namespace {

struct PingPong {
  fiber::Context Main, Fiber;
  std::vector<int> Log;
  bool Aligned = true;
  bool Done = false;
};

// Not inlined: its locals live across switches in callee-saved registers
// and on the fiber's stack.
__attribute__((noinline)) void fiberBody(void *P) {
  auto *S = static_cast<PingPong *>(P);
  alignas(64) volatile double Buffer[8];
  S->Aligned = reinterpret_cast<uintptr_t>(&Buffer[0]) % 64 == 0;
  long Sum = 0;
  for (int I = 0; I < 1000; ++I) {
    Buffer[I % 8] = I;
    Sum += I;
    S->Log.push_back(I);
    fiber::switchContext(S->Fiber, S->Main);
  }
  S->Log.push_back(int(Sum % 100000));
  S->Log.push_back(int(Buffer[999 % 8]));
  S->Done = true;
  fiber::switchContext(S->Fiber, S->Main); // never resumed
}

TEST(Fiber, SwitchesPreserveStateAndAlignment) {
  std::vector<char> Stack(64 * 1024);
  PingPong S;
  fiber::makeContext(S.Fiber, Stack.data(), Stack.size(), fiberBody, &S);
  long MainSum = 0; // lives in the main context across the switches
  int Rounds = 0;
  while (!S.Done) {
    fiber::switchContext(S.Main, S.Fiber);
    MainSum += Rounds++;
  }
  ASSERT_EQ(Rounds, 1001);
  EXPECT_EQ(MainSum, 1001L * 1000 / 2);
  ASSERT_EQ(S.Log.size(), 1002u);
  for (int I = 0; I < 1000; ++I)
    ASSERT_EQ(S.Log[I], I);
  EXPECT_EQ(S.Log[1000], int((999L * 1000 / 2) % 100000));
  EXPECT_EQ(S.Log[1001], 999);
  EXPECT_TRUE(S.Aligned);
}

TEST(ThreadPool, EveryIndexRunsOnceAndConcurrently) {
  for (unsigned N : {1u, 2u, 5u, 3u, 8u, 2u}) {
    std::vector<std::atomic<int>> Runs(N);
    std::atomic<unsigned> Arrived{0};
    std::atomic<bool> AllMet{true};
    runOnWorkers(N, [&](unsigned I) {
      Runs[I]++;
      // Every participant waits for all the others: passes only if the N
      // jobs really run at the same time.
      Arrived++;
      auto Deadline =
          std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (Arrived.load() < N) {
        if (std::chrono::steady_clock::now() > Deadline) {
          AllMet = false;
          break;
        }
        std::this_thread::yield();
      }
    });
    for (unsigned I = 0; I < N; ++I)
      EXPECT_EQ(Runs[I].load(), 1) << "N = " << N << ", index " << I;
    EXPECT_TRUE(AllMet.load()) << "N = " << N;
  }
}

} // namespace
