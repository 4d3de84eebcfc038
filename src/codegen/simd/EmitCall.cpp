//===- EmitCall.cpp - Functions that were not inlined ---------------------===//
//
// With --no-inline or --no-canonicalize, OpFunctionCall stays a call. Each
// function the entry point reaches becomes an LLVM function
//
//   Ret @s2l.fn.NAME(ptr %args, ptr %env, <W x i1> %mask, params...)
//
// that runs its body for the lanes of %mask, with the same masked control
// flow as the entry function: its uniform blocks run with all of %mask.
// Parameters and results are Varying (the uniformity analysis says so for
// every call), so values travel as <W x T> per component. A pointer
// parameter is either a pointer to each component's <W x T> slot of a
// register variable, or, when the callee indexes it dynamically or the
// caller passes memory, a lane-memory pointer (base, size, <W x i64>
// offset); the variables passed to such parameters then live in lane
// memory too, so both sides agree.
//
// Private variables and the killed mask belong to the entry function; a
// callee finds them through %env, a table of pointers the entry function
// fills. Returns inside the callee leave the lanes' results in a return
// slot, as a returning lane of the entry function simply leaves; a lane
// killed in a callee is off in the caller from the call on.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"

#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;


void SimdEmitter::declareCallees() {
  Type *Ptr = B.getPtrTy();
  for (uint32_t Fn : Plan.CalleeOrder) {
    const Function &Fun = M.Functions[Fn];
    const FunctionPlan &FP = Plan.function(Fn);
    SmallVector<Type *, 8> Params = {Ptr, Ptr, maskType()};
    for (size_t K = 0; K < Fun.Params.size(); ++K) {
      TypeId T = M.typeOf(Fun.Params[K].value());
      switch (FP.Params[K]) {
      case ParamAbi::Value:
        for (const ScalarType &S : components(T))
          Params.push_back(laneType(S, true));
        break;
      case ParamAbi::MemoryPointer:
        Params.append({Ptr, B.getInt64Ty(),
                       FixedVectorType::get(B.getInt64Ty(), W)});
        break;
      case ParamAbi::RegisterPointer:
        Params.append(components(M.type(T).Element).size(), Ptr);
        break;
      }
    }
    SmallVector<Type *, 4> Ret;
    if (M.type(Fun.ResultType).Kind != TypeKind::Void)
      for (const ScalarType &S : components(Fun.ResultType))
        Ret.push_back(laneType(S, true));
    Type *RetTy = Ret.empty() ? B.getVoidTy()
                              : static_cast<Type *>(StructType::get(Ctx, Ret));
    llvm::Function *CF = llvm::Function::Create(
        FunctionType::get(RetTy, Params, false), GlobalValue::InternalLinkage,
        "s2l.fn." + globalName(Fun.Id.value()), LM.get());
    CF->addFnAttr(Attribute::NoUnwind);
    CalleeFns[Fn] = CF;
  }
}

void SimdEmitter::createEnvironment() {
  if (Plan.CalleeOrder.empty())
    return;
  Type *Ptr = B.getPtrTy();
  AllocaInst *Env = createSlot(ArrayType::get(Ptr, Plan.EnvSize), "env");
  FS.EnvPtr = Env;
  auto Put = [&](unsigned Index, Value *P) {
    B.CreateStore(P, B.CreateConstInBoundsGEP1_32(Ptr, Env, Index));
  };
  Put(0, FS.KilledSlot);
  Put(1, FS.DemotedSlot ? FS.DemotedSlot
                        : static_cast<Value *>(ConstantPointerNull::get(
                              PointerType::get(Ctx, 0))));
  for (uint32_t Var : Plan.EnvVars) {
    unsigned Index = Plan.EnvIndex.at(Var);
    if (Plan.DynamicallyIndexed.count(Var)) {
      Put(Index, FS.Pointers[Var].Base);
      continue;
    }
    for (const VarSlot &S : FS.VarSlots[Var])
      Put(Index++, S.Ptr);
  }
}

