//===- Cfg.cpp - Predecessors and reverse postorder of a CFG --------------===//
//
// The constructor normalizes successor lists (duplicates removed, first
// occurrence kept), derives predecessor lists in block order and numbers the
// reachable blocks in reverse postorder. The depth-first search keeps its own
// stack so that a chain or nest of many thousands of blocks cannot overflow
// the native one.
//
//===----------------------------------------------------------------------===//
#include "cfg/Cfg.h"

#include <cassert>
#include <utility>

namespace spirv2llvm::cfg {

namespace {

/// Removes repeated entries of \p Succs, keeping the first occurrence.
/// \p Stamp is scratch space indexed by block, \p Mark a value no entry of
/// it holds yet; this keeps a switch with many cases linear.
void dedupeSuccessors(std::vector<BlockIndex> &Succs,
                      std::vector<uint32_t> &Stamp, uint32_t Mark) {
  size_t Out = 0;
  for (BlockIndex S : Succs) {
    if (Stamp[S] == Mark)
      continue;
    Stamp[S] = Mark;
    Succs[Out++] = S;
  }
  Succs.resize(Out);
}

} // namespace

Cfg::Cfg(std::vector<CfgBlock> InBlocks) : Blocks(std::move(InBlocks)) {
  const size_t N = Blocks.size();
  RpoIndex.assign(N, NoBlock);
  if (N == 0)
    return;

  std::vector<uint32_t> Stamp(N, ~0u);
  for (BlockIndex B = 0; B < N; ++B) {
    for (BlockIndex S : Blocks[B].Succs) {
      (void)S;
      assert(S < N && "successor index out of range");
    }
    dedupeSuccessors(Blocks[B].Succs, Stamp, B);
    Blocks[B].Preds.clear();
  }
  for (BlockIndex B = 0; B < N; ++B)
    for (BlockIndex S : Blocks[B].Succs)
      Blocks[S].Preds.push_back(B);

  // Iterative DFS: each frame is a block and the position of the next
  // successor to try, which is exactly what a recursive DFS keeps on the
  // native stack, so the postorder is the same.
  std::vector<std::pair<BlockIndex, uint32_t>> Stack;
  std::vector<bool> Visited(N, false);
  std::vector<BlockIndex> PostOrder;
  PostOrder.reserve(N);
  Stack.push_back({entry(), 0});
  Visited[entry()] = true;
  while (!Stack.empty()) {
    BlockIndex B = Stack.back().first;
    uint32_t &Next = Stack.back().second;
    const std::vector<BlockIndex> &Succs = Blocks[B].Succs;
    if (Next < Succs.size()) {
      BlockIndex S = Succs[Next++];
      if (!Visited[S]) {
        Visited[S] = true;
        Stack.push_back({S, 0}); // invalidates Next; not used after this
      }
      continue;
    }
    PostOrder.push_back(B);
    Stack.pop_back();
  }

  Rpo.assign(PostOrder.rbegin(), PostOrder.rend());
  for (uint32_t I = 0; I < Rpo.size(); ++I)
    RpoIndex[Rpo[I]] = I;
}

BlockIndex Cfg::indexOfLabel(uint32_t Label) const {
  // Linear: only printers and tests ask, a handful of times per function.
  for (BlockIndex B = 0; B < Blocks.size(); ++B)
    if (Blocks[B].Label == Label)
      return B;
  return NoBlock;
}

} // namespace spirv2llvm::cfg
