//===- Emit.cpp - Writing a module as IR, bitcode, object or asm ----------===//
#include "target/Emit.h"

#include "support/Diagnostic.h"
#include "target/Optimizer.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LegacyPassManager.h"

using namespace llvm;

namespace spirv2llvm {

Error emitModule(Module &M, OutputKind Kind, unsigned OptLevel,
                 raw_ostream &OS) {
  switch (Kind) {
  case OutputKind::IRText:
    M.print(OS, nullptr);
    return Error::success();
  case OutputKind::Bitcode:
    WriteBitcodeToFile(M, OS);
    return Error::success();
  case OutputKind::Object:
  case OutputKind::Assembly:
    break;
  }
  auto TM = createHostTargetMachine(OptLevel);
  if (!TM)
    return TM.takeError();
  // Code generation wants a seekable stream (object files patch offsets);
  // stdout is not one, so go through a buffer.
  SmallString<0> Buffer;
  raw_svector_ostream BOS(Buffer);
  legacy::PassManager PM;
  bool Object = Kind == OutputKind::Object;
  if ((*TM)->addPassesToEmitFile(PM, BOS, nullptr,
                                 Object ? CodeGenFileType::ObjectFile
                                        : CodeGenFileType::AssemblyFile))
    return makeError(Twine("the host target cannot emit ") +
                     (Object ? "object code" : "assembly"));
  PM.run(M);
  OS << Buffer;
  return Error::success();
}

} // namespace spirv2llvm
