//===- EmitHelperInvocation.cpp - Demote to helper, is-helper -------------===//
#include "codegen/simd/SimdEmitter.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;

bool SimdEmitter::emitHelperInvocation(const Instruction &I) {
  // A demoted lane keeps running, so derivatives of its neighbours stay
  // defined, but its stores to memory and outputs no longer take effect
  // (storeMask) and it counts as discarded at the end.
  if (I.Opcode == spv::Op::OpDemoteToHelperInvocation) {
    Value *Old = B.CreateLoad(maskType(), FS.DemotedSlot);
    B.CreateStore(B.CreateOr(Old, FS.CurMask), FS.DemotedSlot);
    return true;
  }
  if (I.Opcode == spv::Op::OpIsHelperInvocationEXT) {
    // Lanes the caller left off are not run at all, so the only helpers
    // here are the demoted ones.
    LaneValue V;
    V.Varying = true;
    V.Comps.push_back(FS.DemotedSlot
                          ? static_cast<Value *>(B.CreateLoad(
                                maskType(), FS.DemotedSlot, "is.helper"))
                          : Constant::getNullValue(maskType()));
    set(I.Result.value(), std::move(V));
    return true;
  }
  return false;
}

} // namespace spirv2llvm::simd
