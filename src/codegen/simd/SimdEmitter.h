//===- SimdEmitter.h - Per-emission state of the SIMD back end --*- C++ -*-===//
//
// Translates one entry point so that one call runs W invocations.
//
// Values are lists of scalar components (a vec3 is 3, a mat4 16, a struct
// its flattened members). A Uniform value's components are scalars; a
// Varying value's are <W x T> (structure of arrays). Mixing splats.
//
// Control flow becomes masked straight-line code and loops that run while
// any lane continues (Linearizer.h); this class widens the instructions
// inside a block, under the block's lane mask.
//
// Masks, values used outside their block and phis live in allocas during
// emission; mem2reg turns them into SSA at the end, which also places the
// phis that skipped blocks need. Values live out of a divergent loop are
// stored under the block's mask, so a lane that left keeps its last value.
//
// Calls that canonicalization did not inline (--no-inline,
// --no-canonicalize) become LLVM functions taking the lane mask
// (EmitCall.cpp). Subgroup operations work on the W lanes of a call, which
// is one subgroup (EmitSubgroup.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_SIMDEMITTER_H
#define SPIRV2LLVM_CODEGEN_SIMDEMITTER_H

#include "codegen/Codegen.h"
#include "codegen/common/ImageInstr.h"
#include "codegen/common/MemoryLayout.h"
#include "codegen/simd/EmissionPlan.h"
#include "uniformity/LaneShape.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace spirv2llvm::simd {

/// \p V in each of \p W lanes (itself when already a vector).
llvm::Value *splatLanes(llvm::IRBuilder<> &B, unsigned W, llvm::Value *V);

/// A SPIR-V value as LLVM components.
struct LaneValue {
  llvm::SmallVector<llvm::Value *, 4> Comps;
  bool Varying = false;
};

/// A pointer. Register pointers (Function, Private, Input, Output
/// variables held as one slot per component) are a root variable and a
/// first component. Memory pointers (buffers, push constants, workgroup
/// memory) are a uniform base address plus a byte offset that is a scalar
/// or, when lanes differ, <W x i64>; when the lanes' offsets are known to
/// be base + lane * stride, AffineBase/AffineStride say so, which lets
/// consecutive lanes use one vector access. (Access chains derive them from
/// the lane shapes of their indices, LaneShape.h: address arithmetic inside
/// the emitter, not a SPIR-V value's shape.)
struct PointerValue {
  uint32_t Var = 0;
  uint32_t FirstComp = 0;
  TypeId Pointee;

  bool InMemory = false;
  spv::StorageClass Storage = spv::StorageClass::Function;
  llvm::Value *Base = nullptr;   ///< ptr, uniform
  llvm::Value *Size = nullptr;   ///< i64 bytes valid from Base (robust access)
  llvm::Value *Offset = nullptr; ///< i64 or <W x i64>
  llvm::Value *AffineBase = nullptr; ///< i64: lane 0's offset, if affine
  int64_t AffineStride = 0;
  MatrixLayout ML{};            ///< layout of a matrix pointee
  uint64_t VecStride = 0;        ///< component stride of a vector pointee
  /// Per-lane bases (<W x ptr>) and sizes (<W x i64>, null: unchecked) when
  /// lanes point into different buffers: an element of a descriptor array
  /// picked by a varying index, or a varying PhysicalStorageBuffer pointer.
  /// Base is then unused and Offset always <W x i64>.
  llvm::Value *LaneBase = nullptr;
  llvm::Value *LaneSize = nullptr;
  /// Bounds-check every access even without robust buffer access (elements
  /// of descriptor arrays: an index past the array reads zero).
  bool ForceBounds = false;
  /// Base/Size/LaneBase/LaneSize were computed in some block rather than
  /// the entry: other blocks reload them from slots, like the offset.
  bool DynamicBase = false;
  /// An arrayed binding before its element is chosen: the array of
  /// s2l_descriptor and its element count (i64).
  llvm::Value *DescArray = nullptr;
  llvm::Value *DescCount = nullptr;
  bool offsetVarying() const { return Offset->getType()->isVectorTy(); }
};

/// Slots carrying a memory pointer's parts to the blocks that use it.
struct PointerSlotSet {
  llvm::AllocaInst *Offset = nullptr, *Affine = nullptr, *Base = nullptr,
                   *Size = nullptr, *LaneBase = nullptr, *LaneSize = nullptr;
};

/// A register variable's component: a pointer to a scalar (Uniform
/// contents) or <W x T> (Varying). Usually an alloca; in a callee, a
/// pointer the caller passed.
struct VarSlot {
  llvm::Value *Ptr;
  llvm::Type *Ty;
};

