//===- FaultReport.cpp - Naming the resource a fault missed ---------------===//
#include "runtime/FaultReport.h"

#include "spirv2llvm/Compute.h"

#include <algorithm>
#include <pthread.h>

namespace spirv2llvm {

namespace {

/// Beyond this distance from every range a fault is not attributed to the
/// nearest one: 4 GiB covers any 32-bit index (times an element size of
/// up to 16 bytes, the guard regions of `spirv2llvm run` are larger).
constexpr uint64_t MaxAttributionDistance = uint64_t(64) << 30;

/// Addresses below this are a null pointer plus an offset (a null
/// physical pointer, for example; unbound descriptor-array elements are
/// checked by generated code and never dereferenced).
constexpr uintptr_t NullRegion = 64 * 1024;

std::string bindingName(uint32_t Set, uint32_t Binding) {
  return "set " + std::to_string(Set) + ", binding " + std::to_string(Binding);
}

} // namespace

bool isBelowThreadStack(uintptr_t Addr) {
  pthread_attr_t A;
  if (pthread_getattr_np(pthread_self(), &A) != 0)
    return false;
  void *Low = nullptr;
  size_t Size = 0, Guard = 0;
  pthread_attr_getstack(&A, &Low, &Size);
  pthread_attr_getguardsize(&A, &Guard);
  pthread_attr_destroy(&A);
  auto Bottom = reinterpret_cast<uintptr_t>(Low);
  // The guard pages (glibc's, or the kernel's gap below the main thread's
  // stack, at least 256 pages) lie below the usable stack.
  uintptr_t Reach = std::max<uintptr_t>(Guard, 1 << 20);
  return Addr < Bottom + 4096 && Addr + Reach >= Bottom;
}

std::vector<ResourceRange> resourceRanges(const DispatchResources &R,
                                          const ComputeInfo *Info) {
  std::vector<ResourceRange> Out;
  auto Declared = [&](uint32_t Set, uint32_t Binding) {
    if (!Info)
      return true;
    for (const ComputeInfo::Binding &B : Info->Bindings)
      if (B.Set == Set && B.Binding == Binding)
        return true;
    return false;
  };
  auto Add = [&](std::string Name, const void *Data, uint64_t Size) {
    if (!Data || !Size)
      return;
    auto B = reinterpret_cast<uintptr_t>(Data);
    Out.push_back({std::move(Name), B, uintptr_t(B + Size)});
  };
  for (uint32_t S = 0; S < R.Sets.size(); ++S)
    for (uint32_t B = 0; B < R.Sets[S].size(); ++B)
      if (Declared(S, B))
        Add("the buffer at " + bindingName(S, B), R.Sets[S][B].data,
          R.Sets[S][B].size);
  for (const auto &[Key, Elems] : R.Arrays)
    for (size_t I = 0; I < Elems.size() && Declared(Key.first, Key.second);
         ++I)
      Add("element " + std::to_string(I) + " of the buffer array at " +
              bindingName(Key.first, Key.second),
          Elems[I].data, Elems[I].size);
  if (!Info || Info->PushConstantSize)
    Add("the push constants", R.PushConstants.data(), R.PushConstants.size());
  return Out;
}

std::string describeFault(const FaultInfo &F,
                          llvm::ArrayRef<ResourceRange> Ranges,
                          bool StackOverflow) {
  if (!F.isMemoryAccess())
    return "the shader trapped: " + F.describeAccess();
  std::string Msg =
      "the shader accessed memory outside its resources: " + F.describeAccess();
  if (StackOverflow)
    return Msg + ", in the guard page of a stack (a stack overflow: too "
                 "much private memory or too deep calls)";
  const ResourceRange *Best = nullptr;
  uint64_t BestDistance = 0;
  bool Inside = false;
  for (const ResourceRange &R : Ranges) {
    uint64_t D;
    if (F.Address >= R.Begin && F.Address < R.End)
      D = 0;
    else if (F.Address >= R.End)
      D = F.Address - R.End;
    else
      D = R.Begin - F.Address;
    if (!Best || D < BestDistance) {
      Best = &R;
      BestDistance = D;
      Inside = F.Address >= R.Begin && F.Address < R.End;
    }
  }
  if (F.Address < NullRegion)
    return Msg + " (near null: no bound resource)";
  if (!Best || BestDistance > MaxAttributionDistance)
    return Msg + " (no bound resource near it)";
  std::string Size = std::to_string(Best->End - Best->Begin) + " bytes";
  std::string Offset =
      F.Address >= Best->Begin
          ? std::to_string(F.Address - Best->Begin)
          : "-" + std::to_string(Best->Begin - F.Address);
  Msg += ", at byte offset " + Offset + " of " + Best->Name + " (" + Size;
  if (Inside)
    return Msg + "; the memory is protected or unmapped)";
  return Msg + ")";
}

} // namespace spirv2llvm
