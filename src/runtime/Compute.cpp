//===- Compute.cpp - Dispatching compute shaders --------------------------===//
//
// A dispatch hands out workgroups to worker threads through one atomic
// counter. A workgroup's SIMD groups run on the thread that took it:
//
//  - without barriers, one after the other;
//  - with barriers, each group is a fiber (ucontext). The thread resumes the
//    fibers in turn; a fiber runs until it reaches a barrier, where it
//    switches back, or until it returns. One round therefore takes every
//    group to its next barrier, which is exactly what OpControlBarrier
//    requires (barriers must be reached in uniform control flow, so every
//    group meets the same sequence of barriers).
//
// Fibers were chosen over region splitting and LLVM coroutines because
// they need nothing from code generation: a barrier is a call, so barriers
// inside loops and in called functions work unchanged, and the generated
// code stays the same with and without them. A switch costs a few hundred
// nanoseconds (swapcontext saves the signal mask); docs/compute.md keeps
// the numbers.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Compute.h"

#include "support/Diagnostic.h"

#include <atomic>
#include <cstring>
#include <sys/mman.h>
#include <thread>
#include <ucontext.h>

using namespace llvm;

namespace spirv2llvm {

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

namespace {

/// Stack of one fiber. Shader code keeps almost everything in registers;
/// the generous size is for -O0 code and large private arrays.
constexpr size_t FiberStackSize = 256 * 1024;

/// The fibers of the workgroup a thread is running.
struct FiberSet {
  std::vector<ucontext_t> Contexts;
  std::vector<void *> Stacks;
  std::vector<uint8_t> Done;
  ucontext_t Scheduler;

