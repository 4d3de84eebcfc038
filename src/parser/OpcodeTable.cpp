//===- OpcodeTable.cpp - Lookup in the generated opcode table -------------===//
#include "parser/OpcodeTable.h"

#include <algorithm>
#include <iterator>

namespace spirv2llvm {

namespace {
#include "OpcodeTable.inc"
} // namespace

const OpcodeInfo &opcodeInfo(spv::Op Op) {
  static const OpcodeInfo Unlisted{spv::Op::Max, OpcodeFamily::None,
                                   UniformityRule::Operands,
                                   SpecConstantForm::None,
                                   SpecConstantKind::Other, 0,
                                   OperandShape::None, AffineRule::None};
  const OpcodeInfo *End = std::end(OpcodeInfos);
  const OpcodeInfo *It = std::lower_bound(
      std::begin(OpcodeInfos), End, Op,
      [](const OpcodeInfo &I, spv::Op O) { return I.Opcode < O; });
  return It != End && It->Opcode == Op ? *It : Unlisted;
}

unsigned glslStd450OperandCount(uint32_t Inst) {
  return Inst < std::size(GlslStd450OperandCounts)
             ? GlslStd450OperandCounts[Inst]
             : 0;
}

} // namespace spirv2llvm
