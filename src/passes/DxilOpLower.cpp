// dxil-op-lower: LLVM intrinsics (the form spirv2llvm gives core and
// GLSL.std.450 operations) become DXIL operations, calls of
//   declare <ret> @dx.op.<class>.<overload>(i32 opcode, <args>...)
// as DXIL declares them (nounwind, memory(none)). Opcode numbers are those of
// DXIL.rst / DxilConstants.h, which dxil-native-vectors.md's Appendix 1
// repeats for the element-wise operations.
//
// Scalar mode: a vector call (seen when the scalarizer did not run first) is
// split into per-element dx.op calls. Vector mode (DXIL 1.9 native vectors):
// the element-wise operations use the vector overloads, e.g.
// @dx.op.unary.v4f32(i32 13, <4 x float>), and llvm.vector.reduce.and/or use
// VectorReduceAnd/Or (309/310).
#include "passes/DxilPasses.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace spirv2llvm {
namespace {

struct DxilOp {
  unsigned Opcode;
  const char *Class; ///< dx.op.<Class>.<overload>
  enum Kind { Plain, Bits, Reduce } K = Plain;
};

/// The DXIL operation for an intrinsic, if it has an exact one.
std::optional<DxilOp> dxilOpFor(Intrinsic::ID ID) {
  switch (ID) {
  // Unary (DXIL.rst: 6 FAbs, 12 Cos, 13 Sin, 14 Tan, 15 Acos, 16 Asin,
  // 17 Atan, 18 Hcos, 19 Hsin, 20 Htan, 21 Exp (base 2), 23 Log (base 2),
  // 24 Sqrt, 26 Round_ne, 27 Round_ni, 28 Round_pi, 29 Round_z, 30 Bfrev).
  case Intrinsic::fabs: return DxilOp{6, "unary"};
  case Intrinsic::cos: return DxilOp{12, "unary"};
  case Intrinsic::sin: return DxilOp{13, "unary"};
  case Intrinsic::tan: return DxilOp{14, "unary"};
  case Intrinsic::acos: return DxilOp{15, "unary"};
  case Intrinsic::asin: return DxilOp{16, "unary"};
  case Intrinsic::atan: return DxilOp{17, "unary"};
  case Intrinsic::cosh: return DxilOp{18, "unary"};
  case Intrinsic::sinh: return DxilOp{19, "unary"};
  case Intrinsic::tanh: return DxilOp{20, "unary"};
  case Intrinsic::exp2: return DxilOp{21, "unary"};
  case Intrinsic::log2: return DxilOp{23, "unary"};
  case Intrinsic::sqrt: return DxilOp{24, "unary"};
  case Intrinsic::roundeven: return DxilOp{26, "unary"};
  case Intrinsic::floor: return DxilOp{27, "unary"};
  case Intrinsic::ceil: return DxilOp{28, "unary"};
  case Intrinsic::trunc: return DxilOp{29, "unary"};
  case Intrinsic::bitreverse: return DxilOp{30, "unary"};
  // UnaryBits: 31 Countbits (returns i32 whatever the operand width).
  case Intrinsic::ctpop: return DxilOp{31, "unaryBits", DxilOp::Bits};
  // Binary: 35 FMax, 36 FMin, 37 IMax, 38 IMin, 39 UMax, 40 UMin.
  case Intrinsic::maxnum: return DxilOp{35, "binary"};
  case Intrinsic::minnum: return DxilOp{36, "binary"};
  case Intrinsic::smax: return DxilOp{37, "binary"};
  case Intrinsic::smin: return DxilOp{38, "binary"};
  case Intrinsic::umax: return DxilOp{39, "binary"};
  case Intrinsic::umin: return DxilOp{40, "binary"};
  // Tertiary: 46 FMad, 47 Fma.
  case Intrinsic::fmuladd: return DxilOp{46, "tertiary"};
  case Intrinsic::fma: return DxilOp{47, "tertiary"};
  default:
    return std::nullopt;
  }
}

/// DXIL 1.9 vector reductions (dxil-native-vectors.md): 309 VectorReduceAnd,
/// 310 VectorReduceOr. The seed spells their overload @dx.op.unary.vNTY,
/// which would clash with the element-wise unary overload of the same name
/// and a different return type, so the class is named vectorReduce here.
std::optional<DxilOp> dxilReduceFor(Intrinsic::ID ID) {
  if (ID == Intrinsic::vector_reduce_and)
    return DxilOp{309, "vectorReduce", DxilOp::Reduce};
  if (ID == Intrinsic::vector_reduce_or)
    return DxilOp{310, "vectorReduce", DxilOp::Reduce};
  return std::nullopt;
}

std::string overloadName(Type *T) {
  std::string S;
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    S = "v" + std::to_string(VT->getNumElements());
    T = VT->getElementType();
  }
  if (T->isHalfTy())
    return S + "f16";
  if (T->isFloatTy())
    return S + "f32";
  if (T->isDoubleTy())
    return S + "f64";
  if (T->isIntegerTy())
    return S + "i" + std::to_string(T->getIntegerBitWidth());
  return "";
}

bool overloadSupported(Type *T) {
  return !overloadName(T).empty();
}

class Lowering {
public:
  Lowering(Module &M, bool AllowVectors) : M(M), AllowVectors(AllowVectors) {}

