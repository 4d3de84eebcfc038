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
#include "passes/VectorOps.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsDirectX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;

namespace spirv2llvm {
namespace {

struct DxilOp {
  unsigned Opcode;
  const char *Class; ///< dx.op.<Class>.<overload>
  enum Kind { Plain, Bits, Special, Reduce } K = Plain;
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
  // clang's HLSL intrinsics: 22 Frc, 25 Rsqrt, 9 IsInf (IsSpecialFloat,
  // returns i1), 48 IMad, 49 UMad.
  case Intrinsic::dx_frac: return DxilOp{22, "unary"};
  case Intrinsic::dx_rsqrt: return DxilOp{25, "unary"};
  case Intrinsic::dx_isinf: return DxilOp{9, "isSpecialFloat", DxilOp::Special};
  case Intrinsic::dx_imad: return DxilOp{48, "tertiary"};
  case Intrinsic::dx_umad: return DxilOp{49, "tertiary"};
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

/// "f32", "i16", "v4f32", ...; empty when DXIL has no such overload.
std::string overloadName(Type *T) {
  SmallString<16> S;
  raw_svector_ostream OS(S);
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    OS << 'v' << VT->getNumElements();
    T = VT->getElementType();
  }
  if (T->isHalfTy())
    OS << "f16";
  else if (T->isFloatTy())
    OS << "f32";
  else if (T->isDoubleTy())
    OS << "f64";
  else if (T->isIntegerTy())
    OS << 'i' << T->getIntegerBitWidth();
  else
    return "";
  return S.str().str();
}

bool overloadSupported(Type *T) {
  return !overloadName(T).empty();
}

class Lowering {
public:
  Lowering(Module &M, bool AllowVectors) : M(M), AllowVectors(AllowVectors) {}

  /// dx.dot2/3/4 take the components: Dot2 (54), Dot3 (55), Dot4 (56),
  /// `float @dx.op.dot4.f32(i32 56, ax, ay, az, aw, bx, by, bz, bw)`;
  /// thread ids: ThreadId (93), GroupId (94), ThreadIdInGroup (95),
  /// FlattenedThreadIdInGroup (96).
  bool lowerSpecial(IntrinsicInst *II) {
    Intrinsic::ID ID = II->getIntrinsicID();
    IRBuilder<> B(II);
    SmallVector<Value *, 9> Args;
    std::string Name;
    unsigned Opcode;
    if (ID == Intrinsic::dx_dot2 || ID == Intrinsic::dx_dot3 ||
        ID == Intrinsic::dx_dot4) {
      Opcode = ID == Intrinsic::dx_dot2 ? 54 : ID == Intrinsic::dx_dot3 ? 55 : 56;
      auto *VT = dyn_cast<FixedVectorType>(II->getArgOperand(0)->getType());
      if (!VT || !overloadSupported(VT->getElementType()))
        return false;
      Name = "dx.op.dot" + std::to_string(Opcode - 52) + "." +
             overloadName(VT->getElementType());
      for (unsigned A = 0; A < 2; ++A)
        for (unsigned E = 0; E < VT->getNumElements(); ++E)
          Args.push_back(
              B.CreateExtractElement(II->getArgOperand(A), (uint64_t)E));
    } else {
      static const std::pair<Intrinsic::ID, std::pair<unsigned, const char *>>
          Ids[] = {{Intrinsic::dx_thread_id, {93, "threadId"}},
                   {Intrinsic::dx_group_id, {94, "groupId"}},
                   {Intrinsic::dx_thread_id_in_group, {95, "threadIdInGroup"}},
                   {Intrinsic::dx_flattened_thread_id_in_group,
                    {96, "flattenedThreadIdInGroup"}}};
      auto It = find_if(Ids, [&](auto &P) { return P.first == ID; });
      Opcode = It->second.first;
      Name = std::string("dx.op.") + It->second.second + ".i32";
      for (Value *A : II->args())
        Args.push_back(A);
    }
    SmallVector<Type *, 9> Tys{B.getInt32Ty()};
    for (Value *A : Args)
      Tys.push_back(A->getType());
    auto *FT = FunctionType::get(II->getType(), Tys, false);
    if (GlobalValue *GV = M.getNamedValue(Name);
        GV && (!isa<Function>(GV) ||
               cast<Function>(GV)->getFunctionType() != FT)) {
      WithColor::warning() << "dxil-op-lower: " << Name
                           << " already exists with another type\n";
      return false;
    }
    auto *F = cast<Function>(M.getOrInsertFunction(Name, FT).getCallee());
    F->setDoesNotThrow();
    F->setDoesNotAccessMemory();
    Args.insert(Args.begin(), B.getInt32(Opcode));
    Value *R = B.CreateCall(F, Args);
    R->takeName(II);
    II->replaceAllUsesWith(R);
    II->eraseFromParent();
    return true;
  }

  static bool isSpecial(Intrinsic::ID ID) {
    return ID == Intrinsic::dx_dot2 || ID == Intrinsic::dx_dot3 ||
           ID == Intrinsic::dx_dot4 || ID == Intrinsic::dx_thread_id ||
           ID == Intrinsic::dx_group_id ||
           ID == Intrinsic::dx_thread_id_in_group ||
           ID == Intrinsic::dx_flattened_thread_id_in_group;
  }

