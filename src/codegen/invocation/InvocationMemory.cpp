//===- InvocationMemory.cpp - Variables, access chains, built-ins ---------===//
//
// Typed memory (allocas and addrspace(3) globals) is indexed with GEPs over
// the LLVM types; dynamic indices into per-invocation variables are clamped
// to the variable, as in the SIMD back end. Buffers and push constants have
// an explicit layout, so their pointers are a base and a byte offset and each
// load or store places the scalars where the decorations say; a vector whose
// components are contiguous is one vector access.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ComputeOps.h"
#include "codegen/common/DescriptorArrays.h"
#include "codegen/invocation/InvocationEmitter.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::invocation {

using llvm::Constant;
using llvm::Type;

namespace {
constexpr unsigned GroupsharedAddrSpace = 3;
} // namespace

void InvocationEmitter::createVariables() {
  Type *Ptr = B.getPtrTy();
  Value *Sets = nullptr, *Push = nullptr;
  auto Alloca = [&](uint32_t Id, const Variable &V) {
    Type *T = typeOf(V.Pointee);
    // Allocas first in the entry block, in variable order.
    IRBuilder<> AB(EntryBB, EntryBB->getFirstNonPHIOrDbgOrAlloca());
    AllocaInst *AI = AB.CreateAlloca(T, nullptr, llvmName(Id));
    // Uninitialized variables start as zero: deterministic.
    Constant *Init = V.Initializer.value() &&
                             M.kindOf(V.Initializer.value()) ==
                                 IdKind::Constant
                         ? constantValue(V.Initializer.value())
                         : Constant::getNullValue(T);
    uint64_t Bytes = LM->getDataLayout().getTypeAllocSize(T);
    if (Init->isNullValue() && T->isAggregateType() && Bytes > 1024)
      // One memset: SROA splits a store of an aggregate zero into a store
      // per element (131,074 of them took the DXIL pipeline 8 s; a fuzz
      // finding). Small variables keep the store, which SROA turns into
      // registers.
      B.CreateMemSet(AI, B.getInt8(0), Bytes, AI->getAlign());
    else
      B.CreateStore(Init, AI);
    InvPointer P;
    P.Pointee = V.Pointee;
    P.Storage = V.Storage;
    P.Addr = P.Root = AI;
    P.RootType = T;
    P.Path = {B.getInt32(0)};
    Pointers[Id] = P;
    return AI;
  };
  for (ValueId Id : M.GlobalVariables) {
    const Variable &V = *M.findVariable(Id.value());
    InvPointer P;
    P.Pointee = V.Pointee;
    P.Storage = V.Storage;
    switch (V.Storage) {
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::Uniform: {
      if (!Sets)
        Sets = argField(4, Ptr, "descriptor.sets");
      std::string N = llvmName(Id.value());
      if (N.empty())
        N = "buffer";
      P.Explicit = true;
      P.Offset = B.getInt64(0);
      P.Checked = Opts.RobustBufferAccess;
      TypeKind K = M.type(V.Pointee).Kind;
      if (K == TypeKind::Array || K == TypeKind::RuntimeArray) {
        // An array of blocks: the access chain picks the element.
        DescriptorFields D = loadBindingDescriptor(B, M, Id.value(), Sets, N,
                                                   ".descs", ".count");
        P.DescArray = D.Data;
        P.DescCount = descriptorArrayCount(
            B, descriptorArrayShape(M, V.Pointee), D.Size);
        break;
      }
      DescriptorFields D =
          loadBindingDescriptor(B, M, Id.value(), Sets, N, "", ".size");
      P.Addr = D.Data;
      P.Size = D.Size;
      break;
    }
    case spv::StorageClass::PushConstant:
      if (!Push)
        Push = argField(5, Ptr, "push.constants");
      P.Explicit = true;
      P.Addr = Push;
      P.Offset = B.getInt64(0);
      P.Size = B.getInt64(Compute.PushConstantSize);
      P.Checked = Opts.RobustBufferAccess;
      break;
    case spv::StorageClass::Workgroup: {
      // DXIL's groupshared: one global per variable in addrspace(3).
      // External linkage keeps the optimizer from turning it into a
      // per-invocation local; the runtime maps it to the workgroup's block.
      Type *T = typeOf(V.Pointee);
      GlobalVariable *&G = Groupshared[Id.value()];
      if (!G) {
        std::string N = llvmName(Id.value());
        G = new GlobalVariable(
            *LM, T, /*isConstant=*/false, GlobalValue::ExternalLinkage,
            Constant::getNullValue(T), N.empty() ? "groupshared" : N, nullptr,
            GlobalValue::NotThreadLocal, GroupsharedAddrSpace);
        G->setAlignment(Align(16));
      }
      P.Addr = P.Root = G;
      P.RootType = T;
      P.Path = {B.getInt32(0)};
      break;
    }
    case spv::StorageClass::Private:
    case spv::StorageClass::Input:
    case spv::StorageClass::Output:
      if (!IsEntry) {
        // The entry function's alloca, from %env.
        size_t K = std::find(EnvVars.begin(), EnvVars.end(), Id.value()) -
                   EnvVars.begin();
        P.Addr = P.Root = B.CreateLoad(
            Ptr, B.CreateConstInBoundsGEP1_64(Ptr, EnvPtr, K),
            llvmName(Id.value()));
        P.RootType = typeOf(V.Pointee);
        P.Path = {B.getInt32(0)};
        break;
      }
      {
        AllocaInst *AI = Alloca(Id.value(), V);
        if (V.Storage == spv::StorageClass::Private)
          continue;
        if (EP.Model != spv::ExecutionModel::GLCompute)
          InterfaceVars.push_back(Id.value());
        else if (V.Storage == spv::StorageClass::Input &&
                 M.decorationValue(Id.value(), spv::Decoration::BuiltIn))
          B.CreateStore(computeBuiltIn(Id.value()), AI);
      }
      continue;
    default:
      continue; // images, samplers: createOpaqueBindings
    }
    Pointers[Id.value()] = P;
  }
  createOpaqueBindings(Sets);
  for (const Block &Bk : F->Blocks)
    for (uint32_t Index : Bk.Insts) {
      const Instruction &I = M.Insts[Index];
      if (I.Opcode != spv::Op::OpVariable)
        continue;
      if (const Variable *V = M.findVariable(I.Result.value()))
        Alloca(I.Result.value(), *V);
    }
  if (!IsEntry)
    return;
  copyInterface(/*Inputs=*/true);
  if (!Callees.empty()) {
    // %env for the callees: the per-invocation variables' allocas.
    IRBuilder<> AB(EntryBB, EntryBB->getFirstNonPHIOrDbgOrAlloca());
    EnvPtr = AB.CreateAlloca(Ptr, B.getInt32(uint32_t(EnvVars.size())), "env");
    for (size_t K = 0; K < EnvVars.size(); ++K)
      B.CreateStore(Pointers[EnvVars[K]].Root,
                    B.CreateConstInBoundsGEP1_64(Ptr, EnvPtr, K));
  }
}

