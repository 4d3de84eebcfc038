//===- EmitInstruction.cpp - The one opcode dispatch of the SIMD back end -===//
//
// Every non-terminator instruction of a block arrives here; each family of
// opcodes goes to the file that implements it. An opcode not listed is a
// diagnostic naming it, never a crash.
//
//===----------------------------------------------------------------------===//
#include "codegen/SimdEmitter.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

void SimdEmitter::emitInstruction(const Instruction &I) {
  switch (I.Opcode) {
  // No code: structure is already in the CFG, debug info is ignored.
  case spv::Op::OpNop:
  case spv::Op::OpLine:
  case spv::Op::OpNoLine:
  case spv::Op::OpSelectionMerge:
  case spv::Op::OpLoopMerge:
  case spv::Op::OpExtInst:
    if (I.Opcode == spv::Op::OpExtInst &&
        M.ExtInstImports.count(I.Operands[0]) &&
        M.ExtInstImports.at(I.Operands[0]).rfind("NonSemantic.", 0) != 0) {
      failAt(I, "extended instruction " + Twine(I.Operands[1]) + " of " +
                    M.ExtInstImports.at(I.Operands[0]) +
                    " is not supported yet");
    }
    return;
  default:
    break;
  }
  if (emitArithmetic(I) || emitComposite(I) || emitMemory(I) ||
      emitAtomic(I) || emitBarrier(I))
    return;
  failAt(I, "unsupported instruction");
}

} // namespace spirv2llvm::simd
