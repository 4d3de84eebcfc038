//===- SimdEmitter.cpp - Entry function set-up and finishing --------------===//
#include "codegen/common/EmitterCommon.h"
#include "codegen/simd/SimdEmitter.h"
#include "codegen/simd/SlotPromotion.h"

#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

SimdEmitter::SimdEmitter(const Module &M, const EntryPoint &EP,
                         const cfg::ModuleAnalysis &MA,
                         const UniformityInfo &UI, const CodegenOptions &Opts,
                         LLVMContext &Ctx)
    : M(M), EP(EP), MA(MA), UI(UI), Opts(Opts), Ctx(Ctx), W(Opts.Width),
      B(Ctx), ML(M) {}

void SimdEmitter::fail(const Twine &Msg) {
  if (!Failed) {
    Failed = true;
    consumeError(std::move(Err));
    Err = makeError(Msg);
  }
}

void SimdEmitter::failAt(const Instruction &I, const Twine &Msg) {
  fail("word " + Twine(I.WordOffset) + ": " + opName(I.Opcode) + ": " + Msg);
}

AllocaInst *SimdEmitter::createSlot(Type *T, const Twine &Name) {
  IRBuilder<> AB(AllocaBB, AllocaBB->begin());
  return AB.CreateAlloca(T, nullptr, Name);
}

void SimdEmitter::createEntryFunction() {
  // Mirrors s2l_group_args in include/spirv2llvm/abi.h field by field.
  Type *I32 = B.getInt32Ty();
  Type *Ptr = B.getPtrTy();
  ArrayType *V3 = ArrayType::get(I32, 3);
  ArgsType = StructType::create(
      Ctx, {I32, I32, Ptr, Ptr, Ptr, Ptr, Ptr, V3, V3, I32, I32, Ptr, Ptr, Ptr},
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

  AllocaBB = BasicBlock::Create(Ctx, "entry", LF);
  B.SetInsertPoint(AllocaBB);
  Value *Active = B.CreateLoad(I32, B.CreateStructGEP(ArgsType, ArgsPtr, 0),
                               "active");
  Value *Bits = B.CreateTrunc(Active, B.getIntNTy(W));
  EntryMask = B.CreateBitCast(Bits, maskType(), "entry.mask");
  InputsPtr = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, ArgsPtr, 2),
                           "inputs");
  OutputsPtr = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, ArgsPtr, 3),
                            "outputs");
  // The watchdog flag, or a constant 0 when the caller passes none, so that
  // back edges need no null check.
  Value *Cancel = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, ArgsPtr, 13),
                               "cancel.arg");
  auto *Never = new GlobalVariable(*LM, I32, /*isConstant=*/true,
                                   GlobalValue::PrivateLinkage,
                                   B.getInt32(0), "s2l.never_cancelled");
  CancelPtr = B.CreateSelect(B.CreateIsNull(Cancel), Never, Cancel, "cancel");
}

Value *SimdEmitter::notCancelled() {
  LoadInst *Flag = B.CreateAlignedLoad(B.getInt32Ty(), CancelPtr, Align(4),
                                       /*isVolatile=*/true, "cancel.flag");
  Flag->setAtomic(AtomicOrdering::Monotonic);
  return B.CreateICmpEQ(Flag, B.getInt32(0), "not.cancelled");
}

void SimdEmitter::findCrossBlockValues() {
  auto &DefBlock = DefBlockOf;
  for (cfg::BlockIndex Bk = 0; Bk < F->Blocks.size(); ++Bk)
    for (uint32_t Index : F->Blocks[Bk].Insts)
      if (uint32_t Id = M.Insts[Index].Result.value())
        DefBlock[Id] = Bk;
  for (cfg::BlockIndex Bk : A->G.rpo()) {
    for (uint32_t Index : F->Blocks[Bk].Insts) {
      const Instruction &I = M.Insts[Index];
      for (size_t K = 0; K < I.Operands.size(); ++K) {
        if (!I.OperandIsId[K])
          continue;
        auto It = DefBlock.find(I.Operands[K]);
        if (It == DefBlock.end())
          continue;
        // Phi operands are read at the end of the predecessor, which the
        // edge code runs in: count the predecessor as the using block.
        cfg::BlockIndex UseBlock = Bk;
        if (I.Opcode == spv::Op::OpPhi && K % 2 == 0 &&
            K + 1 < I.Operands.size()) {
          auto P = F->BlockIndexOf.find(I.Operands[K + 1]);
          if (P != F->BlockIndexOf.end())
            UseBlock = P->second;
        }
        if (It->second != UseBlock)
          CrossBlock.insert(I.Operands[K]);
      }
    }
  }
  // Values defined inside a divergent loop keep, per lane, the value of the
  // last iteration that lane ran.
  for (const auto &[Id, Bk] : DefBlock) {
    if (!CrossBlock.count(Id))
      continue;
    for (uint32_t Node = A->Tree.loopOf(Bk); Node != 0;
         Node = A->Tree.node(Node).Parent) {
      const cfg::StructureNode &N = A->Tree.node(Node);
      if (N.Kind == cfg::StructureNodeKind::Loop &&
          UI.isDivergentLoop(Fn, N.Block)) {
        MaskedLiveOut.insert(Id);
        break;
      }
      if (N.Parent == ~0u)
        break;
    }
  }
}


