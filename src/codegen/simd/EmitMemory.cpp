//===- EmitMemory.cpp - Variables, access chains, loads and stores --------===//
//
// Per-invocation variables (Function, Private) are one alloca per scalar
// component: a scalar if the variable's contents are Uniform, <W x T> if
// Varying. Interface variables live in the caller's structure-of-arrays
// blocks (InterfaceLayout). A store writes only the lanes of the current
// mask: a select for allocas, a masked store for interface memory.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

void SimdEmitter::createVariables() {
  // Variables some access chain indexes dynamically live in memory
  // (createLaneMemory); the plan found them (EmissionPlan.h). The others are registers.
  auto Create = [&](const Variable &V) {
    if (Plan.DynamicallyIndexed.count(V.Id.value())) {
      createLaneMemory(V);
      return;
    }
    bool Varying = UI.variable(V.Id) == Uniformity::Varying;
    auto &Slots = FS.VarSlots[V.Id.value()];
    for (const ScalarType &S : components(V.Pointee)) {
      Type *T = laneType(S, Varying);
      Slots.push_back({createSlot(T, llvmName(V.Id.value())), T});
    }
    LaneValue Init;
    if (V.Initializer && M.findConstant(V.Initializer.value()))
      Init = coerce(constantValue(V.Initializer.value()), Varying);
    for (size_t C = 0; C < Slots.size(); ++C)
      B.CreateStore(C < Init.Comps.size()
                        ? Init.Comps[C]
                        : Constant::getNullValue(Slots[C].Ty),
                    Slots[C].Ptr);
    FS.Pointers[V.Id.value()] = PointerValue{V.Id.value(), 0, V.Pointee};
  };
  bool IsEntry = F->Id == EP.Function;
  for (ValueId Id : M.GlobalVariables) {
    const Variable &V = *M.findVariable(Id.value());
    switch (V.Storage) {
    case spv::StorageClass::Private:
      // The entry function owns Private variables; callees reach them
      // through the environment table (loadEnvironment).
      if (IsEntry)
        Create(V);
      break;
    case spv::StorageClass::Input:
    case spv::StorageClass::Output:
      if (Layout.find(Id.value()) || (V.Storage == spv::StorageClass::Input &&
                                      isComputeBuiltIn(Id.value())))
        FS.Pointers[Id.value()] = PointerValue{Id.value(), 0, V.Pointee};
      break;
    default:
      // Other storage classes are reported where they are used.
      break;
    }
  }
  for (const Block &Blk : F->Blocks)
    for (uint32_t Index : Blk.Insts)
      if (M.Insts[Index].Opcode == spv::Op::OpVariable)
        Create(*M.findVariable(M.Insts[Index].Result.value()));
}

bool SimdEmitter::pointerOf(uint32_t Id, PointerValue &P) {
  auto It = FS.Pointers.find(Id);
  if (It != FS.Pointers.end()) {
    P = It->second;
    auto D = FS.PointerDefBlock.find(Id);
    if (P.InMemory && D != FS.PointerDefBlock.end() &&
        D->second != FS.CurBlock) {
      // Unvalidated input may use a chain where its definition does not
      // dominate; its slot would then hold another path's offset.
      if (FS.CurBlock != cfg::NoBlock &&
          !A->DT.dominates(D->second, FS.CurBlock)) {
        fail("pointer " + M.friendlyName(Id) + " is used in block " +
             M.friendlyName(A->G.block(FS.CurBlock).Label) +
             ", which its definition in block " +
             M.friendlyName(A->G.block(D->second).Label) +
             " does not dominate");
        return false;
      }
      // Offsets computed in another block come back through their slots.
      auto S = FS.PointerSlots.find(Id);
      if (S == FS.PointerSlots.end() || !S->second.Offset) {
        fail("pointer " + M.friendlyName(Id) +
             " is used where it is not available");
        return false;
      }
      const PointerSlotSet &PS = S->second;
      auto Reload = [&](Value *&V, AllocaInst *Slot) {
        if (Slot)
          V = B.CreateLoad(Slot->getAllocatedType(), Slot);
      };
      Reload(P.Offset, PS.Offset);
      P.AffineBase = nullptr;
      if (PS.Affine)
        P.AffineBase = B.CreateLoad(B.getInt64Ty(), PS.Affine);
      if (P.DynamicBase) {
        Reload(P.Base, PS.Base);
        Reload(P.Size, PS.Size);
        Reload(P.LaneBase, PS.LaneBase);
        Reload(P.LaneSize, PS.LaneSize);
      }
    }
    return true;
  }
  if (isPhysicalPointerType(M.typeOf(Id)))
    return physicalPointerOf(Id, P);
  if (const Variable *V = M.findVariable(Id)) {
    const char *SC = storageClassName(V->Storage);
    std::string What;
    switch (V->Storage) {
    case spv::StorageClass::UniformConstant:
      What = "images, samplers and other opaque resources";
      break;
    case spv::StorageClass::Input:
    case spv::StorageClass::Output:
      What = "interface variables not listed in the entry point";
      break;
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::Uniform:
      What = "arrays of buffer blocks";
      break;
    default:
      What = "variables";
      break;
    }
    fail("unsupported: " + What + " (storage class " + (SC ? SC : "?") +
         ", variable " + M.friendlyName(Id) + ")");
    return false;
  }
  fail("unsupported: pointer " + M.friendlyName(Id) +
       " (not a variable or access chain the back end knows)");
  return false;
}

