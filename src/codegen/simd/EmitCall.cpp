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


uint32_t SimdEmitter::pointerRoot(uint32_t Ptr) const {
  for (unsigned Steps = 0; Steps < 4096; ++Steps) {
    const Instruction *D = M.def(Ptr);
    if (!D || !(isAccessChain(D->Opcode) || D->Opcode == spv::Op::OpCopyObject))
      return Ptr;
    Ptr = D->Operands[0];
  }
  return Ptr;
}

void SimdEmitter::analyzeCalls() {
  uint32_t EntryIndex = M.FunctionIndexOf.at(EP.Function.value());
  // Depth-first over the call graph: post-order puts callees first, and a
  // function met again while on the stack is recursion, which SPIR-V
  // forbids.
  enum : uint8_t { New, OnStack, Done };
  std::vector<uint8_t> State(M.Functions.size(), New);
  std::vector<uint32_t> Order;
  struct Frame {
    uint32_t Fn;
    std::vector<uint32_t> Targets;
    size_t Next = 0;
  };
  auto CallsOf = [&](uint32_t Fn) {
    std::vector<uint32_t> T;
    for (const Block &Blk : M.Functions[Fn].Blocks)
      for (uint32_t Index : Blk.Insts) {
        const Instruction &I = M.Insts[Index];
        if (I.Opcode != spv::Op::OpFunctionCall)
          continue;
        auto It = M.FunctionIndexOf.find(I.Operands[0]);
        if (It == M.FunctionIndexOf.end()) {
          failAt(I, "calls " + M.friendlyName(I.Operands[0]) +
                        ", which is not a function");
          continue;
        }
        T.push_back(It->second);
      }
    return T;
  };
  std::vector<Frame> Stack;
  Stack.push_back({EntryIndex, CallsOf(EntryIndex)});
  State[EntryIndex] = OnStack;
  while (!Stack.empty() && !Failed) {
    Frame &Top = Stack.back();
    if (Top.Next == Top.Targets.size()) {
      State[Top.Fn] = Done;
      Order.push_back(Top.Fn);
      Stack.pop_back();
      continue;
    }
    uint32_t T = Top.Targets[Top.Next++];
    if (State[T] == OnStack) {
      fail("function " + M.friendlyName(M.Functions[T].Id.value()) +
           " is called recursively, which SPIR-V does not allow");
      return;
    }
    if (State[T] == New) {
      State[T] = OnStack;
      Stack.push_back({T, CallsOf(T)});
    }
  }
  if (Failed)
    return;
  for (uint32_t Fn : Order)
    if (Fn != EntryIndex)
      CalleeOrder.push_back(Fn);

  // Variables and parameters indexed with a non-constant index need memory.
  for (uint32_t Fn : Order)
    for (const Block &Blk : M.Functions[Fn].Blocks)
      for (uint32_t Index : Blk.Insts) {
        const Instruction &I = M.Insts[Index];
        if (I.Opcode != spv::Op::OpAccessChain &&
            I.Opcode != spv::Op::OpInBoundsAccessChain)
          continue;
        bool Dynamic = false;
        for (size_t K = 1; K < I.Operands.size(); ++K) {
          const spirv2llvm::Constant *C = M.findConstant(I.Operands[K]);
          Dynamic |= !C || C->Kind != ConstantKind::Scalar || C->IsSpec;
        }
        if (!Dynamic)
          continue;
        uint32_t Root = pointerRoot(I.Operands[0]);
        if (const Variable *V = M.findVariable(Root)) {
          if (V->Storage == spv::StorageClass::Function ||
              V->Storage == spv::StorageClass::Private)
            DynamicallyIndexed.insert(Root);
        } else if (const Instruction *D = M.def(Root);
                   D && D->Opcode == spv::Op::OpFunctionParameter) {
          MemoryParams.insert(Root);
        }
      }

  // Agree on pointer parameters, to a fixed point: a memory parameter makes
  // what is passed to it memory, and memory passed to a parameter makes it
  // a memory parameter.
  auto IsMemory = [&](uint32_t Root) {
    if (DynamicallyIndexed.count(Root) || MemoryParams.count(Root))
      return true;
    const Variable *V = M.findVariable(Root);
    return V && !isPerInvocationStorage(V->Storage);
  };
  for (bool Changed = true; Changed && !Failed;) {
    Changed = false;
    for (uint32_t Fn : Order)
      for (const Block &Blk : M.Functions[Fn].Blocks)
        for (uint32_t Index : Blk.Insts) {
          const Instruction &I = M.Insts[Index];
          if (I.Opcode != spv::Op::OpFunctionCall)
            continue;
          const Function &Callee =
              M.Functions[M.FunctionIndexOf.at(I.Operands[0])];
          if (I.Operands.size() - 1 != Callee.Params.size()) {
            failAt(I, "passes " + Twine(I.Operands.size() - 1) +
                          " arguments to a function of " +
                          Twine(Callee.Params.size()) + " parameters");
            return;
          }
          for (size_t K = 1; K < I.Operands.size(); ++K) {
            uint32_t Param = Callee.Params[K - 1].value();
            const spirv2llvm::Type *PT = M.findType(M.typeOf(Param).value());
            if (!PT || PT->Kind != TypeKind::Pointer)
              continue;
            uint32_t Root = pointerRoot(I.Operands[K]);
            const Variable *V = M.findVariable(Root);
            if (V && (V->Storage == spv::StorageClass::Input ||
                      V->Storage == spv::StorageClass::Output)) {
              failAt(I, "unsupported: passing " +
                            std::string(storageClassName(V->Storage)) +
                            " variable " + M.friendlyName(Root) +
                            " to a function");
              return;
            }
            if (MemoryParams.count(Param)) {
              if (V && isPerInvocationStorage(V->Storage))
                Changed |= DynamicallyIndexed.insert(Root).second;
              else if (!V)
                Changed |= MemoryParams.insert(Root).second;
            } else if (IsMemory(Root)) {
              Changed |= MemoryParams.insert(Param).second;
            }
          }
        }
  }

  // Which functions kill lanes, callees first.
  for (uint32_t Fn : Order) {
    bool Kills = false;
    for (const Block &Blk : M.Functions[Fn].Blocks)
      for (uint32_t Index : Blk.Insts) {
        const Instruction &I = M.Insts[Index];
        if (I.Opcode == spv::Op::OpKill ||
            I.Opcode == spv::Op::OpTerminateInvocation)
          Kills = true;
        if (I.Opcode == spv::Op::OpFunctionCall) {
          auto It = Callees.find(M.FunctionIndexOf.at(I.Operands[0]));
          Kills |= It != Callees.end() && It->second.MayKill;
        }
      }
    if (Fn != EntryIndex)
      Callees[Fn].MayKill = Kills;
  }

  for (uint32_t Fn : Order)
    for (const Block &Blk : M.Functions[Fn].Blocks)
      for (uint32_t Index : Blk.Insts) {
        spv::Op Op = M.Insts[Index].Opcode;
        HasDemote |= Op == spv::Op::OpDemoteToHelperInvocation;
        NeedsHelpers |= hasOpcodeFlag(Op, OpcodeFlag::QuadDerivatives) ||
                        Op == spv::Op::OpIsHelperInvocationEXT ||
                        Op == spv::Op::OpDemoteToHelperInvocation;
      }
  NeedsHelpers &= EP.Model == spv::ExecutionModel::Fragment;
  HasDemote |= NeedsHelpers;

  // The environment: the killed and demoted masks, then each Private
  // variable (a pointer per register component, or its lane memory).
  EnvSize = 2;
  for (ValueId Id : M.GlobalVariables) {
    const Variable &V = *M.findVariable(Id.value());
    if (V.Storage != spv::StorageClass::Private)
      continue;
    EnvVars.push_back(Id.value());
    EnvIndex[Id.value()] = EnvSize;
    EnvSize += DynamicallyIndexed.count(Id.value())
                   ? 1
                   : unsigned(components(V.Pointee).size());
  }
}