void SimdEmitter::promoteSlots() {
  std::vector<AllocaInst *> Allocas;
  for (llvm::Instruction &I : *AllocaBB)
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
  // mem2reg places phis with iterated dominance frontiers, which walk the
  // whole dominator subtree of every block that stores to a slot. The
  // masked code is a chain of guarded blocks in which each block on the
  // chain dominates all later ones, so that walk makes large functions
  // quadratic (a 15,001-block shader spent a minute there). Large
  // functions get promoteSlotsLinear instead, which costs each slot's live
  // range (SlotPromotion.cpp). Small functions keep mem2reg, whose output
  // the golden tests show.
  constexpr size_t LargeFunctionBlocks = 1024;
  if (LF->size() > LargeFunctionBlocks) {
    auto Rest = promoteSlotsLinear(*LF, Allocas);
    Allocas.assign(Rest.begin(), Rest.end());
  }
  if (!Allocas.empty()) {
    DominatorTree DT(*LF);
    PromoteMemToReg(Allocas, DT);
  }
  // The zeroing diamonds (emitZeroStores) are empty now: fold them back,
  // last first: a diamond may start in the join block of the one before.
  for (BasicBlock *Pre : llvm::reverse(ZeroDiamonds)) {
    auto *Br = cast<BranchInst>(Pre->getTerminator());
    BasicBlock *Taken = Br->getSuccessor(0), *Other = Br->getSuccessor(1);
    BasicBlock *Join = Taken->getSingleSuccessor();
    ConstantFoldTerminator(Pre);
    DeleteDeadBlock(Other);
    MergeBlockIntoPredecessor(Taken);
    MergeBlockIntoPredecessor(Join);
  }
  ZeroDiamonds.clear();
}

void SimdEmitter::emitZeroStores(ArrayRef<AllocaInst *> Slots) {
  if (Slots.empty())
    return;
  // Stores in a block on the chain would make that block a def of every
  // slot, and it dominates the rest of the function: mem2reg's iterated
  // dominance frontier walks a def block's whole dominator subtree, so
  // each slot would cost the function's size (15,000 blocks took minutes).
  // Both arms of a diamond store; neither dominates anything else, and
  // the join's phis of two zeros fold away. promoteSlots() then folds the
  // always-true branch and merges the blocks back.
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Arm = BasicBlock::Create(Ctx, "zero", LF);
  BasicBlock *Dead = BasicBlock::Create(Ctx, "zero.dead", LF);
  BasicBlock *Join = BasicBlock::Create(Ctx, "zeroed", LF);
  B.CreateCondBr(B.getTrue(), Arm, Dead);
  for (BasicBlock *BB : {Arm, Dead}) {
    B.SetInsertPoint(BB);
    for (AllocaInst *Slot : Slots)
      B.CreateStore(Constant::getNullValue(Slot->getAllocatedType()), Slot);
    B.CreateBr(Join);
  }
  B.SetInsertPoint(Join);
  ZeroDiamonds.push_back(Pre);
}

