//===- EmitBuffers.cpp - Buffer, push-constant and workgroup memory -------===//
//
// Memory pointers are a uniform base address plus a byte offset. Each
// scalar of a loaded or stored value is one access, chosen by what is
// known about the lanes' offsets:
//   - one offset for all lanes: a scalar access;
//   - offsets base + lane * size of the scalar: one (masked) vector access;
//   - a whole vector or struct per lane, lanes' values consecutive: one
//     wide access and a shuffle for all its scalars (EmitInterleaved.cpp);
//   - anything else: a masked gather or scatter.
// Inactive lanes never touch memory: every vector access is masked by the
// current lane mask. With robust buffer access each lane's mask also
// requires the access to lie inside the buffer; out-of-bounds loads give
// zero and out-of-bounds stores do nothing.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

#include "parser/SpirvNames.h"

#include "llvm/Analysis/VectorUtils.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

namespace {
llvm::cl::opt<bool> NoUniformAffine(
    "s2l-no-uniform-affine", llvm::cl::Hidden,
    llvm::cl::desc("forget that vectors the lane-shape analysis calls "
                   "uniform are affine, and read one address per lane"));
} // namespace

bool trackUniformAffine() { return !NoUniformAffine; }

Value *SimdEmitter::laneAddresses(const PointerValue &P, Value *Off) {
  return B.CreateGEP(B.getInt8Ty(), P.LaneBase ? P.LaneBase : P.Base, Off);
}

std::optional<SimdEmitter::AffineInfo>
SimdEmitter::laneAffine(uint32_t Id, unsigned Comp, Value *V) {
  if (!V->getType()->isIntOrIntVectorTy())
    return std::nullopt;
  if (!V->getType()->isVectorTy())
    return AffineInfo{V, 0}; // held as a scalar: uniform
  LaneShape S = Lanes.shape(Id, Comp);
  if (S.isVarying())
    return std::nullopt;
  // The A/B switch: a vector the analysis calls uniform (ty, row * n) is
  // then taken as such only when it is a splat in this block.
  if (!S.stride() && !trackUniformAffine() && !getSplatValue(V))
    return std::nullopt;
  return AffineInfo{laneBase(V), S.stride()};
}

Value *SimdEmitter::laneBase(Value *V) {
  if (!V->getType()->isVectorTy())
    return V;
  if (auto *C = dyn_cast<llvm::Constant>(V))
    return C->getAggregateElement(0u);
  if (Value *S = getSplatValue(V))
    return S;
  // Entries of other blocks need not dominate this one.
  if (auto It = FS.LaneBases.find(V);
      It != FS.LaneBases.end() && It->second.second == FS.CurBlock)
    return It->second.first;
  // Lane 0 computes the same formula as the others whether or not it is
  // active (the analysis leaves out the values whose inactive lanes may
  // hold something else: phis, live-outs of divergent loops).
  Value *Base = nullptr;
  if (auto *BO = dyn_cast<BinaryOperator>(V);
      BO && !BO->isIntDivRem())
    Base = B.CreateBinOp(BO->getOpcode(), laneBase(BO->getOperand(0)),
                         laneBase(BO->getOperand(1)));
  else if (auto *CI = dyn_cast<CastInst>(V))
    Base = B.CreateCast(CI->getOpcode(), laneBase(CI->getOperand(0)),
                        CI->getDestTy()->getScalarType());
  else
    Base = B.CreateExtractElement(V, uint64_t(0));
  Base->setName(V->getName() + ".lane0");
  FS.LaneBases[V] = {Base, FS.CurBlock};
  return Base;
}

std::optional<SimdEmitter::AffineInfo>
SimdEmitter::offsetAffine(const PointerValue &P) {
  if (P.AffineBase)
    return AffineInfo{P.AffineBase, P.AffineStride};
  // A splat of a scalar is affine with stride 0.
  if (Value *S = getSplatValue(P.Offset))
    return AffineInfo{S, 0};
  return std::nullopt;
}