void InvocationEmitter::copyInterface(bool Inputs) {
  if (InterfaceVars.empty())
    return;
  Value *Block = argField(Inputs ? 2 : 3, B.getPtrTy(),
                          Inputs ? "inputs" : "outputs");
  for (uint32_t Var : InterfaceVars) {
    const InterfaceVariable *IV = Layout.find(Var);
    if (!IV || IV->IsInput != Inputs)
      continue;
    const Variable &V = *M.findVariable(Var);
    Value *Slot = Pointers[Var].Addr;
    Type *VT = typeOf(V.Pointee);
    // Components in flattening order, each with its GEP path.
    size_t Comp = 0;
    SmallVector<Value *, 6> Path{B.getInt32(0)};
    std::function<void(TypeId)> Walk = [&](TypeId T) {
      const spirv2llvm::Type &Ty = M.type(T);
      switch (Ty.Kind) {
      case TypeKind::Vector:
      case TypeKind::Matrix:
      case TypeKind::Array:
        for (uint32_t K = 0; K < Ty.Count; ++K) {
          Path.push_back(B.getInt32(K));
          Walk(Ty.Element);
          Path.pop_back();
        }
        return;
      case TypeKind::Struct:
        for (size_t K = 0; K < Ty.Members.size(); ++K) {
          Path.push_back(B.getInt32(uint32_t(K)));
          Walk(Ty.Members[K]);
          Path.pop_back();
        }
        return;
      default:
        break;
      }
      if (Comp >= IV->ComponentOffsets.size())
        return;
      Type *ST = typeOf(T);
      bool IsBool = ST->isIntegerTy(1);
      Type *MemT = IsBool ? B.getInt32Ty() : ST;
      Value *Ext = B.CreateConstInBoundsGEP1_64(
          B.getInt8Ty(), Block, IV->ComponentOffsets[Comp++]);
      Value *Elem = B.CreateInBoundsGEP(VT, Slot, Path);
      if (Inputs) {
        Value *X = B.CreateLoad(MemT, Ext);
        if (IsBool)
          X = B.CreateICmpNE(X, B.getInt32(0));
        B.CreateStore(X, Elem);
      } else {
        Value *X = B.CreateLoad(ST, Elem);
        if (IsBool)
          X = B.CreateZExt(X, B.getInt32Ty());
        B.CreateStore(X, Ext);
      }
    };
    Walk(V.Pointee);
  }
}

