//===- ComputeOps.h - Atomics and barriers, shared by the back ends -*- C++ -*-===//
//
// What the SIMD and one-invocation back ends decide alike about atomics
// and barriers: which LLVM atomic an OpAtomic* instruction is, and the
// fences and runtime call of OpControlBarrier / OpMemoryBarrier.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_COMPUTEOPS_H
#define SPIRV2LLVM_CODEGEN_COMPUTEOPS_H

#include "parser/Module.h"

#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace spirv2llvm {

/// The LLVM form of an OpAtomic* instruction.
struct AtomicOpKind {
  std::optional<llvm::AtomicRMWInst::BinOp> RMW; ///< atomicrmw
  bool IsLoad = false, IsStore = false, IsCmpXchg = false;
  /// IIncrement / IDecrement: the operand is 1, not an instruction operand.
  bool Unit = false;
};
/// From the opcode table's Atomic and Combine columns; std::nullopt if \p Op
/// is not an integer atomic the back ends implement.
std::optional<AtomicOpKind> atomicOpKind(spv::Op Op);

/// OpControlBarrier or OpMemoryBarrier \p I: a fence and, for a workgroup
/// (or wider) execution scope in a compute shader, a call of
/// args->barrier(args->barrier_ctx) (abi.h: \p Args of type \p ArgsType).
/// Returns false if \p I is neither.
bool emitBarrierInstruction(llvm::IRBuilder<> &B, const Module &M,
                            const EntryPoint &EP, const Instruction &I,
                            llvm::StructType *ArgsType, llvm::Value *Args);

} // namespace spirv2llvm

#endif
