//===- InvocationEmitter.h - The one-invocation back end --------*- C++ -*-===//
//
// Translates one entry point so that one call runs ONE invocation
// (--backend=invocation), in the shape DXIL-style tools expect:
//
//  - SPIR-V vectors are LLVM vectors, matrices arrays of column vectors
//    ([C x <R x T>]), arrays arrays, structs literal structs, booleans i1;
//  - structured control flow is plain LLVM branches (no lane masks), phis
//    are LLVM phis;
//  - Function, Private, Input and Output variables are allocas (promoted
//    with mem2reg where possible); Workgroup variables are globals in
//    addrspace(3), as DXIL's groupshared; buffers and push constants are
//    byte-addressed through the descriptor table, with their explicit
//    layout (std140, std430, scalar) applied per access.
//
// The entry ABI is abi.h's with W = 1 (docs/backends.md): one call per
// invocation, args->first_local_index is the invocation's
// LocalInvocationIndex, interface blocks hold one element per component.
// The runtime (src/runtime/Groupshared.cpp) maps the addrspace(3) globals
// to args->workgroup_memory before JIT compilation, so workgroups can run
// on several threads.
//
// One opcode dispatch: InvocationInstruction.cpp. Component-wise arithmetic
// (ComponentOps.h) and GLSL.std.450 math (GlslComponentWise.h,
// MathBuilder.h) are shared with the SIMD back end.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_INVOCATIONEMITTER_H
#define SPIRV2LLVM_CODEGEN_INVOCATIONEMITTER_H

#include "codegen/Codegen.h"
#include "codegen/common/ImageInstr.h"
#include "codegen/common/MemoryLayout.h"
#include "parser/OpcodeTable.h"

#include "llvm/IR/IRBuilder.h"

#include <map>
#include <unordered_map>

namespace spirv2llvm::invocation {

/// A SPIR-V pointer. Typed pointers (allocas, addrspace(3) globals) point
/// to the pointee's LLVM type and are indexed with GEPs. Explicit-layout
/// pointers (buffers, push constants) are a base address plus a byte
/// offset; loads and stores place each scalar by MemoryLayout.
struct InvPointer {
  TypeId Pointee;
  spv::StorageClass Storage = spv::StorageClass::Function;
  bool Explicit = false;
  llvm::Value *Addr = nullptr;   ///< typed: the pointer; explicit: base
  llvm::Value *Offset = nullptr; ///< explicit: i64 bytes from Addr
  llvm::Value *Size = nullptr;   ///< explicit: i64 bytes bound (buffers)
  MatrixLayout ML;               ///< layout of a matrix pointee
  uint64_t VecStride = 0;        ///< component stride inside a matrix
  /// Every access is checked against Size: out-of-bounds loads read zero,
  /// stores and atomics do nothing (robust buffer access, and always for
  /// an element of a descriptor array).
  bool Checked = false;
  /// An array of buffer blocks not indexed yet: its descriptors and their
  /// count; the access chain's first indices pick the element.
  llvm::Value *DescArray = nullptr;
  llvm::Value *DescCount = nullptr;
  /// Typed pointers: the variable and the GEP indices that lead here (the
  /// leading 0 included), so OpPtrAccessChain can step within the array
  /// the pointer points into.
  llvm::Value *Root = nullptr;
  llvm::Type *RootType = nullptr;
  llvm::SmallVector<llvm::Value *, 6> Path;
  /// Number of elements of the array the last Path index selects in
  /// (0: the pointer is the variable itself or a struct member, only
  /// element 0 exists; ~0: unknown here, Length says or nothing does).
  uint64_t ArrayLength = 0;
  /// A callee's pointer parameter: the length of its array (i64).
  llvm::Value *Length = nullptr;
};

class InvocationEmitter {
public:
  InvocationEmitter(const Module &M, const EntryPoint &EP,
                    const cfg::ModuleAnalysis &MA, const CodegenOptions &Opts,
                    llvm::LLVMContext &Ctx);
  llvm::Expected<CodegenResult> run();

private:
  // --- set-up, values, control flow (InvocationEmitter.cpp) ---------------
  void createEntryFunction();
  void emitBlock(cfg::BlockIndex Bk);
  void emitTerminator(const Instruction &T);
  void fillPhis();
  void emitReturn(bool Alive);
  llvm::Type *typeOf(TypeId T);
  llvm::Constant *constantValue(uint32_t Id);
  llvm::Value *get(uint32_t Id);
  void set(uint32_t Id, llvm::Value *V);
  bool pointerOf(const Instruction &I, uint32_t Id, InvPointer &P);
  std::string llvmName(uint32_t Id) const;
  llvm::Value *argField(unsigned Index, llvm::Type *T, const llvm::Twine &N);
  void fail(const llvm::Twine &Msg);
  void failAt(const Instruction &I, const llvm::Twine &Msg);

  /// Emits SPIR-V function \p FnIndex into \p Fn (the entry point, or a
  /// function it calls).
  void emitFunction(uint32_t FnIndex, llvm::Function *Fn, bool Entry);

  // --- calls (InvocationCall.cpp) -------------------------------------------
  /// Declares an LLVM function for every function the entry point reaches
  /// through OpFunctionCall (left by --no-inline or --no-canonicalize).
  void declareCallees();
  /// The callee's parameters as values and pointers.
  void bindParameters();
  bool emitCall(const Instruction &I);