Value *InvocationEmitter::computeBuiltIn(uint32_t Var) {
  auto BI = spv::BuiltIn(*M.decorationValue(Var, spv::Decoration::BuiltIn));
  const Variable &V = *M.findVariable(Var);
  Type *T = typeOf(V.Pointee);
  Type *I32 = B.getInt32Ty();
  const auto &WS = Compute.WorkgroupSize;
  auto Vec3 = [&](Value *X, Value *Y, Value *Z) -> Value * {
    Value *R = PoisonValue::get(FixedVectorType::get(I32, 3));
    R = B.CreateInsertElement(R, X, uint64_t(0));
    R = B.CreateInsertElement(R, Y, uint64_t(1));
    return B.CreateInsertElement(R, Z, uint64_t(2));
  };
  auto Field3 = [&](unsigned Index, const char *Name) {
    Value *Arr = B.CreateStructGEP(ArgsType, ArgsPtr, Index);
    return B.CreateAlignedLoad(FixedVectorType::get(I32, 3), Arr, Align(4),
                                Name);
  };
  Value *Index = argField(9, I32, "local.index");
  auto LocalId = [&]() {
    return Vec3(B.CreateURem(Index, B.getInt32(WS[0])),
                B.CreateURem(B.CreateUDiv(Index, B.getInt32(WS[0])),
                             B.getInt32(WS[1])),
                B.CreateUDiv(Index, B.getInt32(WS[0] * WS[1])));
  };
  Value *R = nullptr;
  switch (BI) {
  case spv::BuiltIn::LocalInvocationIndex:
    R = Index;
    break;
  case spv::BuiltIn::LocalInvocationId:
    R = LocalId();
    break;
  case spv::BuiltIn::WorkgroupId:
    R = Field3(7, "workgroup.id");
    break;
  case spv::BuiltIn::NumWorkgroups:
    R = Field3(8, "num.workgroups");
    break;
  case spv::BuiltIn::WorkgroupSize:
    R = Vec3(B.getInt32(WS[0]), B.getInt32(WS[1]), B.getInt32(WS[2]));
    break;
  case spv::BuiltIn::GlobalInvocationId: {
    Value *Wg = Field3(7, "workgroup.id");
    Value *Size = ConstantVector::get(
        {B.getInt32(WS[0]), B.getInt32(WS[1]), B.getInt32(WS[2])});
    R = B.CreateAdd(B.CreateMul(Wg, Size), LocalId(), "global.id");
    break;
  }
  // One invocation per call: a subgroup of one.
  case spv::BuiltIn::SubgroupSize:
    R = B.getInt32(1);
    break;
  case spv::BuiltIn::SubgroupLocalInvocationId:
    R = B.getInt32(0);
    break;
  case spv::BuiltIn::SubgroupId:
    R = argField(10, I32, "subgroup.id");
    break;
  case spv::BuiltIn::NumSubgroups:
    R = B.getInt32(WS[0] * WS[1] * WS[2]);
    break;
  // Masks of a subgroup of one: bit 0 is this invocation. uvec4 in Vulkan,
  // a 64-bit integer in SPV_KHR_shader_ballot (gl_SubGroupEqMaskARB).
  case spv::BuiltIn::SubgroupEqMask:
  case spv::BuiltIn::SubgroupGeMask:
  case spv::BuiltIn::SubgroupLeMask:
  case spv::BuiltIn::SubgroupGtMask:
  case spv::BuiltIn::SubgroupLtMask: {
    bool Own = BI == spv::BuiltIn::SubgroupEqMask ||
               BI == spv::BuiltIn::SubgroupGeMask ||
               BI == spv::BuiltIn::SubgroupLeMask;
    if (!T->isIntOrIntVectorTy())
      break; // reported below
    Type *ST = T->getScalarType();
    SmallVector<Constant *, 4> Words(
        isa<FixedVectorType>(T) ? cast<FixedVectorType>(T)->getNumElements()
                                : 1,
        ConstantInt::get(ST, 0));
    Words[0] = ConstantInt::get(ST, Own ? 1 : 0);
    R = isa<FixedVectorType>(T) ? ConstantVector::get(Words) : Words[0];
    break;
  }
  default: {
    const char *N = builtInName(BI);
    fail(Twine("unsupported: built-in ") + (N ? N : "?") +
         " in compute shaders");
    return Constant::getNullValue(T);
  }
  }
  if (!R || R->getType() != T) {
    fail("built-in variable " + M.friendlyName(Var) +
         " does not have the type its built-in needs");
    return Constant::getNullValue(T);
  }
  return R;
}

