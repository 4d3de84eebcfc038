//===- FaultExecTest.cpp - Faults and time limits as dispatch errors ------===//
//
// Without robust buffer access a shader can write anywhere. A dispatch
// that faults must return an error naming the access and the buffer it
// missed (DispatchResources::CatchFaults, src/runtime/FaultGuard.h), once
// however many workers fault, and leave the process able to dispatch (and
// catch the next fault) again; a fault outside shader code must still go
// to the handler installed before ours. A dispatch over its time limit
// (DispatchResources::Timeout) returns an error saying so.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "runtime/GuardedBuffer.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <unistd.h>

using namespace spirv2llvm;

namespace {

// b[index] = 7 or a[0] = b[index], index from the push constants.
const char *const WildWrite = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
layout(push_constant) uniform P { int index; uint read; };
void main() {
  if (read != 0u)
    a[gl_LocalInvocationID.x] = b[index + int(gl_LocalInvocationID.x)];
  else
    b[index + int(gl_LocalInvocationID.x)] = 7u;
}
)";

// The same with barriers, so the 64 invocations run as fibers (one per
// SIMD group); the wild access comes after the first barrier.
const char *const WildWriteBarrier = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
layout(push_constant) uniform P { int index; uint read; };
shared uint s[64];
void main() {
  uint i = gl_LocalInvocationID.x;
  s[i] = i;
  barrier();
  a[i] = s[63u - i];
  b[index + int(i)] = 7u;
  barrier();
}
)";

std::vector<uint8_t> push(int32_t Index, uint32_t Read) {
  std::vector<uint8_t> P(8);
  std::memcpy(P.data(), &Index, 4);
  std::memcpy(P.data() + 4, &Read, 4);
  return P;
}

std::unique_ptr<ComputeShader> compile(const char *Src, unsigned Width = 4) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Glsl;
  Opts.Width = Width;
  std::string Err;
  auto S = exectest::compileCompute(Src, Opts, Err);
  EXPECT_TRUE(S) << Err;
  return S;
}

struct Buffers {
  GuardedBuffer A{256 * 4}, B{64 * 4};
  DispatchResources resources(int32_t Index, uint32_t Read) {
    DispatchResources R;
    R.bind(0, 0, A.data(), A.size());
    R.bind(0, 1, B.data(), B.size());
    R.PushConstants = push(Index, Read);
    return R;
  }
};

std::string dispatchError(ComputeShader &S, const DispatchResources &R,
                          uint32_t Groups, unsigned Threads) {
  Status D = S.dispatch({Groups, 1, 1}, R, Threads);
  return D.ok() ? std::string() : D.message();
}

TEST(Faults, OutOfBoundsWriteIsAnError) {
  auto S = compile(WildWrite);
  ASSERT_TRUE(S);
  Buffers Bufs;
  ASSERT_GE(Bufs.B.guardSize(), size_t(1) << 28);
  // 64 M words past the start: 256 MiB, inside the guard region.
  std::string Msg = dispatchError(*S, Bufs.resources(1 << 26, 0), 1, 1);
  EXPECT_NE(Msg.find("dispatch stopped: the shader accessed memory outside "
                     "its resources: a write to address 0x"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find(", at byte offset 268435456 of the buffer at set 0, "
                     "binding 1 (256 bytes)"),
            std::string::npos)
      << Msg;

  // The process is intact: an in-bounds dispatch works, and the next fault
  // (a read before the start) is caught too, so the handler's signal was
  // unblocked again.
  std::string Ok = dispatchError(*S, Bufs.resources(0, 0), 1, 1);
  EXPECT_EQ(Ok, "");
  EXPECT_EQ(reinterpret_cast<uint32_t *>(Bufs.B.data())[63], 7u);
  Msg = dispatchError(*S, Bufs.resources(-(1 << 24), 1), 1, 1);
  EXPECT_NE(Msg.find("a read of address 0x"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("at byte offset -67108864 of the buffer at set 0, "
                     "binding 1"),
            std::string::npos)
      << Msg;
}

TEST(Faults, EveryWorkerFaultsOneErrorAtEveryWidth) {
  for (unsigned W : {4u, 8u, 16u}) {
    auto S = compile(WildWrite, W);
    ASSERT_TRUE(S);
    Buffers Bufs;
    for (int Round = 0; Round < 3; ++Round) {
      std::string Msg = dispatchError(*S, Bufs.resources(1 << 26, 0), 256, 4);
      // One message, not one per worker.
      EXPECT_EQ(Msg.find("dispatch stopped"), Msg.rfind("dispatch stopped"))
          << Msg;
      EXPECT_NE(Msg.find("binding 1 (256 bytes)"), std::string::npos)
          << "width " << W << ": " << Msg;
    }
    EXPECT_EQ(dispatchError(*S, Bufs.resources(0, 0), 256, 4), "");
  }
}

TEST(Faults, FaultInAFiber) {
  auto S = compile(WildWriteBarrier);
  ASSERT_TRUE(S);
  ASSERT_TRUE(S->info().HasBarriers);
  Buffers Bufs;
  std::string Msg = dispatchError(*S, Bufs.resources(1 << 26, 0), 64, 2);
  EXPECT_NE(Msg.find("a write to address"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("binding 1 (256 bytes)"), std::string::npos) << Msg;
  // The fibers of the abandoned workgroup do not hurt the next dispatch.
  EXPECT_EQ(dispatchError(*S, Bufs.resources(0, 0), 64, 2), "");
  auto *A = reinterpret_cast<uint32_t *>(Bufs.A.data());
  for (uint32_t I = 0; I < 64; ++I)
    ASSERT_EQ(A[I], 63 - I) << I;
}

TEST(Faults, StackOverflowInAFiber) {
  // 1 MiB of private memory per lane set, on a 256 KiB fiber stack: with
  // stack probes the frame runs into the guard page.
  const char *Src = R"(#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() {
  uint big[65536];
  uint i = gl_LocalInvocationID.x;
  for (uint k = 0u; k < 65536u; k += 1024u)
    big[k + a[i]] = k;
  barrier();
  a[i] = big[a[i + 8u]];
}
)";
  auto S = compile(Src);
  ASSERT_TRUE(S);
  ASSERT_TRUE(S->info().HasBarriers);
  std::vector<uint32_t> Data(16, 0);
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  std::string Msg = dispatchError(*S, R, 1, 1);
  EXPECT_NE(Msg.find("stack overflow"), std::string::npos) << Msg;
}

TEST(Faults, StackOverflowOnAThreadStack) {
  // No barriers, so no fibers: 32 MiB of private memory per SIMD group on
  // the worker threads' own stacks (8 MiB).
  const char *Src = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() {
  uint big[2097152];
  uint i = gl_LocalInvocationID.x;
  for (uint k = 0u; k < 2097152u; k += 1024u)
    big[k + a[i]] = k;
  a[i] = big[a[i + 4u]];
}
)";
  auto S = compile(Src);
  ASSERT_TRUE(S);
  std::vector<uint32_t> Data(8, 0);
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  for (unsigned Threads : {1u, 2u}) {
    std::string Msg = dispatchError(*S, R, 2, Threads);
    EXPECT_NE(Msg.find("stack overflow"), std::string::npos)
        << Threads << " threads: " << Msg;
  }
}

