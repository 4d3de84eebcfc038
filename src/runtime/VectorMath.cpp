//===- VectorMath.cpp - Vector math calls from glibc's libmvec ------------===//
#include "runtime/VectorMath.h"

#include "target/Optimizer.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

/// For A/B measurements (s2l-bench accepts it): libmvec's powf for pow.
cl::opt<bool> UsePowf("s2l-libmvec-powf", cl::Hidden,
                      cl::desc("call libmvec's powf rather than computing "
                               "pow as exp2(y * log2(x))"));

/// For A/B measurements: only calls of the intrinsic's own width, as before
/// wider vectors were split (a 16-lane call on an AVX2 target then stays an
/// intrinsic, which LLVM expands to one scalar libm call per lane).
cl::opt<bool> NoSplit("s2l-no-libmvec-split", cl::Hidden,
                      cl::desc("do not split vector math calls wider than "
                               "the target's libmvec functions"));

/// For tests and measurements on a host wider than the target in question:
/// the widest libmvec functions used (4, 8 or 16 lanes; 0: the JIT
/// target's widest).
cl::opt<unsigned> MaxLanesOpt("s2l-libmvec-max-lanes", cl::Hidden, cl::init(0),
                              cl::desc("widest libmvec functions to call "
                                       "(4, 8 or 16; default: the JIT "
                                       "target's)"));

/// Intrinsic base name -> libmvec function name and arity.
struct MathFn {
  const char *Intrinsic, *Name;
  unsigned Args;
};
constexpr MathFn MathFns[] = {
    {"sin", "sinf", 1},   {"cos", "cosf", 1},   {"tan", "tanf", 1},
    {"asin", "asinf", 1}, {"acos", "acosf", 1}, {"atan", "atanf", 1},
    {"sinh", "sinhf", 1}, {"cosh", "coshf", 1}, {"tanh", "tanhf", 1},
    {"exp", "expf", 1},   {"exp2", "exp2f", 1}, {"log", "logf", 1},
    {"log2", "log2f", 1}, {"log10", "log10f", 1}, {"pow", "powf", 2},
    {"atan2", "atan2f", 2},
};

/// The libmvec ISA letter for \p Lanes floats, if the JIT's target CPU
/// (not the host's: -s2l-jit-cpu may name an older one) can run it. A
/// 16-lane function takes its arguments in zmm registers; code for a CPU
/// without AVX-512 passes <16 x float> in two ymm registers, so calling it
/// from there computes garbage.
char isaLetter(unsigned Lanes) {
  if (MaxLanesOpt && Lanes > MaxLanesOpt)
    return 0;
  switch (Lanes) {
  case 4:
    return jitTargetHasFeature("sse4.2") ? 'b' : 0;
  case 8:
    return jitTargetHasFeature("avx2") ? 'd' : 0;
  case 16:
    return jitTargetHasFeature("avx512f") ? 'e' : 0;
  default: return 0;
  }
}

/// The widest libmvec width (16, 8 or 4 lanes) with a function the target
/// runs that divides \p Lanes, and its ISA letter; {0, 0} if none.
std::pair<unsigned, char> pieceWidth(unsigned Lanes) {
  for (unsigned P : {16u, 8u, 4u}) {
    if (P > Lanes || Lanes % P != 0 || (NoSplit && P != Lanes))
      continue;
    if (char Isa = isaLetter(P))
      return {P, Isa};
  }
  return {0, 0};
}

bool libmvecLoaded() {
  static bool Loaded =
      !sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
  return Loaded;
}

} // namespace

void loadVectorMathLibrary() { (void)libmvecLoaded(); }

namespace {

/// A call of a libmvec function on \p Args, split into pieces of
/// \p Callee's width when the arguments are wider (16 lanes on an AVX2 target
/// are two 8-lane calls), the results joined again.
Value *callInPieces(IRBuilder<> &B, FunctionCallee Callee,
                    ArrayRef<Value *> Args) {
  auto *PieceTy =
      cast<FixedVectorType>(Callee.getFunctionType()->getReturnType());
  unsigned P = PieceTy->getNumElements();
  unsigned N = cast<FixedVectorType>(Args[0]->getType())->getNumElements();
  if (P == N)
    return B.CreateCall(Callee, Args);
  SmallVector<Value *, 4> Pieces;
  for (unsigned Lo = 0; Lo < N; Lo += P) {
    SmallVector<int, 16> Mask;
    for (unsigned K = 0; K < P; ++K)
      Mask.push_back(int(Lo + K));
    SmallVector<Value *, 2> PieceArgs;
    for (Value *A : Args)
      PieceArgs.push_back(B.CreateShuffleVector(A, Mask));
    Pieces.push_back(B.CreateCall(Callee, PieceArgs));
  }
  return concatenateVectors(B, Pieces);
}

} // namespace

