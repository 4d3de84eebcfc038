//===- BitScan.h - Vector ctlz/cttz through the float exponent --*- C++ -*-===//
//
// findMSB and findLSB become llvm.ctlz / llvm.cttz on <W x i32>. With
// AVX-512 CD these are vplzcntd; with AVX2 LLVM expands them with nibble
// tables: 19 instructions for ctlz of 8 lanes, about 14 for cttz (through
// a population count). The bits bench shader runs both every round of one
// serial chain.
//
// The float exponent does it in about 6: for cttz, x & -x is 0 or a power
// of two, which converts to float exactly, and its exponent is the bit
// index. For ctlz, y = x & ~(x >> 1) keeps x's top bit and has no two
// adjacent bits set below it, so converting y to float never rounds up to
// the next power of two: its exponent is the index t of x's top bit, and
// ctlz = 31 - t. The conversion is signed (vcvtdq2ps): x with bit 31 set
// has ctlz 0 (a blend on x's sign), and x & -x = 2^31 converts to -2^31,
// whose exponent field is still 31 + 127. Zero inputs give 32 unless the
// intrinsic says the result is poison for them.
//
// Runs last in the -O1..-O3 pipeline, on x86 targets without AVX-512 CD.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TARGET_BITSCAN_H
#define SPIRV2LLVM_TARGET_BITSCAN_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace spirv2llvm {

/// Rewrites the <N x i32> ctlz and cttz calls of \p F (see the file
/// comment). Returns whether anything changed.
bool lowerBitScans(llvm::Function &F);

/// Whether code for \p TM gains from the rewrite: x86 without AVX-512 CD,
/// unless the hidden -s2l-bit-scan=always|never says otherwise.
bool needsBitScanLowering(const llvm::TargetMachine &TM);

struct BitScanPass : llvm::PassInfoMixin<BitScanPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &);
};

} // namespace spirv2llvm

#endif
