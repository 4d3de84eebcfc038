//===- Optimizer.h - Host target machine and LLVM pipelines -----*- C++ -*-===//
#ifndef SPIRV2LLVM_TARGET_OPTIMIZER_H
#define SPIRV2LLVM_TARGET_OPTIMIZER_H

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace spirv2llvm {

/// A target machine builder for the host CPU at \p OptLevel (0-3).
/// Initializes the native target on first use.
llvm::Expected<llvm::orc::JITTargetMachineBuilder>
hostMachineBuilder(unsigned OptLevel);

/// A TargetMachine for the host CPU (data layout, optimization, object
/// emission). Initializes the native target on first use.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(unsigned OptLevel);

/// The host's target triple and data layout string, from a target machine
/// made once (creating one per translation costs more than emitting IR
/// for a small shader). Empty if the host target cannot be created.
const std::string &hostTriple();
const std::string &hostDataLayout();

/// Whether the CPU the JIT generates code for has \p Feature (LLVM's name,
/// e.g. "avx2"): the host's, or -s2l-jit-cpu's when that is given.
bool jitTargetHasFeature(llvm::StringRef Feature);

/// The default SIMD width (4, 8 or 16 lanes) for the host: 16 with AVX-512
/// (one zmm register) and with AVX2 (two ymm registers, whose independent
/// halves hide latency), 4 otherwise.
unsigned hostSimdWidth();

/// Runs LLVM's default pipeline for \p OptLevel (1-3) on \p M; 0 does
/// nothing. \p Vectorize false turns the loop and SLP vectorizers off
/// (--backend=scalar/dxil output must stay free of vectors).
void optimizeModule(llvm::Module &M, unsigned OptLevel,
                    llvm::TargetMachine *TM, bool Vectorize = true);

/// Gives every floating-point add, subtract and multiply of \p M the
/// `contract` flag except those marked NoContraction
/// (support/Contraction.h), so that code generation fuses them into FMAs
/// where the host has them, as SPIR-V allows and lavapipe does. Returns how
/// many operations may now contract.
unsigned allowContraction(llvm::Module &M);

/// When a lowering for x86 hosts without some feature (BitScan.h,
/// MaskWidening.h) runs: its hidden option's auto / always (tests on hosts
/// that have the feature) / never (A/B measurements).
enum class LoweringMode { Auto, Always, Never };

/// The cl::values of a LoweringMode option; \p AutoDesc says when auto runs.
llvm::cl::ValuesClass loweringModeValues(const char *AutoDesc);

/// Whether a lowering in mode \p Mode runs on \p TM: with Auto, on x86
/// targets without \p Feature (e.g. "+avx512f").
bool loweringApplies(LoweringMode Mode, const llvm::TargetMachine &TM,
                     llvm::StringRef Feature);

/// Blocks in the largest function of \p M.
unsigned largestFunctionBlocks(const llvm::Module &M);

/// The JIT's pipeline for shaders whose largest function has more blocks
/// than this (-s2l-large-shader-blocks, default 2,000): LLVM's -O1/-O2
/// pipelines and their code generation grow faster than linearly there
/// (docs/performance.md, "JIT latency").
unsigned largeShaderBlocks();

/// The cheap pipeline for large shaders: EarlyCSE, InstCombine and
/// SimplifyCFG on each function (code generation then runs at -O0).
void optimizeLargeModule(llvm::Module &M, llvm::TargetMachine *TM);

} // namespace spirv2llvm

#endif
