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
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopPeel.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

#include <cstddef>
#include <functional>
#include <optional>

using namespace llvm;

namespace spirv2llvm {

namespace {

cl::opt<bool> UnrollBarrierLoops(
    "s2l-unroll-barrier-loops", cl::Hidden, cl::init(true),
    cl::desc("compute: unroll loops around barriers whose trip count is "
             "bounded by a small constant before building the work-group "
             "function"));

cl::opt<bool> SequenceRegions(
    "s2l-sequence-regions", cl::Hidden, cl::init(true),
    cl::desc("compute: give each barrier region of a work-group function "
             "its own loop over the SIMD groups when regions share no "
             "blocks (off: one loop dispatching on each group's state)"));

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

cl::opt<unsigned> UnrollRegionBudget(
    "s2l-unroll-region-budget", cl::Hidden, cl::init(2048),
    cl::desc("compute: instructions a barrier region of a work-group "
             "function may grow to when unrolled over the SIMD groups"));

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

/// The translator checks the cancel flag on loop back edges, so that a
/// shader that never ends can be stopped. A peeled iteration is no longer
/// in a loop: its check guards a bounded stretch of code and only costs a
/// branch per group per region, and its exit path (the rest of the shader)
/// would be copied into every region by sequenceRegions. It reads "not
/// cancelled"; the loops left keep theirs.
struct DropStraightCancelChecksPass
    : PassInfoMixin<DropStraightCancelChecksPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    SmallVector<Instruction *, 16> Checks;
    for (Instruction &I : instructions(F))
      if (I.getMetadata(CancelMetadata) && !LI.getLoopFor(I.getParent()))
        Checks.push_back(&I);
    for (Instruction *I : Checks) {
      I->replaceAllUsesWith(Constant::getNullValue(I->getType()));
      I->eraseFromParent();
    }
    return Checks.empty() ? PreservedAnalyses::all()
                          : PreservedAnalyses::none();
  }
};

/// Loops around barriers unrolled where their trip count is bounded by a
/// small constant (a tree reduction's `for (s = 128; s > 0; s >>= 1)`):
/// each barrier of the copies is then its own resume point with the
/// loop's counter a constant, so that no loop control, and fewer values,
/// cross barriers, and each region over the groups is straight-line code.
/// Loops of unknown or large trip counts stay loops.
/// Runs the function passes \p AddPasses adds on \p F.
void runFunctionPasses(Function &F,
                       function_ref<void(PassBuilder &, FunctionPassManager &)>
                           AddPasses) {
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
  FunctionPassManager FPM;
  AddPasses(PB, FPM);
  FPM.run(F, FAM);
}

void unrollBarrierLoops(Function &F) {
  bool Any = false;
  for (Instruction &I : instructions(F))
    Any = Any || isBarrierCall(I);
  if (!Any)
    return;
  // What the trip count needs: LLVM's function simplification (SSA values,
  // the translator's structured-exit flags threaded into plain loop exits,
  // rotated loops in simplified form), then the peeling and a clean-up
  // that folds the copies' exits.
  runFunctionPasses(F, [](PassBuilder &PB, FunctionPassManager &FPM) {
    FPM = PB.buildFunctionSimplificationPipeline(OptimizationLevel::O2,
                                                 ThinOrFullLTOPhase::None);
    FPM.addPass(LoopSimplifyPass());
    FPM.addPass(LCSSAPass());
    FPM.addPass(PeelBarrierLoopsPass());
    FPM.addPass(DropStraightCancelChecksPass());
    FPM.addPass(InstCombinePass());
    FPM.addPass(SimplifyCFGPass());
  });
}

/// Unrolled regions fold to a fraction of their size once each copy's
/// constant group index is propagated: done at once, so that the JIT
/// judges the function by what it will compile (a function of over 2,000
/// blocks gets the cheap pipeline of very large shaders).
void foldUnrolledRegions(Function &F) {
  runFunctionPasses(F, [](PassBuilder &, FunctionPassManager &FPM) {
    FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
    FPM.addPass(EarlyCSEPass());
    FPM.addPass(InstCombinePass());
    FPM.addPass(SimplifyCFGPass());
  });
}

