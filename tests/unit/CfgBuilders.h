//===- CfgBuilders.h - Hand-built CFGs for the cfg unit tests ---*- C++ -*-===//
//
// makeCfg({blk(10, {11}), loop(11, {12, 19}, 19, 13), ...}) builds a Cfg
// from blocks named by label; the terminator follows from the successor
// count unless given.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_UNIT_CFGBUILDERS_H
#define SPIRV2LLVM_TESTS_UNIT_CFGBUILDERS_H

#include "cfg/Cfg.h"

#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <optional>
#include <string>
#include <vector>

namespace spirv2llvm::cfg::testing {

struct BlockSpec {
  BlockSpec(uint32_t Label, std::vector<uint32_t> Succs,
            MergeKind Merge = MergeKind::None, uint32_t MergeLabel = 0,
            uint32_t ContinueLabel = 0,
            std::optional<TerminatorKind> Terminator = std::nullopt)
      : Label(Label), Succs(std::move(Succs)), Merge(Merge),
        MergeLabel(MergeLabel), ContinueLabel(ContinueLabel),
        Terminator(Terminator) {}

  uint32_t Label;
  std::vector<uint32_t> Succs; ///< labels
  MergeKind Merge;
  uint32_t MergeLabel;                      ///< 0: none
  uint32_t ContinueLabel;                   ///< 0: none
  std::optional<TerminatorKind> Terminator; ///< default: from Succs
};

inline BlockSpec blk(uint32_t L, std::vector<uint32_t> S) { return {L, S}; }
inline BlockSpec ret(uint32_t L) { return {L, {}}; }
inline BlockSpec sel(uint32_t L, std::vector<uint32_t> S, uint32_t M) {
  return {L, S, MergeKind::Selection, M};
}
inline BlockSpec loop(uint32_t L, std::vector<uint32_t> S, uint32_t M,
                      uint32_t C) {
  return {L, S, MergeKind::Loop, M, C};
}

/// Labels become block indices in list order; the terminator defaults to
/// what the successor count suggests; blocks listed in \p Unreachable end
/// in OpUnreachable.
inline Cfg makeCfg(const std::vector<BlockSpec> &Specs,
                   std::vector<uint32_t> Unreachable = {}) {
  auto Index = [&](uint32_t Label) {
    for (BlockIndex I = 0; I < Specs.size(); ++I)
      if (Specs[I].Label == Label)
        return I;
    return NoBlock;
  };
  std::vector<CfgBlock> Blocks;
  for (const BlockSpec &S : Specs) {
    CfgBlock B;
    B.Label = S.Label;
    B.Name = std::to_string(S.Label);
    for (uint32_t L : S.Succs)
      B.Succs.push_back(Index(L));
    B.Terminator = S.Terminator          ? *S.Terminator
                   : S.Succs.empty()     ? TerminatorKind::Return
                   : S.Succs.size() == 1 ? TerminatorKind::Branch
                                         : TerminatorKind::BranchConditional;
    if (llvm::is_contained(Unreachable, S.Label))
      B.Terminator = TerminatorKind::Unreachable;
    B.Merge = S.Merge;
    if (S.MergeLabel)
      B.MergeBlock = Index(S.MergeLabel);
    if (S.ContinueLabel)
      B.ContinueTarget = Index(S.ContinueLabel);
    Blocks.push_back(std::move(B));
  }
  return Cfg(std::move(Blocks));
}

/// The design document's example: a loop (%18) holding a selection (%26).
inline Cfg kazanCfg() {
  return makeCfg({blk(15, {18}), loop(18, {26, 25}, 25, 21),
                  sel(26, {30, 21}, 21), blk(30, {21}), blk(21, {18}),
                  ret(25)});
}

using Labels = std::vector<uint32_t>;

inline Labels labels(const Cfg &G, const std::vector<BlockIndex> &Bs) {
  Labels Out;
  for (BlockIndex B : Bs)
    Out.push_back(G.block(B).Label);
  return Out;
}

/// Runs \p Fn on a thread with a 128 KiB stack: recursion over thousands of
/// blocks or nested loops would overflow it.
template <typename FnT> void runWithSmallStack(FnT Fn) {
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setstacksize(&Attr, 128 * 1024);
  pthread_t Thread;
  auto Thunk = [](void *P) -> void * {
    (*static_cast<FnT *>(P))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&Thread, &Attr, Thunk, &Fn), 0);
  pthread_join(Thread, nullptr);
  pthread_attr_destroy(&Attr);
}

} // namespace spirv2llvm::cfg::testing

#endif