Value *SimdEmitter::interfaceAddress(uint32_t Var, uint32_t Comp) {
  const InterfaceVariable *IV = Layout.find(Var);
  bool In = IV->IsInput;
  return B.CreateConstInBoundsGEP1_32(B.getInt8Ty(),
                                      In ? FS.InputsPtr : FS.OutputsPtr,
                                      IV->ComponentOffsets[Comp]);
}

LaneValue SimdEmitter::load(const PointerValue &P, bool Varying) {
  const std::vector<ScalarType> &Comps = components(P.Pointee);
  // Null for a pointer parameter of a callee.
  const Variable *V = M.findVariable(P.Var);
  LaneValue R;
  R.Varying = Varying;
  if (P.InMemory)
    return loadMemory(P, Varying);
  if (V && V->Storage == spv::StorageClass::Input && isComputeBuiltIn(P.Var)) {
    LaneValue All = computeBuiltIn(P.Var);
    for (size_t C = 0; C < Comps.size() && P.FirstComp + C < All.Comps.size();
         ++C)
      R.Comps.push_back(All.Comps[P.FirstComp + C]);
    R.Varying = All.Varying;
    return coerce(std::move(R), Varying);
  }
  if (V && (V->Storage == spv::StorageClass::Input ||
            V->Storage == spv::StorageClass::Output)) {
    for (size_t C = 0; C < Comps.size(); ++C) {
      const ScalarType &S = Comps[C];
      Value *Addr = interfaceAddress(P.Var, P.FirstComp + C);
      // Booleans are 32-bit in interface memory.
      Type *MemT = S.Kind == ScalarKind::Bool ? B.getInt32Ty() : scalarType(S);
      Type *T = Varying ? FixedVectorType::get(MemT, W) : MemT;
      Value *X = B.CreateAlignedLoad(T, Addr, Align(S.bytes()));
      if (S.Kind == ScalarKind::Bool)
        X = B.CreateICmpNE(X, Constant::getNullValue(T));
      R.Comps.push_back(X);
    }
    return R;
  }
  auto &Slots = FS.VarSlots[P.Var];
  if (P.FirstComp + Comps.size() > Slots.size()) {
    // The variable's type has no component form (reported already).
    fail("variable " + M.friendlyName(P.Var) + " has a type that cannot be "
         "held in registers");
    for (const ScalarType &S : Comps)
      R.Comps.push_back(PoisonValue::get(laneType(S, Varying)));
    return R;
  }
  for (size_t C = 0; C < Comps.size(); ++C) {
    const VarSlot &Slot = Slots[P.FirstComp + C];
    R.Comps.push_back(B.CreateLoad(Slot.Ty, Slot.Ptr));
  }
  // The variable may be Uniform while this load is Varying (or the other way
  // round only for inconsistent input); coerce fixes both.
  bool SlotVarying = !Slots.empty() && Slots[0].Ty->isVectorTy();
  R.Varying = SlotVarying;
  return coerce(std::move(R), Varying);
}

void SimdEmitter::store(const PointerValue &P, LaneValue Val) {
  if (P.InMemory)
    return storeMemory(P, std::move(Val));
  const Variable *V = M.findVariable(P.Var);
  const std::vector<ScalarType> &Comps = components(P.Pointee);
  if (Val.Comps.size() != Comps.size()) {
    fail("stored value does not match the pointer's type");
    return;
  }
  if (V && V->Storage == spv::StorageClass::Input) {
    fail("store to Input variable " + M.friendlyName(P.Var));
    return;
  }
  if (V && V->Storage == spv::StorageClass::Output) {
    Val = coerce(std::move(Val), true);
    for (size_t C = 0; C < Comps.size(); ++C) {
      const ScalarType &S = Comps[C];
      Value *X = Val.Comps[C];
      if (S.Kind == ScalarKind::Bool)
        X = B.CreateZExt(X, FixedVectorType::get(B.getInt32Ty(), W));
      B.CreateMaskedStore(X, interfaceAddress(P.Var, P.FirstComp + C),
                          Align(S.bytes()), storeMask());
    }
    return;
  }
  auto &Slots = FS.VarSlots[P.Var];
  if (P.FirstComp + Comps.size() > Slots.size()) {
    fail("variable " + M.friendlyName(P.Var) + " has a type that cannot be "
         "held in registers");
    return;
  }
  if (Comps.empty())
    return; // nothing to store: an empty struct
  bool SlotVarying = Slots[0].Ty->isVectorTy();
  Val = coerce(std::move(Val), SlotVarying);
  for (size_t C = 0; C < Comps.size(); ++C) {
    const VarSlot &Slot = Slots[P.FirstComp + C];
    Value *X = Val.Comps[C];
    if (SlotVarying) {
      // Inactive lanes keep what they had.
      Value *Old = B.CreateLoad(Slot.Ty, Slot.Ptr);
      X = B.CreateSelect(FS.CurMask, X, Old);
    }
    B.CreateStore(X, Slot.Ptr);
  }
}