Value *InvocationEmitter::boundOf(const InvPointer &P) const {
  return P.Explicit && P.Checked && P.Size ? P.Size : nullptr;
}

Value *InvocationEmitter::checkedAddress(Value *Base, Value *Offset,
                                         uint64_t Bytes, Value *Bound,
                                         bool ForStore) {
  Value *Addr = B.CreateInBoundsGEP(B.getInt8Ty(), Base, Offset);
  if (!Bound)
    return Addr;
  // Offset + Bytes <= Bound, with the offset signed so that negative
  // indices are out of bounds too.
  Value *InBounds = B.CreateAnd(
      B.CreateICmpSGE(Offset, B.getInt64(0)),
      B.CreateICmpULE(B.CreateAdd(Offset, B.getInt64(Bytes)), Bound),
      "in.bounds");
  // No branch: an out-of-bounds access goes to a stand-in instead, zeros
  // to read or a scratch slot to write (the widest access is a 4 x 64-bit
  // vector).
  constexpr uint64_t StandInBytes = 32;
  Value *StandIn;
  if (ForStore) {
    if (!DiscardSlot) {
      IRBuilder<> AB(EntryBB, EntryBB->getFirstNonPHIOrDbgOrAlloca());
      DiscardSlot = AB.CreateAlloca(ArrayType::get(B.getInt8Ty(), StandInBytes),
                                    nullptr, "discard");
      DiscardSlot->setAlignment(Align(16));
    }
    StandIn = DiscardSlot;
  } else {
    if (!ZeroBytes) {
      Type *T = ArrayType::get(B.getInt8Ty(), StandInBytes);
      ZeroBytes = new GlobalVariable(*LM, T, /*isConstant=*/true,
                                     GlobalValue::PrivateLinkage,
                                     Constant::getNullValue(T), "s2l.zeros");
      ZeroBytes->setAlignment(Align(16));
    }
    StandIn = ZeroBytes;
  }
  return B.CreateSelect(InBounds, Addr, StandIn);
}

Value *InvocationEmitter::address(const InvPointer &P, uint64_t Bytes,
                                  bool ForStore) {
  if (!P.Explicit)
    return P.Addr;
  return checkedAddress(P.Addr, P.Offset, Bytes, boundOf(P), ForStore);
}

size_t InvocationEmitter::indexDescriptorArray(const Instruction &I,
                                               size_t First, InvPointer &P) {
  std::string Name = llvmName(I.Operands[0]);
  DescriptorArrayShape Shape;
  std::string Error;
  size_t N = descriptorIndexCount(M, P.Pointee, I, First, Shape, Error);
  if (!N) {
    failAt(I, Error);
    return 0;
  }
  SmallVector<Value *, 4> Indices;
  for (size_t K = 0; K < N; ++K) {
    Value *X = get(I.Operands[First + K]);
    if (!X->getType()->isIntegerTy()) {
      failAt(I, "descriptor array indices must be integer scalars");
      return 0;
    }
    // Signed: a negative index is out of range, not a huge one.
    Indices.push_back(B.CreateSExtOrTrunc(X, B.getInt64Ty()));
  }
  auto [X, InRange] =
      flatDescriptorIndex(B, Indices, Shape.InnerDims, P.DescCount, Name);
  DescriptorFields D =
      loadDescriptorElement(B, *LM, P.DescArray, X, InRange, Name);
  P.Addr = D.Data;
  P.Size = D.Size;
  // An element is always bounds-checked: an unbound or out-of-range
  // element is {null, 0}, and every access through it must miss.
  P.Checked = true;
  P.DescArray = P.DescCount = nullptr;
  P.Pointee = Shape.Block;
  return N;
}

