//===- DescriptorArrays.h - Bindings and arrays of buffer blocks -*- C++ -*-===//
//
// The descriptor table of abi.h as both back ends read it: a binding's
// s2l_descriptor {data, size} is a buffer's base and byte size, or, for an
// array of buffer blocks, the array of per-element descriptors and their
// count (docs/abi.md). Arrays of arrays of blocks are one flat array, the
// last dimension varying fastest.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_DESCRIPTORARRAYS_H
#define SPIRV2LLVM_CODEGEN_DESCRIPTORARRAYS_H

#include "parser/Module.h"

#include "llvm/IR/IRBuilder.h"

#include <vector>

namespace spirv2llvm {

/// The two fields of one s2l_descriptor.
struct DescriptorFields {
  llvm::Value *Data = nullptr; ///< ptr
  llvm::Value *Size = nullptr; ///< i64
};

/// descriptor_sets[set][binding] of variable \p Var (its DescriptorSet and
/// Binding decorations); \p Sets is args->descriptor_sets. Loads are named
/// \p Name + \p DataSuffix / \p SizeSuffix.
DescriptorFields loadBindingDescriptor(llvm::IRBuilder<> &B, const Module &M,
                                       uint32_t Var, llvm::Value *Sets,
                                       const std::string &Name,
                                       const char *DataSuffix,
                                       const char *SizeSuffix);

/// An array (of arrays) of buffer blocks.
struct DescriptorArrayShape {
  TypeId Block;                    ///< the block type
  std::vector<uint32_t> InnerDims; ///< lengths of the dimensions after the first
  uint64_t Total = 1;              ///< elements, when every dimension is sized
  bool Sized = true;
};
DescriptorArrayShape descriptorArrayShape(const Module &M, TypeId Pointee);

/// The shape of the descriptor array \p Pointee and how many of \p I's
/// operands from \p First pick its element (one per dimension); \p Error
/// is set, and the count 0, when \p I has fewer.
size_t descriptorIndexCount(const Module &M, TypeId Pointee,
                            const Instruction &I, size_t First,
                            DescriptorArrayShape &Shape, std::string &Error);

/// The element count an arrayed binding can use: the descriptor's count,
/// no more than a sized array's length.
llvm::Value *descriptorArrayCount(llvm::IRBuilder<> &B,
                                  const DescriptorArrayShape &S,
                                  llvm::Value *Count);

/// The flat element index of \p Indices (one per dimension, i64 values, all
/// of one shape: scalars or vectors of lanes) and whether it is in range:
/// below \p Count (of the indices' shape) and every inner index below its
/// dimension's length.
std::pair<llvm::Value *, llvm::Value *>
flatDescriptorIndex(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> Indices,
                    llvm::ArrayRef<uint32_t> InnerDims, llvm::Value *Count,
                    const std::string &Name);

/// Element \p Index of the descriptor array \p Array (scalars), or an empty
/// descriptor {null, 0} where \p InRange is false: every access through it
/// is then out of bounds.
DescriptorFields loadDescriptorElement(llvm::IRBuilder<> &B,
                                       llvm::Module &LM, llvm::Value *Array,
                                       llvm::Value *Index,
                                       llvm::Value *InRange,
                                       const std::string &Name);

} // namespace spirv2llvm

#endif
