//===- Resources.h - Checking and laying out bound resources ----*- C++ -*-===//
//
// What a compute dispatch and a draw both do with DispatchResources: check
// them against a shader's reflection, and build the descriptor table
// abi.h's entry points read.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_RESOURCES_H
#define SPIRV2LLVM_RUNTIME_RESOURCES_H

#include "spirv2llvm/Compute.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace spirv2llvm {

/// Checks \p R against what the shader binds (\p Info): every binding is
/// bound with its kind, large enough, storage images in their declared
/// format, enough push constants. Messages name the set and binding.
llvm::Error checkResources(const ComputeInfo &Info, const DispatchResources &R);

/// The table a shader reads: descriptor_sets[set][binding] (abi.h). Keeps
/// its own copy of the sets, so it must outlive the runs that use it.
struct DescriptorTable {
  explicit DescriptorTable(const DispatchResources &R);
  std::vector<std::vector<s2l_descriptor>> Sets;
  std::vector<const s2l_descriptor *> SetTable;
};

} // namespace spirv2llvm

#endif
