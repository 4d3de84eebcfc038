//===- AmberCommand.cpp - `spirv2llvm amber`: run Amber scripts -----------===//
#include "AmberCommand.h"
#include "CacheOption.h"

#include "amber/AmberRunner.h"
#include "ArgParse.h"

#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace spirv2llvm {

namespace {

const char *const HelpText = R"(usage: spirv2llvm amber FILE... [options]

Runs Amber test scripts (compute pipelines and DRAW_RECT fragment
rendering) on the JIT and prints PASS, FAIL or SKIP per script, then a
summary. docs/amber.md lists the supported AmberScript subset.

  --width 4|8|16   invocations per SIMD group (default 4)
  --threads N      worker threads of dispatches and draws (default 0: all
                   cores)
  --no-helper-lanes  accepted, no effect: the rasterizer runs helper lanes
                   unless the fragment shader writes memory
  --timeout S      a script still running after S seconds FAILs (default
                   300; 0: no limit)
  --no-fork        run scripts in this process (no timeout, and a crash
                   ends the run); by default each script runs in a child
                   process, so a crash or hang is that script's FAIL
  -v               print each command as it runs (to stderr)
  --cache-dir DIR  keep compiled shaders in DIR and load them from there
                   next time (default: $SPIRV2LLVM_CACHE_DIR; none if unset;
                   docs/compile-cache.md)
  --cache-max-size SIZE  bytes the cache may hold (K, M or G suffix;
                   default 256M)
)";

/// Runs one script in a child process: a shader that never terminates or
/// a crash in the translator becomes this script's FAIL instead of ending
/// the whole run. The child sends the outcome letter and message through
/// a pipe.
amber::ScriptResult runIsolated(const std::string &File,
                                const amber::RunnerOptions &O,
                                unsigned TimeoutSec, raw_ostream &Err) {
  int Fds[2];
  if (pipe(Fds) != 0)
    return amber::runScriptFile(File, O);
  Err.flush();
  pid_t Pid = fork();
  if (Pid < 0) {
    close(Fds[0]);
    close(Fds[1]);
    return amber::runScriptFile(File, O);
  }
  if (Pid == 0) {
    close(Fds[0]);
    amber::ScriptResult R = amber::runScriptFile(File, O);
    std::string Msg(1, R.Result == amber::Outcome::Pass   ? 'P'
                       : R.Result == amber::Outcome::Fail ? 'F'
                                                          : 'S');
    Msg += R.Message;
    size_t Done = 0;
    while (Done < Msg.size()) {
      ssize_t N = write(Fds[1], Msg.data() + Done, Msg.size() - Done);
      if (N <= 0)
        break;
      Done += size_t(N);
    }
    close(Fds[1]);
    if (O.Log)
      O.Log->flush();
    _exit(0); // no destructors: the parent owns everything else
  }
  close(Fds[1]);
  std::string Msg;
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(TimeoutSec);
  bool TimedOut = false;
  while (true) {
    int WaitMs = -1;
    if (TimeoutSec) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      Deadline - std::chrono::steady_clock::now())
                      .count();
      if (Left <= 0) {
        TimedOut = true;
        break;
      }
      WaitMs = int(std::min<long long>(Left, 1000));
    }
    pollfd P = {Fds[0], POLLIN, 0};
    int Ready = poll(&P, 1, WaitMs);
    if (Ready < 0 && errno != EINTR)
      break;
    if (Ready <= 0)
      continue;
    char Buf[4096];
    ssize_t N = read(Fds[0], Buf, sizeof Buf);
    if (N <= 0)
      break; // end of file: the child is done (or died)
    Msg.append(Buf, size_t(N));
  }
  close(Fds[0]);
  if (TimedOut)
    kill(Pid, SIGKILL);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (TimedOut)
    return {amber::Outcome::Fail,
            formatv("timed out after {0} s (a shader that does not "
                    "terminate?)",
                    TimeoutSec)
                .str()};
  if (Msg.empty() || !WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
    std::string Why = WIFSIGNALED(Status)
                          ? formatv("signal {0} ({1})", WTERMSIG(Status),
                                    strsignal(WTERMSIG(Status)))
                                .str()
                          : formatv("exit status {0}", WEXITSTATUS(Status))
                                .str();
    return {amber::Outcome::Fail, "the runner crashed: " + Why};
  }
  amber::Outcome Out = Msg[0] == 'P'   ? amber::Outcome::Pass
                       : Msg[0] == 'F' ? amber::Outcome::Fail
                                       : amber::Outcome::Skip;
  return {Out, Msg.substr(1)};
}

} // namespace

