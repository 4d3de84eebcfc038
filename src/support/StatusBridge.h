//===- StatusBridge.h - llvm::Error to spirv2llvm::Status -------*- C++ -*-===//
//
// Inside the libraries errors are llvm::Error values; the runtime's public
// headers (Status.h) do not depend on LLVM, so they are converted at that
// boundary, once.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_SUPPORT_STATUSBRIDGE_H
#define SPIRV2LLVM_SUPPORT_STATUSBRIDGE_H

#include "spirv2llvm/Status.h"

#include "llvm/Support/Error.h"

namespace spirv2llvm {

/// Success for a success value, else a Status with \p E's message.
inline Status toStatus(llvm::Error E, StatusCode Code) {
  if (!E)
    return Status::success();
  return Status::error(llvm::toString(std::move(E)), Code);
}

/// \p V's value, or its error as a Status with code \p Code.
template <typename T>
Result<T> toResult(llvm::Expected<T> V, StatusCode Code) {
  if (!V)
    return Status::error(llvm::toString(V.takeError()), Code);
  return std::move(*V);
}

} // namespace spirv2llvm

#endif
