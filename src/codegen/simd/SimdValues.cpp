//===- SimdValues.cpp - Types, constants and value bookkeeping ------------===//
#include "codegen/simd/SimdEmitter.h"

#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"

#include <cstring>

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

const std::vector<ScalarType> &SimdEmitter::components(TypeId T) {
  auto It = ComponentCache.find(T.value());
  if (It != ComponentCache.end())
    return It->second;
  std::vector<ScalarType> Comps;
  if (Error E = flattenType(M, T, Comps))
    fail(toString(std::move(E)));
  return ComponentCache[T.value()] = std::move(Comps);
}

Type *SimdEmitter::scalarType(const ScalarType &S) {
  switch (S.Kind) {
  case ScalarKind::Bool:
    return B.getInt1Ty();
  case ScalarKind::Int:
  case ScalarKind::UInt:
    return B.getIntNTy(S.Bits);
  case ScalarKind::Float:
    return S.Bits == 16 ? B.getHalfTy()
                        : S.Bits == 64 ? B.getDoubleTy() : B.getFloatTy();
  }
  return B.getInt32Ty();
}

Type *SimdEmitter::laneType(const ScalarType &S, bool Varying) {
  Type *T = scalarType(S);
  return Varying ? FixedVectorType::get(T, W) : T;
}

VectorType *SimdEmitter::maskType() {
  return FixedVectorType::get(B.getInt1Ty(), W);
}

Value *splatLanes(IRBuilder<> &B, unsigned W, Value *V) {
  if (V->getType()->isVectorTy())
    return V;
  // A scalar constant becomes the splat constant directly. IRBuilder's
  // insertelement + shufflevector folds to the same (uniqued) constant,
  // but through two rounds of constant folding and two Twine names: a
  // tenth of emission time on the glslang corpus.
  if (isa<ConstantInt, ConstantFP>(V))
    return ConstantVector::getSplat(ElementCount::getFixed(W),
                                    cast<Constant>(V));
  return B.CreateVectorSplat(W, V);
}

Value *SimdEmitter::splat(Value *V) { return splatLanes(B, W, V); }

LaneValue SimdEmitter::coerce(LaneValue V, bool Varying) {
  if (V.Varying == Varying)
    return V;
  if (!Varying) {
    // Only reachable on inconsistent analysis results: keep lane 0.
    for (Value *&C : V.Comps)
      C = B.CreateExtractElement(C, uint64_t(0));
    V.Varying = false;
    return V;
  }
  for (Value *&C : V.Comps)
    C = splat(C);
  V.Varying = true;
  return V;
}

std::string SimdEmitter::llvmName(uint32_t Id) const {
  // Without value names (TranslateOptions::ValueNames off) the name would
  // be dropped; computing it costs spirv-dis' name mapper over the whole
  // module (Module::FriendlyNameSource), 8 % of a default translation.
  if (Ctx.shouldDiscardValueNames())
    return std::string();
  return globalName(Id);
}

std::string SimdEmitter::globalName(uint32_t Id) const {
  std::string N = M.friendlyName(Id).substr(1);
  if (N.empty() || isdigit(static_cast<unsigned char>(N[0])))
    return "id_" + N;
  return N;
}

Value *SimdEmitter::anyLane(Value *Mask) {
  return B.CreateOrReduce(Mask);
}

LaneValue SimdEmitter::constantValue(uint32_t Id) {
  LaneValue V;
  const spirv2llvm::Constant *C = M.findConstant(Id);
  const std::vector<ScalarType> &Comps = components(C->Type);
  // Expand composites with an explicit stack; leaves are scalar constants.
  std::vector<uint32_t> Stack{Id};
  std::vector<llvm::Constant *> Out;
  while (!Stack.empty() && !Failed) {
    uint32_t Cur = Stack.back();
    Stack.pop_back();
    const spirv2llvm::Constant *K = M.findConstant(Cur);
    if (!K) {
      fail("constituent " + M.friendlyName(Cur) + " is not a constant");
      break;
    }
    switch (K->Kind) {
    case ConstantKind::Composite:
      for (size_t I = K->Elements.size(); I-- > 0;)
        Stack.push_back(K->Elements[I].value());
      break;
    case ConstantKind::Null:
    case ConstantKind::Undef:
      // Undefined values are zero: deterministic, and never poison that a
      // branch could turn into undefined behaviour.
      for (const ScalarType &S : components(K->Type))
        Out.push_back(llvm::Constant::getNullValue(scalarType(S)));
      break;
    case ConstantKind::Bool:
      Out.push_back(B.getInt1(K->BoolValue));
      break;
    case ConstantKind::Scalar: {
      if (K->SpecOpInst != ~0u) {
        const Instruction &SI = M.Insts[K->SpecOpInst];
        std::string Op =
            SI.Operands.empty() ? "?" : opName(spv::Op(SI.Operands[0]));
        fail("unsupported: OpSpecConstantOp " + M.friendlyName(Cur) + " (" +
             Op +
             ") left unfolded by specialization (or --no-validate, which "
             "skips it)");
        break;
      }
      const std::vector<ScalarType> &S = components(K->Type);
      if (S.size() != 1) {
        fail("constant " + M.friendlyName(Cur) + " is not a scalar");
        break;
      }
      uint64_t Bits = K->scalarBits();
      if (S[0].Kind == ScalarKind::Float) {
        Type *T = scalarType(S[0]);
        APInt Raw(S[0].Bits, Bits);
        Out.push_back(ConstantFP::get(Ctx, APFloat(T->getFltSemantics(), Raw)));
      } else {
        Out.push_back(ConstantInt::get(scalarType(S[0]), Bits));
      }
      break;
    }
    }
  }
  if (Out.size() != Comps.size()) {
    fail("constant " + M.friendlyName(Id) + " does not match its type");
    for (const ScalarType &S : Comps)
      V.Comps.push_back(PoisonValue::get(scalarType(S)));
    return V;
  }
  V.Comps.assign(Out.begin(), Out.end());
  return V;
}