void SimdEmitter::createLaneMemory(const Variable &V) {
  // One copy per lane (see loadMemory).
  uint32_t Var = V.Id.value();
  uint64_t Size = std::max<uint64_t>(ML.sizeOf(V.Pointee), 4);
  AllocaInst *Mem = createSlot(ArrayType::get(B.getInt8Ty(), Size * W),
                               llvmName(Var) + ".mem");
  Mem->setAlignment(Align(16));
  PointerValue P;
  P.Var = Var;
  P.Pointee = V.Pointee;
  P.InMemory = true;
  P.Storage = V.Storage;
  P.Base = Mem;
  P.Size = B.getInt64(Size);
  P.Offset = B.getInt64(0);
  P.AffineBase = P.Offset;
  B.CreateMemSet(Mem, B.getInt8(0), Size * W, Align(16));
  if (V.Initializer && M.findConstant(V.Initializer.value())) {
    Value *Saved = FS.CurMask;
    FS.CurMask = Constant::getAllOnesValue(maskType());
    storeMemory(P, constantValue(V.Initializer.value()));
    FS.CurMask = Saved;
  }
  FS.Pointers[Var] = P;
}

void SimdEmitter::createMemoryVariables() {
  Type *Ptr = B.getPtrTy();
  Type *I64 = B.getInt64Ty();
  Value *Sets = nullptr, *Push = nullptr, *Wg = nullptr;
  for (ValueId Id : M.GlobalVariables) {
    const Variable &V = *M.findVariable(Id.value());
    PointerValue P;
    P.Var = Id.value();
    P.Pointee = V.Pointee;
    P.InMemory = true;
    P.Storage = V.Storage;
    P.Offset = B.getInt64(0);
    P.AffineBase = P.Offset;
    switch (V.Storage) {
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::Uniform: {
      if (!Sets)
        Sets = argField(4, Ptr, "descriptor.sets");
      if (M.type(V.Pointee).Kind != TypeKind::Struct) {
        // An array of blocks: a descriptor array (EmitDescriptorArrays.cpp).
        FS.Pointers[Id.value()] = descriptorArrayPointer(Id.value(), Sets);
        continue;
      }
      uint32_t Set =
          M.decorationValue(Id.value(), spv::Decoration::DescriptorSet)
              .value_or(0);
      uint32_t Binding =
          M.decorationValue(Id.value(), spv::Decoration::Binding).value_or(0);
      // The descriptor tables do not change while a shader runs: loads
      // from them are invariant, which lets LLVM hoist them out of the
      // runtime's loop over SIMD groups and recompute them instead of
      // keeping them across barriers (runtime/WorkgroupFunction.h).
      auto Invariant = [&](LoadInst *L) {
        L->setMetadata(LLVMContext::MD_invariant_load,
                       MDNode::get(B.getContext(), {}));
        return L;
      };
      Value *SetPtr = Invariant(B.CreateLoad(
          Ptr, B.CreateConstInBoundsGEP1_32(Ptr, Sets, Set), "set"));
      Type *DescTy = StructType::get(Ptr, I64);
      Value *Desc = B.CreateConstInBoundsGEP1_32(DescTy, SetPtr, Binding);
      P.Base = Invariant(B.CreateLoad(Ptr, B.CreateStructGEP(DescTy, Desc, 0),
                                      llvmName(Id.value()) + ".base"));
      P.Size = Invariant(B.CreateLoad(I64, B.CreateStructGEP(DescTy, Desc, 1),
                                      llvmName(Id.value()) + ".size"));
      break;
    }
    case spv::StorageClass::PushConstant:
      if (!Push)
        Push = argField(5, Ptr, "push.constants");
      P.Base = Push;
      P.Size = B.getInt64(Compute.PushConstantSize);
      break;
    case spv::StorageClass::Workgroup:
      if (!Wg)
        Wg = argField(6, Ptr, "workgroup.memory");
      P.Base = B.CreateConstInBoundsGEP1_32(
          B.getInt8Ty(), Wg, WorkgroupOffsets[Id.value()],
          llvmName(Id.value()));
      P.Size = B.getInt64(ML.sizeOf(V.Pointee));
      break;
    default:
      continue;
    }
    FS.Pointers[Id.value()] = P;
  }
  createOpaqueBindings(Sets);
}

void SimdEmitter::setPointer(uint32_t Id, PointerValue P) {
  if (P.InMemory && FS.Plan->CrossBlock.count(Id)) {
    // The offset is computed in this block; other blocks reload it.
    PointerSlotSet &S = FS.PointerSlots[Id];
    auto Save = [&](AllocaInst *&Slot, Value *V, const char *What) {
      if (!V)
        return;
      Slot = createSlot(V->getType(), llvmName(Id) + "." + What);
      B.CreateStore(V, Slot);
    };
    Save(S.Offset, P.Offset, "offset");
    Save(S.Affine, P.AffineBase, "abase");
    if (P.DynamicBase) {
      Save(S.Base, P.Base, "base");
      Save(S.Size, P.Size, "size");
      Save(S.LaneBase, P.LaneBase, "lbase");
      Save(S.LaneSize, P.LaneSize, "lsize");
    }
  }
  FS.Pointers[Id] = P;
  if (P.InMemory)
    FS.PointerDefBlock[Id] = FS.CurBlock;
}

