//===- CompositeAccess.cpp - The operands of member reads and writes ------===//
#include "codegen/common/CompositeAccess.h"

#include "parser/OpcodeTable.h"

namespace spirv2llvm {

std::optional<MemberAccess> decodeMemberAccess(const Instruction &I) {
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  assert(Info.Eval == EvalKind::Member && "not a member access");
  MemberAccess A;
  A.Write = Info.Access == MemberAccessKind::Write;
  A.Dynamic = Info.Index == MemberIndexKind::Dynamic;
  llvm::ArrayRef<uint32_t> Ops(I.Operands);
  // Reads: the composite, then the indices. Writes: OpCompositeInsert
  // takes the object, the composite, the indices; OpVectorInsertDynamic
  // the vector, the component, the index.
  size_t Needed = (A.Write ? 2 : 1) + (A.Dynamic ? 1 : 0);
  if (Ops.size() < Needed)
    return std::nullopt;
  if (A.Dynamic) {
    A.Composite = Ops[0];
    A.Object = A.Write ? Ops[1] : 0;
    A.IndexId = Ops[A.Write ? 2 : 1];
    return A;
  }
  A.Composite = Ops[A.Write ? 1 : 0];
  A.Object = A.Write ? Ops[0] : 0;
  A.Literals = Ops.drop_front(A.Write ? 2 : 1);
  return A;
}

} // namespace spirv2llvm