/// Whether \p Blocks (a region) hold a loop: a path from a block back to
/// itself within them.
bool hasCycle(ArrayRef<BasicBlock *> Blocks) {
  SmallPtrSet<BasicBlock *, 32> In(Blocks.begin(), Blocks.end());
  enum Mark { Grey, Black };
  DenseMap<BasicBlock *, Mark> Marks;
  std::function<bool(BasicBlock *)> Visit = [&](BasicBlock *BB) {
    Marks[BB] = Grey;
    for (BasicBlock *S : successors(BB)) {
      if (!In.contains(S))
        continue;
      auto It = Marks.find(S);
      if (It != Marks.end() ? It->second == Grey : Visit(S))
        return true;
    }
    Marks[BB] = Black;
    return false;
  };
  for (BasicBlock *BB : Blocks)
    if (!Marks.contains(BB) && Visit(BB))
      return true;
  return false;
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
  const WorkgroupFunctionShape &shape() const { return Shape; }

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
  BasicBlock *Round = nullptr, *Head = nullptr, *Setup = nullptr,
             *Finish = nullptr, *Latch = nullptr, *RoundEnd = nullptr,
             *Exit = nullptr;
  SwitchInst *Dispatch = nullptr;
  Value *GroupIndex = nullptr, *StatePtr = nullptr;
  /// The smallest state a group waits in after this round (StateDone when
  /// every group has returned).
  AllocaInst *Next = nullptr;
  WorkgroupFunctionShape Shape;
  /// The per-group fields setGroup stored last: offset and value.
  SmallVector<std::pair<uint64_t, Value *>, 3> GroupFields;
  /// The block ending at each barrier and the state it leaves its group in.
  DenseMap<BasicBlock *, uint32_t> StopStates;
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
  /// Records at \p B that a group waits in state \p State.
  void noteWaiting(IRBuilder<> &B, Value *State);
  /// Gives each region its own loop over the groups (sequenceRegions's
  /// comment); false, with the state machine unchanged, when regions share
  /// blocks.
  bool sequenceRegions();
  std::pair<BasicBlock *, BasicBlock *>
  copyRegion(BasicBlock *EntryBlock, uint32_t State,
             ArrayRef<BasicBlock *> Blocks, const std::string &Suffix,
             std::optional<uint32_t> Fixed, bool NoteOthers);
  /// Where \p LI reads the argument copy: offset and size, if it does.
  std::optional<std::pair<uint64_t, uint64_t>>
  argsOffset(const LoadInst &LI) const;
  /// The per-group field \p LI reads (setGroup's value), or null;
  /// \p Overlaps: it reads part of one.
  Value *groupField(const LoadInst &LI, bool &Overlaps) const;
  void readArgsDirectly(ArrayRef<BasicBlock *> Blocks, ValueToValueMapTy &VM);
  bool branchesOnGroup(ArrayRef<BasicBlock *> Blocks) const;
  SmallVector<unsigned, 8>
  acyclicOrder(ArrayRef<std::pair<BasicBlock *, uint32_t>> Entries,
               ArrayRef<SmallVector<BasicBlock *, 16>> Blocks);
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
  Value *First = B.CreateMul(G, B.getInt32(W));
  B.CreateStore(Mask, Field(offsetof(s2l_group_args, active_mask)));
  B.CreateStore(First, Field(offsetof(s2l_group_args, first_local_index)));
  B.CreateStore(G, Field(offsetof(s2l_group_args, subgroup_id)));
  GroupFields = {{offsetof(s2l_group_args, active_mask), Mask},
                 {offsetof(s2l_group_args, first_local_index), First},
                 {offsetof(s2l_group_args, subgroup_id), G}};
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
  Next = B.CreateAlloca(I32, nullptr, "wg.next");
  B.CreateStore(B.getInt32(0), Next);
  Own.insert(States);
  Own.insert(Next);
  auto Block = [&](const char *Name) {
    BasicBlock *BB = BasicBlock::Create(Ctx, Name, WG);
    Control.insert(BB);
    return BB;
  };
  Round = Block("round");
  Head = Block("group");
  Setup = Block("group.setup");
  BasicBlock *Body = BasicBlock::Create(Ctx, "body", WG);
  Finish = Block("group.done");
  Latch = Block("group.next");
  RoundEnd = Block("round.end");
  Exit = Block("exit");
  B.CreateBr(Round);

  B.SetInsertPoint(Round);
  B.CreateStore(B.getInt32(StateDone), Next);
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
  Value *GNext = B.CreateAdd(G, B.getInt32(1), "g.next", true, true);
  G->addIncoming(GNext, Latch);
  B.CreateCondBr(B.CreateICmpULT(GNext, B.getInt32(Groups)), Head, RoundEnd);

  B.SetInsertPoint(RoundEnd);
  B.CreateCondBr(B.CreateICmpNE(B.CreateLoad(I32, Next, "next"),
                                B.getInt32(StateDone)),
                 Round, Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();

  if (!inlineCall(Call, WhyNot) || !replicatePrivates(WhyNot) ||
      !splitAtBarriers(WhyNot))
    return false;
  Shape.Kind = WorkgroupFunctionShape::StateMachine;
  Shape.ResumePoints = Dispatch->getNumCases();
  if (SequenceRegions)
    sequenceRegions();
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
    noteWaiting(B, B.getInt32(BP.State));
    B.CreateBr(Latch);
    Br->eraseFromParent();
    Dispatch->addCase(B.getInt32(BP.State), BP.Resume);
    StopStates[BP.Stop] = BP.State;
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

void WorkgroupBuilder::noteWaiting(IRBuilder<> &B, Value *State) {
  Value *Old = B.CreateLoad(B.getInt32Ty(), Next, "next.old");
  B.CreateStore(B.CreateBinaryIntrinsic(Intrinsic::umin, Old, State), Next);
}

/// Vulkan has barriers executed in workgroup-uniform control flow, so in a
/// valid shader every group waits at the same barrier after each round and
/// a round runs one region for all groups. The state machine dispatches on
/// each group's state instead, and LLVM sees one loop whose body is every
/// region behind a switch. Here each region gets its own loop over the
/// groups, entered from a switch on the round's state, with its own copy
/// of the blocks it reaches before a barrier (regions share blocks when a
/// barrier sits in a loop, or through a loop's exits, which every unrolled
/// copy reaches):
///
///   round:    K = next; next = done; switch K: region K's loop, or exit
///   group.K:  g; if state[g] != K: skip (next = min(next, state[g]))
///   setup.K:  lane mask, indices of group g; region K's code
///   ...       at its barrier: state[g] = J, next = min(next, J)
///
/// A group waiting elsewhere (a shader that breaks the rule) runs in a
/// later round: the next round's region is the smallest state any group
/// waits in, so every round moves at least one group on.
bool WorkgroupBuilder::sequenceRegions() {
  SmallVector<std::pair<BasicBlock *, uint32_t>, 8> Entries;
  Entries.push_back({Dispatch->getDefaultDest(), 0});
  for (auto &Case : Dispatch->cases())
    Entries.push_back({Case.getCaseSuccessor(),
                       uint32_t(Case.getCaseValue()->getZExtValue())});
  // Each region's blocks: what its entry reaches before a control block.
  SmallVector<SmallVector<BasicBlock *, 16>, 8> Blocks(Entries.size());
  SmallPtrSet<BasicBlock *, 32> Original;
  size_t Copied = 0, Body = 0;
  for (unsigned R = 0; R < Entries.size(); ++R) {
    SmallPtrSet<BasicBlock *, 32> Seen;
    SmallVector<BasicBlock *, 16> Work{Entries[R].first};
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (Control.contains(BB) || !Seen.insert(BB).second)
        continue;
      Blocks[R].push_back(BB);
      Copied += BB->size();
      if (Original.insert(BB).second)
        Body += BB->size();
      append_range(Work, successors(BB));
    }
  }
  // Copies of shared blocks cost code size: at most twice the body.
  if (Copied > 2 * Body)
    return false;
  for (BasicBlock &BB : *WG)
    if (!Control.contains(&BB) && !Original.contains(&BB))
      return false;

  SmallVector<unsigned, 8> Order = acyclicOrder(Entries, Blocks);
  Shape.Kind = Order.empty() ? WorkgroupFunctionShape::RegionRounds
                             : WorkgroupFunctionShape::RegionSequence;

  IRBuilder<> B(Ctx);
  Type *I32 = B.getInt32Ty();
  // The round's own start: it reads the state before resetting it.
  while (!Round->empty())
    Round->back().eraseFromParent();
  B.SetInsertPoint(Round);
  SwitchInst *Regions = nullptr;
  if (Order.empty()) {
    Value *K = B.CreateLoad(I32, Next, "round.state");
    B.CreateStore(B.getInt32(StateDone), Next);
    Regions = B.CreateSwitch(K, Exit, Entries.size());
  }
  SmallVector<BasicBlock *, 8> Heads(Entries.size()), Latches(Entries.size());
  for (unsigned R = 0; R < Entries.size(); ++R) {
    uint32_t State = Entries[R].second;
    std::string Suffix = ".r" + std::to_string(State);
    size_t RegionSize = 0;
    for (BasicBlock *BB : Blocks[R])
      RegionSize += BB->size();
    // A small region is unrolled over the groups: each copy has its group
    // index constant, which folds the lane conditions of tree reductions
    // (`l < s`) and drops the code of the groups they leave idle: only for
    // a region that branches on the group (else the copies fold nothing),
    // and not for one with a loop (LLVM unrolls that in every copy). Done
    // here rather than by LLVM's unroller so that the copies are folded
    // by the first simplifications, before the passes that are costly on
    // long chains of branches (jump threading) see them.
    if (RegionSize * Groups <= UnrollRegionBudget && !hasCycle(Blocks[R]) &&
        branchesOnGroup(Blocks[R])) {
      ++Shape.UnrolledRegions;
      BasicBlock *Last = nullptr;
      for (uint32_t G = 0; G < Groups; ++G) {
        auto [H, L] = copyRegion(Entries[R].first, State, Blocks[R],
                                 Suffix + ".g" + std::to_string(G), G,
                                 Regions != nullptr);
        if (Last)
          Last->getTerminator()->replaceSuccessorWith(RoundEnd, H);
        else
          Heads[R] = H;
        Last = L;
      }
      Latches[R] = Last;
    } else {
      std::tie(Heads[R], Latches[R]) =
          copyRegion(Entries[R].first, State, Blocks[R], Suffix,
                     std::nullopt, Regions != nullptr);
    }
    if (Regions)
      Regions->addCase(B.getInt32(State), Heads[R]);
  }
  SmallVector<BasicBlock *, 64> Dead(Original.begin(), Original.end());
  append_range(Dead, ArrayRef<BasicBlock *>{Head, Setup, Finish, Latch});
  if (!Order.empty()) {
    // One pass over the regions in order: each region's loop goes on to
    // the next one's instead of to the round's end.
    B.CreateBr(Heads[Order.front()]);
    for (unsigned I = 0; I < Order.size(); ++I) {
      BasicBlock *After = I + 1 < Order.size() ? Heads[Order[I + 1]] : Exit;
      BasicBlock *Done = Latches[Order[I]];
      Done->getTerminator()->replaceSuccessorWith(RoundEnd, After);
      if (After != Exit)
        for (PHINode &Phi : After->phis())
          Phi.replaceIncomingBlockWith(Round, Done);
    }
    Dead.push_back(RoundEnd);
  }
  DeleteDeadBlocks(Dead);
  return true;
}

/// A copy of region \p State (its \p Blocks, entered at \p EntryBlock)
/// in a loop over the groups, or for the one group \p Fixed; returns the
/// copy's first block and the block that leaves it for the round's end.
/// \p NoteOthers: a group waiting elsewhere is recorded for the round.
std::pair<BasicBlock *, BasicBlock *> WorkgroupBuilder::copyRegion(
    BasicBlock *EntryBlock, uint32_t State, ArrayRef<BasicBlock *> Blocks,
    const std::string &Suffix, std::optional<uint32_t> Fixed,
    bool NoteOthers) {
  ValueToValueMapTy VM;
  SmallVector<BasicBlock *, 32> Copies;
  auto Copy = [&](BasicBlock *BB) {
    BasicBlock *C = CloneBasicBlock(BB, VM, Suffix, WG);
    VM[BB] = C;
    Copies.push_back(C);
  };
  for (BasicBlock *BB : {Head, Setup, Finish, Latch})
    Copy(BB);
  for (BasicBlock *BB : Blocks)
    Copy(BB);
  for (BasicBlock *BB : Copies)
    for (Instruction &I : *BB)
      RemapInstruction(&I, VM, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
  auto *H = cast<BasicBlock>(VM[Head]), *S = cast<BasicBlock>(VM[Setup]),
       *L = cast<BasicBlock>(VM[Latch]);
  Type *I32 = Type::getInt32Ty(Ctx);
  // The group runs this region if it waits here.
  Value *Ptr = VM[StatePtr];
  Instruction *HeadBr = H->getTerminator();
  IRBuilder<> HB(HeadBr);
  Value *Here = HB.CreateICmpEQ(HB.CreateLoad(I32, Ptr, "state.here"),
                                HB.getInt32(State), "here");
  BasicBlock *Skip = BasicBlock::Create(Ctx, "group.skip" + Suffix, WG);
  HB.CreateCondBr(Here, S, Skip);
  HeadBr->eraseFromParent();
  IRBuilder<> SB(Skip);
  if (NoteOthers)
    noteWaiting(SB, SB.CreateLoad(I32, Ptr, "state.other"));
  SB.CreateBr(L);
  S->getTerminator()->eraseFromParent();
  BranchInst::Create(cast<BasicBlock>(VM[EntryBlock]), S);
  readArgsDirectly(ArrayRef(Copies).drop_front(4), VM);
  if (Fixed) {
    auto *Phi = cast<PHINode>(VM[GroupIndex]);
    Phi->replaceAllUsesWith(ConstantInt::get(I32, *Fixed));
    Phi->eraseFromParent();
    Instruction *Br = L->getTerminator();
    BranchInst::Create(RoundEnd, L);
    Br->eraseFromParent();
  }
  // A copied phi keeps only the edges its copy has (a shared block's
  // other predecessors belong to other regions).
  for (BasicBlock *BB : ArrayRef(Copies).drop_front(4)) {
    SmallPtrSet<BasicBlock *, 8> Preds(pred_begin(BB), pred_end(BB));
    for (PHINode &Phi : make_early_inc_range(BB->phis()))
      for (unsigned I = Phi.getNumIncomingValues(); I-- > 0;)
        if (!Preds.contains(Phi.getIncomingBlock(I)))
          Phi.removeIncomingValue(I, /*DeletePHIIfEmpty=*/false);
  }
  return {H, L};
}

std::optional<std::pair<uint64_t, uint64_t>>
WorkgroupBuilder::argsOffset(const LoadInst &LI) const {
  if (LI.isVolatile() || LI.isAtomic())
    return std::nullopt;
  APInt Offset(DL.getIndexTypeSizeInBits(LI.getPointerOperandType()), 0);
  const Value *Base = LI.getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  if (Base != Args)
    return std::nullopt;
  return std::make_pair(Offset.getZExtValue(),
                        uint64_t(DL.getTypeStoreSize(LI.getType())));
}

Value *WorkgroupBuilder::groupField(const LoadInst &LI, bool &Overlaps) const {
  Overlaps = false;
  auto Where = argsOffset(LI);
  if (!Where)
    return nullptr;
  auto [Off, Size] = *Where;
  for (auto [FieldOff, V] : GroupFields) {
    if (Off == FieldOff && LI.getType() == V->getType())
      return V;
    if (Off < FieldOff + 4 && FieldOff < Off + Size)
      Overlaps = true;
  }
  return nullptr;
}

/// The region copy's reads of the argument copy, which would otherwise
/// keep it in memory (SROA gives up on an alloca with more than about a
/// thousand uses, which unrolled regions reach): the per-group fields
/// become the values the copy's setup computes, the others (the same for
/// every group) loads from the prototype, which nothing writes.
void WorkgroupBuilder::readArgsDirectly(ArrayRef<BasicBlock *> Blocks,
                                        ValueToValueMapTy &VM) {
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : make_early_inc_range(*BB)) {
      auto *LI = dyn_cast<LoadInst>(&I);
      if (!LI || !argsOffset(*LI))
        continue;
      bool Overlaps;
      Value *New = groupField(*LI, Overlaps);
      if (New) {
        if (Value *Mapped = VM.lookup(New))
          New = Mapped;
      } else if (Overlaps) {
        continue;
      } else {
        IRBuilder<> B(LI);
        Value *Ptr = B.CreateConstInBoundsGEP1_64(
            B.getInt8Ty(), WG->getArg(0), argsOffset(*LI)->first);
        LoadInst *Direct =
            B.CreateAlignedLoad(LI->getType(), Ptr, LI->getAlign());
        Direct->copyMetadata(*LI);
        New = Direct;
      }
      LI->replaceAllUsesWith(New);
      LI->eraseFromParent();
    }
}

/// Whether a copy per group would fold code of \p Blocks: a branch or a
/// masked memory access whose condition is computed (without memory) from
/// the group's index or its lane mask and first index.
bool WorkgroupBuilder::branchesOnGroup(ArrayRef<BasicBlock *> Blocks) const {
  SmallPtrSet<const BasicBlock *, 32> In(Blocks.begin(), Blocks.end());
  SmallPtrSet<const Value *, 32> Marked;
  SmallVector<const Value *, 32> Work;
  auto Mark = [&](const Value *V) {
    if (Marked.insert(V).second)
      Work.push_back(V);
  };
  Mark(GroupIndex);
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB)
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        // (A constant field, the mask of full groups, varies with nothing.)
        bool Overlaps;
        Value *Field = groupField(*LI, Overlaps);
        if (Field && !isa<Constant>(Field))
          Mark(LI);
      }
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || !In.contains(I->getParent()))
        continue;
      if (const auto *Br = dyn_cast<BranchInst>(I))
        return Br->isConditional();
      if (isa<SwitchInst>(I))
        return true;
      if (const auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->getIntrinsicID() == Intrinsic::masked_load ||
            II->getIntrinsicID() == Intrinsic::masked_store)
          return true;
      if (!I->mayReadOrWriteMemory() && !I->getType()->isVoidTy())
        Mark(I);
    }
  }
  return false;
}

