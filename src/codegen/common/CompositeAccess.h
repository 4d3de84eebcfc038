//===- CompositeAccess.h - The operands of member reads and writes -*- C++ -*-===//
//
// OpCompositeExtract, OpCompositeInsert, OpVectorExtractDynamic and
// OpVectorInsertDynamic read or replace one member of a composite
// (Eval=Member in the opcode table). Their operands come in three layouts;
// this decodes them once for both back ends, which then only ask whether
// the access reads or writes and whether the member is reached by literal
// indices or by one index value.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_COMPOSITEACCESS_H
#define SPIRV2LLVM_CODEGEN_COMPOSITEACCESS_H

#include "parser/Module.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace spirv2llvm {

struct MemberAccess {
  /// Access=Write: the result is the composite with the member replaced
  /// by Object (else the result is the member).
  bool Write = false;
  /// Index=Dynamic: the member is component IndexId of a vector (else the
  /// one Literals names).
  bool Dynamic = false;
  uint32_t Composite = 0;
  uint32_t Object = 0;  ///< Write: the member's new value
  uint32_t IndexId = 0; ///< Dynamic: the component index value
  /// Literal: the indices from the composite down to the member (may be
  /// empty: the whole composite).
  llvm::ArrayRef<uint32_t> Literals;
};

/// The operands of \p I, an instruction whose opcode has Eval=Member;
/// nullopt if it has too few operands. The result refers to \p I's
/// operand list.
std::optional<MemberAccess> decodeMemberAccess(const Instruction &I);

} // namespace spirv2llvm

#endif