  bool run() {
    SmallVector<IntrinsicInst *, 32> Calls;
    for (Function &F : M)
      for (Instruction &I : instructions(F))
        if (auto *II = dyn_cast<IntrinsicInst>(&I))
          if (dxilOpFor(II->getIntrinsicID()) ||
              isSpecial(II->getIntrinsicID()) ||
              (AllowVectors && dxilReduceFor(II->getIntrinsicID())))
            Calls.push_back(II);
    bool Changed = false;
    SmallSetVector<Function *, 8> Callees;
    for (IntrinsicInst *II : Calls) {
      Callees.insert(II->getCalledFunction());
      Changed |= isSpecial(II->getIntrinsicID()) ? lowerSpecial(II) : lower(II);
    }
    for (Function *F : Callees)
      if (F->use_empty())
        F->eraseFromParent();
    return Changed;
  }

private:
  static std::string opName(const DxilOp &Op, Type *Arg) {
    return "dx.op." + std::string(Op.Class) + "." + overloadName(Arg);
  }

  FunctionType *opType(Type *Ret, ArrayRef<Type *> Args) {
    SmallVector<Type *, 4> Params{Type::getInt32Ty(M.getContext())};
    Params.append(Args.begin(), Args.end());
    return FunctionType::get(Ret, Params, false);
  }

  /// False when the module already has something else under the name.
  bool declarable(const DxilOp &Op, Type *Ret, ArrayRef<Type *> Args) {
    GlobalValue *GV = M.getNamedValue(opName(Op, Args.front()));
    auto *F = dyn_cast_or_null<Function>(GV);
    return !GV || (F && F->getFunctionType() == opType(Ret, Args));
  }

  Function *declare(const DxilOp &Op, Type *Ret, ArrayRef<Type *> Args) {
    FunctionType *FT = opType(Ret, Args);
    auto *F = cast<Function>(
        M.getOrInsertFunction(opName(Op, Args.front()), FT).getCallee());
    F->setDoesNotThrow();
    F->setDoesNotAccessMemory();
    return F;
  }

  Type *callRet(const DxilOp &Op, Type *Ret) {
    if (Op.K != DxilOp::Bits) // UnaryBits returns i32 (per element)
      return Ret;             // (IsSpecialFloat's i1 is the intrinsic's)
    Type *I32 = Type::getInt32Ty(M.getContext());
    if (auto *VT = dyn_cast<FixedVectorType>(Ret))
      return FixedVectorType::get(I32, VT->getNumElements());
    return I32;
  }

  Value *emitOne(IRBuilder<> &B, const DxilOp &Op, Type *Ret,
                 ArrayRef<Value *> Args) {
    SmallVector<Type *, 4> Tys;
    for (Value *A : Args)
      Tys.push_back(A->getType());
    Type *CallRet = callRet(Op, Ret);
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
    auto *VT = dyn_cast<FixedVectorType>(ArgTy);
    {
      bool Split = VT && !AllowVectors;
      SmallVector<Type *, 3> Tys;
      for (Value *A : Args)
        Tys.push_back(Split ? A->getType()->getScalarType() : A->getType());
      Type *Ret = Split ? II->getType()->getScalarType() : II->getType();
      if (!declarable(*Op, callRet(*Op, Ret), Tys)) {
        WithColor::warning() << "dxil-op-lower: " << opName(*Op, Tys.front())
                             << " already exists with another type; "
                             << II->getCalledFunction()->getName()
                             << " left as is\n";
        return false;
      }
    }
    IRBuilder<> B(II);
    Value *R;
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

/// llvm.exp / llvm.log / llvm.pow have no DXIL operation; DXC lowers them
/// through the base-2 forms: exp(x) = exp2(x * log2(e)),
/// log(x) = log2(x) * ln(2), pow(x, y) = exp2(y * log2(x)) (HLSL and GLSL
/// leave pow undefined for x < 0, as this expansion does).
bool expandNaturalExpLog(Module &M) {
  SmallVector<IntrinsicInst *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->getIntrinsicID() == Intrinsic::exp ||
            II->getIntrinsicID() == Intrinsic::log ||
            II->getIntrinsicID() == Intrinsic::pow)
          Work.push_back(II);
  SmallSetVector<Function *, 4> Callees;
  for (IntrinsicInst *II : Work) {
    Callees.insert(II->getCalledFunction());
    IRBuilder<> B(II);
    B.setFastMathFlags(II->getFastMathFlags());
    Value *X = II->getArgOperand(0);
    Value *R;
    if (II->getIntrinsicID() == Intrinsic::pow)
      R = B.CreateUnaryIntrinsic(
          Intrinsic::exp2,
          B.CreateFMul(II->getArgOperand(1),
                       B.CreateUnaryIntrinsic(Intrinsic::log2, X)));
    else if (II->getIntrinsicID() == Intrinsic::exp)
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
  for (Function *F : Callees)
    if (F->use_empty())
      F->eraseFromParent();
  return !Work.empty();
}

} // namespace

bool hasElementwiseDxilOp(unsigned IntrinsicID) {
  return dxilOpFor((Intrinsic::ID)IntrinsicID).has_value() ||
         IntrinsicID == Intrinsic::exp || IntrinsicID == Intrinsic::log ||
         IntrinsicID == Intrinsic::pow;
}

PreservedAnalyses DxilOpLowerPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration())
      Changed |= expandDxIntrinsics(F, /*KeepVectors=*/AllowVectors);
  Changed |= expandNaturalExpLog(M);
  Changed |= Lowering(M, AllowVectors).run();
  // Intrinsic declarations left unused by this and the function passes
  // before it (which may not delete functions).
  for (Function &F : make_early_inc_range(M))
    if (F.isIntrinsic() && F.use_empty()) {
      F.eraseFromParent();
      Changed = true;
    }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace spirv2llvm
