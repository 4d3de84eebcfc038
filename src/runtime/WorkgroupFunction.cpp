//===- WorkgroupFunction.cpp - One function per workgroup -----------------===//
//
// WorkgroupFunction.h says what the function is and why. The steps:
//
//  1. Decide: the entry must hold every barrier of the shader (calls are
//     not inlined with --no-inline; a barrier in a callee needs fibers).
//  2. Build the loop over SIMD groups around calls of the entry and inline
//     them (LLVM's InlineFunction), so that the per-group arguments become
//     constants and loop-carried values SROA turns into registers.
//  3. With barriers: split the body after each barrier, find the values
//     live across one (SSA liveness, a backward walk from the uses), spill
//     them to per-group slots at the barrier and reload them where the
//     group resumes, and repair SSA form with LLVM's SSAUpdater.
//
//===----------------------------------------------------------------------===//
#include "runtime/WorkgroupFunction.h"

#include "spirv2llvm/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopPeel.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

#include <cstddef>

using namespace llvm;

namespace spirv2llvm {

namespace {

cl::opt<bool> UnrollBarrierLoops(
    "s2l-unroll-barrier-loops", cl::Hidden, cl::init(true),
    cl::desc("compute: unroll loops around barriers whose trip count is "
             "bounded by a small constant before building the work-group "
             "function"));

cl::opt<bool> WorkgroupFunctions(
    "s2l-workgroup-functions", cl::Hidden, cl::init(true),
    cl::desc("compute: run each workgroup through one generated function "
             "looping over its SIMD groups (off: one call per group, "
             "fibers at barriers)"));

/// Bytes of per-group copies (private variables, values live across a
/// barrier) the work-group function may keep on the worker's stack: one
/// fiber stack's worth, which is what the fallback would give each group.
constexpr uint64_t PerGroupBudget = 256 * 1024;

/// The largest entry function with barriers that is split into regions.
constexpr size_t MaxBarrierFunctionBlocks = 5000;

/// The group state number of a group that has returned.
constexpr uint32_t StateDone = ~0u;

bool isBarrierCall(const Instruction &I) {
  const auto *C = dyn_cast<CallInst>(&I);
  return C && C->getMetadata(BarrierMetadata);
}

bool hasBarrier(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (isBarrierCall(I))
      return true;
  return false;
}

/// The most iterations of a loop around a barrier that are unrolled, and
/// the most instructions the unrolled copies may add.
constexpr unsigned MaxBarrierLoopTrips = 16;
constexpr unsigned MaxBarrierLoopGrowth = 4000;

bool containsBarrier(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (isBarrierCall(I))
        return true;
  return false;
}

/// Peels every iteration off the loops around barriers whose maximum trip
/// count SCEV knows (peeling handles loops with several exits, such as a
/// counted loop that also checks the cancel flag, which LLVM's unroller
/// leaves alone when only the maximum is known).
struct PeelBarrierLoopsPass : PassInfoMixin<PeelBarrierLoopsPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &AC = FAM.getResult<AssumptionAnalysis>(F);
    SmallVector<Loop *, 8> Loops;

    for (Loop *L : LI.getLoopsInPreorder())
      if (containsBarrier(*L))
        Loops.push_back(L);
    bool Changed = false;
    unsigned Growth = 0;
    // Innermost first: an outer loop's copies then hold the peeled code.
    for (Loop *L : reverse(Loops)) {
      if (findStringMetadataForLoop(L, "llvm.loop.unroll.disable") ||
          !canPeel(L))
        continue; // DontUnroll, or not in simplified form
      unsigned Trips = SE.getSmallConstantMaxTripCount(L);
      if (Trips == 0 || Trips > MaxBarrierLoopTrips)
        continue;
      unsigned Size = 0;
      for (BasicBlock *BB : L->blocks())
        Size += BB->size();
      if (Growth + Size * Trips > MaxBarrierLoopGrowth)
        continue;
      ValueToValueMapTy VMap;
      if (peelLoop(L, Trips, &LI, &SE, DT, &AC, /*PreserveLCSSA=*/true, VMap)) {
        Growth += Size * Trips;
        Changed = true;
      }
    }
    if (!Changed)
      return PreservedAnalyses::all();
    SE.forgetAllLoops();
    return PreservedAnalyses::none();
  }
};