Value *SimdEmitter::inBounds(const PointerValue &P, Value *Offset,
                             uint64_t Bytes) {
  // Workgroup memory is checked too: it is host memory shared by the
  // groups of a workgroup, and a wild index must not leave it.
  if ((!Opts.RobustBufferAccess && !P.ForceBounds) ||
      isPerInvocationStorage(P.Storage) || (!P.Size && !P.LaneSize))
    return nullptr;
  // Offset + Bytes <= Size, with offsets treated as signed so that negative
  // indices are out of bounds too.
  Value *Size = P.LaneSize ? P.LaneSize : P.Size;
  if (Size->getType()->isVectorTy())
    Offset = splat(Offset);
  Value *End = B.CreateAdd(Offset, ConstantInt::get(Offset->getType(), Bytes));
  if (Offset->getType()->isVectorTy())
    Size = splat(Size);
  Value *NonNeg =
      B.CreateICmpSGE(Offset, Constant::getNullValue(Offset->getType()));
  return B.CreateAnd(NonNeg, B.CreateICmpULE(End, Size), "in.bounds");
}

Value *SimdEmitter::clampToVariable(const PointerValue &P, Value *Offset,
                                    uint64_t Bytes) {
  // Unsigned minimum: negative offsets are huge and clamp too. The size is
  // a constant except in a callee's memory-pointer parameter.
  Value *Last;
  if (auto *C = dyn_cast<ConstantInt>(P.Size)) {
    Last = ConstantInt::get(Offset->getType(),
                            C->getZExtValue() -
                                std::min<uint64_t>(Bytes, C->getZExtValue()));
  } else {
    Value *Fits = B.CreateICmpUGE(P.Size, B.getInt64(Bytes));
    Last = B.CreateSelect(Fits, B.CreateSub(P.Size, B.getInt64(Bytes)),
                          B.getInt64(0));
    if (Offset->getType()->isVectorTy())
      Last = splat(Last);
  }
  return B.CreateBinaryIntrinsic(Intrinsic::umin, Offset, Last);
}

bool SimdEmitter::emitAccessChain(const Instruction &I) {
  PointerValue P;
  if (!pointerOf(I.Operands[0], P))
    return true;
  if (!P.InMemory)
    return false; // register pointers: EmitMemory.cpp
  if (P.Storage == spv::StorageClass::Input ||
      P.Storage == spv::StorageClass::Output)
    return interfaceAccessChain(I, P, 1);
  Type *I64 = B.getInt64Ty();
  bool IsPtrChain = I.Opcode == spv::Op::OpPtrAccessChain ||
                    I.Opcode == spv::Op::OpInBoundsPtrAccessChain;
  // Adds Index * Stride bytes to the offset, keeping it scalar while it
  // can be and, from the index's lane shape, tracking lane-affine offsets
  // (AffineBase/AffineStride: address arithmetic of this instruction).
  auto AddScaled = [&](uint32_t IndexId, uint64_t Stride) {
    LaneValue Idx = get(IndexId);
    Value *X = Idx.Comps[0];
    std::optional<AffineInfo> Af = laneAffine(IndexId, 0, X);
    // Indices are signed (a negative one is out of bounds, not huge).
    if (X->getType()->getScalarType() != I64)
      X = B.CreateSExtOrTrunc(X, X->getType()->isVectorTy()
                                     ? static_cast<Type *>(
                                           FixedVectorType::get(I64, W))
                                     : I64);
    Value *S = ConstantInt::get(X->getType(), Stride);
    Value *Term = B.CreateMul(X, S);
    Value *NewAffine = nullptr;
    int64_t NewStride = 0;
    if (P.AffineBase && Af) {
      Value *AB = B.CreateMul(B.CreateSExtOrTrunc(Af->Base, I64),
                              B.getInt64(Stride));
      NewAffine = B.CreateAdd(P.AffineBase, AB);
      NewStride = P.AffineStride + Af->Stride * int64_t(Stride);
    }
    if (Term->getType()->isVectorTy() && !P.offsetVarying())
      P.Offset = splat(P.Offset);
    else if (!Term->getType()->isVectorTy() && P.offsetVarying())
      Term = splat(Term);
    P.Offset = B.CreateAdd(P.Offset, Term);
    P.AffineBase = NewAffine;
    P.AffineStride = NewStride;
  };
  auto AddConst = [&](uint64_t Bytes) {
    if (!Bytes)
      return;
    P.Offset = B.CreateAdd(P.Offset, ConstantInt::get(P.Offset->getType(),
                                                      Bytes));
    if (P.AffineBase)
      P.AffineBase = B.CreateAdd(P.AffineBase, B.getInt64(Bytes));
  };
  size_t First = IsPtrChain ? 2 : 1;
  if (P.DescArray) {
    if (IsPtrChain || I.Operands.size() < 2) {
      failAt(I, "a descriptor array must be indexed by an access chain");
      return true;
    }
    size_t Used = indexDescriptorArray(I, 1, P);
    if (!Used)
      return true;
    First = 1 + Used;
  }
  ChainPosition Pos{P.Pointee, P.ML, P.VecStride};
  if (Error E = ML.walkChain(I, First, IsPtrChain, Pos, AddConst, AddScaled)) {
    failAt(I, toString(std::move(E)));
    return true;
  }
  P.ML = Pos.ML;
  P.VecStride = Pos.VecStride;
  P.Pointee = Pos.Pointee;
  setPointer(I.Result.value(), P);
  return true;
}

