//===- spirv2llvm/Status.h - Errors without LLVM ----------------*- C++ -*-===//
//
// The error type of the runtime headers (Jit.h, Compute.h), which compile
// without LLVM's include path: a Status is success or a message saying what
// went wrong and where; a Result<T> is a T or a failed Status.
//
//   auto S = spirv2llvm::ComputeShader::create(std::move(T));
//   if (!S) { std::cerr << S.status().message() << "\n"; return 1; }
//   spirv2llvm::Status D = (*S)->dispatch({16, 1, 1}, R);
//   if (!D.ok()) ...
//
// The translate API (spirv2llvm.h) returns llvm::Expected, since it hands
// out an llvm::Module anyway.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_STATUS_H
#define SPIRV2LLVM_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace spirv2llvm {

/// What kind of failure a Status reports; the C API returns the same codes
/// (s2l_result in spirv2llvm-c/spirv2llvm.h).
enum class StatusCode {
  Ok = 0,
  /// The shader or a data file is malformed or unsupported.
  InvalidInput = 1,
  /// An argument of the call is wrong (a missing binding, a bad size).
  InvalidArgument = 2,
  /// Running the shader failed: it faulted, was cancelled or timed out.
  ExecutionFailed = 3,
  /// Compiling for the host failed (target machine, JIT linking).
  CompileFailed = 4,
};

class [[nodiscard]] Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status error(std::string Message,
                      StatusCode Code = StatusCode::InvalidArgument) {
    assert(Code != StatusCode::Ok && "an error needs an error code");
    return Status(Code, std::move(Message));
  }

  bool ok() const { return Code == StatusCode::Ok; }
  StatusCode code() const { return Code; }
  /// The message (empty on success): lower case, says what and where.
  const std::string &message() const { return Message; }

private:
  Status(StatusCode C, std::string M) : Code(C), Message(std::move(M)) {}
  StatusCode Code = StatusCode::Ok;
  std::string Message;
};

/// A value of type T or the Status saying why there is none.
template <typename T> class [[nodiscard]] Result {
public:
  Result(T Value) : Value(std::move(Value)) {}
  Result(Status S) : S(std::move(S)) {
    assert(!this->S.ok() && "a Result without a value needs an error");
  }

  bool ok() const { return Value.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status &status() const { return S; }

  T &operator*() { return *Value; }
  const T &operator*() const { return *Value; }
  T *operator->() { return &*Value; }
  const T *operator->() const { return &*Value; }

private:
  std::optional<T> Value;
  Status S;
};

} // namespace spirv2llvm

#endif