void SimdEmitter::loadEnvironment() {
  Type *Ptr = B.getPtrTy();
  auto Get = [&](unsigned Index, const Twine &Name) {
    return B.CreateLoad(
        Ptr, B.CreateConstInBoundsGEP1_32(Ptr, FS.EnvPtr, Index), Name);
  };
  FS.KilledSlot = Get(0, "killed.ptr");
  if (Plan.HasDemote)
    FS.DemotedSlot = Get(1, "demoted.ptr");
  for (uint32_t Var : Plan.EnvVars) {
    const Variable &V = *M.findVariable(Var);
    unsigned Index = Plan.EnvIndex.at(Var);
    if (Plan.DynamicallyIndexed.count(Var)) {
      PointerValue P;
      P.Var = Var;
      P.Pointee = V.Pointee;
      P.InMemory = true;
      P.Storage = V.Storage;
      P.Base = Get(Index, llvmName(Var) + ".mem");
      P.Size = B.getInt64(std::max<uint64_t>(ML.sizeOf(V.Pointee), 4));
      P.Offset = B.getInt64(0);
      P.AffineBase = P.Offset;
      FS.Pointers[Var] = P;
      continue;
    }
    bool Varying = UI.variable(V.Id) == Uniformity::Varying;
    auto &Slots = FS.VarSlots[Var];
    for (const ScalarType &S : components(V.Pointee))
      Slots.push_back({Get(Index++, llvmName(Var)), laneType(S, Varying)});
    FS.Pointers[Var] = PointerValue{Var, 0, V.Pointee};
  }
}

Value *SimdEmitter::uniformBlockMask() {
  if (!FS.Plan->CallsKiller)
    return FS.EntryMask;
  // A callee may have killed lanes since the function began.
  Value *Killed = B.CreateLoad(maskType(), FS.KilledSlot, "killed");
  return B.CreateAnd(FS.EntryMask, B.CreateNot(Killed), "alive");
}

Value *SimdEmitter::storeMask() {
  if (!FS.DemotedSlot)
    return FS.CurMask;
  Value *Demoted = B.CreateLoad(maskType(), FS.DemotedSlot, "demoted");
  return B.CreateAnd(FS.CurMask, B.CreateNot(Demoted), "store.mask");
}

void SimdEmitter::emitCallee(uint32_t FnIndex) {
  beginFunction(FnIndex, CalleeFns.at(FnIndex));
  const FunctionPlan &FP = Plan.function(FnIndex);
  FS.AllocaBB = BasicBlock::Create(Ctx, "entry", LF);
  B.SetInsertPoint(FS.AllocaBB);
  FS.ArgsPtr = LF->getArg(0);
  FS.ArgsPtr->setName("args");
  FS.EnvPtr = LF->getArg(1);
  FS.EnvPtr->setName("env");
  FS.EntryMask = LF->getArg(2);
  FS.EntryMask->setName("mask");
  Type *Ptr = B.getPtrTy();
  FS.InputsPtr =
      B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, FS.ArgsPtr, 2), "inputs");
  FS.OutputsPtr =
      B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, FS.ArgsPtr, 3), "outputs");
  // The watchdog flag, as the entry function finds it.
  Value *Cancel = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, FS.ArgsPtr, 13),
                               "cancel.arg");
  FS.CancelPtr = B.CreateSelect(B.CreateIsNull(Cancel),
                                LM->getNamedGlobal("s2l.never_cancelled"),
                                Cancel, "cancel");

  unsigned Arg = 3;
  for (size_t K = 0; K < F->Params.size(); ++K) {
    uint32_t Param = F->Params[K].value();
    TypeId T = M.typeOf(Param);
    switch (FP.Params[K]) {
    case ParamAbi::Value: {
      LaneValue V;
      V.Varying = true;
      for (size_t C = 0; C < components(T).size(); ++C)
        V.Comps.push_back(LF->getArg(Arg++));
      FS.ParamValues[Param] = std::move(V);
      break;
    }
    case ParamAbi::RegisterPointer: {
      TypeId Pointee = M.type(T).Element;
      auto &Slots = FS.VarSlots[Param];
      for (const ScalarType &S : components(Pointee))
        Slots.push_back({LF->getArg(Arg++), laneType(S, true)});
      FS.Pointers[Param] = PointerValue{Param, 0, Pointee};
      break;
    }
    case ParamAbi::MemoryPointer: {
      PointerValue P;
      P.Var = Param;
      P.Pointee = M.type(T).Element;
      P.InMemory = true;
      P.Storage = M.type(T).Storage;
      P.Base = LF->getArg(Arg++);
      P.Size = LF->getArg(Arg++);
      P.Offset = LF->getArg(Arg++);
      FS.Pointers[Param] = P;
      break;
    }
    }
  }
  if (!LF->getReturnType()->isVoidTy())
    for (Type *T : cast<StructType>(LF->getReturnType())->elements()) {
      AllocaInst *Slot = createSlot(T, "ret");
      B.CreateStore(PoisonValue::get(T), Slot);
      FS.RetSlots.push_back(Slot);
    }
  emitFunction();
}

