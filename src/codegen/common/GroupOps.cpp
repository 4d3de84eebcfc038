//===- GroupOps.cpp - Group operation semantics shared by the back ends ---===//
#include "codegen/common/GroupOps.h"

using namespace llvm;

namespace spirv2llvm {

Constant *groupIdentity(spv::Op Kind, Type *T, bool ForFill) {
  using spv::Op;
  switch (Kind) {
  case Op::OpGroupNonUniformIAdd:
  case Op::OpGroupNonUniformUMax:
  case Op::OpGroupNonUniformBitwiseOr:
  case Op::OpGroupNonUniformBitwiseXor:
  case Op::OpGroupNonUniformLogicalOr:
  case Op::OpGroupNonUniformLogicalXor:
    return Constant::getNullValue(T);
  case Op::OpGroupNonUniformFAdd:
    return ConstantFP::get(T, ForFill ? -0.0 : 0.0);
  case Op::OpGroupNonUniformIMul:
    return ConstantInt::get(T, 1);
  case Op::OpGroupNonUniformFMul:
    return ConstantFP::get(T, 1.0);
  case Op::OpGroupNonUniformSMin:
    return ConstantInt::get(T,
                            APInt::getSignedMaxValue(T->getScalarSizeInBits()));
  case Op::OpGroupNonUniformSMax:
    return ConstantInt::get(T,
                            APInt::getSignedMinValue(T->getScalarSizeInBits()));
  case Op::OpGroupNonUniformUMin:
  case Op::OpGroupNonUniformBitwiseAnd:
  case Op::OpGroupNonUniformLogicalAnd:
    return Constant::getAllOnesValue(T);
  case Op::OpGroupNonUniformFMin:
    return ConstantFP::getInfinity(T, /*Negative=*/false);
  case Op::OpGroupNonUniformFMax:
    return ConstantFP::getInfinity(T, /*Negative=*/true);
  default:
    return nullptr;
  }
}

} // namespace spirv2llvm