void SimdEmitter::declareCallees() {
  Type *Ptr = B.getPtrTy();
  for (uint32_t Fn : CalleeOrder) {
    const Function &Fun = M.Functions[Fn];
    CalleeInfo &CI = Callees[Fn];
    SmallVector<Type *, 8> Params = {Ptr, Ptr, maskType()};
    for (ValueId P : Fun.Params) {
      TypeId T = M.typeOf(P.value());
      const spirv2llvm::Type &PT = M.type(T);
      if (PT.Kind != TypeKind::Pointer) {
        CI.Params.push_back(ParamAbi::Value);
        for (const ScalarType &S : components(T))
          Params.push_back(laneType(S, true));
      } else if (MemoryParams.count(P.value())) {
        CI.Params.push_back(ParamAbi::MemoryPointer);
        Params.append({Ptr, B.getInt64Ty(),
                       FixedVectorType::get(B.getInt64Ty(), W)});
      } else {
        CI.Params.push_back(ParamAbi::RegisterPointer);
        Params.append(components(PT.Element).size(), Ptr);
      }
    }
    SmallVector<Type *, 4> Ret;
    if (M.type(Fun.ResultType).Kind != TypeKind::Void)
      for (const ScalarType &S : components(Fun.ResultType))
        Ret.push_back(laneType(S, true));
    Type *RetTy = Ret.empty() ? B.getVoidTy()
                              : static_cast<Type *>(StructType::get(Ctx, Ret));
    CI.LF = llvm::Function::Create(FunctionType::get(RetTy, Params, false),
                                   GlobalValue::InternalLinkage,
                                   "s2l.fn." + llvmName(Fun.Id.value()),
                                   LM.get());
    CI.LF->addFnAttr(Attribute::NoUnwind);
  }
}

