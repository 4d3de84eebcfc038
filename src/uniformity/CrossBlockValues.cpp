//===- CrossBlockValues.cpp - Values carried between blocks ---------------===//
#include "uniformity/CrossBlockValues.h"

namespace spirv2llvm {

bool inDivergentLoop(const cfg::FunctionAnalysis &A, const UniformityInfo &UI,
                     uint32_t Fn, cfg::BlockIndex Bk) {
  for (uint32_t Node = A.Tree.loopOf(Bk); Node != 0;) {
    const cfg::StructureNode &N = A.Tree.node(Node);
    if (N.Kind == cfg::StructureNodeKind::Loop &&
        UI.isDivergentLoop(Fn, N.Block))
      return true;
    if (N.Parent == ~0u)
      break;
    Node = N.Parent;
  }
  return false;
}

CrossBlockValues crossBlockValues(const Module &M,
                                  const cfg::FunctionAnalysis &A,
                                  const UniformityInfo &UI, uint32_t Fn) {
  const Function &F = M.Functions[Fn];
  CrossBlockValues R;
  for (cfg::BlockIndex Bk = 0; Bk < F.Blocks.size(); ++Bk)
    for (uint32_t Index : F.Blocks[Bk].Insts)
      if (uint32_t Id = M.Insts[Index].Result.value())
        R.DefBlock[Id] = Bk;
  for (cfg::BlockIndex Bk : A.G.rpo())
    for (uint32_t Index : F.Blocks[Bk].Insts) {
      const Instruction &I = M.Insts[Index];
      for (size_t K = 0; K < I.Operands.size(); ++K) {
        if (!I.OperandIsId[K])
          continue;
        auto It = R.DefBlock.find(I.Operands[K]);
        if (It == R.DefBlock.end())
          continue;
        cfg::BlockIndex UseBlock = Bk;
        if (I.Opcode == spv::Op::OpPhi && K % 2 == 0 &&
            K + 1 < I.Operands.size())
          if (auto P = F.BlockIndexOf.find(I.Operands[K + 1]);
              P != F.BlockIndexOf.end())
            UseBlock = P->second;
        if (It->second != UseBlock)
          R.CrossBlock.insert(I.Operands[K]);
      }
    }
  for (uint32_t Id : R.CrossBlock)
    if (inDivergentLoop(A, UI, Fn, R.DefBlock.at(Id)))
      R.MaskedLiveOut.insert(Id);
  return R;
}

} // namespace spirv2llvm
