//===- InvocationInstruction.cpp - The one opcode dispatch (invocation) ---===//
//
// Every non-terminator, non-phi instruction of a block arrives here; each
// family of opcodes goes to the file that implements it. An opcode no family
// takes is an "unsupported:" diagnostic naming it, never a crash.
//
//===----------------------------------------------------------------------===//
#include "codegen/InvocationEmitter.h"

using namespace llvm;

namespace spirv2llvm::invocation {

void InvocationEmitter::emitInstruction(const Instruction &I) {
  switch (I.Opcode) {
  // No code: structure is already in the CFG, debug info is ignored.
  case spv::Op::OpNop:
  case spv::Op::OpLine:
  case spv::Op::OpNoLine:
  case spv::Op::OpSelectionMerge:
  case spv::Op::OpLoopMerge:
    return;
  case spv::Op::OpExtInst: {
    auto Set = M.ExtInstImports.find(I.Operands[0]);
    if (Set == M.ExtInstImports.end())
      return;
    if (Set->second == "GLSL.std.450") {
      emitGlslStd450(I);
      return;
    }
    if (Set->second.rfind("NonSemantic.", 0) != 0)
      failAt(I, "unsupported: extended instruction " + Twine(I.Operands[1]) +
                    " of " + Set->second);
    return;
  }
  case spv::Op::OpFunctionCall:
    emitCall(I);
    return;
  default:
    break;
  }
  if (emitArithmetic(I) || emitComposite(I) || emitMatrix(I) ||
      emitMemory(I) || emitAtomic(I) || emitBarrier(I) || emitSubgroup(I))
    return;
  failAt(I, "unsupported: instruction not implemented by the invocation "
            "back end");
}

} // namespace spirv2llvm::invocation
