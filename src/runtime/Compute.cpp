//===- Compute.cpp - Dispatching compute shaders --------------------------===//
//
// A dispatch hands out workgroups, a batch at a time, through one atomic
// counter to the calling thread and persistent pool workers
// (ThreadPool.h). A workgroup's SIMD groups run on the thread that took it:
//
//  - normally in one call of the shader's work-group function
//    (WorkgroupFunction.h), which loops over the groups itself and, at
//    barriers, resumes each group where it stopped;
//  - else (the fallback: a barrier in a function that is not inlined, or
//    too much per-group state) one call per group, one after the other
//    without barriers, and with barriers each group as a fiber (Fiber.h).
//    The thread resumes the fibers in turn; a fiber runs until it reaches
//    a barrier, where it switches back, or until it returns. One round
//    therefore takes every group to its next barrier, which is exactly
//    what OpControlBarrier requires (barriers must be reached in uniform
//    control flow, so every group meets the same sequence of barriers).
//
// Fibers need nothing from code generation (a barrier is a call, so
// barriers inside called functions work unchanged); a switch saves the
// callee-saved registers only (nanoseconds; swapcontext, used before,
// made a system call per switch); docs/performance.md has the numbers.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/ImageFormat.h"

#include "target/Optimizer.h"
#include "runtime/Groupshared.h"
#include "spirv2llvm/Translation.h"
#include "support/Diagnostic.h"
#include "support/StatusBridge.h"

#include "runtime/FaultGuard.h"
#include "runtime/FaultReport.h"
#include "runtime/Fiber.h"
#include "runtime/Resources.h"
#include "runtime/ThreadPool.h"
#include "runtime/Watchdog.h"
#include "runtime/WorkgroupFunction.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace spirv2llvm {

unsigned defaultComputeWidth() { return hostSimdWidth(); }

void DispatchResources::bind(uint32_t Set, uint32_t Binding, void *Data,
                             uint64_t Size) {
  if (Sets.size() <= Set)
    Sets.resize(Set + 1);
  if (Sets[Set].size() <= Binding)
    Sets[Set].resize(Binding + 1, s2l_descriptor{nullptr, 0});
  Sets[Set][Binding] = s2l_descriptor{Data, Size};
}

void DispatchResources::bindArrayElement(uint32_t Set, uint32_t Binding,
                                         uint32_t Index, void *Data,
                                         uint64_t Size) {
  std::vector<s2l_descriptor> &Elems = Arrays[{Set, Binding}];
  if (Elems.size() <= Index)
    Elems.resize(Index + 1, s2l_descriptor{nullptr, 0});
  Elems[Index] = s2l_descriptor{Data, Size};
}

// An image or sampler descriptor holds a pointer to the structure abi.h
// defines; the size lets a mismatch (a buffer where the shader wants an
// image) be reported instead of read.
void DispatchResources::bindImage(uint32_t Set, uint32_t Binding,
                                  const s2l_image *Image) {
  bind(Set, Binding, const_cast<s2l_image *>(Image), sizeof(s2l_image));
}

void DispatchResources::bindSampler(uint32_t Set, uint32_t Binding,
                                    const s2l_sampler *Sampler) {
  bind(Set, Binding, const_cast<s2l_sampler *>(Sampler), sizeof(s2l_sampler));
}

void DispatchResources::bindCombinedImageSampler(uint32_t Set,
                                                 uint32_t Binding,
                                                 const s2l_image *Image,
                                                 const s2l_sampler *Sampler) {
  auto C = std::make_shared<const s2l_combined_image_sampler>(
      s2l_combined_image_sampler{Image, Sampler});
  bind(Set, Binding, const_cast<s2l_combined_image_sampler *>(C.get()),
       sizeof(s2l_combined_image_sampler));
  Combined.push_back(std::move(C));
}

void DispatchResources::bindImageArrayElement(uint32_t Set, uint32_t Binding,
                                              uint32_t Index,
                                              const s2l_image *Image) {
  bindArrayElement(Set, Binding, Index, const_cast<s2l_image *>(Image),
                   sizeof(s2l_image));
}

void DispatchResources::bindSamplerArrayElement(uint32_t Set,
                                                uint32_t Binding,
                                                uint32_t Index,
                                                const s2l_sampler *Sampler) {
  bindArrayElement(Set, Binding, Index, const_cast<s2l_sampler *>(Sampler),
                   sizeof(s2l_sampler));
}

