//===- InvocationCall.cpp - Functions that were not inlined (invocation) --===//
//
// With --no-inline or --no-canonicalize, OpFunctionCall stays a call. One
// invocation per call needs no masks, so a SPIR-V function is simply an
// LLVM function:
//
//   Ret @s2l.fn.NAME(ptr %args, ptr %env, params...)
//
// %args is the entry point's s2l_group_args (buffers, push constants and
// built-ins are read from it as in the entry function); %env is a table
// of the entry function's allocas for the per-invocation global variables
// (Private, Input, Output), in EnvVars order. Value parameters are their
// LLVM types. A pointer parameter is three values: into typed memory
// (Function, Private, Workgroup) the element 0 of the array it points into
// (addrspace(3) for Workgroup), its element index and the array's length
// (1 for a pointer that is not into an array), so that OpPtrAccessChain in
// the callee steps within that array and is clamped to it; into a buffer or
// push constants, base, byte offset and byte size, and every access
// through it is bounds-checked (the callee does not know whether its
// caller's pointer was). Ending the invocation (OpKill) inside a callee is
// not supported.
//
//===----------------------------------------------------------------------===//
#include "codegen/invocation/InvocationEmitter.h"

#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::invocation {

using llvm::Type;

namespace {
constexpr unsigned GroupsharedAddrSpace = 3;

bool isExplicitStorage(spv::StorageClass SC) {
  return SC == spv::StorageClass::StorageBuffer ||
         SC == spv::StorageClass::Uniform ||
         SC == spv::StorageClass::PushConstant;
}
} // namespace

void InvocationEmitter::declareCallees() {
  // Depth-first over the call graph from the entry point.
  std::vector<uint32_t> Work{Fn};
  std::vector<uint32_t> Order;
  std::vector<bool> Seen(M.Functions.size(), false);
  Seen[Fn] = true;
  while (!Work.empty()) {
    uint32_t Cur = Work.back();
    Work.pop_back();
    for (const Block &Bk : M.Functions[Cur].Blocks)
      for (uint32_t Index : Bk.Insts) {
        const Instruction &I = M.Insts[Index];
        if (I.Opcode != spv::Op::OpFunctionCall || I.Operands.empty())
          continue;
        auto It = M.FunctionIndexOf.find(I.Operands[0]);
        if (It == M.FunctionIndexOf.end()) {
          failAt(I, "callee " + M.friendlyName(I.Operands[0]) +
                        " is not a function");
          return;
        }
        if (!Seen[It->second]) {
          Seen[It->second] = true;
          Work.push_back(It->second);
          Order.push_back(It->second);
        }
      }
  }
  Type *Ptr = B.getPtrTy();
  for (uint32_t Index : Order) {
    const Function &Fun = M.Functions[Index];
    SmallVector<Type *, 8> Params{Ptr, Ptr};
    for (ValueId P : Fun.Params) {
      const spirv2llvm::Type &T = M.type(M.typeOf(P.value()));
      if (T.Kind != TypeKind::Pointer) {
        Params.push_back(typeOf(T.Id));
      } else if (isExplicitStorage(T.Storage)) {
        Params.append({Ptr, B.getInt64Ty(), B.getInt64Ty()});
      } else if (T.Storage == spv::StorageClass::Function ||
                 T.Storage == spv::StorageClass::Private ||
                 T.Storage == spv::StorageClass::Workgroup) {
        Params.append({T.Storage == spv::StorageClass::Workgroup
                           ? PointerType::get(Ctx, GroupsharedAddrSpace)
                           : Ptr,
                       B.getInt64Ty(), B.getInt64Ty()});
      } else {
        const char *SC = storageClassName(T.Storage);
        fail("unsupported: function " + M.friendlyName(Fun.Id.value()) +
             " takes a pointer to " + (SC ? SC : "?") +
             " memory (invocation back end)");
        return;
      }
    }
    const spirv2llvm::Type &RT = M.type(Fun.ResultType);
    if (RT.Kind == TypeKind::Pointer) {
      fail("unsupported: function " + M.friendlyName(Fun.Id.value()) +
           " returns a pointer (invocation back end)");
      return;
    }
    std::string Name = llvmName(Fun.Id.value());
    auto *LFn = llvm::Function::Create(
        FunctionType::get(typeOf(Fun.ResultType), Params, false),
        GlobalValue::InternalLinkage,
        "s2l.fn." + (Name.empty() ? std::to_string(Fun.Id.value()) : Name),
        LM.get());
    LFn->addFnAttr(Attribute::NoUnwind);
    Callees[Index] = LFn;
  }
}