/// Loops around barriers unrolled where their trip count is bounded by a
/// small constant (a tree reduction's `for (s = 128; s > 0; s >>= 1)`):
/// each barrier of the copies is then its own resume point with the
/// loop's counter a constant, so that no loop control, and fewer values,
/// cross barriers, and each region over the groups is straight-line code.
/// Loops of unknown or large trip counts stay loops.
void unrollBarrierLoops(Function &F) {
  bool Any = false;
  for (Instruction &I : instructions(F))
    Any = Any || isBarrierCall(I);
  if (!Any)
    return;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  // What the trip count needs: LLVM's function simplification (SSA values,
  // the translator's structured-exit flags threaded into plain loop exits,
  // rotated loops in simplified form), then the peeling and a clean-up
  // that folds the copies' exits.
  FunctionPassManager FPM = PB.buildFunctionSimplificationPipeline(
      OptimizationLevel::O2, ThinOrFullLTOPhase::None);
  FPM.addPass(LoopSimplifyPass());
  FPM.addPass(LCSSAPass());
  FPM.addPass(PeelBarrierLoopsPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.run(F, FAM);
}

/// The work-group function under construction.
class WorkgroupBuilder {
public:
  WorkgroupBuilder(Module &M, Function &Entry, unsigned W, uint32_t LocalSize)
      : M(M), Ctx(M.getContext()), DL(M.getDataLayout()), Entry(Entry), W(W),
        LocalSize(LocalSize), Groups((LocalSize + W - 1) / W),
        FullMask(W >= 32 ? ~0u : (1u << W) - 1),
        LastMask(LocalSize % W ? (1u << (LocalSize % W)) - 1 : FullMask) {}

  bool build(bool Barriers, std::string &WhyNot);

private:
  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  Function &Entry;
  const unsigned W;
  const uint32_t LocalSize, Groups, FullMask, LastMask;

  Function *WG = nullptr;
  BasicBlock *EntryBB = nullptr;
  /// The copy of the prototype arguments the inlined body reads.
  AllocaInst *Args = nullptr;
  /// Barrier form: the loop's blocks and values.
  BasicBlock *Setup = nullptr, *Latch = nullptr;
  SwitchInst *Dispatch = nullptr;
  Value *GroupIndex = nullptr, *StatePtr = nullptr;
  AllocaInst *Left = nullptr;
  SmallPtrSet<BasicBlock *, 8> Control;
  /// The allocas of the work-group function itself (the rest are the
  /// inlined entry's private variables).
  SmallPtrSet<AllocaInst *, 32> Own;
  uint64_t PerGroupBytes = 0;

  void createFunction();
  void setGroup(IRBuilder<> &B, Value *G, Value *Mask);
  CallInst *callEntry(IRBuilder<> &B);
  bool inlineCall(CallInst *Call, std::string &WhyNot);
  bool buildLoop(std::string &WhyNot);
  bool buildStateMachine(std::string &WhyNot);
  /// A per-group slot of \p Bytes aligned to \p Align: an i8 array in the
  /// entry block and group G's address, computed in the setup block.
  Value *perGroupSlot(uint64_t Bytes, Align A, const Twine &Name);
  bool replicatePrivates(std::string &WhyNot);
  bool splitAtBarriers(std::string &WhyNot);
  /// Whether \p V can be recomputed where a group resumes instead of kept
  /// in a slot: it depends, through instructions without side effects,
  /// only on what dominates the body (the function's entry, the loop
  /// over groups), on the copy of the arguments (which only the setup
  /// block writes) and on invariant loads (descriptor tables). The
  /// workgroup-uniform pointers and the built-ins derived from the group
  /// index are of this kind. \p Budget bounds the expression's size.
  bool isRematerializable(Value *V, unsigned &Budget);
  /// \p V recomputed before \p At (isRematerializable).
  Value *rematerialize(Value *V, Instruction *At,
                       DenseMap<Value *, Value *> &Done);
  DenseMap<Value *, bool> Remat;
};

void WorkgroupBuilder::createFunction() {
  Type *Ptr = PointerType::getUnqual(Ctx);
  WG = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
                        GlobalValue::ExternalLinkage,
                        workgroupFunctionName(Entry.getName()), M);
  // The entry's target attributes (CPU, features, denormal modes), not its
  // return or parameter attributes, nor what would keep it unoptimized.
  AttrBuilder FnAttrs(Ctx, Entry.getAttributes().getFnAttrs());
  FnAttrs.removeAttribute(Attribute::OptimizeNone);
  FnAttrs.removeAttribute(Attribute::NoInline);
  WG->addFnAttrs(FnAttrs);
  // The prototype is only read, and nothing else points to it.
  WG->addParamAttr(0, Attribute::NoAlias);
  WG->addParamAttr(0, Attribute::ReadOnly);
  WG->addParamAttr(0, Attribute::NoCapture);
  WG->getArg(0)->setName("proto");
  EntryBB = BasicBlock::Create(Ctx, "entry", WG);
  IRBuilder<> B(EntryBB);
  Type *ArgsTy = ArrayType::get(B.getInt8Ty(), sizeof(s2l_group_args));
  Args = B.CreateAlloca(ArgsTy, nullptr, "args");
  Args->setAlignment(Align(alignof(s2l_group_args)));
  Own.insert(Args);
  B.CreateMemCpy(Args, Align(alignof(s2l_group_args)), WG->getArg(0),
                 Align(alignof(s2l_group_args)), sizeof(s2l_group_args));
  Control.insert(EntryBB);
}