  bool run() {
    SmallVector<IntrinsicInst *, 32> Calls;
    for (Function &F : M)
      for (Instruction &I : instructions(F))
        if (auto *II = dyn_cast<IntrinsicInst>(&I))
          if (dxilOpFor(II->getIntrinsicID()) ||
              (AllowVectors && dxilReduceFor(II->getIntrinsicID())))
            Calls.push_back(II);
    bool Changed = false;
    SmallSetVector<Function *, 8> Callees;
    for (IntrinsicInst *II : Calls) {
      Callees.insert(II->getCalledFunction());
      Changed |= lower(II);
    }
    for (Function *F : Callees)
      if (F->use_empty())
        F->eraseFromParent();
    return Changed;
  }

private:
  Function *declare(const DxilOp &Op, Type *Ret, ArrayRef<Type *> Args) {
    std::string Name = "dx.op." + std::string(Op.Class) + "." +
                       overloadName(Args.front());
    SmallVector<Type *, 4> Params{Type::getInt32Ty(M.getContext())};
    Params.append(Args.begin(), Args.end());
    auto *FT = FunctionType::get(Ret, Params, false);
    FunctionCallee C = M.getOrInsertFunction(Name, FT);
    auto *F = dyn_cast<Function>(C.getCallee());
    if (!F || F->getFunctionType() != FT)
      report_fatal_error("dx.op declaration clash for " + Twine(Name));
    F->setDoesNotThrow();
    F->setDoesNotAccessMemory();
    return F;
  }

  Value *emitOne(IRBuilder<> &B, const DxilOp &Op, Type *Ret,
                 ArrayRef<Value *> Args) {
    SmallVector<Type *, 4> Tys;
    for (Value *A : Args)
      Tys.push_back(A->getType());
    Type *CallRet = Ret;
    if (Op.K == DxilOp::Bits) // UnaryBits returns i32 (per element)
      CallRet = Ret->isVectorTy()
                    ? static_cast<Type *>(FixedVectorType::get(
                          B.getInt32Ty(),
                          cast<FixedVectorType>(Ret)->getNumElements()))
                    : B.getInt32Ty();
    Function *F = declare(Op, CallRet, Tys);
    SmallVector<Value *, 4> CallArgs{B.getInt32(Op.Opcode)};
    CallArgs.append(Args.begin(), Args.end());
    Value *R = B.CreateCall(F, CallArgs);
    if (Op.K == DxilOp::Bits && R->getType() != Ret)
      R = B.CreateZExtOrTrunc(R, Ret);
    return R;
  }

  bool lower(IntrinsicInst *II) {
    Intrinsic::ID ID = II->getIntrinsicID();
    std::optional<DxilOp> Op =
        AllowVectors && dxilReduceFor(ID) ? dxilReduceFor(ID) : dxilOpFor(ID);
    unsigned NumArgs = Op->K == DxilOp::Reduce ? 1
                       : Op->Opcode >= 46      ? 3
                       : Op->Opcode >= 35      ? 2
                                               : 1;
    SmallVector<Value *, 3> Args;
    for (unsigned I = 0; I < NumArgs; ++I)
      Args.push_back(II->getArgOperand(I));
    Type *ArgTy = Args.front()->getType();
    if (!overloadSupported(ArgTy))
      return false;
    // ctpop/bitreverse on i1 or odd widths, f128 and the like stay.
    Type *Scalar = ArgTy->getScalarType();
    if (Scalar->isIntegerTy() &&
        !is_contained(std::initializer_list<unsigned>{16, 32, 64},
                      Scalar->getIntegerBitWidth()) &&
        Op->K != DxilOp::Reduce)
      return false;
    IRBuilder<> B(II);
    Value *R;
    auto *VT = dyn_cast<FixedVectorType>(ArgTy);
    if (!VT || AllowVectors) {
      R = emitOne(B, *Op, II->getType(), Args);
    } else {
      // Scalar DXIL: one dx.op call per element.
      R = PoisonValue::get(II->getType());
      for (unsigned E = 0; E < VT->getNumElements(); ++E) {
        SmallVector<Value *, 3> EArgs;
        for (Value *A : Args)
          EArgs.push_back(B.CreateExtractElement(A, (uint64_t)E));
        Value *S = emitOne(B, *Op, II->getType()->getScalarType(), EArgs);
        R = B.CreateInsertElement(R, S, (uint64_t)E);
      }
    }
    R->takeName(II);
    II->replaceAllUsesWith(R);
    II->eraseFromParent();
    return true;
  }

  Module &M;
  bool AllowVectors;
};

/// llvm.exp / llvm.log have no DXIL operation; DXC lowers them through the
/// base-2 forms: exp(x) = exp2(x * log2(e)), log(x) = log2(x) * ln(2).
bool expandNaturalExpLog(Module &M) {
  SmallVector<IntrinsicInst *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->getIntrinsicID() == Intrinsic::exp ||
            II->getIntrinsicID() == Intrinsic::log)
          Work.push_back(II);
  for (IntrinsicInst *II : Work) {
    IRBuilder<> B(II);
    B.setFastMathFlags(II->getFastMathFlags());
    Value *X = II->getArgOperand(0);
    Value *R;
    if (II->getIntrinsicID() == Intrinsic::exp)
      R = B.CreateUnaryIntrinsic(
          Intrinsic::exp2,
          B.CreateFMul(X, ConstantFP::get(X->getType(), 1.4426950408889634)));
    else
      R = B.CreateFMul(B.CreateUnaryIntrinsic(Intrinsic::log2, X),
                       ConstantFP::get(X->getType(), 0.6931471805599453));
    R->takeName(II);
    II->replaceAllUsesWith(R);
    II->eraseFromParent();
  }
  return !Work.empty();
}

} // namespace

bool hasElementwiseDxilOp(unsigned IntrinsicID) {
  return dxilOpFor((Intrinsic::ID)IntrinsicID).has_value() ||
         IntrinsicID == Intrinsic::exp || IntrinsicID == Intrinsic::log;
}

PreservedAnalyses DxilOpLowerPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = expandNaturalExpLog(M);
  Changed |= Lowering(M, AllowVectors).run();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace spirv2llvm
