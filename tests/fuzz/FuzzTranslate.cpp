//===- FuzzTranslate.cpp - libFuzzer target over the whole translate path -===//
//
// Bytes -> (validation -> canonicalization ->) parse -> CFG analyses ->
// uniformity -> codegen (SIMD, one-invocation or DXIL pipeline) -> LLVM
// verifier. Built twice (see
// CMakeLists.txt): S2L_FUZZ_VALIDATE=1 runs spirv-val and the SPIRV-Tools
// canonicalization first, the way users normally run; S2L_FUZZ_VALIDATE=0 is
// --no-validate, so every byte string reaches the translator's own checks.
//
// A finding is anything but "translated to IR that verifies" or "rejected
// with a diagnostic": sanitizer reports, crashes, timeouts, out-of-memory,
// and also accepted input whose IR the LLVM verifier rejects, or an
// "internal error" diagnostic (an assumption of the translator that the
// input broke without a proper check).
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifndef S2L_FUZZ_VALIDATE
#error "define S2L_FUZZ_VALIDATE to 0 or 1"
#endif

using namespace spirv2llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Binary;
  Opts.Validate = S2L_FUZZ_VALIDATE;
  // The input stays a plain SPIR-V module (so seeds and reproducers are
  // ordinary .spv files); the word count picks the configuration: its
  // parity robust buffer access, whose bounds checks are a separate code
  // path, and its next two bits the back end (half the inputs the SIMD
  // one, a quarter each the one-invocation back end and the DXIL pipeline
  // behind it). Other widths change mostly constants, and 4 keeps runs fast.
  Opts.Width = 4;
  Opts.RobustBufferAccess = (Size & 4) != 0;
  switch ((Size >> 3) & 3) {
  case 2:
    Opts.Backend = Backend::Invocation;
    break;
  case 3:
    Opts.Backend = Backend::Dxil;
    break;
  default:
    break;
  }
  auto T = translateBytes(llvm::ArrayRef<uint8_t>(Data, Size), "fuzz.spv",
                          Opts);
  if (!T) {
    std::string Msg = llvm::toString(T.takeError());
    // Only the translator's own prefix counts: the fuzzer learns to put
    // "internal error" into names and strings that messages quote.
    if (Msg.empty() || llvm::StringRef(Msg).starts_with(
                           "fuzz.spv: internal error: ")) {
      std::fprintf(stderr, "fuzz: unchecked assumption: %s\n", Msg.c_str());
      std::abort();
    }
    return 0;
  }
  std::string VerifyMsg;
  llvm::raw_string_ostream VS(VerifyMsg);
  if (llvm::verifyModule(*T->IR, &VS)) {
    std::fprintf(stderr, "fuzz: accepted input gives IR that does not "
                         "verify:\n%s\n", VS.str().c_str());
    std::abort();
  }
  return 0;
}