void WorkgroupBuilder::setGroup(IRBuilder<> &B, Value *G, Value *Mask) {
  auto Field = [&](size_t Offset) {
    return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Args, Offset);
  };
  B.CreateStore(Mask, Field(offsetof(s2l_group_args, active_mask)));
  B.CreateStore(B.CreateMul(G, B.getInt32(W)),
                Field(offsetof(s2l_group_args, first_local_index)));
  B.CreateStore(G, Field(offsetof(s2l_group_args, subgroup_id)));
}

CallInst *WorkgroupBuilder::callEntry(IRBuilder<> &B) {
  return B.CreateCall(Entry.getFunctionType(), &Entry, {Args});
}

bool WorkgroupBuilder::inlineCall(CallInst *Call, std::string &WhyNot) {
  InlineFunctionInfo IFI;
  // No lifetime markers: with barriers, private variables become per-group
  // slots, which the markers' rules (an alloca operand) do not allow.
  InlineResult R = InlineFunction(*Call, IFI, /*MergeAttributes=*/false,
                                  /*CalleeAAR=*/nullptr,
                                  /*InsertLifetime=*/false);
  if (!R.isSuccess()) {
    WhyNot =
        std::string("the entry cannot be inlined: ") + R.getFailureReason();
    return false;
  }
  return true;
}

/// Without barriers: each group runs the whole body, one after the other.
bool WorkgroupBuilder::buildLoop(std::string &WhyNot) {
  IRBuilder<> B(EntryBB);
  const uint32_t Full = LocalSize / W;
  SmallVector<CallInst *, 2> Calls;
  BasicBlock *Tail = BasicBlock::Create(Ctx, "tail", WG);
  if (Full > 0) {
    BasicBlock *Loop = BasicBlock::Create(Ctx, "group", WG, Tail);
    B.CreateBr(Loop);
    B.SetInsertPoint(Loop);
    PHINode *G = B.CreatePHI(B.getInt32Ty(), 2, "g");
    G->addIncoming(B.getInt32(0), EntryBB);
    setGroup(B, G, B.getInt32(FullMask));
    Calls.push_back(callEntry(B));
    Value *Next = B.CreateAdd(G, B.getInt32(1), "g.next", true, true);
    G->addIncoming(Next, Loop);
    B.CreateCondBr(B.CreateICmpULT(Next, B.getInt32(Full)), Loop, Tail);
  } else {
    B.CreateBr(Tail);
  }
  B.SetInsertPoint(Tail);
  if (LocalSize % W) {
    // The last group, partly full: its own copy of the body, so that the
    // loop's copy keeps the constant full mask.
    setGroup(B, B.getInt32(Full), B.getInt32(LastMask));
    Calls.push_back(callEntry(B));
  }
  B.CreateRetVoid();
  for (CallInst *C : Calls)
    if (!inlineCall(C, WhyNot))
      return false;
  return true;
}