LaneValue SimdEmitter::loadMemory(const PointerValue &P, bool Varying) {
  if (P.Storage == spv::StorageClass::Input ||
      P.Storage == spv::StorageClass::Output)
    return loadInterfaceMemory(P, Varying);
  std::vector<ScalarSlot> Slots;
  LaneValue R;
  R.Varying = Varying || P.offsetVarying();
  if (P.DescArray) {
    fail("a whole descriptor array cannot be loaded or stored");
    for (const ScalarType &S : components(P.Pointee))
      R.Comps.push_back(PoisonValue::get(laneType(S, R.Varying)));
    return R;
  }
  if (Error E = ML.scalars(P.Pointee, P.ML, 0, Slots)) {
    fail(toString(std::move(E)));
    R.Comps.push_back(PoisonValue::get(B.getInt32Ty()));
    return R;
  }
  if (P.VecStride && M.type(P.Pointee).Kind == TypeKind::Vector)
    for (size_t K = 0; K < Slots.size(); ++K)
      Slots[K].Offset = K * P.VecStride;
  bool PerInvocation = isPerInvocationStorage(P.Storage);
  if (auto IA = interleavedAccess(P, Slots)) {
    SmallVector<Value *, 4> Masks;
    for (const ScalarSlot &S : Slots) {
      Value *Off = B.CreateAdd(P.Offset, ConstantInt::get(P.Offset->getType(),
                                                          S.Offset));
      Value *InB = inBounds(P, Off, S.Type.bytes());
      Masks.push_back(InB ? B.CreateAnd(FS.CurMask, InB) : FS.CurMask);
    }
    SmallVector<Value *, 4> Comps = loadInterleaved(*IA, Masks);
    for (size_t K = 0; K < Slots.size(); ++K)
      R.Comps.push_back(Slots[K].Type.Kind == ScalarKind::Bool
                            ? B.CreateICmpNE(Comps[K], Constant::getNullValue(
                                                           Comps[K]->getType()))
                            : Comps[K]);
    return coerce(std::move(R), Varying);
  }
  for (const ScalarSlot &S : Slots) {
    bool IsBool = S.Type.Kind == ScalarKind::Bool;
    Type *MemT = IsBool ? B.getInt32Ty() : scalarType(S.Type);
    uint32_t Bytes = S.Type.bytes();
    Value *Off = B.CreateAdd(P.Offset, ConstantInt::get(P.Offset->getType(),
                                                        S.Offset));
    Value *InB = inBounds(P, Off, Bytes);
    Value *X;
    if (PerInvocation) {
      // Each lane has its own copy: the scalar at logical offset o of lane
      // l is at o * W + l * size, so a uniform offset is one vector access.
      // Out-of-range indices are clamped: they must not reach the stack.
      Off = clampToVariable(P, Off, Bytes);
      Value *Phys = B.CreateMul(Off, ConstantInt::get(Off->getType(), W));
      if (!P.offsetVarying() && !R.Varying) {
        // A uniform value is in every active lane's copy, but lane 0 may
        // be off (its copy never written): read the first active lane's.
        Value *MaskBits = B.CreateBitCast(FS.CurMask, B.getIntNTy(W));
        Value *First = B.CreateAnd(
            B.CreateZExt(B.CreateBinaryIntrinsic(Intrinsic::cttz, MaskBits,
                                                 B.getFalse()),
                         Off->getType()),
            ConstantInt::get(Off->getType(), W - 1));
        Value *Lane = B.CreateMul(First, ConstantInt::get(Off->getType(), Bytes));
        X = B.CreateAlignedLoad(
            MemT, B.CreateGEP(B.getInt8Ty(), P.Base, B.CreateAdd(Phys, Lane)),
            Align(Bytes));
      } else if (!P.offsetVarying()) {
        Type *VT = FixedVectorType::get(MemT, W);
        X = B.CreateMaskedLoad(VT, B.CreateGEP(B.getInt8Ty(), P.Base, Phys),
                               Align(Bytes), FS.CurMask,
                               Constant::getNullValue(VT));
      } else {
        Type *VT = FixedVectorType::get(MemT, W);
        Value *Lane = B.CreateMul(laneIndices(B.getInt64Ty()),
                                  splat(B.getInt64(Bytes)));
        Value *Ptrs =
            B.CreateGEP(B.getInt8Ty(), P.Base, B.CreateAdd(Phys, Lane));
        X = B.CreateMaskedGather(VT, Ptrs, Align(Bytes), FS.CurMask,
                                 Constant::getNullValue(VT));
      }
    } else if (!P.offsetVarying()) {
      Value *Addr = B.CreateGEP(B.getInt8Ty(), P.Base, Off);
      if (InB) {
        // A one-lane masked load cannot fault when the mask is off.
        Type *V1 = FixedVectorType::get(MemT, 1);
        X = B.CreateMaskedLoad(V1, Addr, Align(Bytes),
                               B.CreateVectorSplat(1, InB),
                               Constant::getNullValue(V1));
        X = B.CreateExtractElement(X, uint64_t(0));
      } else {
        X = B.CreateAlignedLoad(MemT, Addr, Align(Bytes));
      }
      if (R.Varying)
        X = splat(X);
    } else {
      Type *VT = FixedVectorType::get(MemT, W);
      Value *Mask = InB ? B.CreateAnd(FS.CurMask, InB) : FS.CurMask;
      std::optional<AffineInfo> Af = offsetAffine(P);
      if (!P.LaneBase && Af && Af->Stride == int64_t(Bytes)) {
        Value *Addr = B.CreateGEP(
            B.getInt8Ty(), P.Base,
            B.CreateAdd(Af->Base, B.getInt64(S.Offset)));
        X = B.CreateMaskedLoad(VT, Addr, Align(Bytes), Mask,
                               Constant::getNullValue(VT));
      } else if (!P.LaneBase && Af && Af->Stride == 0 &&
                 trackUniformAffine()) {
        // Every lane reads one address: one element, read if some lane
        // is active (a masked load cannot fault when it is not).
        Value *Addr = B.CreateGEP(
            B.getInt8Ty(), P.Base,
            B.CreateAdd(Af->Base, B.getInt64(S.Offset)));
        Type *V1 = FixedVectorType::get(MemT, 1);
        X = B.CreateMaskedLoad(V1, Addr, Align(Bytes),
                               B.CreateVectorSplat(1, anyLane(Mask)),
                               Constant::getNullValue(V1));
        X = splat(B.CreateExtractElement(X, uint64_t(0)));
      } else {
        Value *Ptrs = laneAddresses(P, Off);
        X = B.CreateMaskedGather(VT, Ptrs, Align(Bytes), Mask,
                                 Constant::getNullValue(VT));
      }
    }
    if (IsBool)
      X = B.CreateICmpNE(X, Constant::getNullValue(X->getType()));
    R.Comps.push_back(X);
  }
  return coerce(std::move(R), Varying);
}