TEST(Faults, CatchFaultsOffStillCrashes) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto S = compile(WildWrite);
  ASSERT_TRUE(S);
  Buffers Bufs;
  DispatchResources R = Bufs.resources(1 << 26, 0);
  R.CatchFaults = false;
  EXPECT_DEATH((void)S->dispatch({1, 1, 1}, R, 1), "");
}

// A fault outside shader code goes to the handler that was there before
// ours: here the test's own, which exits with a code of its own.
void testHandler(int) { _exit(42); }

TEST(Faults, OtherFaultsGoToThePreviousHandler) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto Body = [] {
    // The threadsafe style runs this in a fresh process, so the test's
    // handler is installed before the runtime installs its own.
    struct sigaction SA = {};
    SA.sa_handler = testHandler;
    sigemptyset(&SA.sa_mask);
    sigaction(SIGSEGV, &SA, nullptr);
    auto S = compile(WildWrite);
    Buffers Bufs;
    // A caught fault first: the runtime's handler is in place.
    if (dispatchError(*S, Bufs.resources(1 << 26, 0), 1, 1).empty())
      _exit(3);
    // Then a fault in host code, not shader code.
    *reinterpret_cast<volatile uint32_t *>(Bufs.B.data() + (1 << 28)) = 1;
    _exit(4);
  };
  EXPECT_EXIT(Body(), testing::ExitedWithCode(42), "");
}

// Loops until a[0] is set, which nothing does.
const char *const Endless = R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() {
  uint i = 0u;
  while (a[0] == 0u)
    a[1u + gl_LocalInvocationID.x] = i++;
}
)";

TEST(TimeLimits, TimeoutStopsAnEndlessDispatch) {
  auto S = compile(Endless);
  ASSERT_TRUE(S);
  std::vector<uint32_t> Data(32, 0);
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  R.Timeout = std::chrono::milliseconds(200);
  std::string Msg = dispatchError(*S, R, 16, 2);
  EXPECT_NE(Msg.find("dispatch timed out after 0.2 s"), std::string::npos)
      << Msg;
  // A dispatch that ends in time is not affected by its limit.
  Data[0] = 1;
  R.Timeout = std::chrono::seconds(60);
  EXPECT_EQ(dispatchError(*S, R, 16, 2), "");
}

TEST(TimeLimits, CancelFlagAlreadySetStopsAtOnce) {
  auto S = compile(Endless);
  ASSERT_TRUE(S);
  std::vector<uint32_t> Data(32, 0);
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  std::atomic<uint32_t> Cancel{1};
  R.Cancel = &Cancel;
  std::string Msg = dispatchError(*S, R, 16, 2);
  EXPECT_NE(Msg.find("cancelled"), std::string::npos) << Msg;
  EXPECT_EQ(Data[1], 0u) << "no workgroup should have started";
}

} // namespace