bool SimdEmitter::emitCall(const Instruction &I) {
  if (I.Opcode != spv::Op::OpFunctionCall)
    return false;
  auto FIt = M.FunctionIndexOf.find(I.Operands[0]);
  if (FIt == M.FunctionIndexOf.end() || !Plan.isCallee(FIt->second)) {
    failAt(I, "calls " + M.friendlyName(I.Operands[0]) +
                  ", which is not a function the entry point reaches");
    return true;
  }
  const FunctionPlan &FP = Plan.function(FIt->second);
  const Function &Callee = M.Functions[FIt->second];
  SmallVector<Value *, 16> Args = {FS.ArgsPtr, FS.EnvPtr, FS.CurMask};
  for (size_t K = 1; K < I.Operands.size(); ++K) {
    uint32_t Arg = I.Operands[K];
    switch (FP.Params[K - 1]) {
    case ParamAbi::Value: {
      LaneValue V = coerce(get(Arg), true);
      if (V.Comps.size() !=
          components(M.typeOf(Callee.Params[K - 1].value())).size()) {
        failAt(I, "argument " + M.friendlyName(Arg) +
                      " does not match its parameter's type");
        return true;
      }
      Args.append(V.Comps.begin(), V.Comps.end());
      break;
    }
    case ParamAbi::RegisterPointer: {
      PointerValue P;
      if (!pointerOf(Arg, P))
        return true;
      auto &Slots = FS.VarSlots[P.Var];
      size_t N = components(P.Pointee).size();
      if (P.InMemory || P.FirstComp + N > Slots.size() ||
          (N && !Slots[P.FirstComp].Ty->isVectorTy())) {
        failAt(I, "internal error: pointer argument " + M.friendlyName(Arg) +
                      " is not a per-lane register variable");
        return true;
      }
      for (size_t C = 0; C < N; ++C)
        Args.push_back(Slots[P.FirstComp + C].Ptr);
      break;
    }
    case ParamAbi::MemoryPointer: {
      PointerValue P;
      if (!pointerOf(Arg, P))
        return true;
      if (!P.InMemory) {
        failAt(I, "internal error: pointer argument " + M.friendlyName(Arg) +
                      " is not in memory");
        return true;
      }
      if (P.LaneBase || P.DescArray) {
        failAt(I, "passing " + M.friendlyName(Arg) +
                      " (a pointer into a descriptor array or a per-lane "
                      "physical pointer) to a function that is not inlined "
                      "is not supported");
        return true;
      }
      Value *Off = P.offsetVarying() ? P.Offset : splat(P.Offset);
      Args.append({P.Base, P.Size ? P.Size : B.getInt64(INT64_MAX), Off});
      break;
    }
    }
  }
  Value *R = B.CreateCall(CalleeFns.at(FIt->second), Args);
  if (FP.MayKill) {
    // Lanes the callee killed take no further part.
    Value *Killed = B.CreateLoad(maskType(), FS.KilledSlot, "killed");
    FS.CurMask = B.CreateAnd(FS.CurMask, B.CreateNot(Killed), "alive");
  }
  if (uint32_t Id = I.Result.value(); Id && !R->getType()->isVoidTy()) {
    LaneValue V;
    V.Varying = true;
    auto *ST = cast<StructType>(R->getType());
    for (unsigned C = 0; C < ST->getNumElements(); ++C)
      V.Comps.push_back(B.CreateExtractValue(R, C));
    set(Id, std::move(V));
  }
  return true;
}

} // namespace spirv2llvm::simd
