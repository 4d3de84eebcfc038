//===- MaskWidening.h - Lane masks as full-width lanes ----------*- C++ -*-===//
//
// The SIMD back end keeps lane masks as <W x i1>. With AVX-512 these live
// in mask registers. Without it (AVX2), LLVM's x86 back end has no legal
// <8 x i1> or <16 x i1> type: it legalizes them as <8 x i16> and
// <16 x i8> in xmm registers. A compare's 32-bit result is packed down to
// that (vextracti128, vpackssdw, vpacksswb), logic runs on it, and every
// select widens it back (vpmovzx, vpslld) for its vblendvps; masks that
// cross blocks (phis, the loop masks) are always in the narrow form. In a
// masked loop these conversions sit on the loop-carried dependency chain:
// the switch bench shader's loop at W = 16 had about 80 of its 282
// instructions converting masks.
//
// This pass gives every mask a <W x i32> twin, all ones or all zeros per
// lane, and computes the mask logic (and, or, xor, selects, freezes, phis)
// on the twins: compares and other mask sources are sign-extended where
// they are made, and each other use (a select's condition, a masked access,
// the any-lane bitcast) gets `icmp slt twin, 0` just before it. The x86
// back end folds the sext into the compare (vpcmpeqd and vcmpps produce
// exactly that) and the icmp into the vblendvps, vmaskmov or vmovmskps
// that reads only the sign bits, so masks stay in ymm registers in the
// compare's own form.
//
// Runs last in the -O1..-O3 pipeline (optimizeModule), so that InstCombine
// does not fold the twins back, on x86 targets without AVX-512 and masks
// of at least 8 lanes only: <4 x i1> is legalized to <4 x i32> anyway, and
// mask registers need nothing.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TARGET_MASKWIDENING_H
#define SPIRV2LLVM_TARGET_MASKWIDENING_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace spirv2llvm {

/// Computes the mask logic of \p F on <W x i32> twins (see the file
/// comment). Returns whether anything changed.
bool widenMasks(llvm::Function &F);

/// Whether code for \p TM needs the rewrite: x86 without AVX-512, unless
/// the hidden -s2l-mask-widening=always|never says otherwise.
bool needsMaskWidening(const llvm::TargetMachine &TM);

struct MaskWideningPass : llvm::PassInfoMixin<MaskWideningPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &);
};

} // namespace spirv2llvm

#endif
