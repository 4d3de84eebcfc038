//===- WorkgroupFunction.h - One function per workgroup ----------*- C++
//-*-===//
//
// The translator emits one function per SIMD group (abi.h: W invocations,
// one call each). A compute dispatch would call it once per group and, at
// a barrier, switch between the groups as fibers (Compute.cpp). Before
// compiling a compute shader, the runtime instead builds a work-group
// function, as PoCL does for OpenCL kernels:
//
//   void <entry>_workgroup(const s2l_group_args *proto)
//
// runs every SIMD group of one workgroup. \p proto holds what the groups
// share (workgroup id, resources, shared memory, the cancel flag); the
// function sets the per-group fields itself (lane mask, first local index,
// subgroup id) from constants, with the entry inlined, so that:
//
//  - work that is uniform across the workgroup (descriptor loads, push
//    constants, the workgroup's base index) is computed once, out of the
//    loop over groups, by LLVM's LICM;
//  - built-ins are stepped from the loop counter instead of recomputed
//    from memory, and full groups run with the constant full mask: only
//    the last group of a workgroup whose size is not a multiple of W is
//    masked (its own copy of the body).
//
// With barriers, the body is split at each barrier into regions run for
// every group before the next: the loop over groups resumes each group
// where it stopped (a per-group state number, as a switch-lowered
// coroutine does), values live across a barrier are spilled to per-group
// slots, and private variables get one copy per group. Since each group
// follows its own control flow, this is exactly the fiber semantics
// (barriers in loops, early returns), with no stack switch. As Vulkan has
// barriers in workgroup-uniform control flow, each region then gets a
// loop of its own (run once each, in order, when no barrier is in a
// loop), and small regions one copy per group with the group's index
// constant (WorkgroupFunctionShape).
//
// What this cannot express falls back to fibers: a barrier inside a
// function that is not inlined, or per-group private memory beyond a
// budget (the fibers' stacks are 256 KiB each; the work-group function's
// copies live on the worker's stack).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_WORKGROUPFUNCTION_H
#define SPIRV2LLVM_RUNTIME_WORKGROUPFUNCTION_H

#include "llvm/IR/Module.h"

#include <cstdint>
#include <string>

namespace spirv2llvm {

/// The metadata kind that marks the call of args->barrier at a workgroup
/// OpControlBarrier (codegen/common/ComputeOps.cpp sets it).
inline constexpr const char *BarrierMetadata = "s2l.barrier";

/// The metadata kind that marks the load of the cancel flag at a loop's
/// back edge (codegen/simd/SimdEmitter.cpp sets it).
inline constexpr const char *CancelMetadata = "s2l.cancel";

/// The name of \p Entry's work-group function.
std::string workgroupFunctionName(llvm::StringRef Entry);

/// Whether work-group functions are enabled (the hidden option
/// -s2l-workgroup-functions, on by default; off for A/B measurements).
bool workgroupFunctionsEnabled();

/// How a work-group function runs its groups (for tests and diagnostics).
struct WorkgroupFunctionShape {
  enum Form {
    /// One loop over the groups running the whole body (no barriers).
    Loop,
    /// Rounds over the groups, each group resuming where it stopped by a
    /// switch on its state (regions that could not get loops of their own).
    StateMachine,
    /// Rounds, each running one region's own loop over the groups (a
    /// barrier in a loop: the regions' order is only known at run time).
    RegionRounds,
    /// Each region's loop once, in order (no barrier in a loop).
    RegionSequence,
  };
  Form Kind = Loop;
  /// Barriers, each a point where groups resume.
  unsigned ResumePoints = 0;
  /// Regions unrolled over the groups (a copy per group).
  unsigned UnrolledRegions = 0;
};

/// Adds \p Entry's work-group function to \p M for SIMD groups of \p Width
/// lanes and workgroups of \p LocalSize invocations. Returns false, with
/// \p M unchanged, when the shader needs the fiber fallback (\p WhyNot
/// says why, for diagnostics and tests); \p Shape, if given, receives how
/// the function runs its groups.
bool buildWorkgroupFunction(llvm::Module &M, llvm::StringRef Entry,
                            unsigned Width, uint32_t LocalSize,
                            std::string *WhyNot = nullptr,
                            WorkgroupFunctionShape *Shape = nullptr);

} // namespace spirv2llvm

#endif
