//===- StructureTree.h - Loop nesting and structured constructs -*- C++ -*-===//
//
// The CFG structure tree of the design document: the function's reachable
// blocks grouped into nested Loop nodes (one per OpLoopMerge header), with
// the children of every node in reverse postorder. Collapsing each loop into
// one node turns the CFG into a DAG, so the children of a node are a
// topological order of that level: this is the order code generation visits.
//
// A loop node holds the blocks of the SPIR-V loop construct: the blocks
// dominated by the header and not dominated by the merge block (so a block
// that returns or kills inside the loop belongs to it).
//
// Selection and switch constructs do not cut cycles and need no node of
// their own; they are recorded as Construct entries (kind, header, merge,
// blocks), as are loops, for code generation and for --print-structure=full.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CFG_STRUCTURETREE_H
#define SPIRV2LLVM_CFG_STRUCTURETREE_H

#include "cfg/Cfg.h"
#include "cfg/DominatorTree.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace spirv2llvm::cfg {

enum class ConstructKind : uint8_t { Selection, Switch, Loop };

struct Construct {
  ConstructKind Kind;
  BlockIndex Header;
  BlockIndex Merge;
  BlockIndex Continue = NoBlock; ///< loops only
  /// Blocks dominated by Header and not by Merge, in reverse postorder.
  std::vector<BlockIndex> Blocks;
};

enum class StructureNodeKind : uint8_t { Root, Loop, Block };

struct StructureNode {
  StructureNodeKind Kind;
  /// Block nodes: the block. Loop nodes: the header.
  BlockIndex Block = NoBlock;
  uint32_t Parent = ~0u;         ///< node index; ~0u for the root
  std::vector<uint32_t> Children; ///< node indices, reverse postorder
  uint32_t ConstructIndex = ~0u;  ///< Loop nodes: index into constructs()
};

class StructureTree {
public:
  /// Node 0 is the root.
  const StructureNode &node(uint32_t N) const { return Nodes[N]; }
  const std::vector<StructureNode> &nodes() const { return Nodes; }
  /// The Block node of \p B (NoBlock-safe: ~0u for unreachable blocks).
  uint32_t nodeOfBlock(BlockIndex B) const { return BlockNode[B]; }
  /// The innermost Loop node containing \p B, or 0 (the root).
  uint32_t loopOf(BlockIndex B) const;
  /// Loop nesting depth of \p B (0 outside all loops).
  unsigned loopDepth(BlockIndex B) const;
  const std::vector<Construct> &constructs() const { return Constructs; }
  /// Blocks unreachable from the entry: kept out of the tree, listed by the
  /// printers.
  const std::vector<BlockIndex> &unreachable() const { return Unreachable; }

  friend llvm::Expected<StructureTree>
  buildStructureTree(const Cfg &G, const DominatorTree &DT);

private:
  std::vector<StructureNode> Nodes;
  std::vector<uint32_t> BlockNode;
  std::vector<Construct> Constructs;
  std::vector<BlockIndex> Unreachable;
};

/// Builds the structure tree. Fails with a diagnostic (naming the blocks)
/// when the CFG is not structured the way code generation needs: a back
/// edge whose target is not a loop header (OpLoopMerge) or does not dominate
/// its source, a merge block or continue target the header does not
/// dominate, or a loop whose back edge does not come from its construct.
llvm::Expected<StructureTree> buildStructureTree(const Cfg &G,
                                                 const DominatorTree &DT);

} // namespace spirv2llvm::cfg

#endif