/// Whether vectors the lane-shape analysis calls uniform (stride 0) count
/// as affine, and an access at an offset with stride 0 (every lane at one
/// address) reads one element instead of gathering; off only for A/B
/// measurements (-s2l-no-uniform-affine, which s2l-bench accepts).
bool trackUniformAffine();

class SimdEmitter {
public:
  SimdEmitter(const Module &M, const EntryPoint &EP,
              const cfg::ModuleAnalysis &MA, const UniformityInfo &UI,
              const CodegenOptions &Opts, llvm::LLVMContext &Ctx);

  llvm::Expected<CodegenResult> run();

private:
  // --- set-up (SimdEmitter.cpp) -------------------------------------------
  void createEntryFunction();
  /// Makes \p Fun, the LLVM function of SPIR-V function \p FnIndex, the
  /// current one, with a fresh FunctionState.
  void beginFunction(uint32_t FnIndex, llvm::Function *Fun);
  /// Slots, variables and the body of the current function, then its end
  /// and the promotion of its slots to SSA values.
  void emitFunction();
  llvm::AllocaInst *createSlot(llvm::Type *T, const llvm::Twine &Name);
  void finishFunction();
  void promoteSlots();

  // --- values and types (SimdValues.cpp) ----------------------------------
  /// The flattened scalar components of a type (cached).
  const std::vector<ScalarType> &components(TypeId T);
  llvm::Type *scalarType(const ScalarType &S);
  llvm::Type *laneType(const ScalarType &S, bool Varying);
  llvm::VectorType *maskType();
  llvm::Value *splat(llvm::Value *V);
  /// Splats a uniform value's components when \p Varying is set.
  LaneValue coerce(LaneValue V, bool Varying);
  /// Components of a constant (always uniform).
  LaneValue constantValue(uint32_t Id);
  /// The value of \p Id in the current block.
  LaneValue get(uint32_t Id);
  /// Defines \p Id in the current block (and its slot if used elsewhere).
  void set(uint32_t Id, LaneValue V);
  bool isVarying(uint32_t Id) const {
    return UI.value(Id) == Uniformity::Varying;
  }
  /// The name of \p Id's values in the IR ("x", "id_12"); empty when the
  /// context discards value names, which spares computing it.
  std::string llvmName(uint32_t Id) const;
  /// llvmName() even when value names are discarded: for functions and
  /// globals, whose names the context keeps.
  std::string globalName(uint32_t Id) const;
  llvm::Value *anyLane(llvm::Value *Mask);
  /// Records the first error; emission continues with poison values.
  void fail(const llvm::Twine &Msg);
  void failAt(const Instruction &I, const llvm::Twine &Msg);

  // --- calls (EmitCall.cpp) ------------------------------------------------
  /// Declares the LLVM functions of the callees, with the plan's ABIs.
  void declareCallees();
  void emitCallee(uint32_t FnIndex);
  bool emitCall(const Instruction &I);
  /// Entry function: the table of pointers callees find the killed mask and
  /// the Private variables in. Callee: reads it.
  void createEnvironment();
  void loadEnvironment();
  /// The mask of lanes a uniform block runs with.
  llvm::Value *uniformBlockMask();
  /// The lanes whose stores to memory shared with the host or the group
  /// take effect: the current ones, less any demoted to helpers.
  llvm::Value *storeMask();

  // --- control flow (Linearizer.cpp owns masks, phis and terminators) ----
  friend class Linearizer;
  /// OpDemoteToHelperInvocation and OpIsHelperInvocationEXT.
  bool emitHelperInvocation(const Instruction &I);
  /// Uniform blocks run with all lanes of the call or none.
  bool isUniformBlock(cfg::BlockIndex Bk) const {
    return UI.block(Fn, Bk) != Uniformity::Varying;
  }