void SimdEmitter::createEnvironment() {
  if (Callees.empty())
    return;
  Type *Ptr = B.getPtrTy();
  AllocaInst *Env = createSlot(ArrayType::get(Ptr, EnvSize), "env");
  EnvPtr = Env;
  auto Put = [&](unsigned Index, Value *P) {
    B.CreateStore(P, B.CreateConstInBoundsGEP1_32(Ptr, Env, Index));
  };
  Put(0, KilledSlot);
  Put(1, DemotedSlot ? DemotedSlot
                     : static_cast<Value *>(ConstantPointerNull::get(
                           PointerType::get(Ctx, 0))));
  for (uint32_t Var : EnvVars) {
    unsigned Index = EnvIndex[Var];
    if (DynamicallyIndexed.count(Var)) {
      Put(Index, Pointers[Var].Base);
      continue;
    }
    for (const VarSlot &S : VarSlots[Var])
      Put(Index++, S.Ptr);
  }
}

void SimdEmitter::loadEnvironment() {
  Type *Ptr = B.getPtrTy();
  auto Get = [&](unsigned Index, const Twine &Name) {
    return B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_32(Ptr, EnvPtr, Index),
                        Name);
  };
  KilledSlot = Get(0, "killed.ptr");
  if (HasDemote)
    DemotedSlot = Get(1, "demoted.ptr");
  for (uint32_t Var : EnvVars) {
    const Variable &V = *M.findVariable(Var);
    unsigned Index = EnvIndex[Var];
    if (DynamicallyIndexed.count(Var)) {
      PointerValue P;
      P.Var = Var;
      P.Pointee = V.Pointee;
      P.InMemory = true;
      P.Storage = V.Storage;
      P.Base = Get(Index, llvmName(Var) + ".mem");
      P.Size = B.getInt64(std::max<uint64_t>(ML.sizeOf(V.Pointee), 4));
      P.Offset = B.getInt64(0);
      P.AffineBase = P.Offset;
      Pointers[Var] = P;
      continue;
    }
    bool Varying = UI.variable(V.Id) == Uniformity::Varying;
    auto &Slots = VarSlots[Var];
    for (const ScalarType &S : components(V.Pointee))
      Slots.push_back({Get(Index++, llvmName(Var)), laneType(S, Varying)});
    Pointers[Var] = PointerValue{Var, 0, V.Pointee};
  }
}

Value *SimdEmitter::uniformBlockMask() {
  if (!FnMayKill)
    return EntryMask;
  // A callee may have killed lanes since the function began.
  Value *Killed = B.CreateLoad(maskType(), KilledSlot, "killed");
  return B.CreateAnd(EntryMask, B.CreateNot(Killed), "alive");
}