void InvocationEmitter::emitAccessChain(const Instruction &I) {
  InvPointer P;
  if (!pointerOf(I, I.Operands[0], P))
    return;
  Type *I64 = B.getInt64Ty();
  bool IsPtrChain = I.Opcode == spv::Op::OpPtrAccessChain ||
                    I.Opcode == spv::Op::OpInBoundsPtrAccessChain;
  auto ConstIndex = [&](uint32_t Id) { return constantIndex(M, Id); };
  // Indices are signed (SPIR-V's rule for access chains).
  auto Index64 = [&](uint32_t Id) {
    Value *X = get(Id);
    return B.CreateSExtOrTrunc(X, I64);
  };
  // Out-of-range indices into per-invocation and workgroup memory are
  // clamped to the last element, so a bad index never leaves the variable.
  auto Clamp = [&](Value *X, uint64_t Count) -> Value * {
    return B.CreateBinaryIntrinsic(Intrinsic::umin, X,
                                   B.getInt64(Count ? Count - 1 : 0));
  };
  TypeId T = P.Pointee;
  size_t First = 1;

  if (!P.Explicit) {
    SmallVector<Value *, 6> Idx(P.Path.begin(), P.Path.end());
    if (IsPtrChain) {
      // Element steps within the array the pointer points into: the last
      // index of its path (for the variable itself, only element 0).
      // A pointer that is not into an array (the variable itself, a struct
      // member) has only element 0: any other clamps to it.
      if (P.ArrayLength) {
        Value *Stepped = B.CreateAdd(B.CreateSExtOrTrunc(Idx.back(), I64),
                                     Index64(I.Operands[1]));
        if (P.Length && Idx.size() == 1)
          Stepped = B.CreateBinaryIntrinsic(
              Intrinsic::umin, Stepped,
              B.CreateSub(P.Length, B.getInt64(1)));
        else if (P.ArrayLength != ~uint64_t(0))
          Stepped = Clamp(Stepped, P.ArrayLength);
        Idx.back() = Stepped;
      }
      First = 2;
    }
    for (size_t K = First; K < I.Operands.size(); ++K) {
      const spirv2llvm::Type &Ty = M.type(T);
      std::optional<uint64_t> CI = ConstIndex(I.Operands[K]);
      switch (Ty.Kind) {
      case TypeKind::Struct:
        if (!CI || *CI >= Ty.Members.size()) {
          failAt(I, "struct member index must be a constant in range");
          return;
        }
        Idx.push_back(B.getInt32(uint32_t(*CI)));
        P.ArrayLength = 0;
        T = Ty.Members[*CI];
        break;
      case TypeKind::Vector:
      case TypeKind::Matrix:
      case TypeKind::Array:
        if (CI && *CI < Ty.Count)
          Idx.push_back(B.getInt32(uint32_t(*CI)));
        else
          Idx.push_back(Clamp(CI ? static_cast<Value *>(B.getInt64(*CI))
                                 : Index64(I.Operands[K]),
                              Ty.Count));
        P.ArrayLength = Ty.Count;
        T = Ty.Element;
        break;
      case TypeKind::RuntimeArray:
        Idx.push_back(Index64(I.Operands[K]));
        P.ArrayLength = ~uint64_t(0);
        T = Ty.Element;
        break;
      default:
        failAt(I, "indexing a non-composite type");
        return;
      }
    }
    if (Idx.size() != P.Path.size())
      P.Length = nullptr; // it was the length of the first index's array
    P.Path.assign(Idx.begin(), Idx.end());
    auto *Zero = dyn_cast<ConstantInt>(Idx[0]);
    P.Addr = Idx.size() == 1 && Zero && Zero->isZero()
                 ? P.Root
                 : B.CreateInBoundsGEP(P.RootType, P.Root, Idx);
    P.Pointee = T;
    Pointers[I.Result.value()] = P;
    if (!P.Addr->hasName())
      P.Addr->setName(llvmName(I.Result.value()));
    return;
  }

  if (P.DescArray) {
    if (IsPtrChain) {
      failAt(I, "OpPtrAccessChain on an array of buffer blocks");
      return;
    }
    size_t N = indexDescriptorArray(I, First, P);
    if (!N)
      return;
    First += N;
    T = P.Pointee;
  }

  // Explicit layout: byte offsets, as the SIMD back end computes them.
  auto AddScaled = [&](uint32_t IndexId, uint64_t Stride) {
    P.Offset = B.CreateAdd(
        P.Offset, B.CreateMul(Index64(IndexId), B.getInt64(Stride)));
  };
  auto AddConst = [&](uint64_t Bytes) {
    P.Offset = B.CreateAdd(P.Offset, B.getInt64(Bytes));
  };
  ChainPosition Pos{T, P.ML, P.VecStride};
  if (Error E = ML.walkChain(I, IsPtrChain ? 2 : First, IsPtrChain,
                             Pos, AddConst, AddScaled)) {
    failAt(I, toString(std::move(E)));
    return;
  }
  P.ML = Pos.ML;
  P.VecStride = Pos.VecStride;
  P.Pointee = Pos.Pointee;
  Pointers[I.Result.value()] = P;
}

