//===- Expect.h - Evaluating Amber EXPECT commands --------------*- C++ -*-===//
//
// Each check returns std::nullopt when the expectation holds, otherwise the
// message a FAIL line carries: the EXPECT's line, what was expected, what
// the buffer holds and where they first differ.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_EXPECT_H
#define SPIRV2LLVM_AMBER_EXPECT_H

#include "amber/AmberScript.h"

#include <optional>
#include <string>

namespace spirv2llvm::amber {

/// Checks one EXPECT command \p C against the buffers it names.
std::optional<std::string> checkExpect(const Command &C, Script &S);

} // namespace spirv2llvm::amber

#endif
