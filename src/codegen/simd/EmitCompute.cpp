//===- EmitCompute.cpp - Compute built-ins, atomics, barriers -------------===//
//
// A SIMD group holds W consecutive LocalInvocationIndex values of one
// workgroup (the runtime never lets a group span two workgroups; lanes past
// the workgroup's end are inactive). Built-ins are computed from the group
// arguments (abi.h): lane i has LocalInvocationIndex first_local_index + i.
//
// Atomics run lane by lane in lane order, so lanes hitting one address see
// each other's updates and get distinct return values, as separate
// invocations would. A workgroup barrier calls back into the runtime, which
// switches to the workgroup's other SIMD groups (docs/compute.md).
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ComputeOps.h"
#include "codegen/common/ComputeReflection.h"
#include "codegen/simd/SimdEmitter.h"

#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

Value *SimdEmitter::argField(unsigned Index, Type *T, const Twine &Name) {
  return B.CreateLoad(T, B.CreateStructGEP(ArgsType, FS.ArgsPtr, Index), Name);
}

Value *SimdEmitter::laneIndices(Type *ElemTy) {
  SmallVector<Constant *, 16> Lanes;
  for (unsigned L = 0; L < W; ++L)
    Lanes.push_back(ConstantInt::get(ElemTy, L));
  return ConstantVector::get(Lanes);
}

bool SimdEmitter::isComputeBuiltIn(uint32_t Var) const {
  return isComputedBuiltIn(M, EP, Var);
}

void SimdEmitter::computeReflection() {
  ComputeReflection R = reflectCompute(M, EP, ML);
  for (const std::string &E : R.Errors)
    fail(E);
  Compute = R.Info;
  WorkgroupSize = R.Info.WorkgroupSize;
  WorkgroupOffsets = std::move(R.WorkgroupOffsets);
}

