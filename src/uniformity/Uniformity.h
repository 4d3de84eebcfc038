//===- Uniformity.h - Constant/Uniform/Varying classification ---*- C++ -*-===//
//
// A fixed point in the style of sparse conditional constant propagation
// over the lattice Constant (top) > Uniform > Varying (bottom), for values,
// variables (memory locations) and blocks of the functions reachable from
// one entry point. "Uniform" means equal in every lane of one SIMD group;
// lanes of a group share a workgroup (compute) or a 2x2 quad of one
// primitive (fragment).
//
// Rules (DESIGN.md, "Uniformity"):
//  - constants are Constant (specialization constants Uniform); an
//    instruction is the meet of its operands, but at best Uniform: results
//    are not folded, so only OpCopyObject of a constant and OpUndef stay
//    Constant;
//  - a load is the meet of its address and, for per-invocation memory
//    (Function, Private, Input, Output), the contents of its variable;
//    memory shared by the group is read at one address by all lanes in
//    lockstep, so only the address counts;
//  - a store of a Varying value, through a Varying address or in a Varying
//    block makes its (per-invocation) variable Varying;
//  - a branch is Varying when its condition is; a block is Varying when it
//    is control dependent on a Varying branch or on a Varying block
//    (iterated control dependence through the post-dominator tree);
//  - a phi is Varying where divergent paths join: an incoming edge comes
//    from a Varying branch, or from a block that depends on a Varying branch
//    the phi's block does not depend on (a sync dependence, approximated
//    with control-dependence sets as in Karrenberg and Hack, "Whole-Function
//    Vectorization", CGO 2011);
//  - a loop is divergent when lanes may leave it in different iterations
//    (an exit or return taken under a Varying branch inside the loop); a
//    value defined in a divergent loop and used after it is Varying
//    (temporal divergence).
//  - calls, function parameters, atomics and derivatives are Varying; a
//    store to a Private variable in a function called from a Varying block
//    makes the variable Varying;
//  - subgroup operations whose result every active lane shares (votes,
//    broadcasts, ballots, Reduce group operations, the KHR ballot and vote
//    forms) are Uniform whatever their operands, since the subgroup is the
//    SIMD group (Mesa's nir_divergence_analysis does the same); ballot bit
//    extracts, counts and finds are the meet of their operands; elect,
//    inverse ballot, shuffles, quad operations, scans and clustered
//    reductions are Varying. The rule of each opcode is a column of the
//    opcode table (parser/OpcodeTable.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_UNIFORMITY_UNIFORMITY_H
#define SPIRV2LLVM_UNIFORMITY_UNIFORMITY_H

#include "cfg/FunctionAnalysis.h"
#include "parser/Module.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace spirv2llvm {

/// Lattice elements, top first; meet is max().
enum class Uniformity : uint8_t { Constant = 0, Uniform = 1, Varying = 2 };

const char *uniformityName(Uniformity U);

inline Uniformity meet(Uniformity A, Uniformity B) { return std::max(A, B); }

/// Storage that each invocation has its own copy of. Loads from it take the
/// uniformity of the variable's contents.
bool isPerInvocationStorage(spv::StorageClass SC);

class UniformityInfo {
public:
  /// Uniformity of a value: constants, instruction results (for pointers:
  /// the address), and for variables the uniformity of their contents.
  Uniformity value(uint32_t Id) const {
    return Id < Values.size() ? Values[Id] : Uniformity::Varying;
  }
  bool isUniform(ValueId Id) const {
    return value(Id.value()) != Uniformity::Varying;
  }
  /// Contents of variable \p Var.
  Uniformity variable(ValueId Var) const { return value(Var.value()); }
  /// Address uniformity of a pointer value (variables: Uniform).
  Uniformity address(uint32_t Ptr) const {
    return Ptr < Addresses.size() ? Addresses[Ptr] : Uniformity::Varying;
  }
  /// Whether the values computed in this info cover id \p Id.
  bool has(uint32_t Id) const { return Id < Has.size() && Has[Id]; }

  /// Block \p B of function \p Fn (index into Module::Functions).
  Uniformity block(uint32_t Fn, cfg::BlockIndex B) const {
    return Functions[Fn].Blocks[B];
  }
  /// Whether the terminator of \p B branches on a Varying condition to at
  /// least two distinct blocks.
  bool isVaryingBranch(uint32_t Fn, cfg::BlockIndex B) const {
    return Functions[Fn].VaryingBranch[B];
  }
  /// Whether lanes may leave the loop headed by \p Header in different
  /// iterations.
  bool isDivergentLoop(uint32_t Fn, cfg::BlockIndex Header) const {
    return Functions[Fn].DivergentLoop[Header];
  }
  /// Whether the phis of \p B join divergent paths.
  bool isDivergentJoin(uint32_t Fn, cfg::BlockIndex B) const {
    return Functions[Fn].DivergentJoin[B];
  }

  /// Which functions were analyzed (reachable from the entry point).
  bool isAnalyzed(uint32_t Fn) const { return Functions[Fn].Analyzed; }

  struct FunctionInfo {
    bool Analyzed = false;
    std::vector<Uniformity> Blocks;
    std::vector<bool> VaryingBranch;
    std::vector<bool> DivergentLoop;
    std::vector<bool> DivergentJoin;
    /// Some call of this function runs with lanes off that were on at the
    /// entry point's start (in a Varying block, or from a function so
    /// called): its stores to Private variables then differ per lane.
    bool CalledDivergently = false;
  };
  std::vector<Uniformity> Values;
  std::vector<Uniformity> Addresses;
  std::vector<bool> Has;
  std::vector<FunctionInfo> Functions;
};

/// Runs the analysis for entry point \p EP over the functions it reaches.
UniformityInfo computeUniformity(const Module &M, const EntryPoint &EP,
                                 const cfg::ModuleAnalysis &MA);

class LaneShapeInfo;

/// Prints, per analyzed function, the document's two Markdown tables:
/// `| Variable | Uniformity |` (module constants and global variables in
/// module order, then the function's results by ascending id) and
/// `| Basic Block | Uniformity |` (reachable blocks by ascending id); with
/// \p Lanes, a third, `| Value | Lanes |`, of the Varying values whose lanes
/// are nonetheless uniform or affine (LaneShape.h), by ascending id, one
/// shape per component (omitted when there are none).
void printUniformity(const Module &M, const cfg::ModuleAnalysis &MA,
                     const UniformityInfo &UI, llvm::raw_ostream &OS,
                     const LaneShapeInfo *Lanes = nullptr);

} // namespace spirv2llvm

#endif
