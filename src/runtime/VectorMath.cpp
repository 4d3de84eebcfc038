//===- VectorMath.cpp - Vector math calls from glibc's libmvec ------------===//
#include "runtime/VectorMath.h"

#include "llvm/ADT/StringMap.h"
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

/// The libmvec ISA letter for \p Lanes floats, if the host can run it.
char isaLetter(unsigned Lanes) {
  static StringMap<bool> F = sys::getHostCPUFeatures();
  switch (Lanes) {
  case 4: return F.lookup("sse4.2") ? 'b' : 0;
  case 8: return F.lookup("avx2") ? 'd' : 0;
  case 16: return F.lookup("avx512f") ? 'e' : 0;
  default: return 0;
  }
}

bool libmvecLoaded() {
  static bool Loaded =
      !sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
  return Loaded;
}

} // namespace

void loadVectorMathLibrary() { (void)libmvecLoaded(); }

unsigned useVectorMathLibrary(Module &M) {
  std::vector<std::pair<CallInst *, std::string>> Rewrites;
  for (Function &F : M) {
    if (!F.isIntrinsic() || F.getReturnType()->isVoidTy())
      continue;
    auto *VT = dyn_cast<FixedVectorType>(F.getReturnType());
    if (!VT || !VT->getElementType()->isFloatTy())
      continue;
    char Isa = isaLetter(VT->getNumElements());
    if (!Isa)
      continue;
    // "llvm.sin.v16f32" -> "sin"
    StringRef Base = F.getName().drop_front(5).split('.').first;
    for (const MathFn &Fn : MathFns) {
      if (Base != Fn.Intrinsic)
        continue;
      auto NameOf = [&](unsigned Args, StringRef Scalar) {
        return (Twine("_ZGV") + Twine(Isa) + "N" +
                Twine(VT->getNumElements()) + (Args == 1 ? "v_" : "vv_") +
                Scalar)
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
          Rewrites.emplace_back(C, Name);
      break;
    }
  }
  auto Declare = [&](StringRef Name, FunctionType *FT) {
    FunctionCallee Callee = M.getOrInsertFunction(Name, FT);
    if (auto *Fn = dyn_cast<Function>(Callee.getCallee())) {
      Fn->setDoesNotThrow();
      Fn->setDoesNotAccessMemory();
    }
    return Callee;
  };
  for (auto &[C, Name] : Rewrites) {
    SmallVector<Value *, 2> Args(C->args());
    IRBuilder<> B(C);
    Value *New;
    if (C->arg_size() == 2 && StringRef(Name).ends_with("_exp2f")) {
      auto *FT = FunctionType::get(C->getType(), {C->getType()}, false);
      std::string Log2 = StringRef(Name).drop_back(5).str() + "log2f";
      Value *L = B.CreateCall(Declare(Log2, FT), {Args[0]});
      Value *E = B.CreateCall(Declare(Name, FT), {B.CreateFMul(Args[1], L)});
      // IEEE's exact cases the expression misses (NaN from 0 * inf or
      // inf * 0): pow(x, +-0) = 1 for every x, pow(1, y) = 1 for every y.
      Constant *One = ConstantFP::get(C->getType(), 1.0);
      Value *Exact = B.CreateOr(
          B.CreateFCmpOEQ(Args[1], Constant::getNullValue(C->getType())),
          B.CreateFCmpOEQ(Args[0], One));
      New = B.CreateSelect(Exact, One, E);
    } else {
      New = B.CreateCall(
          Declare(Name, C->getCalledFunction()->getFunctionType()), Args);
    }
    New->takeName(C);
    C->replaceAllUsesWith(New);
    C->eraseFromParent();
  }
  return unsigned(Rewrites.size());
}

} // namespace spirv2llvm
