//===- EmissionPlan.h - Decisions made before SIMD emission ----*- C++ -*-===//
//
// Everything the SIMD back end must know about a module before it writes a
// single LLVM instruction, computed by one analysis over the SPIR-V and the
// CFG/uniformity results and returned as a result object: which functions
// become LLVM functions and how they pass parameters (the call ABI), which
// variables must live in lane memory because an index into them is not a
// constant, which values cross blocks (and so need slots), which of those
// leave a divergent loop (and so are stored under the lane mask), and
// whether a fragment shader needs helper lanes. Emission then only reads
// it (tests/unit/EmissionPlanTest.cpp checks each decision).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_SIMD_EMISSIONPLAN_H
#define SPIRV2LLVM_CODEGEN_SIMD_EMISSIONPLAN_H

#include "cfg/FunctionAnalysis.h"
#include "parser/Module.h"
#include "uniformity/Uniformity.h"

#include "llvm/Support/Error.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace spirv2llvm::simd {

/// How a callee receives a parameter.
enum class ParamAbi {
  Value,           ///< its components, as <W x T>
  RegisterPointer, ///< a pointer per component of the pointee's <W x T> slots
  MemoryPointer,   ///< base, size in bytes and <W x i64> byte offset
};

/// The plan of one function the entry point reaches.
struct FunctionPlan {
  /// Result id -> the block defining it.
  std::unordered_map<uint32_t, cfg::BlockIndex> DefBlockOf;
  /// Values used in a block other than their own (a phi's operand counts as
  /// used in its predecessor): they travel through slots.
  std::unordered_set<uint32_t> CrossBlock;
  /// Cross-block values defined inside a divergent loop: stored under the
  /// block's mask, so a lane that left keeps its last value.
  std::unordered_set<uint32_t> MaskedLiveOut;
  /// The function (or one it calls) kills invocations.
  bool MayKill = false;
  /// It calls a function that may kill invocations.
  bool CallsKiller = false;
  /// Parameter ABIs, in order (callees only).
  std::vector<ParamAbi> Params;
};

struct EmissionPlan {
  /// Index of the entry function in Module::Functions.
  uint32_t EntryFn = 0;
  /// Reachable functions other than the entry point, callees first.
  std::vector<uint32_t> CalleeOrder;
  /// Every reachable function, the entry point included.
  std::unordered_map<uint32_t, FunctionPlan> Functions;
  /// Function/Private variables some access chain indexes dynamically (or
  /// passed to a parameter that is): they live in lane memory.
  std::unordered_set<uint32_t> DynamicallyIndexed;
  /// Pointer parameters that need the memory ABI.
  std::unordered_set<uint32_t> MemoryParams;
  /// Private variables in the environment table callees read, in order
  /// (entries 0 and 1 are the killed and demoted masks); EnvIndex is each
  /// one's first entry, EnvSize the table's length.
  std::vector<uint32_t> EnvVars;
  std::unordered_map<uint32_t, unsigned> EnvIndex;
  unsigned EnvSize = 2;
  /// A reachable function demotes lanes to helpers (or helpers exist).
  bool HasDemote = false;
  /// Fragment shaders whose results depend on neighbours in the quad
  /// (derivatives, quad operations, helper queries) run every lane of a
  /// quad that has an active lane; the others as helpers.
  bool NeedsHelpers = false;

  const FunctionPlan &function(uint32_t Fn) const { return Functions.at(Fn); }
  bool isCallee(uint32_t Fn) const {
    return Fn != EntryFn && Functions.count(Fn);
  }
};

/// Plans the emission of entry point \p EP. Fails on recursion, on calls
/// of things that are not functions and on argument counts that do not
/// match, naming the instruction.
llvm::Expected<EmissionPlan> planEmission(const Module &M, const EntryPoint &EP,
                                          const cfg::ModuleAnalysis &MA,
                                          const UniformityInfo &UI);

} // namespace spirv2llvm::simd

#endif