void DispatchResources::bindCombinedImageSamplerArrayElement(
    uint32_t Set, uint32_t Binding, uint32_t Index, const s2l_image *Image,
    const s2l_sampler *Sampler) {
  auto C = std::make_shared<const s2l_combined_image_sampler>(
      s2l_combined_image_sampler{Image, Sampler});
  bindArrayElement(Set, Binding, Index,
                   const_cast<s2l_combined_image_sampler *>(C.get()),
                   sizeof(s2l_combined_image_sampler));
  Combined.push_back(std::move(C));
}

namespace {

/// Stack of one fiber. Shader code keeps almost everything in registers;
/// the generous size is for -O0 code and large private arrays. Stacks are
/// reserved lazily (MAP_NORESERVE) and kept per thread across dispatches.
/// Each has an inaccessible guard page below it, so that an overflow
/// faults (and is reported as one, FaultReport.h) instead of writing over
/// the next stack.
constexpr size_t FiberStackSize = 256 * 1024;

struct FiberStacks {
  std::vector<void *> Stacks; ///< usable bottoms, one page above each map
  size_t Page = size_t(sysconf(_SC_PAGESIZE));
  ~FiberStacks() {
    for (void *S : Stacks)
      munmap(static_cast<char *>(S) - Page, FiberStackSize + Page);
  }
  bool ensure(size_t N) {
    while (Stacks.size() < N) {
      void *M = mmap(nullptr, FiberStackSize + Page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (M == MAP_FAILED)
        return false;
      mprotect(M, Page, PROT_NONE);
      Stacks.push_back(static_cast<char *>(M) + Page);
    }
    return true;
  }
  /// Whether \p Addr is in the guard page of one of the stacks.
  bool isGuard(uintptr_t Addr) const {
    for (void *S : Stacks) {
      auto Bottom = reinterpret_cast<uintptr_t>(S);
      if (Addr < Bottom && Addr >= Bottom - Page)
        return true;
    }
    return false;
  }
};
thread_local FiberStacks ThreadStacks;

/// One SIMD group running as a fiber: its context, the scheduler's, and
/// what it runs.
struct GroupFiber {
  fiber::Context Self;
  fiber::Context *Scheduler = nullptr;
  s2l_entry_fn Entry = nullptr;
  const s2l_group_args *Args = nullptr;
  bool Done = false;
};

void fiberMain(void *P) {
  auto *F = static_cast<GroupFiber *>(P);
  F->Entry(F->Args);
  F->Done = true;
  fiber::switchContext(F->Self, *F->Scheduler); // never resumed
}

void fiberBarrier(void *P) {
  auto *F = static_cast<GroupFiber *>(P);
  fiber::switchContext(F->Self, *F->Scheduler);
}

void noBarrier(void *) {}

/// The compile cache's kind of compute objects: with and without
/// work-group functions they are different code.
const char *computeCacheKind() {
  return workgroupFunctionsEnabled() ? "compute-workgroup" : "compute";
}

/// "2 s", "0.25 s".
std::string formatSeconds(std::chrono::nanoseconds D) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%g s", double(D.count()) / 1e9);
  return Buf;
}

} // namespace

ComputeShader::~ComputeShader() = default;

Result<std::unique_ptr<ComputeShader>>
ComputeShader::create(Translation &&T, unsigned OptLevel, CompileCache *Cache,
                      const std::string &CacheKey) {
  if (!T.IR)
    return Status::error("the translation holds no module (already used?)");
  if (T.EntryStage != Stage::Compute)
    return Status::error("entry point \"" + T.EntryName +
                         "\" is not a compute shader");
  std::unique_ptr<ComputeShader> S(new ComputeShader());
  // One-invocation back ends: groupshared globals into workgroup memory.
  Expected<uint32_t> Shared = mapGroupsharedToArgs(*T.IR, T.EntrySymbol);
  if (!Shared)
    return toStatus(Shared.takeError(), StatusCode::InvalidInput);
  T.Compute.WorkgroupMemorySize =
      std::max(T.Compute.WorkgroupMemorySize, *Shared);
  S->Info = T.Compute;
  // One function per workgroup (WorkgroupFunction.h) unless the shader
  // needs fibers; it is new, unoptimized code, so the JIT optimizes the
  // module even if the translation already did.
  if (workgroupFunctionsEnabled()) {
    const std::array<uint32_t, 3> &Size = T.Compute.WorkgroupSize;
    if (buildWorkgroupFunction(*T.IR, T.EntrySymbol, T.Layout.Width,
                               Size[0] * Size[1] * Size[2]))
      T.OptLevel = 0;
  }
  auto J = JitShader::createAs(std::move(T), OptLevel, Cache, CacheKey,
                               computeCacheKind());
  if (!J)
    return J.status();
  S->Jit = std::move(*J);
  return S;
}

