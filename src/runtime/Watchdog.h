//===- Watchdog.h - Deadlines and cancel flags for dispatches ---*- C++ -*-===//
//
// Generated code reads one stop flag at every loop back edge (abi.h's
// s2l_group_args::cancel). A dispatch owns that flag; three things may set
// it: a memory fault in one of its workers (FaultGuard.h), its deadline,
// and the embedder's own cancel flag (DispatchResources::Cancel). The
// last two need someone awake while every worker runs shader code: one
// process-wide watchdog thread, started on first use, which sleeps until
// the nearest deadline and, while some dispatch has an embedder flag,
// looks at those flags every millisecond.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_WATCHDOG_H
#define SPIRV2LLVM_RUNTIME_WATCHDOG_H

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

namespace spirv2llvm {

/// Why a watched flag was set.
enum class StopKind : uint32_t { None, Deadline, Cancelled };

/// Watches one dispatch for as long as it lives: sets \p Stop to 1 when
/// \p Deadline passes or \p Cancel (when not null) becomes non-zero. The
/// destructor unregisters; after it returns the watchdog no longer touches
/// \p Stop. Without a deadline or a flag nothing is registered.
class WatchdogTicket {
public:
  WatchdogTicket(std::atomic<uint32_t> &Stop,
                 std::optional<std::chrono::steady_clock::time_point> Deadline,
                 const std::atomic<uint32_t> *Cancel);
  ~WatchdogTicket();
  WatchdogTicket(const WatchdogTicket &) = delete;
  WatchdogTicket &operator=(const WatchdogTicket &) = delete;

  /// What set the flag, if the watchdog did.
  StopKind reason() const { return Reason.load(); }

  // Fields read by the watchdog thread under its lock.
  std::atomic<uint32_t> &Stop;
  std::optional<std::chrono::steady_clock::time_point> Deadline;
  const std::atomic<uint32_t> *Cancel;
  std::atomic<StopKind> Reason{StopKind::None};

private:
  bool Registered = false;
};

} // namespace spirv2llvm

#endif
