//===- Unsupported.cpp - Errors that make a script SKIP -------------------===//
#include "amber/Unsupported.h"

using namespace llvm;

namespace spirv2llvm::amber {

namespace {

class UnsupportedError : public ErrorInfo<UnsupportedError> {
public:
  static char ID;
  std::string Msg;
  explicit UnsupportedError(std::string M) : Msg(std::move(M)) {}
  void log(raw_ostream &OS) const override { OS << Msg; }
  std::error_code convertToErrorCode() const override {
    return inconvertibleErrorCode();
  }
};
char UnsupportedError::ID = 0;

} // namespace

Error makeUnsupported(const Twine &Msg) {
  return make_error<UnsupportedError>(Msg.str());
}

bool isUnsupported(const Error &E) { return E.isA<UnsupportedError>(); }

} // namespace spirv2llvm::amber
