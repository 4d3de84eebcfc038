//===- TranslateBench.cpp - Translation and JIT speed over a corpus -------===//
//
//   s2l-translate-bench DIR [--jit=compute|all|none] [benchmark flags]
//
// Loads every *.spv under DIR (bench/run.sh builds the glslang corpus of
// ../shared/corpus into a temporary directory), validates and canonicalizes
// each once (not timed), and keeps the modules spirv2llvm translates. Then:
//
//  - translate/corpus: parse + CFG analyses + uniformity + LLVM IR emission
//    (-O0, W = 8) of every kept module per iteration, reported as SPIR-V
//    words per second (counter "words/s", words after canonicalization);
//  - translate/corpus-default: the whole in-process translation with the
//    default options (validation, canonicalization, analyses, IR), from the
//    file's words; words/s counts the input words;
//  - translate/corpus-jit: the same with value names off, as `run` and
//    the other JIT-only users translate (TranslateOptions::ValueNames);
//  - stage/validate, stage/canonicalize, stage/parse+analyses, stage/emit:
//    the same work split by stage (words/s of each stage's input), so that
//    the table in docs/performance.md says where the time goes;
//  - jit/NAME: optimization and machine code generation (-O2, ORC LLJIT) of
//    one module, one benchmark per shader (compute shaders by default).
//
//===----------------------------------------------------------------------===//
#include "api/Pipeline.h"
#include "frontend/Frontend.h"
#include "parser/Parser.h"
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace spirv2llvm;

namespace {

struct CorpusModule {
  std::string Name;
  std::vector<uint32_t> Words; ///< validated and canonicalized
  std::vector<uint8_t> Bytes;  ///< the file
  std::vector<uint32_t> InputWords; ///< the file's words, validated
  spv_target_env Env;
  TranslateOptions Opts;       ///< entry point chosen, no re-validation
  bool IsCompute = false;
};

std::vector<CorpusModule> Corpus;
uint64_t CorpusWords = 0, InputWords = 0;

void loadCorpus(StringRef Dir) {
  std::vector<std::string> Paths;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC))
    if (sys::path::extension(I->path()) == ".spv")
      Paths.push_back(I->path());
  std::sort(Paths.begin(), Paths.end());
  unsigned Skipped = 0;
  for (const std::string &P : Paths) {
    auto Buf = MemoryBuffer::getFile(P, /*IsText=*/false);
    if (!Buf) {
      ++Skipped;
      continue;
    }
    ArrayRef<uint8_t> Bytes(
        reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
        (*Buf)->getBufferSize());
    CorpusModule M;
    M.Name = sys::path::filename(P).str();
    M.Opts.Width = 8;
    auto Words = loadSpirv(Bytes, P, M.Opts, M.Env);
    if (!Words) {
      consumeError(Words.takeError());
      ++Skipped;
      continue;
    }
    M.Words = std::move(*Words);
    M.Bytes.assign(Bytes.begin(), Bytes.end());
    {
      TranslateOptions Raw = M.Opts;
      Raw.Validate = false;
      spv_target_env E;
      auto In = loadSpirv(Bytes, P, Raw, E);
      if (!In) {
        if (getenv("S2L_BENCH_DEBUG"))
          errs() << P << ": " << toString(In.takeError()) << "\n";
        else
          consumeError(In.takeError());
        ++Skipped;
        continue;
      }
      M.InputWords = std::move(*In);
    }
    auto Parsed = parseModule(M.Words);
    if (!Parsed || (*Parsed)->EntryPoints.empty()) {
      if (!Parsed)
        consumeError(Parsed.takeError());
      ++Skipped;
      continue;
    }
    M.Opts.EntryPoint = (*Parsed)->EntryPoints[0].Name;
    M.IsCompute = (*Parsed)->EntryPoints[0].Model == spv::ExecutionModel::GLCompute;
    M.Opts.Validate = false; // done above, with canonicalization
    auto AM = analyzeSpirv(M.Words, M.Env, M.Opts);
    if (!AM) {
      consumeError(AM.takeError());
      ++Skipped;
      continue;
    }
    auto T = generateLlvm(*AM, M.Opts);
    if (!T) {
      if (getenv("S2L_BENCH_DEBUG"))
        errs() << P << ": " << toString(T.takeError()) << "\n";
      else
        consumeError(T.takeError());
      ++Skipped;
      continue;
    }
    CorpusWords += M.Words.size();
    InputWords += M.InputWords.size();
    Corpus.push_back(std::move(M));
  }
  errs() << "corpus: " << Corpus.size() << " modules, " << CorpusWords
         << " words (" << Skipped << " skipped: unreadable or not translated)\n";
}

void translateCorpus(benchmark::State &State) {
  for (auto _ : State) {
    for (const CorpusModule &M : Corpus) {
      auto AM = analyzeSpirv(M.Words, M.Env, M.Opts);
      auto T = generateLlvm(*AM, M.Opts);
      benchmark::DoNotOptimize(T->IR.get());
    }
  }
  State.counters["words/s"] = benchmark::Counter(
      double(CorpusWords), benchmark::Counter::kIsIterationInvariantRate);
  State.counters["modules"] = double(Corpus.size());
}