  // --- instructions (EmitInstruction.cpp is the one opcode dispatch) ------
  void emitInstruction(const Instruction &I);
  bool emitArithmetic(const Instruction &I);
  /// OpBitcast between types of different component counts.
  LaneValue bitcastRepacked(const LaneValue &X,
                            const std::vector<ScalarType> &To, bool Varying);
  /// OpExtInst of GLSL.std.450 (EmitGlslStd450.cpp); false after a
  /// diagnostic.
  bool emitGlslStd450(const Instruction &I);
  /// One GLSL.std.450 instruction, its forms' methods (EmitGlslStd450.cpp).
  struct GlslCall;
  bool emitComposite(const Instruction &I);
  bool emitMatrix(const Instruction &I);
  bool emitBitwise(const Instruction &I);
  bool emitSubgroup(const Instruction &I);
  /// OpDPdx/OpDPdy/OpFwidth and their Fine and Coarse forms
  /// (EmitDerivative.cpp).
  bool emitDerivative(const Instruction &I);
  bool emitMemory(const Instruction &I);
  // --- images and samplers (EmitImage.cpp) ---------------------------------
  bool emitImage(const Instruction &I);
  /// OpSampledImage, OpImage, OpImageSparseTexelsResident,
  /// OpImageTexelPointer and the OpenCL queries; false for the others.
  bool emitImageHandleOp(const Instruction &I);
  bool emitImageTexelPointer(const Instruction &I);
  /// Reads and writes of storage images of a declared format, inline.
  bool emitInlineStorageAccess(const Instruction &I, const ImageInstr &D);
  /// A subpass load's coordinate: \p Coord (an offset) plus each lane's
  /// FragCoord.xy truncated; false (and a failure) outside fragment shaders.
  bool addSubpassPosition(const Instruction &I, LaneValue &Coord);
  /// A sample that may run inline (EmitInlineSample.cpp): when the
  /// instruction qualifies, emits the descriptor check, the inline path
  /// (ending in FastEnd, which branches to Join, its result in Comps) and
  /// leaves the builder at the start of the fallback; else Join is null.
  struct InlineSample {
    llvm::BasicBlock *FastEnd = nullptr, *Join = nullptr;
    llvm::SmallVector<llvm::Value *, 4> Comps;
  };
  InlineSample emitInlineSample(const ImageInstr &D, const LaneValue &Handle,
                                const LaneValue &Coord);
  /// The same for OpImageFetch of an RGBA8 2D image at a uniform level.
  InlineSample emitInlineFetch(const ImageInstr &D, const LaneValue &Handle,
                               const LaneValue &Coord);
  bool isOpaqueRef(uint32_t Ptr) const;
  /// The OpaqueRefs of the UniformConstant variables, at function entry.
  void createOpaqueBindings(llvm::Value *&Sets);
  /// OpAccessChain / OpLoad of an OpaqueRef.
  bool emitOpaqueMemory(const Instruction &I);
  LaneValue loadOpaque(const Instruction &I, uint32_t Ptr);
  /// Emits \p Body once per lane of \p Mask, in a loop (\p Lane: i32).
  void forEachLane(llvm::Value *Mask,
                   llvm::function_ref<void(llvm::Value *Lane)> Body);

  // --- memory (EmitMemory.cpp: registers, EmitBuffers.cpp: memory) --------
  // --- dynamically indexed interface variables (EmitInterface.cpp) --------
  /// Continues access chain \p I from operand \p FirstIndex on as a packed
  /// interface-memory pointer (P is a register or such a pointer).
  bool interfaceAccessChain(const Instruction &I, PointerValue P,
                            size_t FirstIndex);
  llvm::Value *interfaceAddresses(const PointerValue &P, uint64_t Comp,
                                  uint32_t S, bool &PerLane);
  LaneValue loadInterfaceMemory(const PointerValue &P, bool Varying);
  void storeInterfaceMemory(const PointerValue &P, LaneValue V);

  void createVariables();
  void createMemoryVariables();
  /// Lane-interleaved memory for a dynamically indexed Function or Private
  /// variable.
  void createLaneMemory(const Variable &V);
  bool emitAccessChain(const Instruction &I);
  LaneValue loadMemory(const PointerValue &P, bool Varying);
  void storeMemory(const PointerValue &P, LaneValue V);
  /// Per-lane in-bounds mask of an access of \p Bytes at \p Offset
  /// (nullptr when robust access is off).
  llvm::Value *inBounds(const PointerValue &P, llvm::Value *Offset,
                        uint64_t Bytes);
  /// \p Offset clamped so an access of \p Bytes stays inside the
  /// per-invocation variable \p P.
  llvm::Value *clampToVariable(const PointerValue &P, llvm::Value *Offset,
                               uint64_t Bytes);
  /// Records the pointer \p Id and, if used in other blocks, its offsets.
  void setPointer(uint32_t Id, PointerValue P);
  void emitPointerCompare(const Instruction &I);
  /// OpSelect of two memory pointers (variable pointers;
  /// EmitPointerSelect.cpp).
  bool emitPointerSelect(const Instruction &I);
  /// Lane i's value is Base + i * Stride (Base: lane 0's, a scalar).
  struct AffineInfo {
    llvm::Value *Base;
    int64_t Stride;
  };
  /// Component \p Comp of SPIR-V value \p Id, emitted as \p V, when the
  /// lane-shape analysis (Lanes) finds it uniform or affine: its stride,
  /// and lane 0's value as Base (laneBase).
  std::optional<AffineInfo> laneAffine(uint32_t Id, unsigned Comp,
                                       llvm::Value *V);
  /// Lane 0 of the integer vector \p V as a scalar: the lane-0 values
  /// FunctionState::LaneBases knows, and scalar arithmetic and casts over
  /// them, else element 0 (which the optimizer folds into the scalar a
  /// vector was computed from, except through the phis of values crossing
  /// blocks).
  llvm::Value *laneBase(llvm::Value *V);
  /// The lanes' byte offsets of a memory pointer with a varying offset,
  /// when known: AffineBase/AffineStride, or a splat (stride 0).
  std::optional<AffineInfo> offsetAffine(const PointerValue &P);

