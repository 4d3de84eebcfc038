// DXIL-shaped lowering passes (LLVM new pass manager), usable on any module.
// See docs/dxil-passes.md.
#pragma once

namespace llvm {
class PassBuilder;
class Module;
} // namespace llvm

namespace spirv2llvm {

/// Registers dxil-scalarizer, dxil-data-scalarization, dxil-flatten-arrays,
/// dxil-op-lower and dxil-native-vectors by name with PB.
void registerDxilPasses(llvm::PassBuilder &PB);

enum class DxilPipeline { Scalar, Dxil, DxilNativeVectors };

/// Runs the pipeline on M: Scalar = function(dxil-scalarizer);
/// Dxil = Scalar + dxil-data-scalarization, dxil-flatten-arrays, dxil-op-lower;
/// DxilNativeVectors = dxil-native-vectors (+ flatten-arrays, op-lower as the seed says).
void runDxilPipeline(llvm::Module &M, DxilPipeline P);

} // namespace spirv2llvm