LaneValue SimdEmitter::computeBuiltIn(uint32_t Var) {
  auto BI = spv::BuiltIn(*M.decorationValue(Var, spv::Decoration::BuiltIn));
  Type *I32 = B.getInt32Ty();
  const unsigned X = WorkgroupSize[0], Y = WorkgroupSize[1],
                 Z = WorkgroupSize[2];
  auto Field3 = [&](unsigned Index, const char *Name) {
    Value *Arr = B.CreateStructGEP(ArgsType, FS.ArgsPtr, Index);
    LaneValue V;
    for (unsigned K = 0; K < 3; ++K)
      V.Comps.push_back(B.CreateLoad(
          I32, B.CreateConstInBoundsGEP2_32(ArrayType::get(I32, 3), Arr, 0, K),
          Twine(Name) + "." + Twine("xyz"[K])));
    return V;
  };
  auto Const = [&](uint32_t C) -> Value * { return B.getInt32(C); };
  Value *First = argField(9, I32, "first.index");
  // Lane i's LocalInvocationIndex.
  Value *Lanes = laneIndices(I32);
  // Their lane shapes (affine x when a group lies within one row) are the
  // lane-shape analysis's (LaneShape.h), which mirrors this code.
  Value *Index = B.CreateAdd(splat(First), Lanes, "local.index");
  auto LocalId = [&]() {
    LaneValue V;
    V.Varying = true;
    if (X % W == 0) {
      // A group lies within one row: x is consecutive, y and z uniform.
      Value *X0 = B.CreateURem(First, Const(X));
      Value *Lx = B.CreateAdd(splat(X0), Lanes, "local.x");
      V.Comps.push_back(Lx);
      V.Comps.push_back(
          splat(B.CreateURem(B.CreateUDiv(First, Const(X)), Const(Y))));
      V.Comps.push_back(splat(B.CreateUDiv(First, Const(X * Y))));
    } else {
      Value *SX = splat(Const(X));
      V.Comps.push_back(B.CreateURem(Index, SX, "local.x"));
      V.Comps.push_back(
          B.CreateURem(B.CreateUDiv(Index, SX), splat(Const(Y)), "local.y"));
      V.Comps.push_back(B.CreateUDiv(Index, splat(Const(X * Y)), "local.z"));
    }
    return V;
  };
  LaneValue R;
  switch (BI) {
  case spv::BuiltIn::LocalInvocationIndex:
    R.Varying = true;
    R.Comps.push_back(Index);
    return R;
  case spv::BuiltIn::LocalInvocationId:
    return LocalId();
  case spv::BuiltIn::WorkgroupId:
    return Field3(7, "workgroup.id");
  case spv::BuiltIn::NumWorkgroups:
    return Field3(8, "num.workgroups");
  case spv::BuiltIn::WorkgroupSize:
    for (unsigned K = 0; K < 3; ++K)
      R.Comps.push_back(Const(WorkgroupSize[K]));
    return R;
  case spv::BuiltIn::GlobalInvocationId: {
    LaneValue Wg = Field3(7, "workgroup.id");
    LaneValue L = LocalId();
    R.Varying = true;
    for (unsigned K = 0; K < 3; ++K) {
      Value *Base = B.CreateMul(Wg.Comps[K], Const(WorkgroupSize[K]));
      Value *G = B.CreateAdd(splat(Base), L.Comps[K],
                             Twine("global.") + Twine("xyz"[K]));
      R.Comps.push_back(G);
    }
    return R;
  }
  case spv::BuiltIn::SubgroupSize:
    R.Comps.push_back(Const(W));
    return R;
  case spv::BuiltIn::SubgroupLocalInvocationId:
    R.Varying = true;
    R.Comps.push_back(Lanes);
    return R;
  case spv::BuiltIn::SubgroupId:
    R.Comps.push_back(argField(10, I32, "subgroup.id"));
    return R;
  case spv::BuiltIn::SubgroupEqMask:
  case spv::BuiltIn::SubgroupGeMask:
  case spv::BuiltIn::SubgroupGtMask:
  case spv::BuiltIn::SubgroupLeMask:
  case spv::BuiltIn::SubgroupLtMask: {
    // Bit L of lane L's mask, and the bits at or above / below it, limited
    // to the W lanes; only the first 32-bit word can have bits (W <= 16).
    Value *One = splat(Const(1));
    Value *Bit = B.CreateShl(One, Lanes);
    Value *Below = B.CreateSub(Bit, One);
    Value *All = splat(Const((1u << W) - 1));
    Value *Word;
    switch (BI) {
    case spv::BuiltIn::SubgroupEqMask:
      Word = Bit;
      break;
    case spv::BuiltIn::SubgroupGeMask:
      Word = B.CreateAnd(B.CreateNot(Below), All);
      break;
    case spv::BuiltIn::SubgroupGtMask:
      Word = B.CreateAnd(B.CreateNot(B.CreateOr(Below, Bit)), All);
      break;
    case spv::BuiltIn::SubgroupLeMask:
      Word = B.CreateOr(Below, Bit);
      break;
    default:
      Word = Below;
      break;
    }
    // uvec4 in Vulkan; the KHR extension's 64-bit forms take the low word.
    R.Varying = true;
    const auto &Comps = components(M.findVariable(Var)->Pointee);
    for (size_t C = 0; C < Comps.size(); ++C) {
      Type *T = FixedVectorType::get(scalarType(Comps[C]), W);
      R.Comps.push_back(C == 0 ? B.CreateZExtOrTrunc(Word, T)
                               : Constant::getNullValue(T));
    }
    return R;
  }
  case spv::BuiltIn::NumSubgroups:
    R.Comps.push_back(Const((X * Y * Z + W - 1) / W));
    return R;
  default: {
    const char *N = builtInName(BI);
    fail(Twine("unsupported: built-in ") + (N ? N : "?") +
         " in compute shaders");
    for (const ScalarType &S : components(M.findVariable(Var)->Pointee))
      R.Comps.push_back(Constant::getNullValue(scalarType(S)));
    return R;
  }
  }
}

bool SimdEmitter::emitBarrier(const Instruction &I) {
  return emitBarrierInstruction(B, M, EP, I, ArgsType, FS.ArgsPtr);
}

