//===- ThreadPool.h - Persistent workers for dispatches ---------*- C++ -*-===//
//
// Creating threads for every dispatch costs tens of microseconds per thread
// and loses the workers' warm state (fiber stacks, caches); the pool keeps
// them for the life of the process. A job runs on the calling thread plus
// N-1 pool workers, and run() returns when all N are done.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_THREADPOOL_H
#define SPIRV2LLVM_RUNTIME_THREADPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace spirv2llvm {

/// Runs Job(0) on the calling thread and Job(1) .. Job(N-1) on pool
/// workers, concurrently, and waits for all of them. Dispatches from
/// several threads take turns.
void runOnWorkers(unsigned N, llvm::function_ref<void(unsigned)> Job);

} // namespace spirv2llvm

#endif
