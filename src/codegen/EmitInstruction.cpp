//===- EmitInstruction.cpp - The one opcode dispatch of the SIMD back end -===//
//
// Every non-terminator instruction of a block arrives here; each family of
// opcodes goes to the file that implements it. An opcode not listed is a
// diagnostic naming it, never a crash.
//
//===----------------------------------------------------------------------===//
#include "codegen/EmitterCommon.h"
#include "codegen/SimdEmitter.h"

#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

void SimdEmitter::emitInstruction(const Instruction &I) {
  std::string Message;
  switch (routeInstruction(M, I, Message)) {
  case InstructionRoute::NoCode:
    return;
  case InstructionRoute::GlslStd450:
    emitGlslStd450(I);
    return;
  case InstructionRoute::Unsupported:
    failAt(I, Message);
    return;
  case InstructionRoute::Families:
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
