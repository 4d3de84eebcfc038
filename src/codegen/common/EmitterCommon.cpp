//===- EmitterCommon.cpp - What the two emitters do alike -----------------===//
#include "codegen/common/EmitterCommon.h"

#include "support/Diagnostic.h"

#include "llvm/IR/Verifier.h"

using namespace llvm;

namespace spirv2llvm {

ExtInstRoute routeExtInst(const Module &M, const Instruction &I,
                          std::string &Message) {
  auto Set = M.ExtInstImports.find(I.Operands[0]);
  if (Set == M.ExtInstImports.end())
    return ExtInstRoute::NoCode;
  if (Set->second == "GLSL.std.450")
    return ExtInstRoute::GlslStd450;
  // NonSemantic.* sets are debug and reflection information: no code.
  if (Set->second.rfind("NonSemantic.", 0) == 0)
    return ExtInstRoute::NoCode;
  Message = "unsupported: extended instruction " +
            std::to_string(I.Operands[1]) + " of " + Set->second;
  return ExtInstRoute::Unsupported;
}

Expected<CodegenResult> finishModule(std::unique_ptr<llvm::Module> LM,
                                     const EntryPoint &EP,
                                     const CodegenOptions &Opts,
                                     InterfaceLayout Layout,
                                     const ComputeInfo &Compute) {
  std::string VerifyMsg;
  raw_string_ostream VS(VerifyMsg);
  for (llvm::Function &Fun : *LM)
    if (!Fun.isDeclaration() && verifyFunction(Fun, &VS))
      return makeError("internal error: generated IR does not verify: " +
                       VS.str());
  CodegenResult R;
  R.IR = std::move(LM);
  R.EntrySymbol = Opts.SymbolPrefix + EP.Name;
  R.Layout = std::move(Layout);
  R.Compute = Compute;
  return R;
}

} // namespace spirv2llvm