void SimdEmitter::finishFunction() {
  if (RetSlots.size() || LF->getReturnType()->isVoidTy()) {
    // A callee returns what its lanes returned.
    if (LF->getReturnType()->isVoidTy()) {
      B.CreateRetVoid();
      return;
    }
    Value *R = PoisonValue::get(LF->getReturnType());
    for (unsigned C = 0; C < RetSlots.size(); ++C)
      R = B.CreateInsertValue(
          R, B.CreateLoad(RetSlots[C]->getAllocatedType(), RetSlots[C]), C);
    B.CreateRet(R);
    return;
  }
  Value *Killed = B.CreateLoad(maskType(), KilledSlot, "killed");
  if (DemotedSlot)
    Killed = B.CreateOr(Killed, B.CreateLoad(maskType(), DemotedSlot));
  Value *Alive = B.CreateAnd(EntryMask, B.CreateNot(Killed), "alive");
  Value *Bits = B.CreateBitCast(Alive, B.getIntNTy(W));
  B.CreateRet(B.CreateZExt(Bits, B.getInt32Ty(), "alive.bits"));
}

void SimdEmitter::resetFunctionState() {
  ZeroDiamonds.clear();
  InitBefore.clear();
  LF = nullptr;
  AllocaBB = nullptr;
  EntryMask = InputsPtr = OutputsPtr = ArgsPtr = EnvPtr = nullptr;
  KilledSlot = DemotedSlot = nullptr;
  MaskSlots.clear();
  ContSlots.clear();
  PhiSlots.clear();
  ValueSlots.clear();
  VarSlots.clear();
  ParamValues.clear();
  RetSlots.clear();
  DefBlockOf.clear();
  CrossBlock.clear();
  MaskedLiveOut.clear();
  Pointers.clear();
  OpaqueRefs.clear();
  PointerSlots.clear();
  PointerDefBlock.clear();
  Local.clear();
  LaneBases.clear();
  LaneBaseSlots.clear();
  CurBlock = cfg::NoBlock;
  CurMask = nullptr;
  FnMayKill = false;
}

uint32_t SimdEmitter::initItem(cfg::BlockIndex Bk) const {
  // The level whose chain runs Bk: its loop, or for a loop header the
  // level around that loop. Its predecessors all follow, at that level,
  // the item holding its immediate dominator; zeroing just before that item
  // keeps the slot's live range inside the construct. Inside a loop this
  // runs every iteration, as the loop's own resets do (emitLoop).
  const cfg::StructureTree &T = A->Tree;
  uint32_t Level = T.node(T.nodeOfBlock(Bk)).Parent;
  if (A->G.block(Bk).Merge == cfg::MergeKind::Loop)
    Level = T.node(Level).Parent;
  for (uint32_t N = T.nodeOfBlock(A->DT.idom(Bk)); N != ~0u;
       N = T.node(N).Parent)
    if (T.node(N).Parent == Level)
      return N;
  return T.node(Level).Children.front(); // not reached for valid trees
}

void SimdEmitter::emitFunctionBody() {
  findCrossBlockValues();
  for (const Block &Blk : F->Blocks)
    for (uint32_t Index : Blk.Insts)
      if (M.Insts[Index].Opcode == spv::Op::OpFunctionCall) {
        auto It = M.FunctionIndexOf.find(M.Insts[Index].Operands[0]);
        if (It != M.FunctionIndexOf.end() && Callees.count(It->second))
          FnMayKill |= Callees[It->second].MayKill;
      }

  // Slots: a Varying block gets a lane mask, a Uniform one (all lanes of
  // the call or none) just a "reached" flag: its mask is the entry mask.
  // Loop headers get the same for their back edge.
  MaskSlots.assign(A->G.size(), nullptr);
  ContSlots.assign(A->G.size(), nullptr);
  InitBefore.clear();
  for (cfg::BlockIndex Bk : A->G.rpo()) {
    bool U = isUniformBlock(Bk);
    Type *T = U ? B.getInt1Ty() : static_cast<Type *>(maskType());
    const std::string &Name = A->G.block(Bk).Name;
    MaskSlots[Bk] = createSlot(T, (U ? "reached." : "mask.") + Name);
    if (Bk == A->G.entry()) {
      B.CreateStore(U ? anyLane(EntryMask) : EntryMask, MaskSlots[Bk]);
      continue; // the entry block has neither phis nor a back edge
    }
    auto &Inits = InitBefore[initItem(Bk)];
    Inits.push_back(MaskSlots[Bk]);
    if (A->G.block(Bk).Merge == cfg::MergeKind::Loop) {
      ContSlots[Bk] = createSlot(T, "cont." + Name);
      Inits.push_back(ContSlots[Bk]);
    }
    // Phi accumulators: each incoming edge selects its value into them.
    for (uint32_t Index : F->Blocks[Bk].Insts) {
      const Instruction &I = M.Insts[Index];
      if (I.Opcode != spv::Op::OpPhi)
        break;
      uint32_t Id = I.Result.value();
      bool Varying = isVarying(Id);
      for (const ScalarType &S : components(I.ResultType)) {
        AllocaInst *Slot = createSlot(laneType(S, Varying), llvmName(Id));
        Inits.push_back(Slot);
        PhiSlots[Id].push_back(Slot);
      }
    }
  }
  createVariables();
  createMemoryVariables();
  if (F->Id == EP.Function)
    createEnvironment();
  else
    loadEnvironment();

  BasicBlock *Body = BasicBlock::Create(Ctx, "body", LF);
  B.CreateBr(Body);
  B.SetInsertPoint(Body);
  emitItems(0);
}

