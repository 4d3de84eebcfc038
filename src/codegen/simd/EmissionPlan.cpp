//===- EmissionPlan.cpp - What the SIMD emitter decides before emitting ---===//
#include "codegen/simd/EmissionPlan.h"

#include "codegen/common/InterfaceLayout.h"
#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"
#include "uniformity/CrossBlockValues.h"

using namespace llvm;

namespace spirv2llvm::simd {

namespace {

class Planner {
public:
  Planner(const Module &M, const EntryPoint &EP, const cfg::ModuleAnalysis &MA,
          const UniformityInfo &UI)
      : M(M), EP(EP), MA(MA), UI(UI) {}

  Expected<EmissionPlan> run();

private:
  Error orderFunctions(std::vector<uint32_t> &Order);
  void findDynamicIndexing(ArrayRef<uint32_t> Order);
  Error agreeOnPointerParams(ArrayRef<uint32_t> Order);
  void findKills(ArrayRef<uint32_t> Order);
  void findHelperNeeds(ArrayRef<uint32_t> Order);
  Error layoutEnvironment();
  void findCrossBlockValues(uint32_t Fn, FunctionPlan &FP) const;
  Error assignParamAbis();
  /// The root variable or parameter of a pointer (through access chains).
  uint32_t pointerRoot(uint32_t Ptr) const;
  template <typename Fn> void forEachInst(ArrayRef<uint32_t> Order, Fn Body) {
    for (uint32_t F : Order)
      for (const Block &Blk : M.Functions[F].Blocks)
        for (uint32_t Index : Blk.Insts)
          Body(F, M.Insts[Index]);
  }