  // --- instructions (InvocationInstruction.cpp: the one dispatch) ---------
  void emitInstruction(const Instruction &I);
  bool emitArithmetic(const Instruction &I);
  /// The opcodes that are not component-wise, by the table's Eval column
  /// (select, scale, dot, bit fields, extended arithmetic, tests).
  bool emitEvaluated(const Instruction &I, const OpcodeInfo &Info);
  bool emitComposite(const Instruction &I);
  /// Reads and writes of one member (Eval=Member, CompositeAccess.h).
  bool emitMember(const Instruction &I);
  bool emitMatrix(const Instruction &I);
  bool emitGlslStd450(const Instruction &I);
  /// One GLSL.std.450 instruction, its forms' methods
  /// (InvocationArithmetic.cpp).
  struct GlslCall;
  bool emitMemory(const Instruction &I);
  bool emitAtomic(const Instruction &I);
  bool emitBarrier(const Instruction &I);
  /// Subgroup operations on a subgroup of one (InvocationSubgroup.cpp).
  bool emitSubgroup(const Instruction &I);

  // --- images and samplers (InvocationImage.cpp) ---------------------------
  bool emitImage(const Instruction &I);
  bool emitImageTexelPointer(const Instruction &I);
  void createOpaqueBindings(llvm::Value *&Sets);
  bool emitOpaqueMemory(const Instruction &I);
  llvm::Value *loadOpaque(const Instruction &I, uint32_t Ptr);

  // --- memory and built-ins (InvocationMemory.cpp) -------------------------
  void createVariables();
  void emitAccessChain(const Instruction &I);
  /// OpSelect of two StorageBuffer or Workgroup pointers
  /// (InvocationPointerSelect.cpp).
  void emitPointerSelect(const Instruction &I);
  llvm::Value *load(const InvPointer &P);
  void store(const InvPointer &P, llvm::Value *V);
  /// \p Bound: the buffer's size in bytes when accesses are checked.
  llvm::Value *loadExplicit(TypeId T, llvm::Value *Base, llvm::Value *Offset,
                            MatrixLayout L, uint64_t VecStride,
                            llvm::Value *Bound);
  void storeExplicit(TypeId T, llvm::Value *Base, llvm::Value *Offset,
                     MatrixLayout L, uint64_t VecStride, llvm::Value *V,
                     llvm::Value *Bound);
  /// The address of \p Bytes bytes at \p Offset from \p Base, or, when
  /// \p Bound is set and they are not all below it, a harmless stand-in:
  /// zeros to read, a scratch slot to write.
  llvm::Value *checkedAddress(llvm::Value *Base, llvm::Value *Offset,
                              uint64_t Bytes, llvm::Value *Bound,
                              bool ForStore);
  llvm::Value *boundOf(const InvPointer &P) const;
  /// Indexes the descriptor array \p P with the access chain's operands
  /// from \p First; returns how many it used (0 on error).
  size_t indexDescriptorArray(const Instruction &I, size_t First,
                              InvPointer &P);
  llvm::Value *address(const InvPointer &P, uint64_t Bytes, bool ForStore);
  llvm::Value *computeBuiltIn(uint32_t Var);
  /// Copies interface inputs in / outputs out (vertex, fragment).
  void copyInterface(bool Inputs);

  const Module &M;
  const EntryPoint &EP;
  const cfg::ModuleAnalysis &MA;
  CodegenOptions Opts;
  llvm::LLVMContext &Ctx;
  llvm::IRBuilder<> B;
  MemoryLayout ML;

  std::unique_ptr<llvm::Module> LM;
  llvm::Function *LF = nullptr;
  llvm::StructType *ArgsType = nullptr;
  llvm::Value *ArgsPtr = nullptr;
  llvm::BasicBlock *EntryBB = nullptr;
  InterfaceLayout Layout;
  ComputeInfo Compute;

  /// SPIR-V function index -> its LLVM function, callees only.
  std::map<uint32_t, llvm::Function *> Callees;
  /// Per-invocation global variables (Private, Input, Output): allocas of
  /// the entry function, which callees reach through %env, a table of
  /// their pointers in this order.
  std::vector<uint32_t> EnvVars;
  std::unordered_map<uint32_t, llvm::GlobalVariable *> Groupshared;

  // Per function (emitFunction resets them).
  bool IsEntry = true;
  llvm::Value *EnvPtr = nullptr;
  uint32_t Fn = 0;
  const Function *F = nullptr;
  const cfg::FunctionAnalysis *A = nullptr;
  std::vector<llvm::BasicBlock *> Blocks;    ///< SPIR-V block -> LLVM block
  std::unordered_map<llvm::BasicBlock *, cfg::BlockIndex> EndOf; ///< last LLVM block of a SPIR-V block
  std::unordered_map<uint32_t, cfg::BlockIndex> DefBlock;
  /// Whether \p Id's definition dominates the current block; fails with
  /// "\p What ... is used in block ..." if not (unvalidated input).
  bool dominatesUse(uint32_t Id, const char *What);
  std::vector<std::pair<const Instruction *, llvm::PHINode *>> Phis;
  std::unordered_map<uint32_t, llvm::Value *> Values;
  std::unordered_map<uint32_t, InvPointer> Pointers;
  std::unordered_map<uint32_t, OpaqueRef> Opaque;
  ImageRuntime ImageRT; ///< declared at the first image instruction
  std::unordered_map<uint32_t, llvm::Type *> TypeCache;
  /// Stand-ins for out-of-bounds checked accesses (checkedAddress).
  llvm::GlobalVariable *ZeroBytes = nullptr;
  llvm::AllocaInst *DiscardSlot = nullptr;
  /// Input/Output variables of vertex and fragment entries (allocas).
  std::vector<uint32_t> InterfaceVars;
  cfg::BlockIndex CurBlock = cfg::NoBlock;
  llvm::Error Err = llvm::Error::success();
  bool Failed = false;
};

} // namespace spirv2llvm::invocation

#endif
