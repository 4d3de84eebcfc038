//===- ThreadPool.cpp - Persistent workers for dispatches -----------------===//
#include "runtime/ThreadPool.h"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace spirv2llvm {

namespace {

class Pool {
public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> L(M);
      Quit = true;
    }
    Wake.notify_all();
    for (std::thread &T : Threads)
      T.join();
  }

  void run(unsigned N, llvm::function_ref<void(unsigned)> Job) {
    std::lock_guard<std::mutex> Turn(RunMutex);
    {
      std::lock_guard<std::mutex> L(M);
      while (Threads.size() + 1 < N) {
        unsigned Index = unsigned(Threads.size()) + 1;
        Threads.emplace_back([this, Index] { workerLoop(Index); });
      }
      Current = Job;
      Participants = N;
      Pending = N - 1;
      ++Generation;
    }
    Wake.notify_all();
    // The other participants use the caller's frames (Job's captures):
    // an exception of this thread's part (std::bad_alloc) must wait for
    // them before it unwinds those frames.
    std::exception_ptr Thrown;
    try {
      Job(0);
    } catch (...) {
      Thrown = std::current_exception();
    }
    {
      std::unique_lock<std::mutex> L(M);
      Done.wait(L, [&] { return Pending == 0; });
    }
    if (Thrown)
      std::rethrow_exception(Thrown);
  }

private:
  void workerLoop(unsigned Index) {
    uint64_t Seen = 0;
    std::unique_lock<std::mutex> L(M);
    for (;;) {
      Wake.wait(L, [&] { return Quit || Generation != Seen; });
      if (Quit)
        return;
      Seen = Generation;
      if (Index >= Participants)
        continue;
      auto Job = Current;
      L.unlock();
      Job(Index);
      L.lock();
      if (--Pending == 0)
        Done.notify_one();
    }
  }

  std::mutex RunMutex; // one job at a time
  std::mutex M;
  std::condition_variable Wake, Done;
  std::vector<std::thread> Threads;
  llvm::function_ref<void(unsigned)> Current;
  unsigned Participants = 0, Pending = 0;
  uint64_t Generation = 0;
  bool Quit = false;
};

} // namespace

void runOnWorkers(unsigned N, llvm::function_ref<void(unsigned)> Job) {
  if (N <= 1) {
    Job(0);
    return;
  }
  static Pool P;
  P.run(N, Job);
}

} // namespace spirv2llvm
