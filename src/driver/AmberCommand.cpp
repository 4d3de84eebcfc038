//===- AmberCommand.cpp - `spirv2llvm amber`: run Amber scripts -----------===//
#include "driver/AmberCommand.h"

#include "amber/AmberRunner.h"
#include "driver/ArgParse.h"

#include <string>
#include <vector>

using namespace llvm;

namespace spirv2llvm {

namespace {

const char *const HelpText = R"(usage: spirv2llvm amber FILE... [options]

Runs Amber test scripts (compute pipelines and DRAW_RECT fragment
rendering) on the JIT and prints PASS, FAIL or SKIP per script, then a
summary. docs/amber.md lists the supported AmberScript subset.

  --width 4|8|16   invocations per SIMD group (default 4)
  --threads N      compute worker threads (default 0: all cores)
  --no-helper-lanes  run only the covered pixels of a 2x2 quad (helper
                   lanes inactive); exercises partial lane masks
  -v               print each command as it runs (to stderr)
)";

} // namespace

int amberCommand(ArrayRef<std::string> Args, raw_ostream &Out,
                 raw_ostream &Err) {
  amber::RunnerOptions O;
  std::vector<std::string> Files;
  bool Verbose = false;
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
  unsigned Passed = 0, Failed = 0, Skipped = 0;
  for (const std::string &F : Files) {
    if (Verbose)
      Err << F << ":\n";
    amber::ScriptResult R = amber::runScriptFile(F, O);
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
