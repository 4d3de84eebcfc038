//===- DominatorTree.cpp - Cooper-Harvey-Kennedy (post-)dominators --------===//
//
// Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm" (2001).
// Both trees are computed by one routine over an explicit graph: the CFG
// restricted to reachable blocks for dominators, and its reverse plus a
// virtual exit node for post-dominators.
//
// The virtual exit (index Cfg::size()) is the reverse graph's root. Its
// edges go to every reachable Return/Kill/Unreachable block, and to every
// reachable block from which no such block can be reached (the blocks of an
// infinite loop and those that lead only into one), so that every reachable
// block has an immediate post-dominator. Blocks unreachable from the entry
// are left out of both trees.
//
// Limitation: the post-dominator tree orders children by the reverse
// postorder of the reverse graph (as DominatorTree.h says), not of the CFG.
//
//===----------------------------------------------------------------------===//
#include "cfg/DominatorTree.h"

#include <cassert>
#include <utility>

namespace spirv2llvm::cfg {

namespace {

using AdjacencyList = std::vector<std::vector<BlockIndex>>;

/// Nodes reachable from \p Root in reverse postorder of a DFS that visits
/// successors in list order (the same traversal as Cfg's constructor).
std::vector<BlockIndex> reversePostorder(const AdjacencyList &Succs,
                                         BlockIndex Root) {
  std::vector<std::pair<BlockIndex, uint32_t>> Stack;
  std::vector<bool> Visited(Succs.size(), false);
  std::vector<BlockIndex> PostOrder;
  Stack.push_back({Root, 0});
  Visited[Root] = true;
  while (!Stack.empty()) {
    BlockIndex B = Stack.back().first;
    uint32_t &Next = Stack.back().second;
    if (Next < Succs[B].size()) {
      BlockIndex S = Succs[B][Next++];
      if (!Visited[S]) {
        Visited[S] = true;
        Stack.push_back({S, 0});
      }
      continue;
    }
    PostOrder.push_back(B);
    Stack.pop_back();
  }
  return std::vector<BlockIndex>(PostOrder.rbegin(), PostOrder.rend());
}

/// The members of a DominatorTree, computed by computeTree().
struct TreeParts {
  std::vector<BlockIndex> Idom;
  std::vector<std::vector<BlockIndex>> Children;
  std::vector<uint32_t> DfsIn, DfsOut;
};

/// Runs Cooper-Harvey-Kennedy from \p Root of the graph given by both
/// adjacency lists; nodes it cannot reach get idom NoBlock.
TreeParts computeTree(const AdjacencyList &Succs, const AdjacencyList &Preds,
                      BlockIndex Root) {
  const size_t N = Succs.size();
  TreeParts T;
  T.Idom.assign(N, NoBlock);
  T.Children.assign(N, {});
  T.DfsIn.assign(N, ~0u);
  T.DfsOut.assign(N, ~0u);
  if (N == 0)
    return T;

  std::vector<BlockIndex> Order = reversePostorder(Succs, Root);
  std::vector<uint32_t> OrderIndex(N, NoBlock);
  for (uint32_t I = 0; I < Order.size(); ++I)
    OrderIndex[Order[I]] = I;

  // Walk both fingers up the partial tree until they meet; a node's idom
  // always precedes it in reverse postorder.
  auto Intersect = [&](BlockIndex A, BlockIndex B) {
    while (A != B) {
      while (OrderIndex[A] > OrderIndex[B])
        A = T.Idom[A];
      while (OrderIndex[B] > OrderIndex[A])
        B = T.Idom[B];
    }
    return A;
  };

  T.Idom[Root] = Root;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 1; I < Order.size(); ++I) {
      BlockIndex B = Order[I];
      BlockIndex NewIdom = NoBlock;
      for (BlockIndex P : Preds[B]) {
        if (OrderIndex[P] == NoBlock || T.Idom[P] == NoBlock)
          continue; // unreachable, or not processed yet
        NewIdom = NewIdom == NoBlock ? P : Intersect(P, NewIdom);
      }
      if (T.Idom[B] != NewIdom) {
        T.Idom[B] = NewIdom;
        Changed = true;
      }
    }
  }
  T.Idom[Root] = NoBlock;

  // Visiting nodes in reverse postorder sorts every child list by it.
  for (size_t I = 1; I < Order.size(); ++I)
    T.Children[T.Idom[Order[I]]].push_back(Order[I]);

