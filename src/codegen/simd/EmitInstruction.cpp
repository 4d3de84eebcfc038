//===- EmitInstruction.cpp - The one opcode dispatch of the SIMD back end -===//
//
// Every non-terminator instruction of a block arrives here and goes, by its
// family in the opcode table (parser/OpcodeTable.h), to the file that
// implements the family. An opcode no family takes, or one its family's
// emitter does not implement, is a diagnostic naming it, never a crash.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/EmitterCommon.h"
#include "codegen/common/NoContraction.h"
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

void SimdEmitter::emitInstruction(const Instruction &I) {
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
  case OpcodeFamily::Arithmetic:
    // OpBitcast to or from a physical pointer converts an address.
    Done = emitPhysicalPointer(I) || emitArithmetic(I);
    break;
  case OpcodeFamily::PhysicalPointer:
    Done = emitPhysicalPointer(I);
    break;
  case OpcodeFamily::Bitwise:
    Done = emitBitwise(I);
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
  case OpcodeFamily::Call:
    Done = emitCall(I);
    break;
  case OpcodeFamily::Subgroup:
    Done = emitSubgroup(I);
    break;
  case OpcodeFamily::Helper:
    Done = emitHelperInvocation(I);
    break;
  case OpcodeFamily::Derivative:
    Done = emitDerivative(I);
    break;
  case OpcodeFamily::Image:
    Done = emitImage(I);
    break;
  case OpcodeFamily::Geometry:
    Done = emitGeometry(I);
    break;
  case OpcodeFamily::ControlFlow: // emitted with the blocks, never here
  case OpcodeFamily::None:
    break;
  }
  if (!Done)
    failAt(I, "unsupported: instruction " + Twine(opName(I.Opcode)));
}

} // namespace spirv2llvm::simd