Value *WorkgroupBuilder::perGroupSlot(uint64_t Bytes, Align A,
                                      const Twine &Name) {
  uint64_t Stride = alignTo(std::max<uint64_t>(Bytes, 1), A);
  PerGroupBytes += Stride * Groups;
  IRBuilder<> B(EntryBB, EntryBB->getFirstInsertionPt());
  AllocaInst *Slots =
      B.CreateAlloca(B.getInt8Ty(), B.getInt32(Stride * Groups), Name);
  Slots->setAlignment(A);
  Own.insert(Slots);
  B.SetInsertPoint(Setup->getTerminator());
  return B.CreateInBoundsGEP(
      B.getInt8Ty(), Slots,
      B.CreateMul(B.CreateZExt(GroupIndex, B.getInt64Ty()), B.getInt64(Stride)),
      Name + ".g");
}

/// The inlined entry's private variables (its static allocas, which
/// InlineFunction moved into the entry block) get one copy per group.
bool WorkgroupBuilder::replicatePrivates(std::string &WhyNot) {
  SmallVector<AllocaInst *, 16> Privates;
  for (Instruction &I : instructions(*WG)) {
    auto *A = dyn_cast<AllocaInst>(&I);
    if (!A || Own.contains(A))
      continue;
    if (A->getParent() != EntryBB || !A->isStaticAlloca()) {
      WhyNot = "a private variable of dynamic size";
      return false;
    }
    Privates.push_back(A);
  }
  for (AllocaInst *A : Privates) {
    uint64_t Bytes = *A->getAllocationSize(DL);
    Value *Copy = perGroupSlot(Bytes, A->getAlign(), "wg." + A->getName());
    // Lifetime markers need an alloca operand; the copies live for the
    // whole work-group function anyway.
    for (User *U : make_early_inc_range(A->users()))
      if (auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd())
          II->eraseFromParent();
    A->replaceAllUsesWith(Copy);
    A->eraseFromParent();
  }
  return true;
}

