//===- StructureTree.cpp - Loop nesting tree and structured constructs ----===//
//
// A block B is in the loop construct of header H (merge M) when H dominates
// B and M does not. Along any path down the dominator tree the loops whose
// construct contains the current block therefore form a stack: a header
// pushes its loop, and reaching the loop's merge block pops it. Each block's
// innermost loop is the top of that stack, which the walk passes from idom
// to child. Processing blocks in reverse postorder visits every idom before
// its children, so no explicit tree walk (and no recursion) is needed; the
// stack is the chain of parent links of the loop nodes.
//
// The same walk finds badly nested loops: a merge block reached while an
// inner loop is still open lies in the inner loop's construct but outside
// the outer one.
//
// Limitation: Construct::Blocks is stored per construct, so n nested
// constructs cost O(n^2) memory; shaders nest a handful deep.
//
//===----------------------------------------------------------------------===//
#include "cfg/StructureTree.h"

#include "support/Diagnostic.h"

#include <algorithm>
#include <cassert>

namespace spirv2llvm::cfg {

namespace {

constexpr uint32_t NoNode = ~0u;

/// The members of a StructureTree, which only buildStructureTree() may set.
struct TreeParts {
  std::vector<StructureNode> Nodes;
  std::vector<uint32_t> BlockNode;
  std::vector<Construct> Constructs;
  std::vector<BlockIndex> Unreachable;
};

class Builder {
public:
  Builder(const Cfg &G, const DominatorTree &DT) : G(G), DT(DT) {}

  llvm::Expected<TreeParts> build();

private:
  std::string name(BlockIndex B) const { return "%" + G.block(B).Name; }
  /// True if \p B is in the loop construct of header \p H.
  bool inLoopConstruct(BlockIndex H, BlockIndex B) const;
  llvm::Error checkHeader(BlockIndex H) const;
  llvm::Error assignLoops();
  llvm::Error checkBackEdges() const;
  void buildNodes(TreeParts &T) const;
  std::vector<Construct> buildConstructs() const;
  std::vector<BlockIndex> constructBlocks(BlockIndex H, BlockIndex M) const;