// The default options, as `spirv2llvm FILE` and translateBytes use them.
TranslateOptions defaultOptions(const CorpusModule &M) {
  TranslateOptions O;
  O.Width = M.Opts.Width;
  O.EntryPoint = M.Opts.EntryPoint;
  return O;
}

void translateCorpusDefault(benchmark::State &State, bool ValueNames) {
  for (auto _ : State) {
    for (const CorpusModule &M : Corpus) {
      TranslateOptions O = defaultOptions(M);
      O.ValueNames = ValueNames;
      spv_target_env Env;
      auto Words = loadSpirv(M.Bytes, M.Name, O, Env);
      auto AM = analyzeSpirv(std::move(*Words), Env, O);
      auto T = generateLlvm(*AM, O);
      benchmark::DoNotOptimize(T->IR.get());
    }
  }
  State.counters["words/s"] = benchmark::Counter(
      double(InputWords), benchmark::Counter::kIsIterationInvariantRate);
}

void stageValidate(benchmark::State &State) {
  for (auto _ : State)
    for (const CorpusModule &M : Corpus) {
      Error E = frontend::validateSpirv(M.InputWords, M.Env);
      benchmark::DoNotOptimize(bool(E));
      consumeError(std::move(E));
    }
  State.counters["words/s"] = benchmark::Counter(
      double(InputWords), benchmark::Counter::kIsIterationInvariantRate);
}

void stageCanonicalize(benchmark::State &State) {
  for (auto _ : State)
    for (const CorpusModule &M : Corpus) {
      frontend::CanonicalizeOptions C;
      auto W = frontend::canonicalizeSpirv(M.InputWords, M.Env, C);
      benchmark::DoNotOptimize(W->data());
    }
  State.counters["words/s"] = benchmark::Counter(
      double(InputWords), benchmark::Counter::kIsIterationInvariantRate);
}

void stageAnalyze(benchmark::State &State) {
  for (auto _ : State)
    for (const CorpusModule &M : Corpus) {
      auto AM = analyzeSpirv(M.Words, M.Env, M.Opts);
      benchmark::DoNotOptimize(AM->M.get());
    }
  State.counters["words/s"] = benchmark::Counter(
      double(CorpusWords), benchmark::Counter::kIsIterationInvariantRate);
}

void stageEmit(benchmark::State &State) {
  std::vector<AnalyzedModule> Analyzed;
  for (const CorpusModule &M : Corpus)
    Analyzed.push_back(std::move(*analyzeSpirv(M.Words, M.Env, M.Opts)));
  for (auto _ : State)
    for (size_t I = 0; I < Corpus.size(); ++I) {
      auto T = generateLlvm(Analyzed[I], Corpus[I].Opts);
      benchmark::DoNotOptimize(T->IR.get());
    }
  State.counters["words/s"] = benchmark::Counter(
      double(CorpusWords), benchmark::Counter::kIsIterationInvariantRate);
}

void jitOne(benchmark::State &State, const CorpusModule *M) {
  for (auto _ : State) {
    State.PauseTiming();
    auto AM = analyzeSpirv(M->Words, M->Env, M->Opts);
    auto T = generateLlvm(*AM, M->Opts);
    State.ResumeTiming();
    auto J = JitShader::create(std::move(*T), 2);
    if (!J) {
      State.SkipWithError(J.status().message().c_str());
      break;
    }
    benchmark::DoNotOptimize((*J)->entry());
  }
  State.counters["words"] = double(M->Words.size());
}

} // namespace

int main(int argc, char **argv) {
  std::string Dir, Jit = "compute";
  std::vector<char *> Rest = {argv[0]};
  for (int I = 1; I < argc; ++I) {
    if (std::strncmp(argv[I], "--jit=", 6) == 0)
      Jit = argv[I] + 6;
    else if (argv[I][0] != '-' && Dir.empty())
      Dir = argv[I];
    else
      Rest.push_back(argv[I]);
  }
  if (Dir.empty() || (Jit != "compute" && Jit != "all" && Jit != "none")) {
    errs() << "usage: s2l-translate-bench DIR [--jit=compute|all|none] "
              "[--benchmark_...]\n";
    return 2;
  }
  loadCorpus(Dir);
  if (Corpus.empty()) {
    errs() << "s2l-translate-bench: no translatable .spv module under " << Dir
           << "\n";
    return 1;
  }
  benchmark::RegisterBenchmark("translate/corpus", translateCorpus)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("translate/corpus-default",
                               translateCorpusDefault, true)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("translate/corpus-jit", translateCorpusDefault,
                               false)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("stage/validate", stageValidate)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("stage/canonicalize", stageCanonicalize)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("stage/parse+analyses", stageAnalyze)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("stage/emit", stageEmit)
      ->Unit(benchmark::kMillisecond);
  for (const CorpusModule &M : Corpus)
    if (Jit == "all" || (Jit == "compute" && M.IsCompute))
      benchmark::RegisterBenchmark(("jit/" + M.Name).c_str(), jitOne, &M)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(3);
  int Argc = int(Rest.size());
  benchmark::Initialize(&Argc, Rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
