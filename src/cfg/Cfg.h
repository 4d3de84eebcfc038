//===- Cfg.h - Control flow graph of one SPIR-V function --------*- C++ -*-===//
//
// Blocks are numbered 0..N-1 in module order (0 is the entry). Successor
// lists follow the terminator's operand order (true target before false
// target, switch default before cases, duplicates removed). The graph can be
// built from a parsed function or by hand (unit tests).
//
// Reverse postorder comes from an iterative depth-first search from the
// entry that visits successors in successor-list order; it is the order the
// printers and the structure tree use. Nothing here recurses over the
// input's depth.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CFG_CFG_H
#define SPIRV2LLVM_CFG_CFG_H

#include "parser/Module.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spirv2llvm::cfg {

using BlockIndex = uint32_t;
constexpr BlockIndex NoBlock = ~0u;

/// The structured-control-flow instruction that heads a block, if any.
enum class MergeKind : uint8_t { None, Selection, Loop };

/// How a block's terminator leaves it (parser/Kinds.h: the opcode table
/// says it of each terminator).
using spirv2llvm::TerminatorKind;

struct CfgBlock {
  /// Label id, and the name printers use for it ("15" for %15, "main" ...).
  uint32_t Label = 0;
  std::string Name;
  std::vector<BlockIndex> Succs;
  std::vector<BlockIndex> Preds;
  TerminatorKind Terminator = TerminatorKind::Return;
  MergeKind Merge = MergeKind::None;
  BlockIndex MergeBlock = NoBlock;     ///< selection or loop merge
  BlockIndex ContinueTarget = NoBlock; ///< loop continue target
};

class Cfg {
public:
  Cfg() = default;
  /// Builds from blocks whose Succs are set; Preds, reachability and
  /// reverse postorder are computed here. \p Blocks[0] is the entry.
  explicit Cfg(std::vector<CfgBlock> Blocks);

  size_t size() const { return Blocks.size(); }
  BlockIndex entry() const { return 0; }
  const CfgBlock &block(BlockIndex B) const { return Blocks[B]; }
  const std::vector<CfgBlock> &blocks() const { return Blocks; }
  bool isReachable(BlockIndex B) const { return RpoIndex[B] != NoBlock; }
  /// Reachable blocks in reverse postorder.
  const std::vector<BlockIndex> &rpo() const { return Rpo; }
  /// Position of \p B in rpo(), NoBlock if unreachable.
  uint32_t rpoIndex(BlockIndex B) const { return RpoIndex[B]; }
  /// True if Pred -> Succ is a back edge (Succ precedes Pred in RPO or is
  /// Pred itself). Both blocks must be reachable.
  bool isBackEdge(BlockIndex Pred, BlockIndex Succ) const {
    return RpoIndex[Succ] <= RpoIndex[Pred];
  }
  /// Index of the block with label \p Label, NoBlock if none.
  BlockIndex indexOfLabel(uint32_t Label) const;

private:
  std::vector<CfgBlock> Blocks;
  std::vector<BlockIndex> Rpo;
  std::vector<uint32_t> RpoIndex;
};

/// Builds the CFG of \p F. Fails with a diagnostic if a branch targets a
/// label that is not a block of \p F, or a merge instruction names one.
llvm::Expected<Cfg> buildCfg(const Module &M, const Function &F);

} // namespace spirv2llvm::cfg

#endif