int amberCommand(ArrayRef<std::string> Args, raw_ostream &Out,
                 raw_ostream &Err) {
  amber::RunnerOptions O;
  std::vector<std::string> Files;
  bool Verbose = false, Fork = true;
  unsigned TimeoutSec = 300;
  CacheFlags CacheF;
  std::string CacheError;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    std::string V;
    int R;
    if (A == "--help" || A == "-h") {
      Out << HelpText;
      return 0;
    } else if (A == "--no-helper-lanes") {
      O.HelperLanes = false;
    } else if (A == "-v" || A == "--verbose") {
      Verbose = true;
    } else if (A == "--no-fork") {
      Fork = false;
    } else if ((R = takeOptionValue(Args, I, "--timeout", V))) {
      if (R < 0 || StringRef(V).getAsInteger(10, TimeoutSec)) {
        Err << "error: --timeout takes seconds (0: no limit)\n";
        return 2;
      }
    } else if ((R = takeOptionValue(Args, I, "--width", V))) {
      if (R < 0 || (V != "4" && V != "8" && V != "16")) {
        Err << "error: --width takes 4, 8 or 16\n";
        return 2;
      }
      O.Width = unsigned(std::stoul(V));
    } else if ((R = takeOptionValue(Args, I, "--threads", V))) {
      unsigned N;
      if (R < 0 || StringRef(V).getAsInteger(10, N)) {
        Err << "error: --threads takes a count (0: all cores)\n";
        return 2;
      }
      O.Threads = N;
    } else if (int C = takeCacheFlag(Args, I, CacheF, CacheError)) {
      if (C < 0) {
        Err << "error: " << CacheError << "\n";
        return 2;
      }
    } else if (A.starts_with("-") && A != "-") {
      Err << "error: unknown option '" << A
          << "'\n(run 'spirv2llvm amber --help' for usage)\n";
      return 2;
    } else {
      Files.push_back(A.str());
    }
  }
  if (Files.empty()) {
    Err << "error: no Amber script\n(run 'spirv2llvm amber --help' for "
           "usage)\n";
    return 2;
  }
  if (Verbose)
    O.Log = &Err;
  std::shared_ptr<CompileCache> Cache = openCache(CacheF, Err, "");
  if (Cache && Cache->enabled())
    O.Cache = Cache.get();
  unsigned Passed = 0, Failed = 0, Skipped = 0;
  for (const std::string &F : Files) {
    if (Verbose)
      Err << F << ":\n";
    Out.flush();
    amber::ScriptResult R = Fork ? runIsolated(F, O, TimeoutSec, Err)
                                 : amber::runScriptFile(F, O);
    switch (R.Result) {
    case amber::Outcome::Pass:
      Out << "PASS " << F << "\n";
      ++Passed;
      break;
    case amber::Outcome::Fail:
      Out << "FAIL " << F << ": " << R.Message << "\n";
      ++Failed;
      break;
    case amber::Outcome::Skip:
      Out << "SKIP " << F << ": " << R.Message << "\n";
      ++Skipped;
      break;
    }
    Out.flush();
  }
  Out << Passed << " passed, " << Failed << " failed, " << Skipped
      << " skipped\n";
  return Failed ? 1 : 0;
}

} // namespace spirv2llvm
