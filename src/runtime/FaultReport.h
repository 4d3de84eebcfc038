//===- FaultReport.h - Naming the resource a fault missed -------*- C++ -*-===//
//
// A caught fault (FaultGuard.h) is only an address. The message a user
// sees says which access it was and where it lies relative to what the
// shader was given: "a write to address 0x7f..., 1048576 bytes past the
// end of the buffer at set 0, binding 1 (4096 bytes)". The nearest range
// wins; an address far from all of them (or near null) has "no bound
// resource".
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_FAULTREPORT_H
#define SPIRV2LLVM_RUNTIME_FAULTREPORT_H

#include "runtime/FaultGuard.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spirv2llvm {

struct ComputeInfo;
struct DispatchResources;

/// A memory range given to the shader, with the name messages use.
struct ResourceRange {
  std::string Name; ///< "the buffer at set 0, binding 1"
  uintptr_t Begin = 0, End = 0;
};

/// The buffers and push constants of \p R (descriptor array elements
/// included), for describeFault. With \p Info, only those the shader
/// declares: a buffer bound but unused cannot be what it missed.
std::vector<ResourceRange> resourceRanges(const DispatchResources &R,
                                          const ComputeInfo *Info = nullptr);

/// Whether \p Addr lies just below the calling thread's own stack (in its
/// guard region): a stack overflow. Slow (it asks the thread library for
/// the stack's bounds): for the error path only.
bool isBelowThreadStack(uintptr_t Addr);

/// The message for fault \p F: "the shader accessed memory outside its
/// resources: ..." for memory faults, "the shader trapped: ..." for the
/// others. \p StackOverflow says the address is in a stack's guard page.
std::string describeFault(const FaultInfo &F,
                          llvm::ArrayRef<ResourceRange> Ranges,
                          bool StackOverflow = false);

} // namespace spirv2llvm

#endif