/// With barriers: rounds over the groups until each has returned; a round
/// runs every group from where it stopped to its next barrier.
bool WorkgroupBuilder::buildStateMachine(std::string &WhyNot) {
  IRBuilder<> B(EntryBB);
  Type *I32 = B.getInt32Ty();
  AllocaInst *States = B.CreateAlloca(I32, B.getInt32(Groups), "wg.states");
  B.CreateMemSet(States, B.getInt8(0), Groups * 4, Align(4));
  Left = B.CreateAlloca(B.getInt1Ty(), nullptr, "wg.left");
  Own.insert(States);
  Own.insert(Left);
  auto Block = [&](const char *Name) {
    BasicBlock *BB = BasicBlock::Create(Ctx, Name, WG);
    Control.insert(BB);
    return BB;
  };
  BasicBlock *Round = Block("round"), *Head = Block("group");
  Setup = Block("group.setup");
  BasicBlock *Body = BasicBlock::Create(Ctx, "body", WG);
  BasicBlock *Finish = Block("group.done");
  Latch = Block("group.next");
  BasicBlock *RoundEnd = Block("round.end"), *Exit = Block("exit");
  B.CreateBr(Round);

  B.SetInsertPoint(Round);
  B.CreateStore(B.getFalse(), Left);
  B.CreateBr(Head);

  B.SetInsertPoint(Head);
  PHINode *G = B.CreatePHI(I32, 2, "g");
  G->addIncoming(B.getInt32(0), Round);
  GroupIndex = G;
  StatePtr = B.CreateInBoundsGEP(I32, States, G, "state.ptr");
  Value *State = B.CreateLoad(I32, StatePtr, "state");
  B.CreateCondBr(B.CreateICmpEQ(State, B.getInt32(StateDone)), Latch, Setup);

  B.SetInsertPoint(Setup);
  Value *Mask = B.getInt32(FullMask);
  if (LocalSize % W)
    Mask = B.CreateSelect(B.CreateICmpEQ(G, B.getInt32(Groups - 1)),
                          B.getInt32(LastMask), Mask, "mask");
  setGroup(B, G, Mask);
  // State 0 starts the body; the barriers add their resume points.
  Dispatch = B.CreateSwitch(State, Body);

  B.SetInsertPoint(Body);
  CallInst *Call = callEntry(B);
  B.CreateBr(Finish);

  B.SetInsertPoint(Finish);
  B.CreateStore(B.getInt32(StateDone), StatePtr);
  B.CreateBr(Latch);

  B.SetInsertPoint(Latch);
  Value *Next = B.CreateAdd(G, B.getInt32(1), "g.next", true, true);
  G->addIncoming(Next, Latch);
  B.CreateCondBr(B.CreateICmpULT(Next, B.getInt32(Groups)), Head, RoundEnd);

  B.SetInsertPoint(RoundEnd);
  B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), Left, "left"), Round, Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();

  if (!inlineCall(Call, WhyNot) || !replicatePrivates(WhyNot) ||
      !splitAtBarriers(WhyNot))
    return false;
  if (PerGroupBytes > PerGroupBudget) {
    WhyNot = "per-group state of " + std::to_string(PerGroupBytes) +
             " bytes (the budget is " + std::to_string(PerGroupBudget) + ")";
    return false;
  }
  return true;
}

/// One barrier: the block that ends with it and the block where its group
/// resumes.
struct BarrierPoint {
  BasicBlock *Stop, *Resume;
  uint32_t State;
};

/// The resume blocks among \p Points where \p V is live on entry: a
/// backward walk from its uses that stops at its definition.
SmallVector<unsigned, 4>
liveResumes(Instruction &V,
            const DenseMap<BasicBlock *, unsigned> &ResumeIndex) {
  BasicBlock *Def = V.getParent();
  SmallPtrSet<BasicBlock *, 16> Seen;
  SmallVector<BasicBlock *, 16> Work;
  for (Use &U : V.uses()) {
    auto *UI = cast<Instruction>(U.getUser());
    BasicBlock *BB = UI->getParent();
    if (auto *Phi = dyn_cast<PHINode>(UI)) {
      // Live at the end of the incoming block, so on entry to it unless
      // it is the definition's block.
      BB = Phi->getIncomingBlock(U);
    }
    if (BB != Def && Seen.insert(BB).second)
      Work.push_back(BB);
  }
  SmallVector<unsigned, 4> Live;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (auto It = ResumeIndex.find(BB); It != ResumeIndex.end()) {
      // A resume block's only predecessor is its barrier's block, which
      // the dispatch replaces: the walk goes on to find the others.
      Live.push_back(It->second);
    }
    for (BasicBlock *P : predecessors(BB))
      if (P != Def && Seen.insert(P).second)
        Work.push_back(P);
  }
  return Live;
}

bool WorkgroupBuilder::isRematerializable(Value *V, unsigned &Budget) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Control.contains(I->getParent()))
    return true;
  if (auto It = Remat.find(I); It != Remat.end())
    return It->second;
  bool Ok = false;
  if (Budget > 0 && !isa<PHINode>(I) && !isa<AllocaInst>(I) &&
      !isa<CallBase>(I) && !I->mayHaveSideEffects()) {
    --Budget;
    if (auto *L = dyn_cast<LoadInst>(I))
      Ok = L->isSimple() &&
           (getUnderlyingObject(L->getPointerOperand()) == Args ||
            L->hasMetadata(LLVMContext::MD_invariant_load));
    else
      Ok = !I->mayReadFromMemory();
    for (Value *Op : I->operands())
      Ok = Ok && isRematerializable(Op, Budget);
  }
  Remat[I] = Ok;
  return Ok;
}