void SimdEmitter::emitPointerCompare(const Instruction &I) {
  // OpPtrEqual / OpPtrNotEqual. Memory pointers compare by address (base +
  // byte offset, per lane when either varies); register pointers (Function,
  // Private, ... variables) are equal when they name the same component of
  // the same variable; a null pointer (OpConstantNull) is address 0, which
  // no variable has.
  bool Equal = I.Opcode == spv::Op::OpPtrEqual;
  uint32_t Id = I.Result.value();
  Type *I64 = B.getInt64Ty();
  struct Side {
    bool Null = false;
    PointerValue P;
  } S[2];
  for (int K = 0; K < 2; ++K) {
    const spirv2llvm::Constant *C = M.findConstant(I.Operands[K]);
    if (C && C->Kind == ConstantKind::Null) {
      S[K].Null = true;
      continue;
    }
    if (!pointerOf(I.Operands[K], S[K].P))
      return;
  }
  auto Result = [&](Value *Same) {
    Value *R = Equal ? Same : B.CreateNot(Same);
    LaneValue V;
    V.Varying = R->getType()->isVectorTy();
    V.Comps.push_back(R);
    set(Id, coerce(std::move(V), isVarying(Id) || V.Varying));
  };
  auto Address = [&](const Side &X) -> Value * {
    if (X.Null)
      return ConstantInt::get(I64, 0);
    Value *Base = X.P.LaneBase ? X.P.LaneBase : X.P.Base;
    Value *Int = Base->getType()->isVectorTy()
                     ? B.CreatePtrToInt(Base, FixedVectorType::get(I64, W))
                     : B.CreatePtrToInt(Base, I64);
    Value *Off = X.P.Offset;
    if (Int->getType()->isVectorTy() != Off->getType()->isVectorTy()) {
      if (!Int->getType()->isVectorTy())
        Int = splat(Int);
      else
        Off = splat(Off);
    }
    return B.CreateAdd(Int, Off);
  };
  bool Mem[2] = {S[0].Null || S[0].P.InMemory, S[1].Null || S[1].P.InMemory};
  if (!Mem[0] && !Mem[1]) {
    bool Same = S[0].P.Var == S[1].P.Var &&
                S[0].P.FirstComp == S[1].P.FirstComp;
    Result(B.getInt1(Same));
    return;
  }
  if (Mem[0] != Mem[1]) {
    // A register variable and a memory pointer or null never coincide.
    Result(B.getFalse());
    return;
  }
  Value *A = Address(S[0]), *C = Address(S[1]);
  if (A->getType()->isVectorTy() != C->getType()->isVectorTy()) {
    if (!A->getType()->isVectorTy())
      A = splat(A);
    else
      C = splat(C);
  }
  Result(B.CreateICmpEQ(A, C));
}

