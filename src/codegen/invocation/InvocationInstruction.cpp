//===- InvocationInstruction.cpp - The one opcode dispatch (invocation) ---===//
//
// Every non-terminator, non-phi instruction of a block arrives here and
// goes, by its family in the opcode table (parser/OpcodeTable.h), to the
// file that implements the family. A family this back end does not
// implement (physical pointers, helper invocations, derivatives), or an
// opcode its family's emitter does not take, is an "unsupported:"
// diagnostic, never a crash.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/EmitterCommon.h"
#include "codegen/common/NoContraction.h"
#include "codegen/invocation/InvocationEmitter.h"

#include "parser/OpcodeTable.h"

using namespace llvm;

namespace spirv2llvm::invocation {

void InvocationEmitter::emitInstruction(const Instruction &I) {
  NoContractionScope Precise(B, M, I);
  bool Done = false;
  switch (opcodeInfo(I.Opcode).Family) {
  case OpcodeFamily::NoCode:
    return;
  case OpcodeFamily::ExtInst: {
    std::string Message;
    switch (routeExtInst(M, I, Message)) {
    case ExtInstRoute::NoCode:
      return;
    case ExtInstRoute::GlslStd450:
      emitGlslStd450(I); // false after its own diagnostic
      return;
    case ExtInstRoute::Unsupported:
      failAt(I, Message);
      return;
    }
    return;
  }
  // Bit operations and relational tests share the arithmetic file here.
  case OpcodeFamily::Arithmetic:
  case OpcodeFamily::Bitwise:
    Done = emitArithmetic(I);
    break;
  case OpcodeFamily::Composite:
    Done = emitComposite(I);
    break;
  case OpcodeFamily::Matrix:
    Done = emitMatrix(I);
    break;
  case OpcodeFamily::Memory:
    Done = emitMemory(I);
    break;
  case OpcodeFamily::Atomic:
    Done = emitAtomic(I);
    break;
  case OpcodeFamily::Barrier:
    Done = emitBarrier(I);
    break;
  case OpcodeFamily::Subgroup:
    Done = emitSubgroup(I);
    break;
  case OpcodeFamily::Call:
    Done = emitCall(I);
    break;
  case OpcodeFamily::Image:
    Done = emitImage(I);
    break;
  case OpcodeFamily::Geometry:
    failAt(I, "unsupported: geometry shaders in the invocation back end "
              "(the SIMD back end runs them)");
    return;
  case OpcodeFamily::PhysicalPointer:
  case OpcodeFamily::Helper:
  case OpcodeFamily::Derivative:
  case OpcodeFamily::ControlFlow:
  case OpcodeFamily::None:
    break;
  }
  if (!Done)
    failAt(I, "unsupported: instruction not implemented by the invocation "
              "back end");
}

} // namespace spirv2llvm::invocation