  // Preorder entry and exit numbers: A dominates B iff B's interval nests
  // in A's.
  uint32_t Clock = 0;
  std::vector<std::pair<BlockIndex, uint32_t>> Stack;
  Stack.push_back({Root, 0});
  T.DfsIn[Root] = Clock++;
  while (!Stack.empty()) {
    BlockIndex B = Stack.back().first;
    uint32_t &Next = Stack.back().second;
    if (Next < T.Children[B].size()) {
      BlockIndex C = T.Children[B][Next++];
      T.DfsIn[C] = Clock++;
      Stack.push_back({C, 0});
      continue;
    }
    T.DfsOut[B] = Clock++;
    Stack.pop_back();
  }
  return T;
}

/// Reachable blocks from which no Return/Kill/Unreachable block can be
/// reached, found by a backward search from those blocks.
std::vector<bool> blocksWithoutExit(const Cfg &G,
                                    const std::vector<bool> &IsExit) {
  std::vector<bool> ReachesExit(G.size(), false);
  std::vector<BlockIndex> Work;
  for (BlockIndex B : G.rpo())
    if (IsExit[B]) {
      ReachesExit[B] = true;
      Work.push_back(B);
    }
  while (!Work.empty()) {
    BlockIndex B = Work.back();
    Work.pop_back();
    for (BlockIndex P : G.block(B).Preds)
      if (G.isReachable(P) && !ReachesExit[P]) {
        ReachesExit[P] = true;
        Work.push_back(P);
      }
  }
  std::vector<bool> NoExit(G.size(), false);
  for (BlockIndex B : G.rpo())
    NoExit[B] = !ReachesExit[B];
  return NoExit;
}

bool isExitTerminator(TerminatorKind K) {
  return K == TerminatorKind::Return || K == TerminatorKind::Kill ||
         K == TerminatorKind::Unreachable;
}

} // namespace

bool DominatorTree::dominates(BlockIndex A, BlockIndex B) const {
  assert(A < size() && B < size() && "block index out of range");
  if (A == B)
    return true;
  // Nodes outside the tree (unreachable blocks) dominate nothing and are
  // dominated by nothing but themselves.
  if (DfsIn[A] == ~0u || DfsIn[B] == ~0u)
    return false;
  return DfsIn[A] <= DfsIn[B] && DfsOut[B] <= DfsOut[A];
}

std::vector<BlockIndex>
computeImmediateDominators(const std::vector<std::vector<BlockIndex>> &Succs,
                           const std::vector<std::vector<BlockIndex>> &Preds,
                           BlockIndex Root) {
  return computeTree(Succs, Preds, Root).Idom;
}

DominatorTree computeDominators(const Cfg &G) {
  AdjacencyList Succs(G.size()), Preds(G.size());
  for (BlockIndex B : G.rpo()) {
    Succs[B] = G.block(B).Succs;
    Preds[B] = G.block(B).Preds;
  }
  TreeParts T = computeTree(Succs, Preds, G.entry());
  DominatorTree DT;
  DT.Root = G.entry();
  DT.IsPost = false;
  DT.Idom = std::move(T.Idom);
  DT.Children = std::move(T.Children);
  DT.DfsIn = std::move(T.DfsIn);
  DT.DfsOut = std::move(T.DfsOut);
  return DT;
}

DominatorTree computePostDominators(const Cfg &G) {
  const BlockIndex Exit = BlockIndex(G.size());
  std::vector<bool> IsExit(G.size(), false);
  for (BlockIndex B : G.rpo())
    IsExit[B] = isExitTerminator(G.block(B).Terminator);
  std::vector<bool> NoExit = blocksWithoutExit(G, IsExit);

  // Reverse graph: RevSuccs are CFG predecessors, RevPreds CFG successors;
  // only reachable blocks take part.
  AdjacencyList RevSuccs(G.size() + 1), RevPreds(G.size() + 1);
  for (BlockIndex B : G.rpo()) {
    for (BlockIndex P : G.block(B).Preds)
      if (G.isReachable(P))
        RevSuccs[B].push_back(P);
    RevPreds[B] = G.block(B).Succs;
    if (IsExit[B] || NoExit[B]) {
      RevSuccs[Exit].push_back(B);
      RevPreds[B].push_back(Exit);
    }
  }
  TreeParts T = computeTree(RevSuccs, RevPreds, Exit);
  DominatorTree PDT;
  PDT.Root = Exit;
  PDT.IsPost = true;
  PDT.Idom = std::move(T.Idom);
  PDT.Children = std::move(T.Children);
  PDT.DfsIn = std::move(T.DfsIn);
  PDT.DfsOut = std::move(T.DfsOut);
  return PDT;
}

} // namespace spirv2llvm::cfg
