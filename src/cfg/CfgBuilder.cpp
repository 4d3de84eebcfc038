//===- CfgBuilder.cpp - Build a Cfg from a parsed SPIR-V function ---------===//
//
// Reads each block's merge instruction and terminator. Successor order is
// the operand order (OpBranchConditional: true then false; OpSwitch: default
// then the cases in order); Cfg's constructor removes duplicates. Every label
// a terminator or merge instruction names must be a block of the same
// function; anything else is reported with the instruction's word offset.
//
//===----------------------------------------------------------------------===//
#include "cfg/Cfg.h"

#include "parser/OpcodeTable.h"
#include "support/Diagnostic.h"

#include "llvm/Support/ErrorHandling.h"

namespace spirv2llvm::cfg {

namespace {

/// Block name for printers: the friendly name without its '%'.
std::string blockName(const Module &M, uint32_t Label) {
  return M.plainName(Label);
}

/// Words per case literal of an OpSwitch: the selector's width in words
/// (64-bit selectors take two), 1 if the selector's type is unknown.
size_t switchLiteralWords(const Module &M, uint32_t Selector) {
  const Type *T = M.findType(M.typeOf(Selector).value());
  return T && T->Width > 32 ? 2 : 1;
}

/// Translates label ids of one function to block indices, reporting
/// foreign labels.
class TargetResolver {
public:
  TargetResolver(const Module &M, const Function &F) : M(M), F(F) {}

  /// \p What names the role in the message ("branch target",
  /// "merge block", ...).
  llvm::Expected<BlockIndex> resolve(uint32_t Label, const Instruction &I,
                                     const char *What) const {
    auto It = F.BlockIndexOf.find(Label);
    if (It != F.BlockIndexOf.end())
      return It->second;
    return makeErrorAt(I.WordOffset, llvm::Twine(What) + " " +
                                         M.friendlyName(Label) +
                                         " is not a block of function " +
                                         M.friendlyName(F.Id.value()));
  }

private:
  const Module &M;
  const Function &F;
};

llvm::Error operandCountError(const Instruction &I, const char *OpName) {
  return makeErrorAt(I.WordOffset, llvm::Twine("malformed ") + OpName + ": " +
                                       llvm::Twine(I.Operands.size()) +
                                       " operand words");
}

/// Fills Terminator and Succs of \p B from its terminator \p I.
llvm::Error readTerminator(const Module &M, const Instruction &I,
                           const TargetResolver &R, CfgBlock &B) {
  auto AddTarget = [&](uint32_t Label) -> llvm::Error {
    llvm::Expected<BlockIndex> T = R.resolve(Label, I, "branch target");
    if (!T)
      return T.takeError();
    B.Succs.push_back(*T);
    return llvm::Error::success();
  };

  // How the terminator leaves the block: the Terminator column of the
  // opcode table.
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  if (!(Info.Flags & OpcodeFlag::Terminator))
    return makeErrorAt(I.WordOffset, "unsupported: block terminator (opcode " +
                                         llvm::Twine(uint32_t(I.Opcode)) +
                                         ") in block %" + B.Name);
  B.Terminator = Info.Terminator;
  switch (Info.Terminator) {
  case TerminatorKind::Branch:
    if (I.Operands.size() < 1)
      return operandCountError(I, "OpBranch");
    return AddTarget(I.Operands[0]);
  case TerminatorKind::BranchConditional:
    if (I.Operands.size() < 3)
      return operandCountError(I, "OpBranchConditional");
    if (llvm::Error E = AddTarget(I.Operands[1]))
      return E;
    return AddTarget(I.Operands[2]);
  case TerminatorKind::Switch: {
    // Selector, default, then (literal..., label) pairs.
    if (I.Operands.size() < 2)
      return operandCountError(I, "OpSwitch");
    size_t Stride = switchLiteralWords(M, I.Operands[0]) + 1;
    if ((I.Operands.size() - 2) % Stride != 0)
      return operandCountError(I, "OpSwitch");
    if (llvm::Error E = AddTarget(I.Operands[1]))
      return E;
    for (size_t W = 2 + Stride - 1; W < I.Operands.size(); W += Stride)
      if (llvm::Error E = AddTarget(I.Operands[W]))
        return E;
    return llvm::Error::success();
  }
  case TerminatorKind::Return:
  case TerminatorKind::Kill:
  case TerminatorKind::Unreachable:
    return llvm::Error::success();
  }
  llvm_unreachable("every terminator kind is handled above");
}

/// Fills Merge, MergeBlock and ContinueTarget of \p B from \p I.
llvm::Error readMerge(const Instruction &I, const TargetResolver &R,
                      CfgBlock &B) {
  const bool IsLoop = I.Opcode == spv::Op::OpLoopMerge;
  if (!IsLoop && I.Opcode != spv::Op::OpSelectionMerge)
    return makeErrorAt(I.WordOffset, "unexpected merge instruction (opcode " +
                                         llvm::Twine(uint32_t(I.Opcode)) +
                                         ") in block %" + B.Name);
  if (I.Operands.size() < (IsLoop ? 2u : 1u))
    return operandCountError(I, IsLoop ? "OpLoopMerge" : "OpSelectionMerge");
  llvm::Expected<BlockIndex> Merge = R.resolve(I.Operands[0], I, "merge block");
  if (!Merge)
    return Merge.takeError();
  B.Merge = IsLoop ? MergeKind::Loop : MergeKind::Selection;
  B.MergeBlock = *Merge;
  if (!IsLoop)
    return llvm::Error::success();
  llvm::Expected<BlockIndex> Continue =
      R.resolve(I.Operands[1], I, "continue target");
  if (!Continue)
    return Continue.takeError();
  B.ContinueTarget = *Continue;
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Cfg> buildCfg(const Module &M, const Function &F) {
  TargetResolver R(M, F);
  std::vector<CfgBlock> Blocks(F.Blocks.size());
  for (size_t Index = 0; Index < F.Blocks.size(); ++Index) {
    const Block &Src = F.Blocks[Index];
    CfgBlock &B = Blocks[Index];
    B.Label = Src.Label.value();
    B.Name = blockName(M, B.Label);
    if (Src.TerminatorInst >= M.Insts.size()) {
      const Instruction *Label = M.def(B.Label);
      return makeErrorAt(Label ? Label->WordOffset : 0,
                         "block %" + B.Name + " has no terminator");
    }
    if (llvm::Error E = readTerminator(M, M.Insts[Src.TerminatorInst], R, B))
      return E;
    if (Src.MergeInst < M.Insts.size())
      if (llvm::Error E = readMerge(M.Insts[Src.MergeInst], R, B))
        return E;
  }
  return Cfg(std::move(Blocks));
}

} // namespace spirv2llvm::cfg
