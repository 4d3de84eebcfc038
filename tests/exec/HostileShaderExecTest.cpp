//===- HostileShaderExecTest.cpp - Wild indices and endless loops ---------===//
//
// With robust buffer access, generated code must not touch memory outside
// its buffers, workgroup memory or stack whatever the indices. The buffers
// here are exactly one page each, placed between two PROT_NONE guard pages:
// any access before or after them faults and kills the test. Indices are
// huge, negative and different per lane. The watchdog test stops a shader
// that never ends from another thread.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

using namespace spirv2llvm;

namespace {

/// One page of memory with an inaccessible page on either side.
class GuardedPage {
public:
  GuardedPage() {
    Page = size_t(sysconf(_SC_PAGESIZE));
    Map = static_cast<uint8_t *>(mmap(nullptr, 3 * Page,
                                      PROT_READ | PROT_WRITE,
                                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (Map == MAP_FAILED) {
      Map = nullptr;
      return;
    }
    mprotect(Map, Page, PROT_NONE);
    mprotect(Map + 2 * Page, Page, PROT_NONE);
    std::memset(data(), 0, Page);
  }
  ~GuardedPage() {
    if (Map)
      munmap(Map, 3 * Page);
  }
  uint8_t *data() const { return Map + Page; }
  size_t size() const { return Page; }
  uint32_t *words() const { return reinterpret_cast<uint32_t *>(data()); }
  size_t numWords() const { return Page / 4; }

private:
  uint8_t *Map = nullptr;
  size_t Page = 0;
};

// Every kind of access with an index from the input buffer: buffer loads,
// stores and atomics, workgroup loads, stores and atomics, and a local
// (stack) array. The indices are per lane.
const char *const WildShader = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint d[]; } data;
layout(set = 0, binding = 1) buffer Idx { int idx[]; } ix;
layout(set = 0, binding = 2) buffer Out { uint o[]; } outb;
shared uint wg[64];
void main() {
  uint i = gl_LocalInvocationID.x;
  int k = ix.idx[i];
  uint local[8];
  for (int j = 0; j < 8; ++j) local[j] = uint(j);
  outb.o[i] = data.d[k];
  data.d[k] = 7u;
  atomicAdd(data.d[k], 1u);
  wg[i] = i;
  barrier();
  wg[k] = 5u;
  atomicAdd(wg[k], 1u);
  barrier();
  local[k] = 9u;
  outb.o[i + 64u] = wg[k] + local[k] + outb.o[k];
  outb.o[k + 128] = 3u;
}
)";

TEST(HostileShader, WildIndicesStayInsideGuardedBuffers) {
  for (unsigned Width : {4u, 8u, 16u}) {
    TranslateOptions Opts;
    Opts.Kind = InputKind::Glsl;
    Opts.RobustBufferAccess = true;
    Opts.Width = Width;
    std::string Err;
    auto S = exectest::compileCompute(WildShader, Opts, Err);
    ASSERT_TRUE(S) << Err;

    GuardedPage Data, Idx, Out;
    ASSERT_TRUE(Data.data() && Idx.data() && Out.data());
    const int32_t Wild[] = {
        -1, -2, -64, INT32_MIN, INT32_MAX, 1024, 1025, 1 << 20,
        int32_t(Data.numWords()), int32_t(Data.numWords()) - 1, 0, 63, 64,
        -1000000, 0x40000000, 0x3fffffff};
    int32_t *Ix = reinterpret_cast<int32_t *>(Idx.words());
    for (size_t L = 0; L < Idx.numWords(); ++L)
      Ix[L] = Wild[(L * 7 + L / 16) % (sizeof(Wild) / sizeof(Wild[0]))];
    for (size_t L = 0; L < Data.numWords(); ++L)
      Data.words()[L] = uint32_t(L);

    DispatchResources R;
    R.bind(0, 0, Data.data(), Data.size());
    R.bind(0, 1, Idx.data(), Idx.size());
    R.bind(0, 2, Out.data(), Out.size());
    // Surviving the dispatch is the main assertion: a stray access faults.
    Status E = S->dispatch({4, 1, 1}, R, /*Threads=*/2);
    ASSERT_TRUE(E.ok()) << E.message();

    // In-bounds lanes did their work and out-of-bounds ones did not: lane
    // i's index Ix[i]; an in-bounds store of 7 followed by +1 gives 8.
    for (size_t L = 0; L < 64; ++L) {
      int32_t K = Ix[L];
      if (K >= 0 && size_t(K) < Data.numWords())
        EXPECT_EQ(Data.words()[K], 8u) << "width " << Width << " lane " << L;
    }
    // Out-of-bounds loads read 0: lane 0's index is -1.
    ASSERT_EQ(Ix[0], -1);
    EXPECT_EQ(Out.words()[0], 0u) << "width " << Width;
  }
}

// A block of 2 pages bound with one: Vulkan allows the binding, the accesses
// past the page are out of bounds. Code with bounds checks
// (ComputeInfo::BoundsChecked) may take it: reads past the end give zero and
// writes there are dropped (a stray one would fault on the guard page).
// Plain code may not: the runtime refuses the binding, naming the sizes.
const char *const ShortBlockShader = R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Data { uint d[2048]; } data;
layout(set = 0, binding = 1) buffer Out { uint o[]; } outb;
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = i * 64u; // 64 invocations: k up to 4032 words, half past the page
  outb.o[i] = data.d[k] + 1u;
  data.d[k] = 100u + i;
}
)";