Value *InvocationEmitter::loadExplicit(TypeId T, Value *Base, Value *Offset,
                                       MatrixLayout L, uint64_t VecStride,
                                       Value *Bound) {
  const spirv2llvm::Type &Ty = M.type(T);
  Type *LT = typeOf(T);
  auto At = [&](uint64_t Bytes) -> Value * {
    return checkedAddress(Base, Offset, Bytes, Bound, /*ForStore=*/false);
  };
  switch (Ty.Kind) {
  case TypeKind::Bool:
    // Booleans in memory are 32-bit (as SPIR-V's layout rules say).
    return B.CreateICmpNE(B.CreateAlignedLoad(B.getInt32Ty(), At(4), Align(4)),
                          B.getInt32(0));
  case TypeKind::Int:
  case TypeKind::Float:
    return B.CreateAlignedLoad(LT, At(Ty.Width / 8), Align(Ty.Width / 8));
  case TypeKind::Vector: {
    const spirv2llvm::Type &ET = M.type(Ty.Element);
    uint64_t Size = ML.sizeOf(Ty.Element);
    uint64_t Stride = VecStride ? VecStride : Size;
    // Checked vectors go component by component, so each component in
    // bounds is read (as the SIMD back end does).
    if (Stride == Size && ET.Kind != TypeKind::Bool && !Bound)
      return B.CreateAlignedLoad(LT, At(Size * Ty.Count), Align(Size));
    Value *R = PoisonValue::get(LT);
    for (uint32_t C = 0; C < Ty.Count; ++C) {
      Value *X = loadExplicit(Ty.Element, Base,
                              B.CreateAdd(Offset, B.getInt64(C * Stride)), {},
                              0, Bound);
      R = B.CreateInsertElement(R, X, uint64_t(C));
    }
    return R;
  }
  case TypeKind::Matrix: {
    uint64_t ColStride = L.RowMajor ? ML.sizeOf(M.type(Ty.Element).Element)
                                    : ML.matrixStride(T, L);
    uint64_t CompStride = ML.columnComponentStride(T, L);
    Value *R = PoisonValue::get(LT);
    for (uint32_t C = 0; C < Ty.Count; ++C)
      R = B.CreateInsertValue(
          R,
          loadExplicit(Ty.Element, Base,
                       B.CreateAdd(Offset, B.getInt64(C * ColStride)), L,
                       CompStride, Bound),
          C);
    return R;
  }
  case TypeKind::Array: {
    uint64_t Stride = ML.arrayStride(T, L);
    Value *R = PoisonValue::get(LT);
    for (uint32_t E = 0; E < Ty.Count; ++E)
      R = B.CreateInsertValue(
          R,
          loadExplicit(Ty.Element, Base,
                       B.CreateAdd(Offset, B.getInt64(E * Stride)), L, 0,
                       Bound),
          E);
    return R;
  }
  case TypeKind::Struct: {
    Value *R = PoisonValue::get(LT);
    for (uint32_t K = 0; K < Ty.Members.size(); ++K)
      R = B.CreateInsertValue(
          R,
          loadExplicit(Ty.Members[K], Base,
                       B.CreateAdd(Offset, B.getInt64(ML.memberOffset(T, K))),
                       ML.memberMatrixLayout(T, K), 0, Bound),
          K);
    return R;
  }
  default:
    fail("unsupported: loading a value of type " + M.friendlyName(T.value()) +
         " from a buffer");
    return PoisonValue::get(LT);
  }
}