LaneValue SimdEmitter::get(uint32_t Id) {
  auto It = FS.Local.find(Id);
  if (It != FS.Local.end())
    return It->second;
  IdKind K = M.kindOf(Id);
  if (K == IdKind::Constant) {
    LaneValue V = constantValue(Id);
    FS.Local[Id] = V;
    return V;
  }
  if (auto P = FS.ParamValues.find(Id); P != FS.ParamValues.end())
    return P->second;
  if (FS.Pointers.count(Id) && isPhysicalPointerType(M.typeOf(Id))) {
    // An access chain into physical memory used as a value: its address.
    PointerValue P;
    LaneValue V;
    if (pointerOf(Id, P))
      V.Comps.push_back(addressOf(P));
    else
      V.Comps.push_back(PoisonValue::get(B.getInt64Ty()));
    V.Varying = V.Comps[0]->getType()->isVectorTy();
    bool Varying = isVarying(Id) || V.Varying;
    return coerce(std::move(V), Varying);
  }
  auto S = FS.ValueSlots.find(Id);
  auto D = FS.Plan->DefBlockOf.find(Id);
  // Unvalidated input may use a value where its definition does not
  // dominate; the slot would then hold another path's value.
  if (S != FS.ValueSlots.end() && D != FS.Plan->DefBlockOf.end() &&
      FS.CurBlock != cfg::NoBlock && !A->DT.dominates(D->second, FS.CurBlock)) {
    fail("value " + M.friendlyName(Id) + " is used in block " +
         M.friendlyName(A->G.block(FS.CurBlock).Label) +
         ", which its definition in block " +
         M.friendlyName(A->G.block(D->second).Label) + " does not dominate");
  } else if (S != FS.ValueSlots.end()) {
    LaneValue V;
    V.Varying = isVarying(Id);
    for (AllocaInst *Slot : S->second)
      V.Comps.push_back(
          B.CreateLoad(Slot->getAllocatedType(), Slot, llvmName(Id)));
    if (auto LB = FS.LaneBaseSlots.find(Id); LB != FS.LaneBaseSlots.end())
      for (size_t C = 0; C < LB->second.size() && C < V.Comps.size(); ++C)
        if (AllocaInst *Slot = LB->second[C])
          FS.LaneBases[V.Comps[C]] = {
              B.CreateLoad(Slot->getAllocatedType(), Slot,
                           llvmName(Id) + ".lane0"),
              FS.CurBlock};
    FS.Local[Id] = V;
    return V;
  }
  fail("value " + M.friendlyName(Id) +
       " is used where it is not available (not defined in a dominating "
       "block, or of an unsupported kind)");
  LaneValue V;
  const std::vector<ScalarType> &Comps = components(M.typeOf(Id));
  for (const ScalarType &C : Comps)
    V.Comps.push_back(PoisonValue::get(scalarType(C)));
  if (V.Comps.empty())
    V.Comps.push_back(PoisonValue::get(B.getInt32Ty()));
  return V;
}

void SimdEmitter::set(uint32_t Id, LaneValue V) {
  V = coerce(std::move(V), isVarying(Id));
  if (V.Comps.size() == 1 && V.Comps[0]->getName().empty() &&
      !isa<llvm::Constant>(V.Comps[0]))
    V.Comps[0]->setName(llvmName(Id));
  else
    for (size_t I = 0; I < V.Comps.size(); ++I)
      if (V.Comps[I]->getName().empty() && !isa<llvm::Constant>(V.Comps[I]))
        V.Comps[I]->setName(llvmName(Id) + ".c" + Twine(I));
  if (FS.Plan->CrossBlock.count(Id)) {
    auto &Slots = FS.ValueSlots[Id];
    if (Slots.empty())
      for (Value *C : V.Comps)
        Slots.push_back(createSlot(C->getType(), llvmName(Id) + ".slot"));
    bool Masked = FS.Plan->MaskedLiveOut.count(Id) && V.Varying;
    // Uniform and affine vectors take their lane 0 along (see FS.LaneBases);
    // the analysis calls none of the masked live-outs affine.
    if (!Masked && V.Varying) {
      auto &BaseSlots = FS.LaneBaseSlots[Id];
      BaseSlots.resize(V.Comps.size());
      for (size_t C = 0; C < V.Comps.size(); ++C) {
        Value *X = V.Comps[C];
        if (isa<llvm::Constant>(X) || !X->getType()->isIntOrIntVectorTy() ||
            Lanes.shape(Id, unsigned(C)).isVarying())
          continue;
        Value *Base = laneBase(X);
        if (!BaseSlots[C])
          BaseSlots[C] = createSlot(Base->getType(), llvmName(Id) + ".lane0");
        B.CreateStore(Base, BaseSlots[C]);
      }
    }
    for (size_t I = 0; I < V.Comps.size(); ++I) {
      Value *C = V.Comps[I];
      if (Masked) {
        Value *Old = B.CreateLoad(C->getType(), Slots[I]);
        C = B.CreateSelect(FS.CurMask, C, Old, llvmName(Id) + ".keep");
      }
      B.CreateStore(C, Slots[I]);
    }
  }
  FS.Local[Id] = std::move(V);
}

} // namespace spirv2llvm::simd