unsigned useVectorMathLibrary(Module &M) {
  struct Rewrite {
    CallInst *Call;
    std::string Name;
    unsigned Lanes; // of the libmvec function
  };
  std::vector<Rewrite> Rewrites;
  for (Function &F : M) {
    if (!F.isIntrinsic() || F.getReturnType()->isVoidTy())
      continue;
    auto *VT = dyn_cast<FixedVectorType>(F.getReturnType());
    if (!VT || !VT->getElementType()->isFloatTy())
      continue;
    auto [Lanes, Isa] = pieceWidth(VT->getNumElements());
    if (!Isa)
      continue;
    // "llvm.sin.v16f32" -> "sin"
    StringRef Base = F.getName().drop_front(5).split('.').first;
    for (const MathFn &Fn : MathFns) {
      if (Base != Fn.Intrinsic)
        continue;
      auto NameOf = [&, Lanes = Lanes, Isa = Isa](unsigned Args,
                                                  StringRef Scalar) {
        return (Twine("_ZGV") + Twine(Isa) + "N" + Twine(Lanes) +
                (Args == 1 ? "v_" : "vv_") + Scalar)
            .str();
      };
      auto Have = [&](const std::string &Name) {
        return libmvecLoaded() &&
               sys::DynamicLibrary::SearchForAddressOfSymbol(Name);
      };
      // pow(x, y) = exp2(y * log2(x)): Vulkan defines pow's precision as
      // that of this expression, and libmvec's powf (accurate to 1 ULP)
      // costs three times its two calls. The rewrite below recognizes the
      // "exp2f" name.
      bool PowByExp2 = Base == "pow" && !UsePowf;
      std::string Name = PowByExp2 ? NameOf(1, "exp2f")
                                   : NameOf(Fn.Args, Fn.Name);
      if (!Have(Name) || (PowByExp2 && !Have(NameOf(1, "log2f"))))
        break;
      for (User *U : F.users())
        if (auto *C = dyn_cast<CallInst>(U); C && C->getCalledFunction() == &F)
          Rewrites.push_back({C, Name, Lanes});
      break;
    }
  }
  auto Declare = [&](StringRef Name, unsigned Lanes, unsigned Args) {
    auto *T = FixedVectorType::get(Type::getFloatTy(M.getContext()), Lanes);
    SmallVector<Type *, 2> Params(Args, T);
    FunctionCallee Callee =
        M.getOrInsertFunction(Name, FunctionType::get(T, Params, false));
    if (auto *Fn = dyn_cast<Function>(Callee.getCallee())) {
      Fn->setDoesNotThrow();
      Fn->setDoesNotAccessMemory();
    }
    return Callee;
  };
  for (auto &[C, Name, Lanes] : Rewrites) {
    SmallVector<Value *, 2> Args(C->args());
    IRBuilder<> B(C);
    Value *New;
    if (C->arg_size() == 2 && StringRef(Name).ends_with("_exp2f")) {
      std::string Log2 = StringRef(Name).drop_back(5).str() + "log2f";
      Value *L = callInPieces(B, Declare(Log2, Lanes, 1), {Args[0]});
      Value *E =
          callInPieces(B, Declare(Name, Lanes, 1), {B.CreateFMul(Args[1], L)});
      // IEEE's exact cases the expression misses (NaN from 0 * inf or
      // inf * 0): pow(x, +-0) = 1 for every x, pow(1, y) = 1 for every y.
      Constant *One = ConstantFP::get(C->getType(), 1.0);
      Value *Exact = B.CreateOr(
          B.CreateFCmpOEQ(Args[1], Constant::getNullValue(C->getType())),
          B.CreateFCmpOEQ(Args[0], One));
      New = B.CreateSelect(Exact, One, E);
    } else {
      New = callInPieces(B, Declare(Name, Lanes, C->arg_size()), Args);
    }
    New->takeName(C);
    C->replaceAllUsesWith(New);
    C->eraseFromParent();
  }
  return unsigned(Rewrites.size());
}

} // namespace spirv2llvm