void InvocationEmitter::storeExplicit(TypeId T, Value *Base, Value *Offset,
                                      MatrixLayout L, uint64_t VecStride,
                                      Value *V, Value *Bound) {
  const spirv2llvm::Type &Ty = M.type(T);
  auto At = [&](uint64_t Bytes) -> Value * {
    return checkedAddress(Base, Offset, Bytes, Bound, /*ForStore=*/true);
  };
  switch (Ty.Kind) {
  case TypeKind::Bool:
    B.CreateAlignedStore(B.CreateZExt(V, B.getInt32Ty()), At(4), Align(4));
    return;
  case TypeKind::Int:
  case TypeKind::Float:
    B.CreateAlignedStore(V, At(Ty.Width / 8), Align(Ty.Width / 8));
    return;
  case TypeKind::Vector: {
    const spirv2llvm::Type &ET = M.type(Ty.Element);
    uint64_t Size = ML.sizeOf(Ty.Element);
    uint64_t Stride = VecStride ? VecStride : Size;
    if (Stride == Size && ET.Kind != TypeKind::Bool && !Bound) {
      B.CreateAlignedStore(V, At(Size * Ty.Count), Align(Size));
      return;
    }
    for (uint32_t C = 0; C < Ty.Count; ++C)
      storeExplicit(Ty.Element, Base,
                    B.CreateAdd(Offset, B.getInt64(C * Stride)), {}, 0,
                    B.CreateExtractElement(V, uint64_t(C)), Bound);
    return;
  }
  case TypeKind::Matrix: {
    uint64_t ColStride = L.RowMajor ? ML.sizeOf(M.type(Ty.Element).Element)
                                    : ML.matrixStride(T, L);
    uint64_t CompStride = ML.columnComponentStride(T, L);
    for (uint32_t C = 0; C < Ty.Count; ++C)
      storeExplicit(Ty.Element, Base,
                    B.CreateAdd(Offset, B.getInt64(C * ColStride)), L,
                    CompStride, B.CreateExtractValue(V, C), Bound);
    return;
  }
  case TypeKind::Array: {
    uint64_t Stride = ML.arrayStride(T, L);
    for (uint32_t E = 0; E < Ty.Count; ++E)
      storeExplicit(Ty.Element, Base,
                    B.CreateAdd(Offset, B.getInt64(E * Stride)), L, 0,
                    B.CreateExtractValue(V, E), Bound);
    return;
  }
  case TypeKind::Struct:
    for (uint32_t K = 0; K < Ty.Members.size(); ++K)
      storeExplicit(Ty.Members[K], Base,
                    B.CreateAdd(Offset, B.getInt64(ML.memberOffset(T, K))),
                    ML.memberMatrixLayout(T, K), 0,
                    B.CreateExtractValue(V, K), Bound);
    return;
  default:
    fail("unsupported: storing a value of type " + M.friendlyName(T.value()) +
         " to a buffer");
    return;
  }
}

Value *InvocationEmitter::load(const InvPointer &P) {
  if (P.Explicit)
    return loadExplicit(P.Pointee, P.Addr, P.Offset, P.ML, P.VecStride,
                        boundOf(P));
  return B.CreateLoad(typeOf(P.Pointee), P.Addr);
}

void InvocationEmitter::store(const InvPointer &P, Value *V) {
  if (P.Explicit)
    storeExplicit(P.Pointee, P.Addr, P.Offset, P.ML, P.VecStride, V,
                  boundOf(P));
  else
    B.CreateStore(V, P.Addr);
}