std::unique_ptr<ComputeShader> ComputeShader::load(CompileCache &Cache,
                                                   const std::string &CacheKey,
                                                   unsigned OptLevel) {
  std::unique_ptr<JitShader> J =
      JitShader::loadAs(Cache, CacheKey, OptLevel, computeCacheKind());
  if (!J || J->stage() != Stage::Compute)
    return nullptr;
  std::unique_ptr<ComputeShader> S(new ComputeShader());
  S->Info = J->Compute;
  S->Jit = std::move(J);
  return S;
}


Status ComputeShader::dispatch(std::array<uint32_t, 3> Groups,
                               const DispatchResources &R, unsigned Threads) {
  if (Error E = checkResources(Info, R))
    return toStatus(std::move(E), StatusCode::InvalidArgument);
  uint64_t Total = uint64_t(Groups[0]) * Groups[1] * Groups[2];
  if (Total == 0)
    return Status::success();

  DescriptorTable Tables(R);
  const std::vector<const s2l_descriptor *> &SetTable = Tables.SetTable;

  const unsigned W = Jit->width();
  const uint32_t LocalSize =
      Info.WorkgroupSize[0] * Info.WorkgroupSize[1] * Info.WorkgroupSize[2];
  const uint32_t GroupsPerWorkgroup = (LocalSize + W - 1) / W;
  const uint32_t FullMask = W >= 32 ? ~0u : (1u << W) - 1;
  s2l_entry_fn Entry = Jit->entry();
  // One call per workgroup, with Args[0] as the prototype of its groups.
  void (*Workgroup)(const s2l_group_args *) = Jit->WorkgroupEntry;
  const ComputeInfo &CI = Info;

  if (Threads == 0)
    Threads = std::max(1u, std::thread::hardware_concurrency());
  Threads = unsigned(std::min<uint64_t>(Threads, Total));
  // Workgroups are taken Batch at a time from one counter: few enough
  // atomic operations on a shared line, small enough batches (16 per
  // thread at least) to balance uneven workgroups.
  const uint64_t Batch =
      std::clamp<uint64_t>(Total / (uint64_t(Threads) * 16), 1, 64);
  // Barriers are no-ops when a workgroup is one SIMD group.
  const bool UseFibers = !Workgroup && CI.HasBarriers && GroupsPerWorkgroup > 1;
  std::atomic<uint64_t> Next{0};
  std::atomic<bool> OutOfMemory{false};
  // The stop flag generated code reads (as a plain 32-bit word, abi.h):
  // set by the watchdog (the embedder's flag, the deadline) or by a worker
  // that faulted. Watchdog.h explains why it is not the embedder's flag.
  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                std::atomic<uint32_t>::is_always_lock_free);
  std::atomic<uint32_t> Stop{0};
  const volatile uint32_t *StopFlag =
      reinterpret_cast<const volatile uint32_t *>(&Stop);
  auto Cancelled = [&] { return Stop.load(std::memory_order_relaxed) != 0; };
  std::optional<std::chrono::steady_clock::time_point> Deadline;
  if (R.Timeout.count() > 0)
    Deadline = std::chrono::steady_clock::now() + R.Timeout;
  WatchdogTicket Ticket(Stop, Deadline, R.Cancel);
  // The first fault of the dispatch, described by the worker that took
  // it (only that thread can tell its own fiber stacks apart).
  std::mutex FaultMutex;
  std::string FaultMessage;

  auto Worker = [&](unsigned) {
    std::vector<uint8_t> Shared(std::max<uint32_t>(CI.WorkgroupMemorySize, 16));
    // A work-group function sets the per-group fields itself: it only
    // needs the prototype, Args[0].
    std::vector<s2l_group_args> Args(Workgroup ? 1 : GroupsPerWorkgroup);
    std::vector<GroupFiber> Fibers(UseFibers ? GroupsPerWorkgroup : 0);
    fiber::Context Scheduler;
    if (UseFibers && !ThreadStacks.ensure(GroupsPerWorkgroup)) {
      OutOfMemory = true;
      return;
    }
    for (uint32_t G = 0; G < Args.size(); ++G) {
      s2l_group_args &A = Args[G];
      A = s2l_group_args{};
      uint32_t Remaining = LocalSize - G * W;
      A.active_mask = Remaining >= W ? FullMask : (1u << Remaining) - 1;
      A.descriptor_sets = SetTable.data();
      A.push_constants = R.PushConstants.data();
      A.workgroup_memory = Shared.data();
      for (int K = 0; K < 3; ++K)
        A.num_workgroups[K] = Groups[K];
      A.first_local_index = G * W;
      A.subgroup_id = G;
      A.cancel = StopFlag;
      A.barrier = noBarrier;
      if (UseFibers) {
        GroupFiber &F = Fibers[G];
        F.Scheduler = &Scheduler;
        F.Entry = Entry;
        F.Args = &A;
        A.barrier = fiberBarrier;
        A.barrier_ctx = &F;
      }
    }
    // Everything with a destructor lives above: a fault jumps out of
    // RunWorkgroups without unwinding it (FaultGuard.h).
    auto RunWorkgroups = [&] {
      for (;;) {
        if (Cancelled())
          break;
        uint64_t Begin = Next.fetch_add(Batch, std::memory_order_relaxed);
        if (Begin >= Total)
          break;
        uint64_t End = std::min(Total, Begin + Batch);
        for (uint64_t Wg = Begin; Wg < End; ++Wg) {
          uint32_t Id[3] = {uint32_t(Wg % Groups[0]),
                            uint32_t(Wg / Groups[0] % Groups[1]),
                            uint32_t(Wg / (uint64_t(Groups[0]) * Groups[1]))};
          if (CI.WorkgroupMemorySize)
            std::memset(Shared.data(), 0, Shared.size());
          if (Workgroup) {
            for (int K = 0; K < 3; ++K)
              Args[0].workgroup_id[K] = Id[K];
            Workgroup(&Args[0]);
            continue;
          }
          for (uint32_t G = 0; G < GroupsPerWorkgroup; ++G)
            for (int K = 0; K < 3; ++K)
              Args[G].workgroup_id[K] = Id[K];
          if (!UseFibers) {
            for (uint32_t G = 0; G < GroupsPerWorkgroup; ++G)
              Entry(&Args[G]);
            continue;
          }
          // One fiber per group; rounds until every fiber has returned. A
          // round takes every group to its next barrier.
          for (uint32_t G = 0; G < GroupsPerWorkgroup; ++G) {
            Fibers[G].Done = false;
            // Stack tops staggered by a few cache lines: equal offsets
            // modulo 4 KiB would put every fiber's frame in one L1 set.
            fiber::makeContext(Fibers[G].Self, ThreadStacks.Stacks[G],
                               FiberStackSize - (G % 16) * 192, fiberMain,
                               &Fibers[G]);
          }
          for (bool Running = true; Running;) {
            Running = false;
            for (GroupFiber &F : Fibers) {
              if (F.Done)
                continue;
              fiber::switchContext(Scheduler, F.Self);
              Running |= !F.Done;
            }
          }
        }
      }
    };
    if (!R.CatchFaults) {
      RunWorkgroups();
      return;
    }
    FaultInfo F;
    if (runGuarded(RunWorkgroups, F))
      return;
    if (UseFibers)
      fiber::resumedOnThread(Scheduler);
    Stop.store(1);
    std::lock_guard<std::mutex> L(FaultMutex);
    if (FaultMessage.empty()) {
      std::vector<ResourceRange> Ranges = resourceRanges(R, &CI);
      if (CI.WorkgroupMemorySize)
        Ranges.push_back({"the workgroup's shared memory",
                          reinterpret_cast<uintptr_t>(Shared.data()),
                          reinterpret_cast<uintptr_t>(Shared.data()) +
                              CI.WorkgroupMemorySize});
      bool StackOverflow = (UseFibers && ThreadStacks.isGuard(F.Address)) ||
                           isBelowThreadStack(F.Address);
      FaultMessage = describeFault(F, Ranges, StackOverflow);
    }
  };

  runOnWorkers(Threads, Worker);
  if (OutOfMemory)
    return Status::error("cannot allocate fiber stacks for the workgroup's " +
                             std::to_string(GroupsPerWorkgroup) +
                             " SIMD groups",
                         StatusCode::ExecutionFailed);
  if (!FaultMessage.empty())
    return Status::error("dispatch stopped: " + FaultMessage,
                         StatusCode::ExecutionFailed);
  switch (Ticket.reason()) {
  case StopKind::Deadline:
    return Status::error("dispatch timed out after " +
                             formatSeconds(R.Timeout) +
                             " (the time limit): invocations still running "
                             "were stopped at their next loop iteration",
                         StatusCode::ExecutionFailed);
  case StopKind::Cancelled:
    return Status::error("dispatch cancelled: the watchdog flag was set",
                         StatusCode::ExecutionFailed);
  case StopKind::None:
    break;
  }
  return Status::success();
}

} // namespace spirv2llvm