TEST(HostileShader, ShortBufferBindsOnlyWithBoundsChecks) {
  for (unsigned Width : {1u, 4u, 8u, 16u}) {
    SCOPED_TRACE("width " + std::to_string(Width));
    TranslateOptions Opts;
    Opts.Kind = InputKind::Glsl;
    if (Width == 1)
      Opts.Backend = Backend::Invocation;
    else
      Opts.Width = Width;
    std::string Err;
    auto Plain = exectest::compileCompute(ShortBlockShader, Opts, Err);
    ASSERT_TRUE(Plain) << Err;
    EXPECT_FALSE(Plain->info().BoundsChecked);
    Opts.RobustBufferAccess = true;
    auto Robust = exectest::compileCompute(ShortBlockShader, Opts, Err);
    ASSERT_TRUE(Robust) << Err;
    EXPECT_TRUE(Robust->info().BoundsChecked);

    GuardedPage Data, Out;
    ASSERT_TRUE(Data.data() && Out.data());
    ASSERT_LT(Data.size(), 8192u) << "the test needs pages under 8 KiB";
    for (size_t L = 0; L < Data.numWords(); ++L)
      Data.words()[L] = uint32_t(L);
    DispatchResources R;
    R.bind(0, 0, Data.data(), Data.size());
    R.bind(0, 1, Out.data(), Out.size());

    Status Refused = Plain->dispatch({4, 1, 1}, R, /*Threads=*/2);
    ASSERT_FALSE(Refused.ok());
    EXPECT_NE(Refused.message().find(
                  "buffer at set 0, binding 0 has " +
                  std::to_string(Data.size()) +
                  " bytes, the shader's type needs 8192"),
              std::string::npos)
        << Refused.message();

    Status E = Robust->dispatch({4, 1, 1}, R, /*Threads=*/2);
    ASSERT_TRUE(E.ok()) << E.message();
    for (uint32_t I = 0; I < 64; ++I) {
      size_t K = size_t(I) * 64;
      bool In = K < Data.numWords();
      EXPECT_EQ(Out.words()[I], In ? uint32_t(K) + 1 : 1u) << "invocation " << I;
      if (In)
        EXPECT_EQ(Data.words()[K], 100u + I) << "invocation " << I;
    }
  }
}

// A loop whose exit depends on a buffer value nobody changes: it never ends
// unless the watchdog stops it.
const char *const EndlessShader = R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Data { uint stop; uint count[]; } data;
void main() {
  uint n = 0u;
  while (data.stop == 0u) {
    n += 1u;
    if ((n & 1023u) == 0u)
      data.count[gl_LocalInvocationID.x] = n;
  }
}
)";

TEST(HostileShader, WatchdogStopsAnEndlessLoop) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Glsl;
  Opts.RobustBufferAccess = true;
  std::string Err;
  auto S = exectest::compileCompute(EndlessShader, Opts, Err);
  ASSERT_TRUE(S) << Err;
  std::vector<uint32_t> Data(64, 0);
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  std::atomic<uint32_t> Cancel{0};
  R.Cancel = &Cancel;

  // The host's deadline: a thread that sets the flag after 200 ms. The
  // test's ctest TIMEOUT catches a watchdog that does not work.
  std::thread Deadline([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    Cancel.store(1);
  });
  Status E = S->dispatch({64, 1, 1}, R, /*Threads=*/2);
  Deadline.join();
  ASSERT_FALSE(E.ok()) << "a cancelled dispatch must fail";
  EXPECT_EQ(E.code(), StatusCode::ExecutionFailed);
  std::string Msg = E.message();
  EXPECT_NE(Msg.find("cancelled"), std::string::npos) << Msg;
  // The loop did run before it was stopped.
  uint32_t Max = 0;
  for (size_t L = 1; L < Data.size(); ++L)
    Max = std::max(Max, Data[L]);
  EXPECT_GT(Max, 0u);

  // With the stop word set the loop ends by itself, and a dispatch with an
  // unset flag succeeds.
  Data[0] = 1;
  Cancel.store(0);
  Status E2 = S->dispatch({4, 1, 1}, R, /*Threads=*/2);
  EXPECT_TRUE(E2.ok()) << E2.message();
}

} // namespace
