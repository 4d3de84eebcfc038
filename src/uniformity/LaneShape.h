//===- LaneShape.h - Uniform / affine / varying lanes -----------*- C++ -*-===//
//
// The vector shapes of RV (Moll and Hack, "Partial Control-Flow
// Linearization", PLDI 2018) for the SIMD back end: per component of an
// integer value (scalar or vector, and PhysicalStorageBuffer addresses),
//   - uniform: every lane of the SIMD group holds the same value;
//   - affine(S): lane i holds Base + i * S (S != 0), Base being lane 0's;
//   - varying: nothing known.
// The SIMD emitter turns a buffer access at an affine index whose stride is
// the element size into one vector load or store instead of a gather, and
// a uniform one into a scalar access (EmitBuffers.cpp, EmitInterleaved.cpp).
//
// Sources: values the uniformity analysis calls Constant or Uniform are
// uniform; the built-ins the runtime numbers by lane (docs/compute.md: a
// SIMD group holds W consecutive LocalInvocationIndex values of one
// workgroup) are affine: LocalInvocationIndex and
// SubgroupLocalInvocationId always (stride 1); LocalInvocationId and
// GlobalInvocationId only when the workgroup's x size is a multiple of W,
// so that a group lies within one row: x has stride 1, y and z are uniform.
// Otherwise they are varying: x wraps inside the group.
//
// Transfer: the AffineRule column of the opcode table (parser/OpcodeTable.h)
// says how an opcode combines its operands' shapes (strides add under
// OpIAdd, scale by a constant under OpIMul and OpShiftLeftLogical, ...).
// Everything else is varying, and so is, conservatively:
//   - every OpPhi (per-edge selects join lanes from different paths);
//   - a value defined inside a divergent loop and used in another block: the
//     emitter keeps, per lane, the value of the last iteration the lane ran,
//     so lanes (lane 0 in particular) may come from different iterations;
//   - function parameters and call results.
// A value is defined before its uses except through phis, so one pass in
// reverse post-order per function suffices (no fixed point).
//
// Limitation: strides are taken modulo nothing: an affine index is assumed
// not to wrap around its integer width within one group (the emitter
// widens Base, not each lane, to 64 bits), as integer conversions keep the
// stride. Strides beyond 32 bits are varying.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_UNIFORMITY_LANESHAPE_H
#define SPIRV2LLVM_UNIFORMITY_LANESHAPE_H

#include "uniformity/Uniformity.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <string>
#include <unordered_map>

namespace spirv2llvm {

enum class LaneShapeKind : uint8_t { Uniform, Affine, Varying };

/// The shape of one component.
struct LaneShape {
  LaneShapeKind Kind = LaneShapeKind::Varying;
  int64_t Stride = 0; ///< Affine: lane i - lane 0 = i * Stride, never 0

  static LaneShape uniform() { return {LaneShapeKind::Uniform, 0}; }
  static LaneShape varying() { return {}; }
  /// Affine with stride \p S; uniform for S == 0.
  static LaneShape affine(int64_t S) {
    return S ? LaneShape{LaneShapeKind::Affine, S} : uniform();
  }
  bool isVarying() const { return Kind == LaneShapeKind::Varying; }
  /// Uniform or affine: lane i is lane 0 + i * stride().
  bool isStrided() const { return !isVarying(); }
  int64_t stride() const { return Kind == LaneShapeKind::Affine ? Stride : 0; }
  bool operator==(const LaneShape &O) const {
    return Kind == O.Kind && Stride == O.Stride;
  }
};

/// "uniform", "affine(4)" or "varying".
std::string laneShapeName(LaneShape S);

struct LaneShapeOptions {
  /// Lanes of one SIMD group (CodegenOptions::Width).
  unsigned Width = 8;
};

class LaneShapeInfo {
public:
  /// The shape of component \p Comp of value \p Id: uniform for constants
  /// and for values the uniformity analysis calls uniform; varying for
  /// values of other types and ids it does not know.
  LaneShape shape(uint32_t Id, unsigned Comp = 0) const;
  /// The shapes this analysis computed for \p Id (a Varying value of an
  /// integer scalar or vector type or a PhysicalStorageBuffer pointer), one
  /// per component; null when it computed none (all varying, or not such a
  /// value).
  const llvm::SmallVectorImpl<LaneShape> *computed(uint32_t Id) const {
    auto It = Shapes.find(Id);
    return It == Shapes.end() ? nullptr : &It->second;
  }

  const UniformityInfo *UI = nullptr;
  /// Varying values with at least one non-varying component.
  std::unordered_map<uint32_t, llvm::SmallVector<LaneShape, 1>> Shapes;
};

/// Runs the analysis for entry point \p EP (the functions \p UI analyzed).
LaneShapeInfo computeLaneShapes(const Module &M, const EntryPoint &EP,
                                const cfg::ModuleAnalysis &MA,
                                const UniformityInfo &UI,
                                const LaneShapeOptions &Opts);

/// The workgroup size of a compute entry point as declared: LocalSize,
/// LocalSizeId, or a WorkgroupSize built-in constant, which wins over both;
/// {1, 1, 1} for other stages. Dimensions are as written (0 included).
std::array<uint32_t, 3> declaredWorkgroupSize(const Module &M,
                                              const EntryPoint &EP);

} // namespace spirv2llvm

#endif
