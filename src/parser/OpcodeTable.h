//===- OpcodeTable.h - One table of opcode properties -----------*- C++ -*-===//
//
// Facts about SPIR-V opcodes that several stages need, kept in one place
// (the shape of NIR's nir_op_infos): the family an emitter dispatches on,
// the uniformity rule of the result, the operand and result types the type
// checker asks for, the OpSpecConstantOp form, whether
// the operation may run with no lane active, and the operand counts of the
// GLSL.std.450 instructions. The table is generated at build time
// (gen_opcode_table.py) from SPIRV-Headers' grammar and the hand-written
// OpcodeProperties.txt, which documents each column; add an opcode there,
// never as another switch.
//
// Support per back end is each emitter's one switch over OpcodeFamily: a
// family the back end does not implement is an "unsupported:" diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_PARSER_OPCODETABLE_H
#define SPIRV2LLVM_PARSER_OPCODETABLE_H

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>

namespace spirv2llvm {

/// Which part of an emitter implements an opcode.
enum class OpcodeFamily : uint8_t {
  None,            ///< no emitter implements it
  NoCode,          ///< structure already in the CFG, debug information
  ExtInst,         ///< OpExtInst: routed by its instruction set
  ControlFlow,     ///< phis and terminators, emitted with the blocks
  Arithmetic,      ///< component-wise arithmetic, conversions, select, dot
  Bitwise,         ///< bit fields, extended arithmetic, any/all, isnan/isinf
  Composite,       ///< construct, extract, insert, shuffles
  Matrix,          ///< matrix products and transpose
  Memory,          ///< variables, loads, stores, access chains
  PhysicalPointer, ///< conversions between physical pointers and integers
  Atomic,
  Barrier,
  Call,
  Subgroup,        ///< GroupNonUniform and the KHR ballot/vote forms
  Helper,          ///< demote to helper, is-helper
  Derivative,      ///< DPdx/DPdy/Fwidth and their fine and coarse forms
  Image,           ///< image and sampler instructions (ImageInstr.h)
};

/// How the uniformity analysis computes the result of an opcode.
enum class UniformityRule : uint8_t {
  Operands, ///< the meet of the operands (at best Uniform)
  Special,  ///< the analysis has its own rule (loads, phis, stores...)
  Varying,  ///< differs per lane whatever the operands
  Uniform,  ///< the same in every active lane of the subgroup
  /// A group operation: Uniform for Reduce, Varying for scans and
  /// clustered reductions.
  ReduceUniform,
  /// OpGroupNonUniformBallotBitCount: the operands' meet for Reduce (the
  /// count of a uniform ballot), Varying for scans.
  ReduceOperands,
};

/// The operand form of an opcode OpSpecConstantOp allows (Shader
/// capability); None: not allowed.
enum class SpecConstantForm : uint8_t {
  None, Convert, Quantize, Unary, Binary, Shift, Compare, Select, Shuffle,
  Extract, Insert,
};
/// The component kind of an OpSpecConstantOp result, where the form has
/// one.
enum class SpecConstantKind : uint8_t { Other, Bool, Int, Float };

/// The operand and result types of an opcode the type checker checks with
/// one rule (TypeCheck.cpp); None: its own rule, or none.
enum class OperandShape : uint8_t {
  None,
  FloatBinary,      ///< two float operands like the float result
  FloatUnary,       ///< one float operand like the float result
  IntBinary,        ///< two integer operands like the integer result
  IntUnary,         ///< one integer operand like the integer result
  IntUnaryAnyWidth, ///< one integer operand, any width (OpBitCount)
  Shift,            ///< IntBinary; the shift amount may have any width
  BoolBinary,       ///< two boolean operands like the boolean result
  BoolUnary,        ///< one boolean operand like the boolean result
  IntCompare,       ///< boolean result; two integer operands of one width
  FloatCompare,     ///< boolean result; two float operands of one width
  FloatTest,        ///< boolean result; one float operand (isnan, isinf)
  BoolReduce,       ///< boolean scalar result; one boolean vector (any, all)
  FloatToInt,       ///< conversions: one operand, same component count
  IntToFloat,
  IntToInt,
  FloatToFloat,
  /// Arithmetic group operations: the value operand has the result type, of
  /// the kind the opcode names.
  GroupInt,
  GroupFloat,
  GroupBool,
  /// OpBitcast: integer, float or pointer scalars and vectors, never
  /// booleans (which have no bit pattern).
  Bitcast,
};

/// How the lane-shape analysis (uniformity/LaneShape.h) carries "lane i's
/// value is Base + i * Stride" from the operands to the result, per
/// component; None: the result is varying unless it is uniform.
enum class AffineRule : uint8_t {
  None,
  Add,       ///< strides add (OpIAdd)
  Sub,       ///< strides subtract (OpISub)
  Mul,       ///< stride times a constant other operand (OpIMul)
  Shl,       ///< stride shifted by a constant amount (OpShiftLeftLogical)
  Negate,    ///< stride negated (OpSNegate; OpNot, as ~x is -x - 1)
  /// The stride is kept: integer conversions (indices do not wrap), copies,
  /// same-width bitcasts, OpConvertUToPtr and OpConvertPtrToU (64-bit
  /// addresses).
  Convert,
  Extract,   ///< the shape of the component taken (OpCompositeExtract)
  Construct, ///< the shapes of the constituents (OpCompositeConstruct)
  Load,      ///< a built-in's lanes, by how the runtime numbers them (OpLoad)
};

namespace OpcodeFlag {
enum : uint8_t {
  Binary = 1,       ///< component-wise binary (ComponentOps.h)
  Unary = 2,        ///< component-wise unary (ComponentOps.h)
  /// Lane-wise, no memory, defined for any input: may run with no lane
  /// active instead of behind an any-lane branch.
  Speculatable = 4,
  AccessChain = 8,  ///< a pointer derived from operand 0 by indices
  TypeDecl = 16,    ///< declares a type (not OpTypeForwardPointer)
  ConstantDecl = 32,///< declares a constant or specialization constant
  Terminator = 64,  ///< ends a block
  /// Reads derivatives of its operands over the fragment quad (implicit-LOD
  /// sampling, derivatives, quad operations): helper lanes must run.
  QuadDerivatives = 128,
};
} // namespace OpcodeFlag

struct OpcodeInfo {
  spv::Op Opcode;
  OpcodeFamily Family;
  UniformityRule Uniformity;
  SpecConstantForm SpecForm;
  SpecConstantKind SpecKind;
  uint8_t Flags;
  OperandShape Shape;
  AffineRule Affine;
};

/// The properties of \p Op; an opcode the property file does not list gets
/// family None, rule Operands, no spec-constant form and no flags.
const OpcodeInfo &opcodeInfo(spv::Op Op);

inline bool hasOpcodeFlag(spv::Op Op, uint8_t Flag) {
  return (opcodeInfo(Op).Flags & Flag) != 0;
}
inline bool isAccessChain(spv::Op Op) {
  return hasOpcodeFlag(Op, OpcodeFlag::AccessChain);
}

/// Operands after the instruction number of GLSL.std.450 instruction
/// \p Inst (from the grammar); 0 for numbers that are not instructions,
/// including the reserved IMix.
unsigned glslStd450OperandCount(uint32_t Inst);

} // namespace spirv2llvm

#endif