bool InvocationEmitter::emitMemory(const Instruction &I) {
  // What the instruction does with its pointers (the opcode table).
  MemoryOpKind Kind = opcodeInfo(I.Opcode).Memory;
  if ((Kind == MemoryOpKind::Load || Kind == MemoryOpKind::AccessChain) &&
      !I.Operands.empty() && Opaque.count(I.Operands[0]))
    return emitOpaqueMemory(I); // images and samplers (InvocationImage.cpp)
  switch (Kind) {
  case MemoryOpKind::Variable:
    return true; // created up front (createVariables)
  case MemoryOpKind::AccessChain:
  case MemoryOpKind::PtrAccessChain:
    emitAccessChain(I);
    return true;
  case MemoryOpKind::Load: {
    InvPointer P;
    if (!pointerOf(I, I.Operands[0], P))
      return true;
    set(I.Result.value(), load(P));
    return true;
  }
  case MemoryOpKind::Store: {
    InvPointer P;
    if (!pointerOf(I, I.Operands[0], P))
      return true;
    Value *V = get(I.Operands[1]);
    if (V->getType() != typeOf(P.Pointee)) {
      failAt(I, "stored value does not have the pointee's type");
      return true;
    }
    store(P, V);
    return true;
  }
  case MemoryOpKind::Copy: {
    InvPointer To, From;
    if (!pointerOf(I, I.Operands[0], To) || !pointerOf(I, I.Operands[1], From))
      return true;
    Value *V = load(From);
    if (V->getType() != typeOf(To.Pointee)) {
      failAt(I, "source and target types differ");
      return true;
    }
    store(To, V);
    return true;
  }
  case MemoryOpKind::ArrayLength: {
    InvPointer P;
    if (!pointerOf(I, I.Operands[0], P))
      return true;
    const spirv2llvm::Type &ST = M.type(P.Pointee);
    uint32_t Member = I.Operands[1];
    if (!P.Explicit || !P.Size || ST.Kind != TypeKind::Struct ||
        Member >= ST.Members.size() ||
        M.type(ST.Members[Member]).Kind != TypeKind::RuntimeArray) {
      failAt(I, "operand is not a buffer block ending in a runtime array");
      return true;
    }
    uint64_t Start = ML.memberOffset(P.Pointee, Member);
    uint64_t Stride = ML.arrayStride(ST.Members[Member]);
    Value *Bytes = B.CreateSub(P.Size, B.CreateAdd(P.Offset, B.getInt64(Start)));
    // A buffer smaller than the fixed part has no elements.
    Value *Avail = B.CreateSelect(
        B.CreateICmpSLT(Bytes, B.getInt64(0)), B.getInt64(0), Bytes);
    Value *N = B.CreateUDiv(Avail, B.getInt64(Stride ? Stride : 1));
    set(I.Result.value(),
        B.CreateTrunc(N, typeOf(I.ResultType), "array.length"));
    return true;
  }
  case MemoryOpKind::PointerCompare: // not implemented: unsupported
  case MemoryOpKind::None:
    break;
  }
  return false;
}

bool InvocationEmitter::emitBarrier(const Instruction &I) {
  // A subgroup is one invocation: a subgroup barrier has nothing to wait
  // for, a workgroup one yields to the workgroup's other invocations.
  return emitBarrierInstruction(B, M, EP, I, ArgsType, ArgsPtr);
}

bool InvocationEmitter::emitAtomic(const Instruction &I) {
  std::optional<AtomicOpKind> Kind = atomicOpKind(I.Opcode);
  if (!Kind)
    return false;
  InvPointer P;
  if (!pointerOf(I, I.Operands[0], P))
    return true;
  Type *T = typeOf(P.Pointee);
  if (!T->isIntegerTy(32) && !T->isIntegerTy(64)) {
    failAt(I, "atomics need a 32- or 64-bit integer");
    return true;
  }
  uint64_t Bytes = T->getIntegerBitWidth() / 8;
  // Out of bounds (checked pointers): the access goes to the scratch slot
  // and the result is 0.
  Value *Addr = address(P, Bytes, /*ForStore=*/true);
  Align Al(Bytes);
  auto SeqCst = AtomicOrdering::SequentiallyConsistent;
  Value *R = nullptr;
  if (Kind->IsLoad) {
    LoadInst *Ld = B.CreateAlignedLoad(T, Addr, Al);
    Ld->setAtomic(SeqCst);
    R = Ld;
  } else if (Kind->IsStore) {
    StoreInst *St = B.CreateAlignedStore(get(I.Operands[3]), Addr, Al);
    St->setAtomic(SeqCst);
  } else if (Kind->IsCmpXchg) {
    Value *Pair = B.CreateAtomicCmpXchg(Addr, get(I.Operands[5]),
                                        get(I.Operands[4]), Al, SeqCst,
                                        SeqCst);
    R = B.CreateExtractValue(Pair, 0);
  } else {
    Value *V = Kind->Unit ? ConstantInt::get(T, 1) : get(I.Operands[3]);
    R = B.CreateAtomicRMW(*Kind->RMW, Addr, V, Al, SeqCst);
  }
  if (R && boundOf(P))
    R = B.CreateSelect(B.CreateICmpEQ(Addr, DiscardSlot),
                       Constant::getNullValue(T), R);
  if (R && I.Result.value())
    set(I.Result.value(), R);
  return true;
}

} // namespace spirv2llvm::invocation