  // --- lane-strided accesses as wide ones (EmitInterleaved.cpp) -----------
  /// A value of same-typed scalars per lane, lanes Stride bytes apart.
  struct InterleavedAccess {
    llvm::Type *MemT;              ///< scalar type in memory
    unsigned PerLane;              ///< Stride / size of the scalar
    llvm::SmallVector<unsigned, 4> Position; ///< slot -> element in a lane
    llvm::Value *Addr;             ///< lane 0's first element
    llvm::Align Align;
  };
  /// The wide access for \p Slots at \p P, if lanes' values are
  /// consecutive in memory and dense enough.
  std::optional<InterleavedAccess>
  interleavedAccess(const PointerValue &P,
                    const std::vector<ScalarSlot> &Slots);
  /// The wide access's element mask from each slot's lane mask.
  llvm::Value *interleavedMask(const InterleavedAccess &IA,
                               llvm::ArrayRef<llvm::Value *> SlotMasks);
  llvm::SmallVector<llvm::Value *, 4>
  loadInterleaved(const InterleavedAccess &IA,
                  llvm::ArrayRef<llvm::Value *> SlotMasks);
  void storeInterleaved(const InterleavedAccess &IA,
                        llvm::ArrayRef<llvm::Value *> Comps,
                        llvm::ArrayRef<llvm::Value *> SlotMasks);
  llvm::Value *laneIndices(llvm::Type *ElemTy);

  // --- descriptor arrays and physical pointers -----------------------------
  // (EmitDescriptorArrays.cpp, EmitPhysicalPointers.cpp)
  /// The pointer for an arrayed binding (set, binding) before indexing.
  PointerValue descriptorArrayPointer(uint32_t Var, llvm::Value *Sets);
  /// Picks the element of descriptor array \p P (in place) that the
  /// indices of access chain \p I from operand \p First select (one per
  /// array dimension); returns how many it used, 0 after a diagnostic.
  size_t indexDescriptorArray(const Instruction &I, size_t First,
                              PointerValue &P);
  /// Whether \p T is a pointer type in PhysicalStorageBuffer.
  bool isPhysicalPointerType(TypeId T) const;
  /// A memory pointer for the PhysicalStorageBuffer pointer value \p Id.
  bool physicalPointerOf(uint32_t Id, PointerValue &P);
  /// The 64-bit address (i64 or <W x i64>) \p P points to.
  llvm::Value *addressOf(const PointerValue &P);
  /// OpConvertUToPtr, OpConvertPtrToU and pointer OpBitcast; false if
  /// \p I is none of them.
  bool emitPhysicalPointer(const Instruction &I);
  /// The gather/scatter addresses of a varying access at \p Off.
  llvm::Value *laneAddresses(const PointerValue &P, llvm::Value *Off);

  // --- compute (EmitCompute.cpp) -------------------------------------------
  bool isComputeBuiltIn(uint32_t Var) const;
  LaneValue computeBuiltIn(uint32_t Var);
  bool emitAtomic(const Instruction &I);
  bool emitBarrier(const Instruction &I);
  /// OpEmitVertex, OpEndPrimitive and their stream-0 forms
  /// (EmitGeometry.cpp).
  bool emitGeometry(const Instruction &I);
  void computeReflection();
  void computeWorkgroupSize();
  void reflectResources();
  llvm::Value *argField(unsigned Index, llvm::Type *T, const llvm::Twine &Name);
  bool pointerOf(uint32_t Id, PointerValue &P);
  LaneValue load(const PointerValue &P, bool Varying);
  void store(const PointerValue &P, LaneValue V);
  /// Address of lane 0 of component \p Comp of interface variable \p Var.
  llvm::Value *interfaceAddress(uint32_t Var, uint32_t Comp);

