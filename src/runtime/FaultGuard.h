//===- FaultGuard.h - Memory faults in shader code as errors ----*- C++ -*-===//
//
// Without robust buffer access a shader can load or store anywhere. When
// such an access hits unmapped or protected memory, the CPU raises SIGSEGV
// (or SIGBUS; a trapping instruction raises SIGFPE or SIGILL), and by
// default the process dies. FaultGuard turns that signal, when it comes
// from a thread that is running shader code, into a return from
// runGuarded() with a description of the fault, the way WebAssembly
// runtimes (wasmtime, V8) turn out-of-bounds accesses into traps:
//
//  - one process-wide handler for SIGSEGV, SIGBUS, SIGFPE and SIGILL,
//    installed on first use and never removed, running on an alternate
//    signal stack (so a stack overflow can be reported too);
//  - a thread-local pointer to the armed scope: set only while the thread
//    runs shader code (runGuarded's body), null everywhere else;
//  - a fault on a thread with an armed scope records the address, the
//    instruction and read/write, then siglongjmps to the scope. Any other
//    fault is passed on to the handler that was installed before ours
//    (or to the default action, which kills the process as before), so
//    the embedder's and the sanitizers' handlers keep working.
//
// The body must not own objects with destructors on its own frames (the
// jump skips them), and must not hold locks: everything it needs lives
// in the caller. Shader code never takes locks or allocates; the runtime
// callbacks it makes (barriers: a fiber switch) do neither.
//
// docs/robustness.md describes the design and its cost.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_FAULTGUARD_H
#define SPIRV2LLVM_RUNTIME_FAULTGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <string>

namespace spirv2llvm {

/// What a caught fault was.
struct FaultInfo {
  int Signal = 0;        ///< SIGSEGV, SIGBUS, SIGFPE or SIGILL
  int Code = 0;          ///< siginfo's si_code (SEGV_MAPERR, FPE_INTDIV, ...)
  uintptr_t Address = 0; ///< the faulting data address (si_addr)
  uintptr_t Pc = 0;      ///< the faulting instruction, when known
  /// 1: a write, 0: a read, -1: unknown (from the x86-64 page-fault
  /// error code).
  int Write = -1;

  /// "a write to address 0x..." / "an integer division by zero" / ...
  std::string describeAccess() const;
  /// Whether the fault is an access to memory (SIGSEGV or SIGBUS).
  bool isMemoryAccess() const;
};

/// Runs \p Body with the calling thread's fault scope armed. Returns true
/// if it returned normally; false if a fault in it was caught, with \p Out
/// describing it. Nested calls are allowed (the inner one catches). Safe
/// from any number of threads at once.
bool runGuarded(llvm::function_ref<void()> Body, FaultInfo &Out);

/// Whether the calling thread is inside runGuarded's body (for tests).
bool faultScopeArmed();

} // namespace spirv2llvm

#endif
