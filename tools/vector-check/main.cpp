// s2l-vector-check: fails when an LLVM IR module still holds a vector type
// anywhere, the promise of the scalar and DXIL pipelines (docs/dxil-passes.md).
//
//   s2l-vector-check [--allow-native] [-q] [file.ll|-]
//
// Walks every place a type can appear, not only instruction results:
// function types (definitions and declarations, so argument and return
// types), globals' value types and initializers, aliases, named struct
// types, allocated types, GEP source types (of instructions and constant
// expressions), loaded, stored and atomic types, call function types, and
// every constant operand down to its leaves (vector constants nested in
// struct or array constants, constant expressions over vectors).
// Nested vectors count: {i32, <2 x float>} and [4 x <4 x float>] are vector
// types here. Exit status 0: none found; 1: found (each place printed);
// 2: the input does not parse or is not valid IR.
//
// --allow-native accepts what --dxil-native-vectors keeps by design
// (vectors of two or more elements) and reports only <1 x T>.
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

namespace {

struct Checker {
  bool AllowNative = false;
  bool Quiet = false;
  unsigned Found = 0;
  DenseMap<Type *, bool> TypeMemo;
  DenseSet<const Constant *> SeenConstants;

  bool isBad(Type *T) {
    if (auto It = TypeMemo.find(T); It != TypeMemo.end())
      return It->second;
    TypeMemo[T] = false; // recursive named structs terminate here
    bool Bad = false;
    if (auto *VT = dyn_cast<VectorType>(T)) {
      auto *FVT = dyn_cast<FixedVectorType>(VT);
      Bad = !AllowNative || !FVT || FVT->getNumElements() == 1 ||
            isBad(VT->getElementType());
    } else {
      for (Type *Sub : T->subtypes())
        Bad |= isBad(Sub);
    }
    TypeMemo[T] = Bad;
    return Bad;
  }

  void report(const Twine &Where, Type *T) {
    ++Found;
    if (Quiet || Found > 50)
      return;
    std::string S;
    raw_string_ostream OS(S);
    T->print(OS);
    errs() << "vector type " << OS.str() << " in " << Where << "\n";
  }

  void checkType(Type *T, const Twine &Where) {
    if (isBad(T))
      report(Where, T);
  }

  void checkConstant(const Constant *C, const Twine &Where) {
    if (isa<GlobalValue>(C) || !SeenConstants.insert(C).second)
      return;
    checkType(C->getType(), Where);
    if (auto *GEP = dyn_cast<GEPOperator>(C))
      checkType(GEP->getSourceElementType(),
                Where + " (source type of a constant GEP)");
    for (const Use &Op : C->operands())
      if (auto *OC = dyn_cast<Constant>(Op.get()))
        checkConstant(OC, Where);
    // ConstantDataSequential has no operands but elements.
    if (auto *CDS = dyn_cast<ConstantDataSequential>(C))
      checkType(CDS->getElementType(), Where);
  }

  static std::string describe(const Instruction &I) {
    std::string S;
    raw_string_ostream OS(S);
    I.print(OS);
    return "function @" + I.getFunction()->getName().str() + ":" + OS.str();
  }

  void checkInstruction(const Instruction &I) {
    std::string Where = describe(I);
    checkType(I.getType(), Where);
    for (const Use &Op : I.operands()) {
      if (isa<BasicBlock>(Op.get()) || isa<MetadataAsValue>(Op.get()))
        continue;
      checkType(Op->getType(), Where + " (operand)");
      if (auto *C = dyn_cast<Constant>(Op.get()))
        checkConstant(C, Where + " (constant operand)");
    }
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      checkType(AI->getAllocatedType(), Where + " (allocated type)");
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
      checkType(GEP->getSourceElementType(), Where + " (GEP source type)");
    if (auto *CB = dyn_cast<CallBase>(&I))
      checkType(CB->getFunctionType(), Where + " (callee type)");
  }

  void run(Module &M) {
    for (StructType *ST : M.getIdentifiedStructTypes())
      checkType(ST, "struct type %" + ST->getName());
    for (GlobalVariable &GV : M.globals()) {
      checkType(GV.getValueType(), "global @" + GV.getName());
      if (GV.hasInitializer())
        checkConstant(GV.getInitializer(),
                      "initializer of @" + GV.getName());
    }
    for (GlobalAlias &GA : M.aliases())
      checkType(GA.getValueType(), "alias @" + GA.getName());
    for (Function &F : M) {
      checkType(F.getFunctionType(),
                (F.isDeclaration() ? "declaration @" : "signature of @") +
                    F.getName());
      for (Instruction &I : instructions(F))
        checkInstruction(I);
    }
  }
};

} // namespace

int main(int Argc, char **Argv) {
  Checker C;
  std::string File = "-";
  for (int K = 1; K < Argc; ++K) {
    StringRef A = Argv[K];
    if (A == "--allow-native")
      C.AllowNative = true;
    else if (A == "-q")
      C.Quiet = true;
    else if (A == "-h" || A == "--help") {
      outs() << "usage: s2l-vector-check [--allow-native] [-q] [file.ll|-]\n";
      return 0;
    } else if (A.starts_with("-") && A != "-") {
      errs() << "s2l-vector-check: unknown option " << A << "\n";
      return 2;
    } else
      File = A.str();
  }
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseIRFile(File, Err, Ctx);
  if (!M) {
    Err.print("s2l-vector-check", errs());
    return 2;
  }
  if (verifyModule(*M, &errs())) {
    errs() << "s2l-vector-check: " << File << ": invalid module\n";
    return 2;
  }
  C.run(*M);
  if (C.Found) {
    errs() << "s2l-vector-check: " << File << ": " << C.Found
           << " place(s) with a vector type\n";
    return 1;
  }
  return 0;
}
