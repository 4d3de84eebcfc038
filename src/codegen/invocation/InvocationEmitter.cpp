//===- InvocationEmitter.cpp - Set-up, values and control flow ------------===//
//
// SPIR-V blocks map one to one to LLVM blocks, emitted in reverse post
// order so every definition is emitted before its uses (SPIR-V's dominance
// rule); phis are created when their block starts and filled once every
// block exists, one incoming value per LLVM predecessor edge.
//
//===----------------------------------------------------------------------===//
#include "codegen/invocation/InvocationEmitter.h"

#include "codegen/common/ComputeReflection.h"
#include "codegen/common/EmitterCommon.h"
#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/SROA.h"

using namespace llvm;

namespace spirv2llvm::invocation {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

InvocationEmitter::InvocationEmitter(const Module &M, const EntryPoint &EP,
                                     const cfg::ModuleAnalysis &MA,
                                     const CodegenOptions &Opts,
                                     LLVMContext &Ctx)
    : M(M), EP(EP), MA(MA), Opts(Opts), Ctx(Ctx), B(Ctx), ML(M) {}

void InvocationEmitter::fail(const Twine &Msg) {
  if (!Failed) {
    Failed = true;
    consumeError(std::move(Err));
    Err = makeError(Msg);
  }
}

void InvocationEmitter::failAt(const Instruction &I, const Twine &Msg) {
  fail("word " + Twine(I.WordOffset) + ": " + opName(I.Opcode) + ": " + Msg);
}

std::string InvocationEmitter::llvmName(uint32_t Id) const {
  auto It = M.Names.find(Id);
  if (It != M.Names.end() && !It->second.empty())
    return It->second;
  return "";
}

Value *InvocationEmitter::argField(unsigned Index, Type *T, const Twine &N) {
  return B.CreateLoad(T, B.CreateStructGEP(ArgsType, ArgsPtr, Index), N);
}

Type *InvocationEmitter::typeOf(TypeId Id) {
  auto It = TypeCache.find(Id.value());
  if (It != TypeCache.end())
    return It->second;
  const spirv2llvm::Type *T = M.findType(Id.value());
  Type *R = nullptr;
  if (!T) {
    fail("id " + Twine(Id.value()) + " is not a type");
    return B.getInt32Ty();
  }
  switch (T->Kind) {
  case TypeKind::Void:
    R = B.getVoidTy();
    break;
  case TypeKind::Bool:
    R = B.getInt1Ty();
    break;
  case TypeKind::Int:
    R = B.getIntNTy(T->Width);
    break;
  case TypeKind::Float:
    R = T->Width == 16   ? B.getHalfTy()
        : T->Width == 64 ? B.getDoubleTy()
                         : B.getFloatTy();
    break;
  case TypeKind::Vector:
    R = FixedVectorType::get(typeOf(T->Element), T->Count);
    break;
  case TypeKind::Matrix:
  case TypeKind::Array:
    R = ArrayType::get(typeOf(T->Element), T->Count);
    break;
  case TypeKind::RuntimeArray:
    R = ArrayType::get(typeOf(T->Element), 0);
    break;
  case TypeKind::Struct: {
    SmallVector<Type *, 8> Members;
    for (TypeId Mb : T->Members)
      Members.push_back(typeOf(Mb));
    R = StructType::get(Ctx, Members);
    break;
  }
  case TypeKind::Pointer:
  case TypeKind::Image:
  case TypeKind::Sampler:
    // Images and samplers are handles (ImageInstr.h).
    R = B.getPtrTy();
    break;
  case TypeKind::SampledImage:
    R = StructType::get(Ctx, {B.getPtrTy(), B.getPtrTy()});
    break;
  default:
    fail("type " + M.friendlyName(Id.value()) +
         " is not supported by the invocation back end");
    R = B.getInt32Ty();
    break;
  }
  TypeCache[Id.value()] = R;
  return R;
}

Constant *InvocationEmitter::constantValue(uint32_t Id) {
  const spirv2llvm::Constant *K = M.findConstant(Id);
  if (!K) {
    fail("constituent " + M.friendlyName(Id) + " is not a constant");
    return PoisonValue::get(B.getInt32Ty());
  }
  Type *T = typeOf(K->Type);
  switch (K->Kind) {
  case ConstantKind::Null:
  case ConstantKind::Undef:
    // Undefined values are zero: deterministic, and never poison that a
    // branch could turn into undefined behaviour.
    return Constant::getNullValue(T);
  case ConstantKind::Bool:
    return B.getInt1(K->BoolValue);
  case ConstantKind::Scalar: {
    if (K->SpecOpInst != ~0u) {
      fail("unsupported: OpSpecConstantOp " + M.friendlyName(Id) +
           " left unfolded by specialization (or --no-validate, which "
           "skips it)");
      return Constant::getNullValue(T);
    }
    if (T->isFloatingPointTy())
      return ConstantFP::get(
          Ctx, APFloat(T->getFltSemantics(),
                       APInt(T->getPrimitiveSizeInBits(), K->scalarBits())));
    if (T->isIntegerTy())
      return ConstantInt::get(T, K->scalarBits());
    fail("constant " + M.friendlyName(Id) + " is not a scalar");
    return Constant::getNullValue(T);
  }
  case ConstantKind::Composite: {
    SmallVector<Constant *, 16> Elems;
    for (ValueId E : K->Elements)
      Elems.push_back(constantValue(E.value()));
    if (Failed)
      return Constant::getNullValue(T);
    if (isa<FixedVectorType>(T))
      return ConstantVector::get(Elems);
    if (auto *AT = dyn_cast<ArrayType>(T))
      if (Elems.size() == AT->getNumElements())
        return ConstantArray::get(AT, Elems);
    if (auto *ST = dyn_cast<StructType>(T))
      if (Elems.size() == ST->getNumElements())
        return ConstantStruct::get(ST, Elems);
    fail("constant " + M.friendlyName(Id) + " does not match its type");
    return Constant::getNullValue(T);
  }
  }
  return Constant::getNullValue(T);
}

bool InvocationEmitter::dominatesUse(uint32_t Id, const char *What) {
  auto D = DefBlock.find(Id);
  // Unvalidated input may use a value where its definition does not
  // dominate; LLVM would reject the IR.
  if (D == DefBlock.end() || CurBlock == cfg::NoBlock ||
      A->DT.dominates(D->second, CurBlock))
    return true;
  fail(Twine(What) + " " + M.friendlyName(Id) + " is used in block " +
       M.friendlyName(A->G.block(CurBlock).Label) +
       ", which its definition in block " +
       M.friendlyName(A->G.block(D->second).Label) + " does not dominate");
  return false;
}

Value *InvocationEmitter::get(uint32_t Id) {
  auto It = Values.find(Id);
  if (It != Values.end()) {
    if (!dominatesUse(Id, "value"))
      return PoisonValue::get(It->second->getType());
    return It->second;
  }
  if (M.kindOf(Id) == IdKind::Constant) {
    Constant *C = constantValue(Id);
    Values[Id] = C;
    return C;
  }
  fail("value " + M.friendlyName(Id) + " is used before it is defined" +
       (M.Variables.count(Id) ? " (a pointer used as a value)" : ""));
  TypeId T = M.typeOf(Id);
  return PoisonValue::get(T.value() ? typeOf(T) : B.getInt32Ty());
}

void InvocationEmitter::set(uint32_t Id, Value *V) {
  if (!V->hasName() && !isa<Constant>(V)) {
    std::string N = llvmName(Id);
    if (!N.empty())
      V->setName(N);
  }
  Values[Id] = V;
}

bool InvocationEmitter::pointerOf(const Instruction &I, uint32_t Id,
                                  InvPointer &P) {
  auto It = Pointers.find(Id);
  if (It != Pointers.end()) {
    if (!dominatesUse(Id, "pointer"))
      return false;
    P = It->second;
    bool Chain = isPlainAccessChain(I.Opcode);
    if (P.DescArray && !Chain) {
      failAt(I, "an array of buffer blocks (" + M.friendlyName(Id) +
                    ") must be indexed before it is used");
      return false;
    }
    return true;
  }
  const Variable *V = M.findVariable(Id);
  if (V && V->Storage == spv::StorageClass::UniformConstant)
    failAt(I, "unsupported: images and samplers (" + M.friendlyName(Id) +
                  ") in the invocation back end");
  else
    failAt(I, "unsupported: pointer " + M.friendlyName(Id) +
                  " in the invocation back end (only variables and access "
                  "chains into them)");
  return false;
}

void InvocationEmitter::createEntryFunction() {
  // Mirrors s2l_group_args in include/spirv2llvm/abi.h field by field.
  Type *I32 = B.getInt32Ty();
  Type *Ptr = B.getPtrTy();
  ArrayType *V3 = ArrayType::get(I32, 3);
  ArgsType = StructType::create(
      Ctx, {I32, I32, Ptr, Ptr, Ptr, Ptr, Ptr, V3, V3, I32, I32, Ptr, Ptr},
      "s2l.group_args");
  FunctionType *FT = FunctionType::get(I32, {Ptr}, false);
  LF = llvm::Function::Create(FT, GlobalValue::ExternalLinkage,
                              Opts.SymbolPrefix + EP.Name, LM.get());
  ArgsPtr = LF->getArg(0);
  ArgsPtr->setName("args");
  LF->addParamAttr(0, Attribute::NoAlias);
  LF->addParamAttr(0, Attribute::NoCapture);
  LF->addParamAttr(0, Attribute::ReadOnly);
  LF->addFnAttr(Attribute::NoUnwind);
  EntryBB = BasicBlock::Create(Ctx, "entry", LF);
  B.SetInsertPoint(EntryBB);
}

void InvocationEmitter::emitReturn(bool Alive) {
  if (Alive)
    copyInterface(/*Inputs=*/false);
  B.CreateRet(B.getInt32(Alive ? 1 : 0));
}

void InvocationEmitter::emitBlock(cfg::BlockIndex Bk) {
  CurBlock = Bk;
  B.SetInsertPoint(Blocks[Bk]);
  const Block &SB = F->Blocks[Bk];
  for (uint32_t Index : SB.Insts) {
    const Instruction &I = M.Insts[Index];
    if (Failed)
      return;
    if (I.Opcode == spv::Op::OpPhi) {
      PHINode *Phi = B.CreatePHI(typeOf(I.ResultType),
                                 unsigned(I.Operands.size() / 2));
      Phis.push_back({&I, Phi});
      set(I.Result.value(), Phi);
      continue;
    }
    if (Index == SB.TerminatorInst) {
      EndOf[B.GetInsertBlock()] = Bk;
      emitTerminator(I);
      return;
    }
    emitInstruction(I);
  }
  fail("block " + M.friendlyName(SB.Label.value()) + " has no terminator");
}

void InvocationEmitter::emitTerminator(const Instruction &T) {
  auto Target = [&](uint32_t Label) -> BasicBlock * {
    auto It = F->BlockIndexOf.find(Label);
    if (It == F->BlockIndexOf.end() || !Blocks[It->second]) {
      failAt(T, "branch to an unknown block " + M.friendlyName(Label));
      return nullptr;
    }
    return Blocks[It->second];
  };
  // The CFG has read the terminator (cfg::TerminatorKind).
  switch (A->G.block(CurBlock).Terminator) {
  case cfg::TerminatorKind::Branch:
    if (BasicBlock *To = Target(T.Operands[0]))
      B.CreateBr(To);
    return;
  case cfg::TerminatorKind::BranchConditional: {
    Value *Cond = get(T.Operands[0]);
    BasicBlock *True = Target(T.Operands[1]), *False = Target(T.Operands[2]);
    if (True && False && Cond->getType()->isIntegerTy(1))
      B.CreateCondBr(Cond, True, False);
    else if (!Failed)
      failAt(T, "condition is not a boolean");
    return;
  }
  case cfg::TerminatorKind::Switch: {
    Value *Sel = get(T.Operands[0]);
    BasicBlock *Default = Target(T.Operands[1]);
    if (!Sel->getType()->isIntegerTy() || !Default) {
      if (!Failed)
        failAt(T, "selector is not an integer");
      return;
    }
    unsigned Bits = Sel->getType()->getIntegerBitWidth();
    size_t Words = Bits > 32 ? 2 : 1;
    SwitchInst *SI = B.CreateSwitch(Sel, Default);
    SmallPtrSet<ConstantInt *, 8> Seen;
    for (size_t K = 2; K + Words < T.Operands.size(); K += Words + 1) {
      uint64_t V = T.Operands[K];
      if (Words == 2)
        V |= uint64_t(T.Operands[K + 1]) << 32;
      auto *C = ConstantInt::get(cast<IntegerType>(Sel->getType()), V);
      BasicBlock *To = Target(T.Operands[K + Words]);
      if (!To)
        return;
      if (!Seen.insert(C).second) {
        failAt(T, "case value " + Twine(V) + " appears twice");
        return;
      }
      SI->addCase(C, To);
    }
    return;
  }
  case cfg::TerminatorKind::Return:
    if (!T.Operands.empty()) { // OpReturnValue
      if (IsEntry) {
        failAt(T, "entry points cannot return a value");
        return;
      }
      Value *V = get(T.Operands[0]);
      if (V->getType() != LF->getReturnType())
        failAt(T,
               "the returned value does not have the function's result type");
      else
        B.CreateRet(V);
    } else if (IsEntry) {
      emitReturn(true);
    } else if (LF->getReturnType()->isVoidTy()) {
      B.CreateRetVoid();
    } else {
      failAt(T, "a function with a result must return a value");
    }
    return;
  case cfg::TerminatorKind::Kill:
    if (!IsEntry) {
      failAt(T, "unsupported: ending the invocation inside a called function "
                "in the invocation back end (run without --no-inline)");
      return;
    }
    // The invocation ends without writing its outputs; the caller sees 0.
    emitReturn(false);
    return;
  case cfg::TerminatorKind::Unreachable:
    B.CreateUnreachable();
    return;
  }
}

void InvocationEmitter::fillPhis() {
  for (auto &[I, Phi] : Phis) {
    // Operands: (value, parent label) pairs.
    std::unordered_map<uint32_t, uint32_t> ValueOfParent;
    for (size_t K = 0; K + 1 < I->Operands.size(); K += 2)
      ValueOfParent[I->Operands[K + 1]] = I->Operands[K];
    for (BasicBlock *Pred : predecessors(Phi->getParent())) {
      auto E = EndOf.find(Pred);
      uint32_t Label =
          E == EndOf.end() ? 0 : A->G.block(E->second).Label;
      auto V = ValueOfParent.find(Label);
      if (E == EndOf.end() || V == ValueOfParent.end()) {
        failAt(*I, "no incoming value for predecessor " +
                       M.friendlyName(Label));
        return;
      }
      // The value is read at the end of the predecessor.
      CurBlock = E->second;
      Value *In = get(V->second);
      if (In->getType() != Phi->getType()) {
        failAt(*I, "incoming value " + M.friendlyName(V->second) +
                       " does not have the phi's type");
        return;
      }
      Phi->addIncoming(In, Pred);
    }
  }
}

void InvocationEmitter::emitFunction(uint32_t FnIndex, llvm::Function *Fun,
                                     bool Entry) {
  Fn = FnIndex;
  F = &M.Functions[Fn];
  A = &MA[Fn];
  LF = Fun;
  IsEntry = Entry;
  // SPIR-V ids are local to their function, except constants.
  for (auto It = Values.begin(); It != Values.end();)
    It = isa<Constant>(It->second) ? std::next(It) : Values.erase(It);
  Pointers.clear();
  DefBlock.clear();
  EndOf.clear();
  Phis.clear();
  DiscardSlot = nullptr;
  CurBlock = cfg::NoBlock;
  if (!Entry) {
    EntryBB = BasicBlock::Create(Ctx, "entry", LF);
    B.SetInsertPoint(EntryBB);
    ArgsPtr = LF->getArg(0);
    EnvPtr = LF->getArg(1);
    bindParameters();
  }
  for (cfg::BlockIndex Bk = 0; Bk < F->Blocks.size(); ++Bk)
    for (uint32_t Index : F->Blocks[Bk].Insts)
      if (uint32_t Id = M.Insts[Index].Result.value())
        DefBlock[Id] = Bk;
  createVariables();
  if (Failed)
    return;

  Blocks.assign(F->Blocks.size(), nullptr);
  for (cfg::BlockIndex Bk : A->G.rpo())
    Blocks[Bk] = BasicBlock::Create(Ctx, A->G.block(Bk).Name, LF);
  B.CreateBr(Blocks[A->G.entry()]);
  for (cfg::BlockIndex Bk : A->G.rpo()) {
    emitBlock(Bk);
    if (Failed)
      return;
  }
  CurBlock = cfg::NoBlock;
  fillPhis();
}

Expected<CodegenResult> InvocationEmitter::run() {
  auto FIt = M.FunctionIndexOf.find(EP.Function.value());
  if (FIt == M.FunctionIndexOf.end())
    return makeError("entry point \"" + EP.Name + "\" has no function");
  Fn = FIt->second;
  F = &M.Functions[Fn];
  A = &MA[Fn];
  switch (EP.Model) {
  case spv::ExecutionModel::GLCompute:
  case spv::ExecutionModel::Vertex:
  case spv::ExecutionModel::Fragment:
    break;
  default:
    return makeError("unsupported: the invocation back end runs compute, "
                     "vertex and fragment entry points");
  }
  if (EP.Model == spv::ExecutionModel::GLCompute) {
    ComputeReflection R = reflectCompute(M, EP, ML);
    if (!R.Errors.empty())
      return makeError(R.Errors.front());
    Compute = R.Info;
    // Workgroup variables are addrspace(3) globals; the runtime sizes the
    // block when it maps them (Groupshared.cpp).
    Compute.WorkgroupMemorySize = 0;
  }
  // With GL_EXT_shared_memory_block, Block-decorated workgroup variables
  // alias one another; here each is its own addrspace(3) global.
  unsigned WorkgroupBlocks = 0;
  for (ValueId Id : M.GlobalVariables) {
    const Variable &V = *M.findVariable(Id.value());
    if (V.Storage == spv::StorageClass::Workgroup &&
        M.hasDecoration(V.Pointee.value(), spv::Decoration::Block))
      ++WorkgroupBlocks;
  }
  if (WorkgroupBlocks > 1)
    return makeError("unsupported: " + Twine(WorkgroupBlocks) +
                     " workgroup blocks with an explicit layout, which alias "
                     "one another, in the invocation back end (each "
                     "Workgroup variable is its own groupshared global)");
  Expected<InterfaceLayout> L = computeInterfaceLayout(M, EP, /*Width=*/1);
  if (!L)
    return L.takeError();
  Layout = std::move(*L);

  LM = std::make_unique<llvm::Module>(EP.Name, Ctx);
  createEntryFunction();
  // Per-invocation global variables, in the order of the callees' %env.
  for (ValueId Id : M.GlobalVariables) {
    spv::StorageClass SC = M.findVariable(Id.value())->Storage;
    if (SC == spv::StorageClass::Private || SC == spv::StorageClass::Input ||
        SC == spv::StorageClass::Output)
      EnvVars.push_back(Id.value());
  }
  declareCallees();
  if (Failed)
    return std::move(Err);
  emitFunction(Fn, LF, /*Entry=*/true);
  if (Failed)
    return std::move(Err);
  for (auto &[Index, Callee] : Callees) {
    emitFunction(Index, Callee, /*Entry=*/false);
    if (Failed)
      return std::move(Err);
  }

  // Variables into SSA values where their uses allow it: SROA also turns
  // component accesses (GEPs into vector variables, such as a built-in's
  // .x) into extractelement. Dynamically indexed arrays stay in memory.
  {
    FunctionAnalysisManager FAM;
    PassBuilder PB;
    PB.registerFunctionAnalyses(FAM);
    FunctionPassManager FPM, Large;
    FPM.addPass(SROAPass(SROAOptions::PreserveCFG));
    // Folds extractvalue(insertvalue ...) left by whole-struct loads whose
    // members are used one by one.
    FPM.addPass(InstSimplifyPass());
    FPM.addPass(DCEPass());
    Large.addPass(InstSimplifyPass());
    Large.addPass(DCEPass());
    // Whole-aggregate copies of large variables become one load and store
    // per element under SROA, and promoting tens of thousands of them
    // took 14 s on a 2 KiB module (a fuzz finding): functions whose
    // variables hold more than 16 KiB keep them in memory (the JIT's own
    // pipeline still optimizes them).
    const DataLayout &DL = LM->getDataLayout();
    for (llvm::Function &Fun : *LM) {
      if (Fun.isDeclaration())
        continue;
      uint64_t Bytes = 0;
      for (llvm::Instruction &Inst : Fun.getEntryBlock())
        if (auto *AI = dyn_cast<AllocaInst>(&Inst))
          Bytes += DL.getTypeAllocSize(AI->getAllocatedType());
      (Bytes > 16 * 1024 ? Large : FPM).run(Fun, FAM);
    }
  }

  return finishModule(std::move(LM), EP, Opts, std::move(Layout), Compute);
}

} // namespace spirv2llvm::invocation

namespace spirv2llvm {

Expected<CodegenResult> emitInvocationModule(const Module &M,
                                             const EntryPoint &EP,
                                             const cfg::ModuleAnalysis &MA,
                                             const CodegenOptions &Opts,
                                             LLVMContext &Ctx) {
  return invocation::InvocationEmitter(M, EP, MA, Opts, Ctx).run();
}

} // namespace spirv2llvm