  const Cfg &G;
  const DominatorTree &DT;
  /// Innermost loop (its header) whose construct contains each reachable
  /// block; NoBlock outside all loops.
  std::vector<BlockIndex> LoopOf;
  /// For each loop header: the header of the loop it is nested in.
  std::vector<BlockIndex> ParentLoop;
};

bool Builder::inLoopConstruct(BlockIndex H, BlockIndex B) const {
  BlockIndex M = G.block(H).MergeBlock;
  return DT.dominates(H, B) && !(G.isReachable(M) && DT.dominates(M, B));
}

llvm::Error Builder::checkHeader(BlockIndex H) const {
  const CfgBlock &B = G.block(H);
  const char *Kind = B.Merge == MergeKind::Loop ? "loop" : "selection";
  if (B.MergeBlock >= G.size())
    return makeError(llvm::Twine(Kind) + " header " + name(H) +
                     " has no merge block");
  if (B.MergeBlock == H)
    return makeError(llvm::Twine(Kind) + " header " + name(H) +
                     " is its own merge block");
  // SPIR-V lets a merge block or continue target be unreachable; only a
  // reachable one must be dominated by its header.
  if (G.isReachable(B.MergeBlock) && !DT.dominates(H, B.MergeBlock))
    return makeError(llvm::Twine(Kind) + " header " + name(H) +
                     " does not dominate its merge block " +
                     name(B.MergeBlock));
  if (B.Merge != MergeKind::Loop || B.ContinueTarget >= G.size() ||
      !G.isReachable(B.ContinueTarget))
    return llvm::Error::success();
  if (!DT.dominates(H, B.ContinueTarget))
    return makeError("loop header " + name(H) +
                     " does not dominate its continue target " +
                     name(B.ContinueTarget));
  if (!inLoopConstruct(H, B.ContinueTarget))
    return makeError("continue target " + name(B.ContinueTarget) + " of loop " +
                     name(H) + " is outside the loop construct");
  return llvm::Error::success();
}

llvm::Error Builder::assignLoops() {
  LoopOf.assign(G.size(), NoBlock);
  ParentLoop.assign(G.size(), NoBlock);

  // Loop headers by merge block, to find loops that a merge block fails to
  // close because an inner loop is still open.
  std::vector<std::vector<BlockIndex>> HeadersMergingAt(G.size());
  for (BlockIndex H : G.rpo())
    if (G.block(H).Merge == MergeKind::Loop)
      HeadersMergingAt[G.block(H).MergeBlock].push_back(H);

  for (BlockIndex B : G.rpo()) {
    const CfgBlock &Block = G.block(B);
    BlockIndex Idom = DT.idom(B);
    BlockIndex Open = Idom == NoBlock ? NoBlock : LoopOf[Idom];
    // B leaves the loops it merges; they must be the innermost open ones.
    while (Open != NoBlock && G.block(Open).MergeBlock == B)
      Open = ParentLoop[Open];
    for (BlockIndex H : HeadersMergingAt[B]) {
      if (H == B || !DT.dominates(H, B))
        continue;
      // Loops left open are H's ancestors unless H's loop is still open.
      if (Open != NoBlock && DT.dominates(H, Open))
        return makeError("loop " + name(H) + " and loop " + name(Open) +
                         " are not nested: merge block " + name(B) + " of " +
                         name(H) + " is inside the loop construct of " +
                         name(Open));
    }
    if (Block.Merge == MergeKind::Loop) {
      ParentLoop[B] = Open;
      Open = B;
    }
    LoopOf[B] = Open;
  }
  return llvm::Error::success();
}

llvm::Error Builder::checkBackEdges() const {
  for (BlockIndex P : G.rpo()) {
    for (BlockIndex S : G.block(P).Succs) {
      if (!G.isBackEdge(P, S))
        continue;
      std::string Edge = name(P) + " -> " + name(S);
      if (!DT.dominates(S, P))
        return makeError("irreducible or unstructured loop: back edge " + Edge +
                         " enters " + name(S) + ", which does not dominate " +
                         name(P));
      if (G.block(S).Merge != MergeKind::Loop)
        return makeError("back edge " + Edge + " targets " + name(S) +
                         ", which has no OpLoopMerge");
      if (!inLoopConstruct(S, P))
        return makeError("back edge " + Edge + " leaves from outside the " +
                         "loop construct of " + name(S));
    }
  }
  return llvm::Error::success();
}

void Builder::buildNodes(TreeParts &T) const {
  T.Nodes.push_back({StructureNodeKind::Root, NoBlock, NoNode, {}, NoNode});
  T.BlockNode.assign(G.size(), NoNode);
  // Loop node of each header, so that children find their parent.
  std::vector<uint32_t> LoopNode(G.size(), NoNode);
  auto NodeOfLoop = [&](BlockIndex H) {
    return H == NoBlock ? 0u : LoopNode[H];
  };
  auto Add = [&](StructureNodeKind Kind, BlockIndex B, uint32_t Parent) {
    uint32_t N = uint32_t(T.Nodes.size());
    T.Nodes.push_back({Kind, B, Parent, {}, NoNode});
    T.Nodes[Parent].Children.push_back(N);
    return N;
  };
  // Every parent (a loop's header) precedes its children in reverse
  // postorder, and appending in that order sorts each child list.
  for (BlockIndex B : G.rpo()) {
    if (G.block(B).Merge == MergeKind::Loop)
      LoopNode[B] = Add(StructureNodeKind::Loop, B, NodeOfLoop(ParentLoop[B]));
    T.BlockNode[B] = Add(StructureNodeKind::Block, B, NodeOfLoop(LoopOf[B]));
  }
  for (uint32_t C = 0; C < T.Constructs.size(); ++C)
    if (T.Constructs[C].Kind == ConstructKind::Loop)
      T.Nodes[LoopNode[T.Constructs[C].Header]].ConstructIndex = C;
  for (BlockIndex B = 0; B < G.size(); ++B)
    if (!G.isReachable(B))
      T.Unreachable.push_back(B);
}

std::vector<BlockIndex> Builder::constructBlocks(BlockIndex H,
                                                 BlockIndex M) const {
  // The dominator subtree of H, pruned at M (all of M's subtree is
  // dominated by M).
  std::vector<BlockIndex> Blocks, Work{H};
  while (!Work.empty()) {
    BlockIndex B = Work.back();
    Work.pop_back();
    if (B == M)
      continue;
    Blocks.push_back(B);
    for (BlockIndex C : DT.children(B))
      Work.push_back(C);
  }
  std::sort(Blocks.begin(), Blocks.end(), [&](BlockIndex A, BlockIndex B) {
    return G.rpoIndex(A) < G.rpoIndex(B);
  });
  return Blocks;
}

std::vector<Construct> Builder::buildConstructs() const {
  std::vector<Construct> Constructs;
  for (BlockIndex H : G.rpo()) {
    const CfgBlock &B = G.block(H);
    if (B.Merge == MergeKind::None)
      continue;
    Construct C;
    if (B.Merge == MergeKind::Loop)
      C.Kind = ConstructKind::Loop;
    else if (B.Terminator == TerminatorKind::Switch)
      C.Kind = ConstructKind::Switch;
    else
      C.Kind = ConstructKind::Selection;
    C.Header = H;
    C.Merge = B.MergeBlock;
    if (B.Merge == MergeKind::Loop)
      C.Continue = B.ContinueTarget;
    C.Blocks = constructBlocks(H, B.MergeBlock);
    Constructs.push_back(std::move(C));
  }
  return Constructs;
}

llvm::Expected<TreeParts> Builder::build() {
  assert(!DT.isPostDominatorTree() && DT.size() == G.size() &&
         "structure tree needs the dominator tree of this CFG");
  for (BlockIndex H : G.rpo())
    if (G.block(H).Merge != MergeKind::None)
      if (llvm::Error E = checkHeader(H))
        return E;
  if (llvm::Error E = assignLoops())
    return E;
  if (llvm::Error E = checkBackEdges())
    return E;
  TreeParts T;
  T.Constructs = buildConstructs();
  buildNodes(T);
  return T;
}

} // namespace

uint32_t StructureTree::loopOf(BlockIndex B) const {
  uint32_t N = BlockNode[B];
  return N == NoNode ? 0 : Nodes[N].Parent;
}

unsigned StructureTree::loopDepth(BlockIndex B) const {
  unsigned Depth = 0;
  for (uint32_t N = loopOf(B); N != 0; N = Nodes[N].Parent)
    ++Depth;
  return Depth;
}

llvm::Expected<StructureTree> buildStructureTree(const Cfg &G,
                                                 const DominatorTree &DT) {
  llvm::Expected<TreeParts> Parts = Builder(G, DT).build();
  if (!Parts)
    return Parts.takeError();
  StructureTree T;
  T.Nodes = std::move(Parts->Nodes);
  T.BlockNode = std::move(Parts->BlockNode);
  T.Constructs = std::move(Parts->Constructs);
  T.Unreachable = std::move(Parts->Unreachable);
  return T;
}

} // namespace spirv2llvm::cfg
