//===- InvocationPointerSelect.cpp - OpSelect of buffer/workgroup pointers ===//
//
// Variable pointers in the one-invocation back end: OpSelect between two
// StorageBuffer or two Workgroup pointers (possibly into different
// variables). A buffer pointer is a base, a byte offset and a size
// (InvPointer::Explicit): each is selected, so robust access still checks
// against the chosen buffer. A Workgroup pointer is a typed pointer into an
// addrspace(3) global: the address is selected and becomes the root of
// later access chains (the selected pointee is the new root type, so an
// OpPtrAccessChain on the result can only step within it).
//
// Refused, with a message: register variables (Function, Private), which
// VariablePointers does not allow selecting either, un-indexed arrays of
// buffer blocks and pointees with different matrix layouts. OpPhi of
// pointers and pointer-typed variables are not done (docs/amber.md
// "Variable pointers").
//
//===----------------------------------------------------------------------===//
#include "codegen/invocation/InvocationEmitter.h"

using namespace llvm;

namespace spirv2llvm::invocation {

void InvocationEmitter::emitPointerSelect(const Instruction &I) {
  uint32_t Id = I.Result.value();
  InvPointer X, Y;
  if (!pointerOf(I, I.Operands[1], X) || !pointerOf(I, I.Operands[2], Y))
    return;
  auto Selectable = [](const InvPointer &P) {
    return P.Storage == spv::StorageClass::StorageBuffer ||
           P.Storage == spv::StorageClass::Workgroup;
  };
  if (!Selectable(X) || !Selectable(Y) || X.Storage != Y.Storage ||
      X.Explicit != Y.Explicit) {
    failAt(I, "unsupported: OpSelect of these pointers (variable pointers "
              "select two StorageBuffer or two Workgroup pointers)");
    return;
  }
  if (X.DescArray || Y.DescArray) {
    failAt(I, "an array of buffer blocks must be indexed before it is "
              "selected");
    return;
  }
  if (X.ML.RowMajor != Y.ML.RowMajor || X.ML.Stride != Y.ML.Stride ||
      X.VecStride != Y.VecStride) {
    failAt(I, "unsupported: OpSelect of pointers to matrices with different "
              "layouts");
    return;
  }
  Value *C = get(I.Operands[0]);
  std::string Name = llvmName(Id);
  auto Pick = [&](Value *A, Value *Bv, const char *What) -> Value * {
    return A == Bv ? A : B.CreateSelect(C, A, Bv, Name + What);
  };
  InvPointer R = X;
  R.Addr = Pick(X.Addr, Y.Addr, ".addr");
  if (X.Length != Y.Length)
    R.Length = nullptr;
  if (X.Explicit) {
    R.Offset = Pick(X.Offset, Y.Offset, ".offset");
    R.Size = X.Size && Y.Size ? Pick(X.Size, Y.Size, ".size") : nullptr;
    R.Checked = (X.Checked || Y.Checked) && R.Size;
    Pointers[Id] = R;
    return;
  }
  // Typed: the same root and path keep the root; otherwise the selected
  // address is the root of what follows.
  bool SamePath = X.Root == Y.Root && X.Path.size() == Y.Path.size() &&
                  std::equal(X.Path.begin(), X.Path.end(), Y.Path.begin());
  if (!SamePath) {
    R.Root = R.Addr;
    R.RootType = typeOf(X.Pointee);
    R.Path = {B.getInt32(0)};
    R.ArrayLength = 0;
    R.Length = nullptr;
  }
  Pointers[Id] = R;
}

} // namespace spirv2llvm::invocation