Value *WorkgroupBuilder::rematerialize(Value *V, Instruction *At,
                                       DenseMap<Value *, Value *> &Done) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Control.contains(I->getParent()))
    return V;
  if (Value *C = Done.lookup(I))
    return C;
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    Op.set(rematerialize(Op.get(), At, Done));
  C->insertBefore(At);
  C->setName(I->getName() + ".remat");
  Done[I] = C;
  return C;
}

bool WorkgroupBuilder::splitAtBarriers(std::string &WhyNot) {
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(*WG))
    if (isBarrierCall(I))
      Calls.push_back(cast<CallInst>(&I));
  SmallVector<BarrierPoint, 8> Points;
  DenseMap<BasicBlock *, unsigned> ResumeIndex;
  for (CallInst *C : Calls) {
    BasicBlock *Stop = C->getParent();
    BasicBlock *Resume =
        Stop->splitBasicBlock(C->getNextNode(), Stop->getName() + ".resume");
    C->eraseFromParent();
    ResumeIndex[Resume] = Points.size();
    Points.push_back({Stop, Resume, uint32_t(Points.size() + 1)});
  }
  // Values live across a barrier, found on the CFG as it still is (each
  // resume block reached from its barrier only).
  struct Spill {
    Instruction *V;
    SmallVector<unsigned, 4> At;
    bool Remat;
  };
  SmallVector<Spill, 32> Spills;
  for (BasicBlock &BB : *WG) {
    if (Control.contains(&BB))
      continue;
    for (Instruction &I : BB) {
      if (I.getType()->isVoidTy() || isa<AllocaInst>(I))
        continue;
      SmallVector<unsigned, 4> At = liveResumes(I, ResumeIndex);
      if (At.empty())
        continue;
      if (I.getType()->isTokenTy()) {
        WhyNot = "a token value live across a barrier";
        return false;
      }
      // Small expressions only: each resume point gets a copy.
      unsigned Budget = 24;
      Spills.push_back({&I, std::move(At), isRematerializable(&I, Budget)});
    }
  }
  // Each barrier: the group records where it resumes and that the round
  // must go on, spills what is live, and leaves for the next group.
  IRBuilder<> B(Ctx);
  DenseMap<Instruction *, Value *> SlotOf;
  for (Spill &S : Spills) {
    if (S.Remat)
      continue;
    Type *T = S.V->getType();
    SlotOf[S.V] = perGroupSlot(DL.getTypeAllocSize(T), DL.getABITypeAlign(T),
                               "wg.spill." + S.V->getName());
  }
  // Where each resume point gets each value back: a reload from its slot
  // or a copy of its expression.
  SmallVector<SmallVector<std::pair<Instruction *, Value *>, 8>, 8> Reloads(
      Points.size());
  SmallVector<DenseMap<Value *, Value *>, 8> Copies(Points.size());
  SmallVector<Instruction *, 8> Firsts;
  for (const BarrierPoint &BP : Points)
    Firsts.push_back(&*BP.Resume->getFirstInsertionPt());
  for (const Spill &S : Spills)
    for (unsigned P : S.At) {
      if (S.Remat) {
        Reloads[P].push_back({S.V, rematerialize(S.V, Firsts[P], Copies[P])});
        continue;
      }
      B.SetInsertPoint(Firsts[P]);
      Reloads[P].push_back({S.V, B.CreateLoad(S.V->getType(), SlotOf[S.V],
                                              S.V->getName() + ".reload")});
    }
  for (unsigned P = 0; P < Points.size(); ++P) {
    BarrierPoint &BP = Points[P];
    Instruction *Br = BP.Stop->getTerminator();
    B.SetInsertPoint(Br);
    for (auto &[V, Reload] : Reloads[P])
      if (Value *Slot = SlotOf.lookup(V))
        B.CreateStore(V, Slot);
    B.CreateStore(B.getInt32(BP.State), StatePtr);
    B.CreateStore(B.getTrue(), Left);
    B.CreateBr(Latch);
    Br->eraseFromParent();
    Dispatch->addCase(B.getInt32(BP.State), BP.Resume);
  }
  // SSA form again: the uses now see either the definition or a reload.
  for (const Spill &S : Spills) {
    SSAUpdater SSA;
    SSA.Initialize(S.V->getType(), S.V->getName());
    SSA.AddAvailableValue(S.V->getParent(), S.V);
    DenseMap<BasicBlock *, Value *> ReloadIn;
    for (unsigned P : S.At)
      for (auto &[V, Reload] : Reloads[P])
        if (V == S.V) {
          SSA.AddAvailableValue(Points[P].Resume, Reload);
          ReloadIn[Points[P].Resume] = Reload;
        }
    for (Use &U : make_early_inc_range(S.V->uses())) {
      auto *UI = cast<Instruction>(U.getUser());
      // Within the block of the definition or of a reload, a use that is
      // not a phi comes after it (reloads open their blocks): it takes
      // that value, which SSAUpdater's block-entry answer would not be.
      if (!isa<PHINode>(UI)) {
        if (UI->getParent() == S.V->getParent())
          continue;
        if (Value *Reload = ReloadIn.lookup(UI->getParent())) {
          U.set(Reload);
          continue;
        }
      }
      SSA.RewriteUse(U);
    }
  }
  return true;
}

