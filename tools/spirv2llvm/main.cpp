//===- main.cpp - spirv2llvm command ---------------------------------------===//
#include "Cli.h"

#include "llvm/Support/InitLLVM.h"

int main(int Argc, char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  int Status = spirv2llvm::runCli(Args, llvm::outs(), llvm::errs());
  llvm::outs().flush();
  return Status;
}