Value *SimdEmitter::storeMask() {
  if (!DemotedSlot)
    return CurMask;
  Value *Demoted = B.CreateLoad(maskType(), DemotedSlot, "demoted");
  return B.CreateAnd(CurMask, B.CreateNot(Demoted), "store.mask");
}

void SimdEmitter::emitCallee(uint32_t FnIndex) {
  resetFunctionState();
  const CalleeInfo &CI = Callees[FnIndex];
  Fn = FnIndex;
  F = &M.Functions[Fn];
  A = &MA[Fn];
  LF = CI.LF;
  AllocaBB = BasicBlock::Create(Ctx, "entry", LF);
  B.SetInsertPoint(AllocaBB);
  ArgsPtr = LF->getArg(0);
  ArgsPtr->setName("args");
  EnvPtr = LF->getArg(1);
  EnvPtr->setName("env");
  EntryMask = LF->getArg(2);
  EntryMask->setName("mask");
  Type *Ptr = B.getPtrTy();
  InputsPtr = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, ArgsPtr, 2),
                           "inputs");
  OutputsPtr = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, ArgsPtr, 3),
                            "outputs");
  // The watchdog flag, as the entry function finds it.
  Value *Cancel = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, ArgsPtr, 13),
                               "cancel.arg");
  CancelPtr = B.CreateSelect(B.CreateIsNull(Cancel),
                             LM->getNamedGlobal("s2l.never_cancelled"), Cancel,
                             "cancel");

  unsigned Arg = 3;
  for (size_t K = 0; K < F->Params.size(); ++K) {
    uint32_t Param = F->Params[K].value();
    TypeId T = M.typeOf(Param);
    switch (CI.Params[K]) {
    case ParamAbi::Value: {
      LaneValue V;
      V.Varying = true;
      for (size_t C = 0; C < components(T).size(); ++C)
        V.Comps.push_back(LF->getArg(Arg++));
      ParamValues[Param] = std::move(V);
      break;
    }
    case ParamAbi::RegisterPointer: {
      TypeId Pointee = M.type(T).Element;
      auto &Slots = VarSlots[Param];
      for (const ScalarType &S : components(Pointee))
        Slots.push_back({LF->getArg(Arg++), laneType(S, true)});
      Pointers[Param] = PointerValue{Param, 0, Pointee};
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
      Pointers[Param] = P;
      break;
    }
    }
  }
  if (!LF->getReturnType()->isVoidTy())
    for (Type *T : cast<StructType>(LF->getReturnType())->elements()) {
      AllocaInst *Slot = createSlot(T, "ret");
      B.CreateStore(PoisonValue::get(T), Slot);
      RetSlots.push_back(Slot);
    }
  emitFunctionBody();
  finishFunction();
  if (!Failed)
    promoteSlots();
}

bool SimdEmitter::emitCall(const Instruction &I) {
  if (I.Opcode != spv::Op::OpFunctionCall)
    return false;
  auto FIt = M.FunctionIndexOf.find(I.Operands[0]);
  auto CIt = FIt == M.FunctionIndexOf.end() ? Callees.end()
                                            : Callees.find(FIt->second);
  if (CIt == Callees.end()) {
    failAt(I, "calls " + M.friendlyName(I.Operands[0]) +
                  ", which is not a function the entry point reaches");
    return true;
  }
  const CalleeInfo &CI = CIt->second;
  const Function &Callee = M.Functions[FIt->second];
  SmallVector<Value *, 16> Args = {ArgsPtr, EnvPtr, CurMask};
  for (size_t K = 1; K < I.Operands.size(); ++K) {
    uint32_t Arg = I.Operands[K];
    switch (CI.Params[K - 1]) {
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
      auto &Slots = VarSlots[P.Var];
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
  Value *R = B.CreateCall(CI.LF, Args);
  if (CI.MayKill) {
    // Lanes the callee killed take no further part.
    Value *Killed = B.CreateLoad(maskType(), KilledSlot, "killed");
    CurMask = B.CreateAnd(CurMask, B.CreateNot(Killed), "alive");
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
