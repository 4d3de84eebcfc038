//===- EmitInstruction.cpp - The one opcode dispatch of the SIMD back end -===//
//
// Every non-terminator instruction of a block arrives here; each family of
// opcodes goes to the file that implements it. An opcode not listed is a
// diagnostic naming it, never a crash.
//
//===----------------------------------------------------------------------===//
#include "codegen/SimdEmitter.h"

#include "parser/SpirvNames.h"

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
    return;
  case spv::Op::OpExtInst: {
    auto Set = M.ExtInstImports.find(I.Operands[0]);
    if (Set == M.ExtInstImports.end())
      return;
    if (Set->second == "GLSL.std.450") {
      emitGlslStd450(I);
      return;
    }
    // NonSemantic.* sets are debug and reflection information: no code.
    if (Set->second.rfind("NonSemantic.", 0) != 0)
      failAt(I, "unsupported: extended instruction " + Twine(I.Operands[1]) +
                    " of " + Set->second);
    return;
  }
  default:
    break;
  }
  if (emitPhysicalPointer(I) || emitArithmetic(I) || emitComposite(I) || emitMatrix(I) ||
      emitBitwise(I) || emitSubgroup(I) || emitMemory(I) ||
      emitAtomic(I) || emitBarrier(I) || emitCall(I) ||
      emitHelperInvocation(I) || emitDerivative(I))
    return;
  failAt(I, "unsupported: instruction " + Twine(opName(I.Opcode)));
}

} // namespace spirv2llvm::simd