Expected<CodegenResult> SimdEmitter::run() {
  if (W != 4 && W != 8 && W != 16)
    return makeError("unsupported width " + Twine(W) + " (expected 4, 8 or 16)");
  auto FIt = M.FunctionIndexOf.find(EP.Function.value());
  if (FIt == M.FunctionIndexOf.end())
    return makeError("entry point \"" + EP.Name + "\" has no function");

  computeReflection();
  Lanes = computeLaneShapes(M, EP, MA, UI, LaneShapeOptions{W});
  Expected<InterfaceLayout> L = computeInterfaceLayout(M, EP, W);
  if (!L)
    return L.takeError();
  Layout = std::move(*L);

  LM = std::make_unique<llvm::Module>(EP.Name, Ctx);
  createEntryFunction();
  analyzeCalls();
  if (Failed)
    return std::move(Err);
  declareCallees();

  // The entry function.
  Fn = FIt->second;
  F = &M.Functions[Fn];
  A = &MA[Fn];
  Constant *Zero = Constant::getNullValue(maskType());
  KilledSlot = createSlot(maskType(), "killed.slot");
  B.CreateStore(Zero, KilledSlot);
  if (HasDemote) {
    DemotedSlot = createSlot(maskType(), "demoted.slot");
    Value *Helpers = Zero;
    if (NeedsHelpers) {
      // Every lane of a quad with an active lane runs (docs/abi.md); the
      // ones the caller left off are helpers from the start.
      Value *Active = EntryMask;
      Value *Bits = B.CreateBitCast(Active, B.getIntNTy(W));
      auto Rep = [&](uint32_t Pattern) {
        return ConstantInt::get(B.getIntNTy(W), Pattern & ((1u << W) - 1));
      };
      Bits = B.CreateOr(Bits, B.CreateAnd(B.CreateLShr(Bits, 1), Rep(0x5555)));
      Bits = B.CreateOr(Bits, B.CreateAnd(B.CreateShl(Bits, 1), Rep(0xAAAA)));
      Bits = B.CreateOr(Bits, B.CreateAnd(B.CreateLShr(Bits, 2), Rep(0x3333)));
      Bits = B.CreateOr(Bits, B.CreateAnd(B.CreateShl(Bits, 2), Rep(0xCCCC)));
      EntryMask = B.CreateBitCast(Bits, maskType(), "quad.mask");
      Helpers = B.CreateAnd(EntryMask, B.CreateNot(Active), "helpers");
    }
    B.CreateStore(Helpers, DemotedSlot);
  }
  emitFunctionBody();
  finishFunction();
  if (Failed)
    return std::move(Err);
  promoteSlots();

  for (uint32_t Callee : CalleeOrder) {
    emitCallee(Callee);
    if (Failed)
      return std::move(Err);
  }

  return finishModule(std::move(LM), EP, Opts, std::move(Layout), Compute);
}

} // namespace spirv2llvm::simd

namespace spirv2llvm {

Expected<CodegenResult> emitSimdModule(const Module &M, const EntryPoint &EP,
                                       const cfg::ModuleAnalysis &MA,
                                       const UniformityInfo &UI,
                                       const CodegenOptions &Opts,
                                       LLVMContext &Ctx) {
  return simd::SimdEmitter(M, EP, MA, UI, Opts, Ctx).run();
}

} // namespace spirv2llvm
