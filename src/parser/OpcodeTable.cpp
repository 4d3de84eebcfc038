//===- OpcodeTable.cpp - Lookup in the generated opcode table -------------===//
#include "parser/OpcodeTable.h"

#include <algorithm>
#include <iterator>

namespace spirv2llvm {

namespace {
#include "OpcodeTable.inc"
} // namespace

const OpcodeInfo &opcodeInfo(spv::Op Op) {
  static const OpcodeInfo Unlisted{spv::Op::Max};
  const OpcodeInfo *End = std::end(OpcodeInfos);
  const OpcodeInfo *It = std::lower_bound(
      std::begin(OpcodeInfos), End, Op,
      [](const OpcodeInfo &I, spv::Op O) { return I.Opcode < O; });
  return It != End && It->Opcode == Op ? *It : Unlisted;
}

const GlslStd450Info &glslStd450Info(uint32_t Inst) {
  static const GlslStd450Info NotAnInstruction;
  return Inst < std::size(GlslStd450Infos) ? GlslStd450Infos[Inst]
                                           : NotAnInstruction;
}

} // namespace spirv2llvm