  ~FiberSet() {
    for (void *S : Stacks)
      munmap(S, FiberStackSize);
  }
  void ensure(size_t N) {
    while (Stacks.size() < N) {
      void *S = mmap(nullptr, FiberStackSize, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      Stacks.push_back(S == MAP_FAILED ? nullptr : S);
    }
    Contexts.resize(N);
    Done.assign(N, 0);
  }
};

/// What a fiber needs to run its group; makecontext passes only ints, so
/// the fiber finds it through this thread-local.
struct FiberStart {
  s2l_entry_fn Entry;
  const s2l_group_args *Args;
  FiberSet *Set;
  size_t Index;
};
thread_local FiberStart *CurrentStart = nullptr;

void fiberMain() {
  FiberStart S = *CurrentStart;
  S.Entry(S.Args);
  S.Set->Done[S.Index] = 1;
  // Returning resumes uc_link: the scheduler.
}

struct BarrierContext {
  ucontext_t *Self;
  ucontext_t *Scheduler;
};

void fiberBarrier(void *Ctx) {
  auto *B = static_cast<BarrierContext *>(Ctx);
  swapcontext(B->Self, B->Scheduler);
}

void noBarrier(void *) {}

} // namespace

ComputeShader::~ComputeShader() = default;

Expected<std::unique_ptr<ComputeShader>>
ComputeShader::create(Translation T, unsigned OptLevel) {
  if (T.EntryStage != Stage::Compute)
    return makeError("entry point \"" + T.EntryName +
                     "\" is not a compute shader");
  std::unique_ptr<ComputeShader> S(new ComputeShader());
  S->Info = T.Compute;
  auto J = JitShader::create(std::move(T), OptLevel);
  if (!J)
    return J.takeError();
  S->Jit = std::move(*J);
  return std::move(S);
}

Error ComputeShader::dispatch(std::array<uint32_t, 3> Groups,
                              const DispatchResources &R, unsigned Threads) {
  // The table the shader reads: single blocks as bound, and for each
  // descriptor array a descriptor pointing at its elements (abi.h).
  std::vector<std::vector<s2l_descriptor>> Table = R.Sets;
  for (const auto &[Key, Elems] : R.Arrays) {
    auto [Set, Binding] = Key;
    if (Table.size() <= Set)
      Table.resize(Set + 1);
    if (Table[Set].size() <= Binding)
      Table[Set].resize(Binding + 1, s2l_descriptor{nullptr, 0});
    Table[Set][Binding] = s2l_descriptor{
        const_cast<s2l_descriptor *>(Elems.data()), uint64_t(Elems.size())};
  }
  for (const ComputeInfo::Binding &Bd : Info.Bindings) {
    std::string Where = "set " + std::to_string(Bd.Set) + ", binding " +
                        std::to_string(Bd.Binding);
    auto Arr = R.Arrays.find({Bd.Set, Bd.Binding});
    if (Bd.IsArray != (Arr != R.Arrays.end())) {
      if (Bd.IsArray)
        return makeError("the shader's " + Where +
                         " is a descriptor array: bind its elements with "
                         "bindArrayElement");
      return makeError("the shader's " + Where +
                       " is a single buffer, not a descriptor array");
    }
    if (Bd.IsArray) {
      const std::vector<s2l_descriptor> &Elems = Arr->second;
      if (Bd.ArraySize && Elems.size() > Bd.ArraySize)
        return makeError(Twine(Elems.size()) + " elements bound at " + Where +
                         ", the shader's array has " + Twine(Bd.ArraySize));
      for (size_t K = 0; K < Elems.size(); ++K)
        if (Elems[K].data && Elems[K].size < Bd.MinSize)
          return makeError("buffer " + Twine(K) + " at " + Where + " has " +
                           Twine(Elems[K].size) +
                           " bytes, the shader's type needs " +
                           Twine(Bd.MinSize));
      continue;
    }
    const s2l_descriptor *D =
        Bd.Set < R.Sets.size() && Bd.Binding < R.Sets[Bd.Set].size()
            ? &R.Sets[Bd.Set][Bd.Binding]
            : nullptr;
    if (!D || !D->data)
      return makeError("no buffer bound at set " + Twine(Bd.Set) +
                       ", binding " + Twine(Bd.Binding));
    if (D->size < Bd.MinSize)
      return makeError("buffer at set " + Twine(Bd.Set) + ", binding " +
                       Twine(Bd.Binding) + " has " + Twine(D->size) +
                       " bytes, the shader's type needs " + Twine(Bd.MinSize));
  }
  if (R.PushConstants.size() < Info.PushConstantSize)
    return makeError("the shader reads " + Twine(Info.PushConstantSize) +
                     " bytes of push constants, " +
                     Twine(R.PushConstants.size()) + " given");
  uint64_t Total = uint64_t(Groups[0]) * Groups[1] * Groups[2];
  if (Total == 0)
    return Error::success();

  std::vector<const s2l_descriptor *> SetTable;
  for (const auto &Set : Table)
    SetTable.push_back(Set.data());

  const unsigned W = Jit->width();
  const uint32_t LocalSize =
      Info.WorkgroupSize[0] * Info.WorkgroupSize[1] * Info.WorkgroupSize[2];
  const uint32_t GroupsPerWorkgroup = (LocalSize + W - 1) / W;
  const uint32_t FullMask = W >= 32 ? ~0u : (1u << W) - 1;
  s2l_entry_fn Entry = Jit->entry();
  const ComputeInfo &CI = Info;

  if (Threads == 0)
    Threads = std::max(1u, std::thread::hardware_concurrency());
  Threads = unsigned(std::min<uint64_t>(Threads, Total));
  std::atomic<uint64_t> Next{0};

  auto Worker = [&] {
    std::vector<uint8_t> Shared(std::max<uint32_t>(CI.WorkgroupMemorySize, 16));
    std::vector<s2l_group_args> Args(GroupsPerWorkgroup);
    std::vector<BarrierContext> Barriers(GroupsPerWorkgroup);
    FiberSet Fibers;
    if (CI.HasBarriers)
      Fibers.ensure(GroupsPerWorkgroup);
    for (;;) {
      uint64_t Wg = Next.fetch_add(1, std::memory_order_relaxed);
      if (Wg >= Total)
        break;
      uint32_t Id[3] = {uint32_t(Wg % Groups[0]),
                        uint32_t(Wg / Groups[0] % Groups[1]),
                        uint32_t(Wg / (uint64_t(Groups[0]) * Groups[1]))};
      std::memset(Shared.data(), 0, Shared.size());
      for (uint32_t G = 0; G < GroupsPerWorkgroup; ++G) {
        s2l_group_args &A = Args[G];
        A = s2l_group_args{};
        uint32_t Remaining = LocalSize - G * W;
        A.active_mask = Remaining >= W ? FullMask : (1u << Remaining) - 1;
        A.descriptor_sets = SetTable.data();
        A.push_constants = R.PushConstants.data();
        A.workgroup_memory = Shared.data();
        for (int K = 0; K < 3; ++K) {
          A.workgroup_id[K] = Id[K];
          A.num_workgroups[K] = Groups[K];
        }
        A.first_local_index = G * W;
        A.subgroup_id = G;
        A.barrier = noBarrier;
      }
      if (!CI.HasBarriers) {
        for (uint32_t G = 0; G < GroupsPerWorkgroup; ++G)
          Entry(&Args[G]);
        continue;
      }
      // One fiber per group; run rounds until every fiber has returned.
      std::vector<FiberStart> Starts(GroupsPerWorkgroup);
      for (uint32_t G = 0; G < GroupsPerWorkgroup; ++G) {
        ucontext_t &C = Fibers.Contexts[G];
        getcontext(&C);
        C.uc_stack.ss_sp = Fibers.Stacks[G];
        C.uc_stack.ss_size = FiberStackSize;
        C.uc_link = &Fibers.Scheduler;
        makecontext(&C, fiberMain, 0);
        Fibers.Done[G] = 0;
        Barriers[G] = BarrierContext{&C, &Fibers.Scheduler};
        Args[G].barrier = fiberBarrier;
        Args[G].barrier_ctx = &Barriers[G];
        Starts[G] = FiberStart{Entry, &Args[G], &Fibers, G};
      }
      bool Running = true;
      bool Started = false;
      while (Running) {
        Running = false;
        for (uint32_t G = 0; G < GroupsPerWorkgroup; ++G) {
          if (Fibers.Done[G])
            continue;
          if (!Started)
            CurrentStart = &Starts[G];
          swapcontext(&Fibers.Scheduler, &Fibers.Contexts[G]);
          Running |= !Fibers.Done[G];
        }
        Started = true;
      }
    }
  };

  if (Threads <= 1) {
    Worker();
    return Error::success();
  }
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back(Worker);
  for (std::thread &T : Pool)
    T.join();
  return Error::success();
}

} // namespace spirv2llvm
