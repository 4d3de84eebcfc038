//===- InvocationInstruction.cpp - The one opcode dispatch (invocation) ---===//
//
// Every non-terminator, non-phi instruction of a block arrives here; each
// family of opcodes goes to the file that implements it. An opcode no family
// takes is an "unsupported:" diagnostic naming it, never a crash.
//
//===----------------------------------------------------------------------===//
#include "codegen/EmitterCommon.h"
#include "codegen/InvocationEmitter.h"

using namespace llvm;

namespace spirv2llvm::invocation {

void InvocationEmitter::emitInstruction(const Instruction &I) {
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
  if (emitArithmetic(I) || emitComposite(I) || emitMatrix(I) ||
      emitMemory(I) || emitAtomic(I) || emitBarrier(I) || emitSubgroup(I) ||
      emitCall(I))
    return;
  failAt(I, "unsupported: instruction not implemented by the invocation "
            "back end");
}

} // namespace spirv2llvm::invocation
