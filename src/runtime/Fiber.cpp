//===- Fiber.cpp - Minimal stackful contexts for barriers -----------------===//
#include "runtime/Fiber.h"

#include <cstdint>

#if S2L_TSAN_FIBERS
#include <sanitizer/tsan_interface.h>
#endif

#if S2L_ASM_FIBERS
// s2l_fiber_switch(void **SaveSp, void *NewSp): pushes the System V
// callee-saved registers, stores the stack pointer, loads the other one and
// pops the same frame from it. The MXCSR and x87 control words are not
// switched (ldmxcsr and fldcw serialize): every fiber of a thread shares
// the thread's floating-point environment, which shader code never changes.
// s2l_fiber_start is where a new context "returns" to: r12 holds the
// argument and r13 the function (makeContext puts them in the frame).
asm(R"(
  .text
  .p2align 4
  .globl s2l_fiber_switch
  .hidden s2l_fiber_switch
  .type s2l_fiber_switch,@function
s2l_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size s2l_fiber_switch, .-s2l_fiber_switch

  .p2align 4
  .type s2l_fiber_start,@function
s2l_fiber_start:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size s2l_fiber_start, .-s2l_fiber_start
)");

extern "C" void s2l_fiber_switch(void **SaveSp, void *NewSp);
extern "C" char s2l_fiber_start[];
#endif

namespace spirv2llvm::fiber {

namespace {
#if S2L_TSAN_FIBERS
void tsanPrepare(Context &C) {
  if (!C.Tsan) {
    C.Tsan = __tsan_create_fiber(0);
    C.OwnsTsan = true;
  }
}
void tsanSwitch(Context &From, Context &To) {
  if (!From.Tsan)
    From.Tsan = __tsan_get_current_fiber(); // the thread's own
  __tsan_switch_to_fiber(To.Tsan, 0);
}
#else
void tsanPrepare(Context &) {}
void tsanSwitch(Context &, Context &) {}
#endif
} // namespace

#if S2L_TSAN_FIBERS
Context::~Context() {
  if (OwnsTsan)
    __tsan_destroy_fiber(Tsan);
}
#endif

void resumedOnThread(Context &Thread) {
#if S2L_TSAN_FIBERS
  if (Thread.Tsan)
    __tsan_switch_to_fiber(Thread.Tsan, 0);
#else
  (void)Thread;
#endif
}

#if S2L_ASM_FIBERS

void makeContext(Context &C, void *Stack, size_t Size, void (*Fn)(void *),
                 void *Arg) {
  auto Top = (reinterpret_cast<uintptr_t>(Stack) + Size) & ~uintptr_t(15);
  // The frame s2l_fiber_switch pops, lowest address first; after its ret
  // the stack pointer is 16-byte aligned, as a call instruction needs.
  auto *Frame = reinterpret_cast<uint64_t *>(Top - 72);
  Frame[0] = 0;                                    // r15
  Frame[1] = 0;                                    // r14
  Frame[2] = reinterpret_cast<uint64_t>(Fn);       // r13
  Frame[3] = reinterpret_cast<uint64_t>(Arg);      // r12
  Frame[4] = 0;                                    // rbx
  Frame[5] = 0;                                    // rbp
  Frame[6] = reinterpret_cast<uint64_t>(s2l_fiber_start);
  C.Sp = Frame;
  tsanPrepare(C);
}

void switchContext(Context &From, Context &To) {
  tsanSwitch(From, To);
  s2l_fiber_switch(&From.Sp, To.Sp);
}

#else

namespace {
// makecontext passes int arguments only: the context's address travels
// as two halves.
void trampoline(unsigned Lo, unsigned Hi) {
  auto *C = reinterpret_cast<Context *>(uintptr_t(Hi) << 32 | Lo);
  C->Fn(C->Arg);
}
} // namespace

void makeContext(Context &C, void *Stack, size_t Size, void (*Fn)(void *),
                 void *Arg) {
  getcontext(&C.Uc);
  C.Uc.uc_stack.ss_sp = Stack;
  C.Uc.uc_stack.ss_size = Size;
  C.Uc.uc_link = nullptr;
  C.Fn = Fn;
  C.Arg = Arg;
  auto P = reinterpret_cast<uintptr_t>(&C);
  makecontext(&C.Uc, reinterpret_cast<void (*)()>(trampoline), 2,
              unsigned(P), unsigned(uint64_t(P) >> 32));
  tsanPrepare(C);
}

void switchContext(Context &From, Context &To) {
  tsanSwitch(From, To);
  swapcontext(&From.Uc, &To.Uc);
}

#endif

} // namespace spirv2llvm::fiber