  const Module &M;
  const EntryPoint &EP;
  const cfg::ModuleAnalysis &MA;
  const UniformityInfo &UI;
  EmissionPlan P;
};

uint32_t Planner::pointerRoot(uint32_t Ptr) const {
  for (unsigned Steps = 0; Steps < 4096; ++Steps) {
    const Instruction *D = M.def(Ptr);
    if (!D || !(isAccessChain(D->Opcode) || D->Opcode == spv::Op::OpCopyObject))
      return Ptr;
    Ptr = D->Operands[0];
  }
  return Ptr;
}

Error Planner::orderFunctions(std::vector<uint32_t> &Order) {
  // Depth-first over the call graph: post-order puts callees first, and a
  // function met again while on the stack is recursion, which SPIR-V
  // forbids.
  enum : uint8_t { New, OnStack, Done };
  std::vector<uint8_t> State(M.Functions.size(), New);
  struct Frame {
    uint32_t Fn;
    std::vector<uint32_t> Targets;
    size_t Next = 0;
  };
  Error Err = Error::success();
  auto CallsOf = [&](uint32_t Fn) {
    std::vector<uint32_t> T;
    for (const Block &Blk : M.Functions[Fn].Blocks)
      for (uint32_t Index : Blk.Insts) {
        const Instruction &I = M.Insts[Index];
        if (I.Opcode != spv::Op::OpFunctionCall)
          continue;
        auto It = M.FunctionIndexOf.find(I.Operands[0]);
        if (It == M.FunctionIndexOf.end()) {
          if (!Err)
            Err = makeErrorAt(I.WordOffset, std::string(opName(I.Opcode)) +
                                                ": calls " +
                                                M.friendlyName(I.Operands[0]) +
                                                ", which is not a function");
          continue;
        }
        T.push_back(It->second);
      }
    return T;
  };
  std::vector<Frame> Stack;
  Stack.push_back({P.EntryFn, CallsOf(P.EntryFn)});
  State[P.EntryFn] = OnStack;
  while (!Stack.empty()) {
    Frame &Top = Stack.back();
    if (Top.Next == Top.Targets.size()) {
      State[Top.Fn] = Done;
      Order.push_back(Top.Fn);
      Stack.pop_back();
      continue;
    }
    uint32_t T = Top.Targets[Top.Next++];
    if (State[T] == OnStack) {
      if (Err)
        return Err;
      return makeError("function " + M.friendlyName(M.Functions[T].Id.value()) +
                       " is called recursively, which SPIR-V does not allow");
    }
    if (State[T] == New) {
      State[T] = OnStack;
      Stack.push_back({T, CallsOf(T)});
    }
  }
  return Err;
}

void Planner::findDynamicIndexing(ArrayRef<uint32_t> Order) {
  // Variables and parameters indexed with a non-constant index need memory.
  forEachInst(Order, [&](uint32_t, const Instruction &I) {
    if (!isPlainAccessChain(I.Opcode))
      return;
    bool Dynamic = false;
    for (size_t K = 1; K < I.Operands.size(); ++K) {
      const spirv2llvm::Constant *C = M.findConstant(I.Operands[K]);
      Dynamic |= !C || C->Kind != ConstantKind::Scalar || C->IsSpec;
    }
    if (!Dynamic)
      return;
    uint32_t Root = pointerRoot(I.Operands[0]);
    if (const Variable *V = M.findVariable(Root)) {
      if (V->Storage == spv::StorageClass::Function ||
          V->Storage == spv::StorageClass::Private)
        P.DynamicallyIndexed.insert(Root);
    } else if (const Instruction *D = M.def(Root);
               D && D->Opcode == spv::Op::OpFunctionParameter) {
      P.MemoryParams.insert(Root);
    }
  });
}

Error Planner::agreeOnPointerParams(ArrayRef<uint32_t> Order) {
  // To a fixed point: a memory parameter makes what is passed to it memory,
  // and memory passed to a parameter makes it a memory parameter.
  auto IsMemory = [&](uint32_t Root) {
    if (P.DynamicallyIndexed.count(Root) || P.MemoryParams.count(Root))
      return true;
    const Variable *V = M.findVariable(Root);
    return V && !isPerInvocationStorage(V->Storage);
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    Error Err = Error::success();
    forEachInst(Order, [&](uint32_t, const Instruction &I) {
      if (I.Opcode != spv::Op::OpFunctionCall || Err)
        return;
      const Function &Callee = M.Functions[M.FunctionIndexOf.at(I.Operands[0])];
      auto Fail = [&](const Twine &Msg) {
        Err = makeErrorAt(I.WordOffset,
                          std::string(opName(I.Opcode)) + ": " + Msg);
      };
      if (I.Operands.size() - 1 != Callee.Params.size())
        return Fail("passes " + Twine(I.Operands.size() - 1) +
                    " arguments to a function of " +
                    Twine(Callee.Params.size()) + " parameters");
      for (size_t K = 1; K < I.Operands.size(); ++K) {
        uint32_t Param = Callee.Params[K - 1].value();
        const spirv2llvm::Type *PT = M.findType(M.typeOf(Param).value());
        if (!PT || PT->Kind != TypeKind::Pointer)
          continue;
        uint32_t Root = pointerRoot(I.Operands[K]);
        const Variable *V = M.findVariable(Root);
        if (V && (V->Storage == spv::StorageClass::Input ||
                  V->Storage == spv::StorageClass::Output))
          return Fail("unsupported: passing " +
                      std::string(storageClassName(V->Storage)) + " variable " +
                      M.friendlyName(Root) + " to a function");
        if (P.MemoryParams.count(Param)) {
          if (V && isPerInvocationStorage(V->Storage))
            Changed |= P.DynamicallyIndexed.insert(Root).second;
          else if (!V)
            Changed |= P.MemoryParams.insert(Root).second;
        } else if (IsMemory(Root)) {
          Changed |= P.MemoryParams.insert(Param).second;
        }
      }
    });
    if (Err)
      return Err;
  }
  return Error::success();
}

void Planner::findKills(ArrayRef<uint32_t> Order) {
  // Callees first, so a call's target is known when its caller is seen.
  for (uint32_t Fn : Order) {
    FunctionPlan &FP = P.Functions[Fn];
    forEachInst({Fn}, [&](uint32_t, const Instruction &I) {
      if (I.Opcode == spv::Op::OpKill ||
          I.Opcode == spv::Op::OpTerminateInvocation)
        FP.MayKill = true;
      if (I.Opcode == spv::Op::OpFunctionCall &&
          P.Functions[M.FunctionIndexOf.at(I.Operands[0])].MayKill)
        FP.MayKill = FP.CallsKiller = true;
    });
  }
}

void Planner::findHelperNeeds(ArrayRef<uint32_t> Order) {
  forEachInst(Order, [&](uint32_t, const Instruction &I) {
    spv::Op Op = I.Opcode;
    P.HasDemote |= Op == spv::Op::OpDemoteToHelperInvocation;
    P.NeedsHelpers |= hasOpcodeFlag(Op, OpcodeFlag::QuadDerivatives) ||
                      Op == spv::Op::OpIsHelperInvocationEXT ||
                      Op == spv::Op::OpDemoteToHelperInvocation;
  });
  P.NeedsHelpers &= EP.Model == spv::ExecutionModel::Fragment;
  P.HasDemote |= P.NeedsHelpers;
}

Error Planner::layoutEnvironment() {
  // The killed and demoted masks, then each Private variable (a pointer per
  // register component, or its lane memory).
  P.EnvSize = 2;
  for (ValueId Id : M.GlobalVariables) {
    const Variable &V = *M.findVariable(Id.value());
    if (V.Storage != spv::StorageClass::Private)
      continue;
    P.EnvVars.push_back(Id.value());
    P.EnvIndex[Id.value()] = P.EnvSize;
    if (P.DynamicallyIndexed.count(Id.value())) {
      P.EnvSize += 1;
      continue;
    }
    std::vector<ScalarType> Comps;
    if (Error E = flattenType(M, V.Pointee, Comps))
      return E;
    P.EnvSize += unsigned(Comps.size());
  }
  return Error::success();
}

Error Planner::assignParamAbis() {
  for (uint32_t Fn : P.CalleeOrder) {
    FunctionPlan &FP = P.Functions[Fn];
    for (ValueId Param : M.Functions[Fn].Params) {
      const spirv2llvm::Type &PT = M.type(M.typeOf(Param.value()));
      FP.Params.push_back(PT.Kind != TypeKind::Pointer ? ParamAbi::Value
                          : P.MemoryParams.count(Param.value())
                              ? ParamAbi::MemoryPointer
                              : ParamAbi::RegisterPointer);
    }
  }
  return Error::success();
}

void Planner::findCrossBlockValues(uint32_t Fn, FunctionPlan &FP) const {
  CrossBlockValues V = crossBlockValues(M, MA[Fn], UI, Fn);
  FP.DefBlockOf = std::move(V.DefBlock);
  FP.CrossBlock = std::move(V.CrossBlock);
  FP.MaskedLiveOut = std::move(V.MaskedLiveOut);
}

Expected<EmissionPlan> Planner::run() {
  auto FIt = M.FunctionIndexOf.find(EP.Function.value());
  if (FIt == M.FunctionIndexOf.end())
    return makeError("entry point \"" + EP.Name + "\" has no function");
  P.EntryFn = FIt->second;
  std::vector<uint32_t> Order;
  if (Error E = orderFunctions(Order))
    return E;
  for (uint32_t Fn : Order)
    if (Fn != P.EntryFn)
      P.CalleeOrder.push_back(Fn);
  findDynamicIndexing(Order);
  if (Error E = agreeOnPointerParams(Order))
    return E;
  findKills(Order);
  findHelperNeeds(Order);
  if (Error E = layoutEnvironment())
    return E;
  if (Error E = assignParamAbis())
    return E;
  for (uint32_t Fn : Order)
    findCrossBlockValues(Fn, P.Functions[Fn]);
  return std::move(P);
}

} // namespace

Expected<EmissionPlan> planEmission(const Module &M, const EntryPoint &EP,
                                    const cfg::ModuleAnalysis &MA,
                                    const UniformityInfo &UI) {
  return Planner(M, EP, MA, UI).run();
}

} // namespace spirv2llvm::simd
