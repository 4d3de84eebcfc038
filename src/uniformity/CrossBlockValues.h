//===- CrossBlockValues.h - Values carried between blocks -------*- C++ -*-===//
//
// The SIMD back end keeps a value used outside its own block in a slot
// (docs/backends.md); one defined inside a divergent loop is stored there
// under the block's mask, so each lane keeps the value of the last
// iteration it ran and lanes may hold different iterations' values. The
// emission plan needs both sets; the lane-shape analysis needs the second
// (such values are not affine). One walk serves both.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_UNIFORMITY_CROSSBLOCKVALUES_H
#define SPIRV2LLVM_UNIFORMITY_CROSSBLOCKVALUES_H

#include "uniformity/Uniformity.h"

#include <unordered_map>
#include <unordered_set>

namespace spirv2llvm {

struct CrossBlockValues {
  /// Result id -> the block defining it.
  std::unordered_map<uint32_t, cfg::BlockIndex> DefBlock;
  /// Values used in a block other than their own (a phi's operand counts as
  /// used at the end of its predecessor, where the edge code runs).
  std::unordered_set<uint32_t> CrossBlock;
  /// Cross-block values defined inside a divergent loop.
  std::unordered_set<uint32_t> MaskedLiveOut;
};

/// Whether block \p Bk of function \p Fn lies inside a divergent loop.
bool inDivergentLoop(const cfg::FunctionAnalysis &A, const UniformityInfo &UI,
                     uint32_t Fn, cfg::BlockIndex Bk);

/// The cross-block values of function \p Fn (analysis \p A).
CrossBlockValues crossBlockValues(const Module &M,
                                  const cfg::FunctionAnalysis &A,
                                  const UniformityInfo &UI, uint32_t Fn);

} // namespace spirv2llvm

#endif