/// A group leaves a region at one of its barriers (the state the barrier
/// stores) or done. When these edges between regions have no cycle (no
/// barrier in a loop that was kept), one pass over the regions in a
/// topological order runs every group to its end: a group only ever moves
/// to a later region. Returns that order, or nothing when there is a cycle.
SmallVector<unsigned, 8> WorkgroupBuilder::acyclicOrder(
    ArrayRef<std::pair<BasicBlock *, uint32_t>> Entries,
    ArrayRef<SmallVector<BasicBlock *, 16>> Blocks) {
  DenseMap<uint32_t, unsigned> IndexOf;
  for (unsigned R = 0; R < Entries.size(); ++R)
    IndexOf[Entries[R].second] = R;
  SmallVector<SmallVector<unsigned, 2>, 8> Succs(Entries.size());
  for (unsigned R = 0; R < Entries.size(); ++R)
    for (BasicBlock *BB : Blocks[R])
      if (auto It = StopStates.find(BB); It != StopStates.end())
        Succs[R].push_back(IndexOf.lookup(It->second));
  // Depth-first, post order reversed; a grey successor is a cycle.
  enum Mark { White, Grey, Black };
  SmallVector<Mark, 8> Marks(Entries.size(), White);
  SmallVector<unsigned, 8> Post;
  std::function<bool(unsigned)> Visit = [&](unsigned R) {
    Marks[R] = Grey;
    for (unsigned S : Succs[R]) {
      if (Marks[S] == Grey)
        return false;
      if (Marks[S] == White && !Visit(S))
        return false;
    }
    Marks[R] = Black;
    Post.push_back(R);
    return true;
  };
  for (unsigned R = 0; R < Entries.size(); ++R)
    if (Marks[R] == White && !Visit(R))
      return {};
  std::reverse(Post.begin(), Post.end());
  return Post;
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
                            uint32_t LocalSize, std::string *WhyNot,
                            WorkgroupFunctionShape *Shape) {
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
  if (WB.shape().UnrolledRegions)
    foldUnrolledRegions(*M.getFunction(workgroupFunctionName(EntryName)));
  if (Shape)
    *Shape = WB.shape();
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
