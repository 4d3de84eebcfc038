//===- Fiber.h - Minimal stackful contexts for barriers ---------*- C++ -*-===//
//
// A workgroup's SIMD groups run as fibers on one thread; OpControlBarrier
// switches from a group back to the thread's scheduler. The switch saves
// only what the calling convention says survives a call (callee-saved
// registers, the stack pointer, the SSE and x87 control words): a few
// nanoseconds, against hundreds for swapcontext, which also saves the
// signal mask with a system call. Other hosts fall back to ucontext.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_FIBER_H
#define SPIRV2LLVM_RUNTIME_FIBER_H

#include <cstddef>

#if defined(__x86_64__) && defined(__linux__)
#define S2L_ASM_FIBERS 1
#else
#define S2L_ASM_FIBERS 0
#include <ucontext.h>
#endif

// ThreadSanitizer follows one stack per thread unless told about fibers
// (its fiber API); without it every switch looks like a corrupt stack.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define S2L_TSAN_FIBERS 1
#endif
#endif
#ifndef S2L_TSAN_FIBERS
#define S2L_TSAN_FIBERS 0
#endif

namespace spirv2llvm::fiber {

/// A suspended execution context.
struct Context {
#if S2L_TSAN_FIBERS
  Context() = default;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context();
  void *Tsan = nullptr; ///< ThreadSanitizer's fiber
  bool OwnsTsan = false;
#endif
#if S2L_ASM_FIBERS
  void *Sp = nullptr; ///< where the switch left its saved registers
#else
  ucontext_t Uc;
  void (*Fn)(void *) = nullptr;
  void *Arg = nullptr;
#endif
};

/// Prepares \p C on the stack [Stack, Stack + Size): switching to it calls
/// Fn(Arg) on that stack. Fn must not return; it ends by switching away
/// for good.
void makeContext(Context &C, void *Stack, size_t Size, void (*Fn)(void *),
                 void *Arg);

/// Saves the running context into \p From and resumes \p To.
void switchContext(Context &From, Context &To);

/// After a jump out of a fiber (a caught fault, FaultGuard.h) back onto
/// the thread's own stack, whose context is \p Thread: tells the tools
/// that follow stacks (ThreadSanitizer) where execution is now.
void resumedOnThread(Context &Thread);

} // namespace spirv2llvm::fiber

#endif
