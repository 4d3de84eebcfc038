//===- ValueNamesTest.cpp - TranslateOptions::ValueNames --------------------===//
//
// Without value names (the JIT-only translation of `run`) the module must be
// the same code as with them: same functions, same instructions in the same
// order with the same types; only the names of non-global values go, and
// functions keep theirs (the JIT and the workgroup functions look them up).
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

using namespace spirv2llvm;

namespace {

const char *const Source = R"(#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Data { float values[]; };
float scaled(float x, uint i) {
  if (x > 2.0)
    return x * float(i);
  return x + 1.0;
}
void main() {
  uint index = gl_GlobalInvocationID.x;
  float acc = values[index];
  for (uint k = 0u; k < index; ++k)
    acc = scaled(acc, k);
  values[index] = acc;
}
)";

Translation translate(bool ValueNames) {
  TranslateOptions Opts;
  Opts.Width = 8;
  Opts.Inline = false; // keeps scaled() a function of its own
  Opts.ValueNames = ValueNames;
  llvm::StringRef Text(Source);
  auto T = translateBytes(
      {reinterpret_cast<const uint8_t *>(Text.data()), Text.size()},
      "names.comp", Opts);
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return Translation();
  }
  return std::move(*T);
}

/// Each instruction as "opcode type", in module order, per function.
std::string shape(const llvm::Module &M) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (const llvm::Function &F : M) {
    OS << F.getName() << ":";
    for (const llvm::BasicBlock &BB : F)
      for (const llvm::Instruction &I : BB) {
        OS << " " << I.getOpcodeName() << " ";
        I.getType()->print(OS);
      }
    OS << "\n";
  }
  return S;
}

unsigned namedLocalValues(const llvm::Module &M) {
  unsigned N = 0;
  for (const llvm::Function &F : M) {
    for (const llvm::Argument &A : F.args())
      N += A.hasName();
    for (const llvm::BasicBlock &BB : F) {
      N += BB.hasName();
      for (const llvm::Instruction &I : BB)
        N += I.hasName();
    }
  }
  return N;
}

TEST(ValueNames, DiscardingNamesKeepsTheCode) {
  Translation Named = translate(true), Plain = translate(false);
  ASSERT_TRUE(Named.IR && Plain.IR);
  EXPECT_EQ(shape(*Named.IR), shape(*Plain.IR));
  EXPECT_GT(namedLocalValues(*Named.IR), 0u);
  EXPECT_EQ(namedLocalValues(*Plain.IR), 0u);
}

TEST(ValueNames, FunctionsKeepTheirNames) {
  Translation Plain = translate(false);
  ASSERT_TRUE(Plain.IR);
  EXPECT_NE(Plain.IR->getFunction(Plain.EntrySymbol), nullptr);
  bool Callee = false;
  for (const llvm::Function &F : *Plain.IR)
    Callee |= F.getName().starts_with("s2l.fn.scaled");
  EXPECT_TRUE(Callee) << shape(*Plain.IR);
}

TEST(ValueNames, NamedValuesFollowTheSource) {
  Translation Named = translate(true);
  ASSERT_TRUE(Named.IR);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Named.IR->print(OS, nullptr);
  // glslang's OpName "param" (the call's argument variables) names their
  // slots: the names come from the SPIR-V module.
  EXPECT_NE(Text.find("%param"), std::string::npos) << Text;
}

} // namespace
