//===- ComputeReflection.h - What a compute entry needs ---------*- C++ -*-===//
//
// Workgroup size, bindings, push-constant and workgroup-memory sizes of a
// GLCompute entry point (spirv2llvm::ComputeInfo), shared by the back ends.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_COMPUTEREFLECTION_H
#define SPIRV2LLVM_CODEGEN_COMPUTEREFLECTION_H

#include "codegen/common/MemoryLayout.h"
#include "parser/Module.h"
#include "spirv2llvm/Interface.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace spirv2llvm {

struct ComputeReflection {
  ComputeInfo Info;
  /// Workgroup variable -> byte offset in the workgroup memory block
  /// (natural layout, MemoryLayout.h).
  std::unordered_map<uint32_t, uint32_t> WorkgroupOffsets;
  /// Diagnostics (zero-sized or too large workgroups).
  std::vector<std::string> Errors;
};

ComputeReflection reflectCompute(const Module &M, const EntryPoint &EP,
                                 MemoryLayout &ML);

} // namespace spirv2llvm

#endif
