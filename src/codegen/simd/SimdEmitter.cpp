//===- SimdEmitter.cpp - Entry function set-up and finishing --------------===//
#include "codegen/simd/SimdEmitter.h"
#include "codegen/common/EmitterCommon.h"
#include "codegen/simd/Linearizer.h"
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
  IRBuilder<> AB(FS.AllocaBB, FS.AllocaBB->begin());
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
  beginFunction(Plan.EntryFn,
                llvm::Function::Create(FT, GlobalValue::ExternalLinkage,
                                       Opts.SymbolPrefix + EP.Name, LM.get()));
  FS.ArgsPtr = LF->getArg(0);
  FS.ArgsPtr->setName("args");
  LF->addParamAttr(0, Attribute::NoAlias);
  LF->addParamAttr(0, Attribute::NoCapture);
  LF->addParamAttr(0, Attribute::ReadOnly);
  LF->addFnAttr(Attribute::NoUnwind);

  FS.AllocaBB = BasicBlock::Create(Ctx, "entry", LF);
  B.SetInsertPoint(FS.AllocaBB);
  Value *Active =
      B.CreateLoad(I32, B.CreateStructGEP(ArgsType, FS.ArgsPtr, 0), "active");
  Value *Bits = B.CreateTrunc(Active, B.getIntNTy(W));
  FS.EntryMask = B.CreateBitCast(Bits, maskType(), "entry.mask");
  FS.InputsPtr =
      B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, FS.ArgsPtr, 2), "inputs");
  FS.OutputsPtr =
      B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, FS.ArgsPtr, 3), "outputs");
  // The watchdog flag, or a constant 0 when the caller passes none, so that
  // back edges need no null check.
  Value *Cancel = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, FS.ArgsPtr, 13),
                               "cancel.arg");
  auto *Never = new GlobalVariable(*LM, I32, /*isConstant=*/true,
                                   GlobalValue::PrivateLinkage,
                                   B.getInt32(0), "s2l.never_cancelled");
  FS.CancelPtr =
      B.CreateSelect(B.CreateIsNull(Cancel), Never, Cancel, "cancel");
}

Value *SimdEmitter::notCancelled() {
  LoadInst *Flag = B.CreateAlignedLoad(B.getInt32Ty(), FS.CancelPtr, Align(4),
                                       /*isVolatile=*/true, "cancel.flag");
  Flag->setAtomic(AtomicOrdering::Monotonic);
  // The work-group function drops the checks that peeling leaves outside
  // any loop (runtime/WorkgroupFunction.h, CancelMetadata).
  Flag->setMetadata("s2l.cancel", MDNode::get(B.getContext(), {}));
  return B.CreateICmpEQ(Flag, B.getInt32(0), "not.cancelled");
}

void SimdEmitter::promoteSlots() {
  std::vector<AllocaInst *> Allocas;
  for (llvm::Instruction &I : *FS.AllocaBB)
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
}

void SimdEmitter::finishFunction() {
  if (FS.RetSlots.size() || LF->getReturnType()->isVoidTy()) {
    // A callee returns what its lanes returned.
    if (LF->getReturnType()->isVoidTy()) {
      B.CreateRetVoid();
      return;
    }
    Value *R = PoisonValue::get(LF->getReturnType());
    for (unsigned C = 0; C < FS.RetSlots.size(); ++C)
      R = B.CreateInsertValue(
          R, B.CreateLoad(FS.RetSlots[C]->getAllocatedType(), FS.RetSlots[C]),
          C);
    B.CreateRet(R);
    return;
  }
  Value *Killed = B.CreateLoad(maskType(), FS.KilledSlot, "killed");
  if (FS.DemotedSlot)
    Killed = B.CreateOr(Killed, B.CreateLoad(maskType(), FS.DemotedSlot));
  Value *Alive = B.CreateAnd(FS.EntryMask, B.CreateNot(Killed), "alive");
  Value *Bits = B.CreateBitCast(Alive, B.getIntNTy(W));
  B.CreateRet(B.CreateZExt(Bits, B.getInt32Ty(), "alive.bits"));
}

void SimdEmitter::beginFunction(uint32_t FnIndex, llvm::Function *Fun) {
  Fn = FnIndex;
  F = &M.Functions[Fn];
  A = &MA[Fn];
  LF = Fun;
  // Everything that belongs to one LLVM function starts afresh.
  FS = FunctionState();
  FS.Plan = &Plan.function(Fn);
}

void SimdEmitter::emitFunction() {
  Linearizer L(*this);
  L.createSlots();
  createVariables();
  createMemoryVariables();
  if (F->Id == EP.Function)
    createEnvironment();
  else
    loadEnvironment();

  BasicBlock *Body = BasicBlock::Create(Ctx, "body", LF);
  B.CreateBr(Body);
  B.SetInsertPoint(Body);
  L.emitBody();
  finishFunction();
  if (Failed)
    return;
  promoteSlots();
  L.foldZeroDiamonds();
}

Expected<CodegenResult> SimdEmitter::run() {
  if (W != 4 && W != 8 && W != 16)
    return makeError("unsupported width " + Twine(W) + " (expected 4, 8 or 16)");
  computeReflection();
  Lanes = computeLaneShapes(M, EP, MA, UI, LaneShapeOptions{W});
  Expected<InterfaceLayout> L = computeInterfaceLayout(M, EP, W);
  if (!L)
    return L.takeError();
  Layout = std::move(*L);

  Expected<EmissionPlan> P = planEmission(M, EP, MA, UI);
  if (!P)
    return P.takeError();
  Plan = std::move(*P);

  LM = std::make_unique<llvm::Module>(EP.Name, Ctx);
  createEntryFunction();
  declareCallees();

  // The entry function.
  Constant *Zero = Constant::getNullValue(maskType());
  FS.KilledSlot = createSlot(maskType(), "killed.slot");
  B.CreateStore(Zero, FS.KilledSlot);
  if (Plan.HasDemote) {
    FS.DemotedSlot = createSlot(maskType(), "demoted.slot");
    Value *Helpers = Zero;
    if (Plan.NeedsHelpers) {
      // Every lane of a quad with an active lane runs (docs/abi.md); the
      // ones the caller left off are helpers from the start.
      Value *Active = FS.EntryMask;
      Value *Bits = B.CreateBitCast(Active, B.getIntNTy(W));
      auto Rep = [&](uint32_t Pattern) {
        return ConstantInt::get(B.getIntNTy(W), Pattern & ((1u << W) - 1));
      };
      Bits = B.CreateOr(Bits, B.CreateAnd(B.CreateLShr(Bits, 1), Rep(0x5555)));
      Bits = B.CreateOr(Bits, B.CreateAnd(B.CreateShl(Bits, 1), Rep(0xAAAA)));
      Bits = B.CreateOr(Bits, B.CreateAnd(B.CreateLShr(Bits, 2), Rep(0x3333)));
      Bits = B.CreateOr(Bits, B.CreateAnd(B.CreateShl(Bits, 2), Rep(0xCCCC)));
      FS.EntryMask = B.CreateBitCast(Bits, maskType(), "quad.mask");
      Helpers = B.CreateAnd(FS.EntryMask, B.CreateNot(Active), "helpers");
    }
    B.CreateStore(Helpers, FS.DemotedSlot);
  }
  emitFunction();
  if (Failed)
    return std::move(Err);

  for (uint32_t Callee : Plan.CalleeOrder) {
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
