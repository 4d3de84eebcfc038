//===- Watchdog.cpp - Deadlines and cancel flags for dispatches -----------===//
#include "runtime/Watchdog.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace spirv2llvm {

namespace {

using Clock = std::chrono::steady_clock;

/// How often embedder flags are looked at: the latency a cancel adds on
/// top of reaching the next loop back edge.
constexpr auto PollInterval = std::chrono::milliseconds(1);

class Watchdog {
public:
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> L(M);
      Quit = true;
    }
    Wake.notify_one();
    if (Thread.joinable())
      Thread.join();
  }

  void add(WatchdogTicket *T) {
    {
      std::lock_guard<std::mutex> L(M);
      Tickets.push_back(T);
      if (!Thread.joinable())
        Thread = std::thread([this] { loop(); });
    }
    Wake.notify_one();
  }

  void remove(WatchdogTicket *T) {
    std::lock_guard<std::mutex> L(M);
    Tickets.erase(std::find(Tickets.begin(), Tickets.end(), T));
  }

private:
  void loop() {
    std::unique_lock<std::mutex> L(M);
    while (!Quit) {
      Clock::time_point Now = Clock::now();
      std::optional<Clock::time_point> Next;
      for (WatchdogTicket *T : Tickets) {
        if (T->Reason.load() != StopKind::None)
          continue;
        if (T->Cancel && T->Cancel->load(std::memory_order_relaxed)) {
          T->Reason = StopKind::Cancelled;
          T->Stop.store(1);
          continue;
        }
        if (T->Deadline && Now >= *T->Deadline) {
          T->Reason = StopKind::Deadline;
          T->Stop.store(1);
          continue;
        }
        if (T->Cancel)
          Next = std::min(Next.value_or(Clock::time_point::max()),
                          Now + PollInterval);
        if (T->Deadline)
          Next = std::min(Next.value_or(Clock::time_point::max()),
                          *T->Deadline);
      }
      if (Next)
        Wake.wait_until(L, *Next);
      else
        Wake.wait(L);
    }
  }

  std::mutex M;
  std::condition_variable Wake;
  std::vector<WatchdogTicket *> Tickets;
  std::thread Thread;
  bool Quit = false;
};

Watchdog &watchdog() {
  static Watchdog W;
  return W;
}

} // namespace

WatchdogTicket::WatchdogTicket(
    std::atomic<uint32_t> &Stop,
    std::optional<std::chrono::steady_clock::time_point> Deadline,
    const std::atomic<uint32_t> *Cancel)
    : Stop(Stop), Deadline(Deadline), Cancel(Cancel) {
  if (!Deadline && !Cancel)
    return;
  // A flag already set stops the dispatch before any workgroup starts.
  if (Cancel && Cancel->load()) {
    Reason = StopKind::Cancelled;
    Stop.store(1);
    return;
  }
  watchdog().add(this);
  Registered = true;
}

WatchdogTicket::~WatchdogTicket() {
  if (Registered)
    watchdog().remove(this);
}

} // namespace spirv2llvm