void SimdEmitter::storeMemory(const PointerValue &P, LaneValue V) {
  if (P.Storage == spv::StorageClass::Input ||
      P.Storage == spv::StorageClass::Output)
    return storeInterfaceMemory(P, std::move(V));
  std::vector<ScalarSlot> Slots;
  if (Error E = ML.scalars(P.Pointee, P.ML, 0, Slots)) {
    fail(toString(std::move(E)));
    return;
  }
  if (P.VecStride && M.type(P.Pointee).Kind == TypeKind::Vector)
    for (size_t K = 0; K < Slots.size(); ++K)
      Slots[K].Offset = K * P.VecStride;
  if (Slots.size() != V.Comps.size()) {
    fail("stored value does not match the pointer's type");
    return;
  }
  if (P.DescArray) {
    fail("a whole descriptor array cannot be loaded or stored");
    return;
  }
  bool PerInvocation = isPerInvocationStorage(P.Storage);
  if (auto IA = interleavedAccess(P, Slots)) {
    SmallVector<Value *, 4> Comps, Masks;
    Value *Mask = storeMask();
    for (size_t K = 0; K < Slots.size(); ++K) {
      Value *X = splat(V.Comps[K]);
      if (Slots[K].Type.Kind == ScalarKind::Bool)
        X = B.CreateZExt(X, FixedVectorType::get(B.getInt32Ty(), W));
      Comps.push_back(X);
      Value *Off = B.CreateAdd(P.Offset, ConstantInt::get(P.Offset->getType(),
                                                          Slots[K].Offset));
      Value *InB = inBounds(P, Off, Slots[K].Type.bytes());
      Masks.push_back(InB ? B.CreateAnd(Mask, InB) : Mask);
    }
    storeInterleaved(*IA, Comps, Masks);
    return;
  }
  for (size_t K = 0; K < Slots.size(); ++K) {
    const ScalarSlot &S = Slots[K];
    Value *X = V.Comps[K];
    bool IsBool = S.Type.Kind == ScalarKind::Bool;
    uint32_t Bytes = S.Type.bytes();
    Value *Off = B.CreateAdd(P.Offset, ConstantInt::get(P.Offset->getType(),
                                                        S.Offset));
    Value *InB = inBounds(P, Off, Bytes);
    if (PerInvocation) {
      // Lane copies as in loadMemory; only the current lanes are written.
      Off = clampToVariable(P, Off, Bytes);
      X = splat(X);
      if (IsBool)
        X = B.CreateZExt(X, FixedVectorType::get(B.getInt32Ty(), W));
      Value *Phys = B.CreateMul(Off, ConstantInt::get(Off->getType(), W));
      if (!P.offsetVarying()) {
        B.CreateMaskedStore(X, B.CreateGEP(B.getInt8Ty(), P.Base, Phys),
                            Align(Bytes), FS.CurMask);
      } else {
        Value *Lane = B.CreateMul(laneIndices(B.getInt64Ty()),
                                  splat(B.getInt64(Bytes)));
        Value *Ptrs =
            B.CreateGEP(B.getInt8Ty(), P.Base, B.CreateAdd(Phys, Lane));
        B.CreateMaskedScatter(X, Ptrs, Align(Bytes), FS.CurMask);
      }
      continue;
    }
    if (!P.offsetVarying() && !V.Varying && !FS.DemotedSlot) {
      // All active lanes write the same value to the same place.
      if (IsBool)
        X = B.CreateZExt(X, B.getInt32Ty());
      Value *Addr = B.CreateGEP(B.getInt8Ty(), P.Base, Off);
      if (InB)
        B.CreateMaskedStore(B.CreateVectorSplat(1, X), Addr, Align(Bytes),
                            B.CreateVectorSplat(1, InB));
      else
        B.CreateAlignedStore(X, Addr, Align(Bytes));
      continue;
    }
    X = splat(X);
    if (IsBool)
      X = B.CreateZExt(X, FixedVectorType::get(B.getInt32Ty(), W));
    Value *Mask = storeMask();
    if (InB)
      Mask = B.CreateAnd(Mask, P.offsetVarying() ? InB : splat(InB));
    std::optional<AffineInfo> Af =
        P.offsetVarying() ? offsetAffine(P) : std::nullopt;
    if (!P.LaneBase && Af && Af->Stride == int64_t(Bytes)) {
      Value *Addr = B.CreateGEP(B.getInt8Ty(), P.Base,
                                B.CreateAdd(Af->Base, B.getInt64(S.Offset)));
      B.CreateMaskedStore(X, Addr, Align(Bytes), Mask);
    } else {
      // Lanes writing one address: the highest active lane's value stays,
      // as the scatter writes in lane order.
      Value *Offs = P.offsetVarying() ? Off : splat(Off);
      Value *Ptrs = laneAddresses(P, Offs);
      B.CreateMaskedScatter(X, Ptrs, Align(Bytes), Mask);
    }
  }
}

} // namespace spirv2llvm::simd
