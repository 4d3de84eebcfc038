//===- PreOptimizerCheck.h - What SPIRV-Tools' optimizer trusts -*- C++ -*-===//
//
// spirv-val (2023.1) accepts some modules that SPIRV-Tools' own optimizer
// then crashes on or reads out of bounds for. This check rejects them before
// canonicalization, with a message that says what and where.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_FRONTEND_PREOPTIMIZERCHECK_H
#define SPIRV2LLVM_FRONTEND_PREOPTIMIZERCHECK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <spirv-tools/libspirv.h>

#include <cstdint>

namespace spirv2llvm::frontend {

/// Checks the module-level instructions the optimizer's first passes
/// (specialization-constant freezing and folding, dead-code elimination)
/// rely on without checking: every OpSpecConstantOp's operands and literal
/// indices, and the operands of OpExecutionModeId.
llvm::Error checkBeforeOptimizer(llvm::ArrayRef<uint32_t> Words,
                                 spv_target_env Env);

} // namespace spirv2llvm::frontend

#endif