bool WorkgroupBuilder::build(bool Barriers, std::string &WhyNot) {
  createFunction();
  bool Ok =
      Barriers && Groups > 1 ? buildStateMachine(WhyNot) : buildLoop(WhyNot);
  if (!Ok)
    WG->eraseFromParent();
  return Ok;
}

} // namespace

std::string workgroupFunctionName(StringRef Entry) {
  return (Entry + "_workgroup").str();
}

bool workgroupFunctionsEnabled() { return WorkgroupFunctions; }

bool buildWorkgroupFunction(Module &M, StringRef EntryName, unsigned Width,
                            uint32_t LocalSize, std::string *WhyNot) {
  std::string Why;
  auto Fail = [&](std::string Reason) {
    if (WhyNot)
      *WhyNot = std::move(Reason);
    return false;
  };
  Function *Entry = M.getFunction(EntryName);
  if (!Entry || Entry->isDeclaration())
    return Fail("no entry function");
  if (Width == 0 || Width > 32 || LocalSize == 0)
    return Fail("no SIMD groups");
  for (const Function &F : M)
    if (&F != Entry && !F.isDeclaration() && hasBarrier(F))
      return Fail("a barrier in the function " + F.getName().str() +
                  ", which is not inlined");
  bool Barriers = hasBarrier(*Entry);
  // The liveness walk visits each value's live range: bounded by the
  // function's size, which keeps very large shaders with barriers from
  // costing quadratic time (they keep the fibers).
  if (Barriers && Entry->size() > MaxBarrierFunctionBlocks)
    return Fail("a function of " + std::to_string(Entry->size()) +
                " blocks with barriers (work-group functions split at most " +
                std::to_string(MaxBarrierFunctionBlocks) + ")");
  if (Barriers && UnrollBarrierLoops)
    unrollBarrierLoops(*Entry);
  WorkgroupBuilder WB(M, *Entry, Width, LocalSize);
  if (!WB.build(Barriers, Why))
    return Fail(std::move(Why));
  // The per-group entry lives on inlined only: not compiled twice (the
  // cheap pipeline of very large shaders has no global DCE to drop it).
  if (Entry->use_empty())
    Entry->eraseFromParent();
  else
    Entry->setLinkage(GlobalValue::InternalLinkage);
  // A single group passes its barriers at once: they are no-ops there.
  if (Function *WG = M.getFunction(workgroupFunctionName(EntryName)))
    for (Instruction &I : make_early_inc_range(instructions(*WG)))
      if (isBarrierCall(I))
        I.eraseFromParent();
  return true;
}

} // namespace spirv2llvm
