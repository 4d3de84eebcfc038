//===- FaultGuard.cpp - Memory faults in shader code as errors ------------===//
//
// Limitation: POSIX only (sigaction, sigaltstack, siglongjmp); the
// read/write distinction is read from the x86-64 page-fault error code and
// is "unknown" elsewhere.
//
//===----------------------------------------------------------------------===//
#include "runtime/FaultGuard.h"

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace spirv2llvm {

namespace {

constexpr int GuardedSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
constexpr int NumSignals = sizeof(GuardedSignals) / sizeof(int);

/// One armed runGuarded call, on its caller's stack.
struct Scope {
  sigjmp_buf Jump;
  FaultInfo Info;
  Scope *Outer = nullptr;
};

/// The innermost armed scope of this thread; null while the thread runs
/// anything but shader code. A trivially constructed thread_local, so the
/// handler reads it without calling a TLS initializer.
thread_local Scope *Armed = nullptr;

/// The handlers in place before ours, one per GuardedSignals entry. Written
/// once, before our handler is installed, read only by the handler.
struct sigaction Previous[NumSignals];
std::once_flag InstallOnce;

int signalIndex(int Sig) {
  for (int I = 0; I < NumSignals; ++I)
    if (GuardedSignals[I] == Sig)
      return I;
  return -1;
}

/// Passes a fault we do not own to the handler installed before ours, or
/// restores the default action so that the fault, when the instruction
/// runs again on return, kills the process as it would have without us.
void chain(int Sig, siginfo_t *Info, void *Ctx) {
  int I = signalIndex(Sig);
  const struct sigaction &P = Previous[I];
  if (P.sa_flags & SA_SIGINFO) {
    if (P.sa_sigaction) {
      P.sa_sigaction(Sig, Info, Ctx);
      return;
    }
  } else if (P.sa_handler != SIG_DFL && P.sa_handler != SIG_IGN) {
    P.sa_handler(Sig);
    return;
  }
  // Default (an ignored synchronous fault cannot be ignored: the kernel
  // kills the process anyway).
  struct sigaction Default = {};
  Default.sa_handler = SIG_DFL;
  sigemptyset(&Default.sa_mask);
  sigaction(Sig, &Default, nullptr);
  // A signal sent with kill() is not raised again by returning.
  if (Info->si_code <= 0)
    raise(Sig);
}

void handler(int Sig, siginfo_t *Info, void *Ctx) {
  Scope *S = Armed;
  if (!S) {
    chain(Sig, Info, Ctx);
    return;
  }
  FaultInfo &F = S->Info;
  F.Signal = Sig;
  F.Code = Info->si_code;
  F.Address = reinterpret_cast<uintptr_t>(Info->si_addr);
#if defined(__x86_64__) && defined(__linux__)
  const auto *UC = static_cast<const ucontext_t *>(Ctx);
  F.Pc = uintptr_t(UC->uc_mcontext.gregs[REG_RIP]);
  // Bit 1 of the page-fault error code: the access was a write.
  if (Sig == SIGSEGV)
    F.Write = (UC->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
  (void)Ctx;
#endif
  // The scope is disarmed, and the fault's signal (blocked while this
  // handler runs) unblocked, by runGuarded once back on its own frame.
  siglongjmp(S->Jump, 1);
}

void installHandlers() {
  for (int I = 0; I < NumSignals; ++I) {
    struct sigaction SA = {};
    SA.sa_sigaction = handler;
    // SA_ONSTACK: a stack overflow leaves no stack to run the handler on.
    SA.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&SA.sa_mask);
    sigaction(GuardedSignals[I], &SA, &Previous[I]);
  }
}

/// This thread's alternate signal stack, created the first time the thread
/// arms a scope unless the thread has one already (the embedder's or a
/// sanitizer's), and removed when the thread ends.
class AltStack {
public:
  void ensure() {
    if (Checked)
      return;
    Checked = true;
    stack_t Current;
    if (sigaltstack(nullptr, &Current) == 0 && !(Current.ss_flags & SS_DISABLE))
      return;
    size_t Page = size_t(sysconf(_SC_PAGESIZE));
    // A guard page below: a handler that overflowed would fault again.
    void *M = mmap(nullptr, Size + Page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (M == MAP_FAILED)
      return;
    mprotect(M, Page, PROT_NONE);
    stack_t New = {};
    New.ss_sp = static_cast<char *>(M) + Page;
    New.ss_size = Size;
    if (sigaltstack(&New, nullptr) != 0) {
      munmap(M, Size + Page);
      return;
    }
    Mem = M;
    MapSize = Size + Page;
  }
  ~AltStack() {
    if (!Mem)
      return;
    stack_t Current;
    if (sigaltstack(nullptr, &Current) == 0 &&
        Current.ss_sp == static_cast<char *>(Mem) + (MapSize - Size)) {
      stack_t Off = {};
      Off.ss_flags = SS_DISABLE;
      sigaltstack(&Off, nullptr);
    }
    munmap(Mem, MapSize);
  }

private:
  static constexpr size_t Size = 64 * 1024;
  bool Checked = false;
  void *Mem = nullptr;
  size_t MapSize = 0;
};
thread_local AltStack ThreadAltStack;

} // namespace

bool FaultInfo::isMemoryAccess() const {
  return Signal == SIGSEGV || Signal == SIGBUS;
}

std::string FaultInfo::describeAccess() const {
  char Buf[128];
  switch (Signal) {
  case SIGSEGV:
  case SIGBUS:
    std::snprintf(Buf, sizeof(Buf), "%s address 0x%llx",
                  Write == 1   ? "a write to"
                  : Write == 0 ? "a read of"
                               : "an access to",
                  static_cast<unsigned long long>(Address));
    return Buf;
  case SIGFPE:
    return Code == FPE_INTDIV || Code == FPE_INTOVF
               ? "an integer division trap (division by zero or overflow)"
               : "a floating-point trap";
  case SIGILL:
    return "an illegal instruction (a trap in generated code)";
  default:
    return "signal " + std::to_string(Signal);
  }
}

bool faultScopeArmed() { return Armed != nullptr; }

bool runGuarded(llvm::function_ref<void()> Body, FaultInfo &Out) {
  std::call_once(InstallOnce, installHandlers);
  ThreadAltStack.ensure();
  Scope S;
  S.Outer = Armed;
  // savemask = 0: saving the mask is a system call per arming; the one
  // signal the handler blocked is unblocked here instead.
  if (sigsetjmp(S.Jump, 0) != 0) {
    Armed = S.Outer;
    sigset_t Unblock;
    sigemptyset(&Unblock);
    sigaddset(&Unblock, S.Info.Signal);
    pthread_sigmask(SIG_UNBLOCK, &Unblock, nullptr);
    Out = S.Info;
    return false;
  }
  Armed = &S;
  Body();
  Armed = S.Outer;
  return true;
}

} // namespace spirv2llvm
