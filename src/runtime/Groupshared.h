//===- Groupshared.h - Workgroup memory for addrspace(3) globals -*- C++ -*-===//
//
// The one-invocation back ends (--backend=invocation|scalar|dxil) emit
// Workgroup variables as globals in addrspace(3), as DXIL's groupshared. A
// JIT-compiled module has one copy of each global per process, but every
// workgroup needs its own, and workgroups run on several threads. Before
// compiling, the runtime therefore lays the globals out in one block and
// rewrites every use into an address in args->workgroup_memory (abi.h),
// which Compute.cpp gives each workgroup zeroed.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_GROUPSHARED_H
#define SPIRV2LLVM_RUNTIME_GROUPSHARED_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace spirv2llvm {

/// Rewrites the addrspace(3) globals of \p M into offsets from
/// args->workgroup_memory and deletes them. They may be used by the entry
/// function \p Entry (signature in abi.h) and by internal functions whose
/// first parameter is the entry's args pointer (the one-invocation back
/// end's callees, docs/backends.md). Returns the bytes of workgroup memory
/// needed (0 when there are none).
llvm::Expected<uint32_t> mapGroupsharedToArgs(llvm::Module &M,
                                              llvm::StringRef Entry);

} // namespace spirv2llvm

#endif