bool SimdEmitter::emitAtomic(const Instruction &I) {
  using spv::Op;
  std::optional<AtomicOpKind> Kind = atomicOpKind(I.Opcode);
  if (!Kind)
    return false;
  const auto &RMW = Kind->RMW;
  const bool IsLoad = Kind->IsLoad, IsStore = Kind->IsStore,
             IsCmpXchg = Kind->IsCmpXchg, Delta = Kind->Unit;
  PointerValue P;
  if (!pointerOf(I.Operands[0], P))
    return true;
  if (!P.InMemory) {
    failAt(I, "atomics are only supported on buffer and workgroup memory");
    return true;
  }
  const std::vector<ScalarType> &Comps = components(P.Pointee);
  if (Comps.size() != 1 || Comps[0].Kind == ScalarKind::Float ||
      Comps[0].Kind == ScalarKind::Bool) {
    failAt(I, "atomics need a 32- or 64-bit integer");
    return true;
  }
  Type *T = scalarType(Comps[0]);
  uint32_t Bytes = Comps[0].bytes();

  // Operands per lane.
  LaneValue Value1, Value2;
  if (IsStore)
    Value1 = get(I.Operands[3]);
  else if (IsCmpXchg) {
    Value1 = get(I.Operands[4]); // new value
    Value2 = get(I.Operands[5]); // comparator
  } else if (RMW && !Delta)
    Value1 = get(I.Operands[3]);
  auto LaneOf = [&](const LaneValue &V, unsigned L) -> Value * {
    Value *C = V.Comps[0];
    return C->getType()->isVectorTy() ? B.CreateExtractElement(C, L) : C;
  };
  Value *InB = inBounds(P, P.Offset, Bytes);
  // A uniform offset gives one bound check for all lanes.
  if (InB && !InB->getType()->isVectorTy())
    InB = splat(InB);
  Value *Active = storeMask();
  if (InB)
    Active = B.CreateAnd(Active, InB);
  uint32_t Id = I.Result.value();
  bool ResultVarying = Id && isVarying(Id);
  Value *Result = ResultVarying ? Constant::getNullValue(FixedVectorType::get(T, W))
                                : Constant::getNullValue(T);
  // One conditional block per lane, in lane order.
  for (unsigned L = 0; L < W; ++L) {
    Value *On = B.CreateExtractElement(Active, L);
    BasicBlock *Do = BasicBlock::Create(Ctx, "atomic.lane", LF);
    BasicBlock *Done = BasicBlock::Create(Ctx, "atomic.next", LF);
    BasicBlock *From = B.GetInsertBlock();
    B.CreateCondBr(On, Do, Done);
    B.SetInsertPoint(Do);
    Value *Off = P.offsetVarying() ? B.CreateExtractElement(P.Offset, L)
                                   : P.Offset;
    Value *Base =
        P.LaneBase ? B.CreateExtractElement(P.LaneBase, L) : P.Base;
    Value *Addr = B.CreateGEP(B.getInt8Ty(), Base, Off);
    Value *R = nullptr;
    if (IsLoad) {
      LoadInst *Ld = B.CreateAlignedLoad(T, Addr, Align(Bytes));
      Ld->setAtomic(AtomicOrdering::SequentiallyConsistent);
      R = Ld;
    } else if (IsStore) {
      StoreInst *St = B.CreateAlignedStore(LaneOf(Value1, L), Addr, Align(Bytes));
      St->setAtomic(AtomicOrdering::SequentiallyConsistent);
    } else if (IsCmpXchg) {
      Value *Pair = B.CreateAtomicCmpXchg(
          Addr, LaneOf(Value2, L), LaneOf(Value1, L), Align(Bytes),
          AtomicOrdering::SequentiallyConsistent,
          AtomicOrdering::SequentiallyConsistent);
      R = B.CreateExtractValue(Pair, 0);
    } else {
      Value *V = Delta ? ConstantInt::get(T, 1) : LaneOf(Value1, L);
      R = B.CreateAtomicRMW(*RMW, Addr, V, Align(Bytes),
                            AtomicOrdering::SequentiallyConsistent);
    }
    BasicBlock *DoEnd = B.GetInsertBlock();
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
    if (R) {
      PHINode *Phi = B.CreatePHI(T, 2);
      Phi->addIncoming(R, DoEnd);
      Phi->addIncoming(Constant::getNullValue(T), From);
      if (ResultVarying) {
        Value *WithLane = B.CreateInsertElement(Result, Phi, L);
        Result = B.CreateSelect(On, WithLane, Result);
      } else {
        Result = B.CreateSelect(On, Phi, Result);
      }
    }
  }
  if (Id) {
    LaneValue V;
    V.Varying = ResultVarying;
    V.Comps.push_back(Result);
    set(Id, std::move(V));
  }
  return true;
}

} // namespace spirv2llvm::simd