bool SimdEmitter::emitMemory(const Instruction &I) {
  uint32_t Id = I.Result.value();
  // What the instruction does with its pointers (the opcode table).
  MemoryOpKind Kind = opcodeInfo(I.Opcode).Memory;
  if ((Kind == MemoryOpKind::Load || Kind == MemoryOpKind::AccessChain) &&
      !I.Operands.empty() && isOpaqueRef(I.Operands[0]))
    return emitOpaqueMemory(I); // images and samplers (EmitImage.cpp)
  switch (Kind) {
  case MemoryOpKind::Variable:
    // Created, with its initializer, at function entry.
    return true;
  case MemoryOpKind::Load: {
    PointerValue P;
    if (!pointerOf(I.Operands[0], P))
      return true;
    set(Id, load(P, isVarying(Id)));
    return true;
  }
  case MemoryOpKind::Store: {
    PointerValue P;
    if (!pointerOf(I.Operands[0], P))
      return true;
    store(P, get(I.Operands[1]));
    return true;
  }
  case MemoryOpKind::Copy: {
    PointerValue Dst, Src;
    if (!pointerOf(I.Operands[0], Dst) || !pointerOf(I.Operands[1], Src))
      return true;
    bool Varying = Src.InMemory
                       ? Src.offsetVarying()
                       : UI.variable(ValueId(Src.Var)) == Uniformity::Varying ||
              !M.findVariable(Src.Var);
    store(Dst, load(Src, Varying));
    return true;
  }
  case MemoryOpKind::ArrayLength: {
    PointerValue P;
    if (!pointerOf(I.Operands[0], P))
      return true;
    uint32_t Member = I.Operands[1];
    const spirv2llvm::Type &ST = M.type(P.Pointee);
    Value *Size = P.LaneSize ? P.LaneSize : P.Size;
    if (!P.InMemory || !Size || ST.Kind != TypeKind::Struct ||
        Member >= ST.Members.size()) {
      failAt(I, "OpArrayLength needs a buffer block's runtime array member");
      return true;
    }
    // An element of a descriptor array picked per lane has per-lane sizes.
    Type *SizeTy = Size->getType();
    uint64_t Start = ML.memberOffset(P.Pointee, Member);
    uint64_t Stride = ML.arrayStride(ST.Members[Member]);
    Value *Avail = B.CreateSub(Size, ConstantInt::get(SizeTy, Start));
    Value *Neg = B.CreateICmpSLT(Avail, Constant::getNullValue(SizeTy));
    Value *Len = B.CreateUDiv(
        B.CreateSelect(Neg, Constant::getNullValue(SizeTy), Avail),
        ConstantInt::get(SizeTy, Stride ? Stride : 1));
    LaneValue R;
    R.Varying = SizeTy->isVectorTy();
    R.Comps.push_back(B.CreateTrunc(
        Len, SizeTy->isVectorTy()
                 ? static_cast<Type *>(FixedVectorType::get(B.getInt32Ty(), W))
                 : B.getInt32Ty()));
    bool Varying = isVarying(Id) || R.Varying;
    set(Id, coerce(std::move(R), Varying));
    return true;
  }
  case MemoryOpKind::PointerCompare:
    emitPointerCompare(I);
    return true;
  case MemoryOpKind::PtrAccessChain:
    if (!emitAccessChain(I))
      failAt(I, "pointer arithmetic on a variable that is not in memory");
    return true;
  case MemoryOpKind::AccessChain: {
    if (emitAccessChain(I))
      return true;
    PointerValue P;
    if (!pointerOf(I.Operands[0], P))
      return true;
    TypeId T = P.Pointee;
    for (size_t K = 1; K < I.Operands.size(); ++K) {
      const spirv2llvm::Constant *C = M.findConstant(I.Operands[K]);
      const Variable *Root = M.findVariable(P.Var);
      if ((!C || C->Kind != ConstantKind::Scalar || C->IsSpec) && Root &&
          (Root->Storage == spv::StorageClass::Input ||
           Root->Storage == spv::StorageClass::Output)) {
        P.Pointee = T;
        return interfaceAccessChain(I, P, K);
      }
      if (!C || C->Kind != ConstantKind::Scalar || C->IsSpec) {
        const char *SC = Root ? storageClassName(Root->Storage) : nullptr;
        failAt(I, "unsupported: dynamic indexing of storage class " +
                      Twine(SC ? SC : "?") + " (index " +
                      M.friendlyName(I.Operands[K]) + ")");
        return true;
      }
      uint64_t Index = C->scalarBits();
      const spirv2llvm::Type *Ty = M.findType(T.value());
      if (!Ty) {
        failAt(I, "indexing a non-composite type");
        return true;
      }
      switch (Ty->Kind) {
      case TypeKind::Vector:
      case TypeKind::Matrix:
      case TypeKind::Array:
        if (Index >= Ty->Count) {
          failAt(I, "constant index " + Twine(Index) + " is out of range");
          return true;
        }
        P.FirstComp += uint32_t(Index * components(Ty->Element).size());
        T = Ty->Element;
        break;
      case TypeKind::Struct:
        if (Index >= Ty->Members.size()) {
          failAt(I, "member index " + Twine(Index) + " is out of range");
          return true;
        }
        for (uint64_t Mb = 0; Mb < Index; ++Mb)
          P.FirstComp += uint32_t(components(Ty->Members[Mb]).size());
        T = Ty->Members[Index];
        break;
      default:
        failAt(I, "indexing a non-composite type");
        return true;
      }
    }
    P.Pointee = T;
    FS.Pointers[Id] = P;
    return true;
  }
  case MemoryOpKind::None:
    break;
  }
  return false;
}

} // namespace spirv2llvm::simd