  const Module &M;
  const EntryPoint &EP;
  const cfg::ModuleAnalysis &MA;
  const UniformityInfo &UI;
  /// Uniform / affine / varying lanes of integer values (computed in run()
  /// for this width and workgroup size).
  LaneShapeInfo Lanes;
  CodegenOptions Opts;
  llvm::LLVMContext &Ctx;
  unsigned W;

  std::unique_ptr<llvm::Module> LM;
  InterfaceLayout Layout;
  llvm::IRBuilder<> B;
  llvm::StructType *ArgsType = nullptr;
  /// i1: the host has not asked to cancel (read at loop back edges).
  llvm::Value *notCancelled();

  /// Decided before emission (EmissionPlan.h).
  EmissionPlan Plan;
  /// The LLVM function of each callee.
  std::unordered_map<uint32_t, llvm::Function *> CalleeFns;

  /// The function being emitted (beginFunction).
  uint32_t Fn = 0;
  const Function *F = nullptr;
  const cfg::FunctionAnalysis *A = nullptr;
  llvm::Function *LF = nullptr;

  /// Everything that belongs to one LLVM function: made anew for each
  /// (beginFunction), so nothing is reset by hand.
  struct FunctionState {
    const FunctionPlan *Plan = nullptr;
    llvm::BasicBlock *AllocaBB = nullptr;
    llvm::Value *EntryMask = nullptr;
    llvm::Value *InputsPtr = nullptr;
    llvm::Value *OutputsPtr = nullptr;
    llvm::Value *ArgsPtr = nullptr;
    llvm::Value *EnvPtr = nullptr;
    /// s2l_group_args::cancel, never null (see createEntryFunction).
    llvm::Value *CancelPtr = nullptr;
    llvm::Value *KilledSlot = nullptr;
    /// Lanes demoted to helper invocations (only if the module demotes).
    llvm::Value *DemotedSlot = nullptr;
    /// Slots of values used in other blocks (FunctionPlan::CrossBlock).
    std::unordered_map<uint32_t, llvm::SmallVector<llvm::AllocaInst *, 4>>
        ValueSlots;
    std::unordered_map<uint32_t, llvm::SmallVector<VarSlot, 4>> VarSlots;
    /// Value parameters of the current callee.
    std::unordered_map<uint32_t, LaneValue> ParamValues;
    /// Return value accumulator of the current callee (one per component).
    llvm::SmallVector<llvm::AllocaInst *, 4> RetSlots;
    std::unordered_map<uint32_t, PointerValue> Pointers;
    std::unordered_map<uint32_t, OpaqueRef> OpaqueRefs;
    /// Memory pointers used in other blocks: offset (and base) slots.
    std::unordered_map<uint32_t, PointerSlotSet> PointerSlots;
    std::unordered_map<uint32_t, cfg::BlockIndex> PointerDefBlock;
    /// Lane 0's value (a scalar) of vectors of block CurBlock: those of
    /// uniform or affine values crossing blocks are reloaded from
    /// LaneBaseSlots, so that a use in another block does not extract
    /// element 0 from a vector phi, which the optimizer does not fold. (The
    /// stride is the lane-shape analysis's; this is only the base.)
    llvm::DenseMap<llvm::Value *, std::pair<llvm::Value *, cfg::BlockIndex>>
        LaneBases;
    /// Per cross-block value: per component, the slot of its lane-0 scalar
    /// (null for varying components).
    std::unordered_map<uint32_t, llvm::SmallVector<llvm::AllocaInst *, 1>>
        LaneBaseSlots;
    /// Values defined or loaded in the current block.
    std::unordered_map<uint32_t, LaneValue> Local;
    cfg::BlockIndex CurBlock = cfg::NoBlock;
    /// The current block runs without an any-lane guard (speculated), so
    /// its mask may be empty.
    bool CurUnguarded = false;
    llvm::Value *CurMask = nullptr;
  };
  FunctionState FS;

  ImageRuntime ImageRT; ///< declared at the first image instruction
  std::unordered_map<uint32_t, std::vector<ScalarType>> ComponentCache;
  MemoryLayout ML;
  ComputeInfo Compute;
  std::array<uint32_t, 3> WorkgroupSize = {1, 1, 1};
  std::unordered_map<uint32_t, uint32_t> WorkgroupOffsets; ///< var -> byte

  llvm::Error Err = llvm::Error::success();
  bool Failed = false;
};

} // namespace spirv2llvm::simd

#endif
