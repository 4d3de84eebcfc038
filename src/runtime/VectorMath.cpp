//===- VectorMath.cpp - Vector math calls from glibc's libmvec ------------===//
#include "runtime/VectorMath.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

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
      std::string Name = (Twine("_ZGV") + Twine(Isa) + "N" +
                          Twine(VT->getNumElements()) +
                          (Fn.Args == 1 ? "v_" : "vv_") + Fn.Name)
                             .str();
      if (!libmvecLoaded() ||
          !sys::DynamicLibrary::SearchForAddressOfSymbol(Name))
        break;
      for (User *U : F.users())
        if (auto *C = dyn_cast<CallInst>(U); C && C->getCalledFunction() == &F)
          Rewrites.emplace_back(C, Name);
      break;
    }
  }
  for (auto &[C, Name] : Rewrites) {
    FunctionCallee Callee = M.getOrInsertFunction(
        Name, C->getCalledFunction()->getFunctionType());
    if (auto *Fn = dyn_cast<Function>(Callee.getCallee())) {
      Fn->setDoesNotThrow();
      Fn->setDoesNotAccessMemory();
    }
    SmallVector<Value *, 2> Args(C->args());
    IRBuilder<> B(C);
    CallInst *New = B.CreateCall(Callee, Args);
    New->takeName(C);
    C->replaceAllUsesWith(New);
    C->eraseFromParent();
  }
  return unsigned(Rewrites.size());
}

} // namespace spirv2llvm