void InvocationEmitter::bindParameters() {
  unsigned Arg = 2;
  for (ValueId P : F->Params) {
    uint32_t Id = P.value();
    const spirv2llvm::Type &T = M.type(M.typeOf(Id));
    if (T.Kind != TypeKind::Pointer) {
      set(Id, LF->getArg(Arg++));
      continue;
    }
    InvPointer Ptr;
    Ptr.Pointee = T.Element;
    Ptr.Storage = T.Storage;
    if (isExplicitStorage(T.Storage)) {
      Ptr.Explicit = true;
      Ptr.Addr = LF->getArg(Arg++);
      Ptr.Offset = LF->getArg(Arg++);
      Ptr.Size = LF->getArg(Arg++);
      Ptr.Checked = true;
    } else {
      // Element Index of the array at Root, of ArrayLength elements.
      Ptr.Root = LF->getArg(Arg++);
      Ptr.RootType = typeOf(T.Element);
      Value *Index = LF->getArg(Arg++);
      Value *Length = LF->getArg(Arg++);
      Ptr.Path = {Index};
      Ptr.ArrayLength = ~uint64_t(0);
      // The length is the caller's; a step past it is clamped to it.
      Ptr.Length = Length;
      Ptr.Addr = B.CreateInBoundsGEP(Ptr.RootType, Ptr.Root, Index);
    }
    Pointers[Id] = Ptr;
  }
}

bool InvocationEmitter::emitCall(const Instruction &I) {
  if (I.Opcode != spv::Op::OpFunctionCall)
    return false;
  auto It = M.FunctionIndexOf.find(I.Operands[0]);
  if (It == M.FunctionIndexOf.end() || !Callees.count(It->second)) {
    failAt(I, "callee " + M.friendlyName(I.Operands[0]) + " is not a function");
    return true;
  }
  const Function &Callee = M.Functions[It->second];
  if (I.Operands.size() - 1 != Callee.Params.size()) {
    failAt(I, "the call passes " + Twine(I.Operands.size() - 1) +
                  " arguments to a function of " +
                  Twine(Callee.Params.size()) + " parameters");
    return true;
  }
  llvm::Function *LFn = Callees[It->second];
  SmallVector<Value *, 8> Args{ArgsPtr, EnvPtr};
  for (size_t K = 1; K < I.Operands.size(); ++K) {
    const spirv2llvm::Type &T = M.type(M.typeOf(Callee.Params[K - 1].value()));
    if (T.Kind != TypeKind::Pointer) {
      Value *V = get(I.Operands[K]);
      if (V->getType() != typeOf(T.Id)) {
        failAt(I, "argument " + Twine(K - 1) +
                      " does not have the parameter's type");
        return true;
      }
      Args.push_back(V);
      continue;
    }
    InvPointer P;
    if (!pointerOf(I, I.Operands[K], P))
      return true;
    if (P.Explicit != isExplicitStorage(T.Storage)) {
      failAt(I, "argument " + Twine(K - 1) +
                    " is not in the parameter's storage class");
      return true;
    }
    if (P.Explicit) {
      // The layout of a matrix (or of a column of one) comes from the
      // caller's access chain, which the callee does not see.
      if (P.VecStride || P.ML.RowMajor || P.ML.Stride ||
          M.type(P.Pointee).Kind == TypeKind::Matrix) {
        failAt(I, "unsupported: passing a pointer to a matrix or a matrix "
                  "column in a buffer to a function (invocation back end)");
        return true;
      }
      Args.append({P.Addr, P.Offset,
                   P.Size ? P.Size : B.getInt64(INT64_MAX)});
    } else if (P.ArrayLength) {
      // A pointer to an array element travels as the array's element 0,
      // the index and the length, so the callee's OpPtrAccessChain can
      // step within the array and no further.
      SmallVector<Value *, 6> ToArray(P.Path.begin(), P.Path.end());
      Value *Index = B.CreateSExtOrTrunc(ToArray.back(), B.getInt64Ty());
      ToArray.back() = B.getInt32(0);
      Args.push_back(B.CreateInBoundsGEP(P.RootType, P.Root, ToArray));
      Args.push_back(Index);
      Args.push_back(P.Length ? P.Length
                    : P.ArrayLength == ~uint64_t(0)
                        ? B.getInt64(INT64_MAX)
                        : B.getInt64(P.ArrayLength));
    } else {
      Args.append({P.Addr, B.getInt64(0), B.getInt64(1)});
    }
  }
  Value *R = B.CreateCall(LFn, Args);
  if (I.Result.value() && !LFn->getReturnType()->isVoidTy())
    set(I.Result.value(), R);
  return true;
}

} // namespace spirv2llvm::invocation
