//===- OpcodeTable.h - One table of opcode properties -----------*- C++ -*-===//
//
// Facts about SPIR-V opcodes that several stages need, kept in one place
// (the shape of NIR's nir_op_infos): the family an emitter dispatches on,
// the uniformity rule of the result, the operand and result types the type
// checker asks for, the OpSpecConstantOp form, whether
// the operation may run with no lane active, what a declaration declares
// (id kind, type kind, constant form), the kinds of the <id> operands, how
// a terminator leaves its block, how the value is computed (the LLVM
// operation, predicate, cast or intrinsic, or a small evaluation kind),
// what a memory, atomic, subgroup, derivative or image instruction does,
// and the operand counts and forms of the GLSL.std.450 instructions. The
// table is generated at build time
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

#include "parser/Kinds.h"

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
  Geometry,        ///< EmitVertex, EndPrimitive and their stream forms
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
  /// Extended arithmetic: a struct of two members of one integer scalar or
  /// vector type; both operands of that type.
  ExtendedInt,
  /// Float dot product: two float vectors of one type, their component
  /// type the result.
  Dot,
  /// Matrix products and OpVectorTimesScalar (the emitter reads columns and
  /// rows from the types, so every dimension must agree):
  MatrixTranspose,   ///< matrix of the transposed shape
  VectorScale,       ///< a vector result: operand 0 of its type, a scalar
  MatrixScale,       ///< a matrix result: operand 0 of its type, a scalar
  VectorTimesMatrix, ///< vector of K x matrix of K rows: vector
  MatrixTimesVector, ///< matrix of K columns x vector of K: vector
  MatrixTimesMatrix, ///< N x K by K x M: N x M
  OuterProduct,      ///< two vectors: a matrix of their sizes
  /// Group operations, counting operands after the scope (OpcodeInfo::
  /// HasScope; the KHR forms have none):
  GroupPredicate,    ///< votes and ballots: a boolean scalar predicate
  GroupElect,        ///< a boolean scalar result and no operand
  GroupValue,        ///< a value of the result type (broadcast first)
  /// A value of the result type and an integer scalar (invocation id,
  /// shuffle mask or delta, quad index)
  GroupValueIndex,
  GroupAllEqual,     ///< a boolean scalar result of a scalar or vector
  BallotTest,        ///< a boolean scalar result of a ballot
  BallotBitExtract,  ///< a boolean scalar result of a ballot and an index
  BallotBitCount,    ///< an integer scalar of a group operation and a ballot
  BallotFind,        ///< an integer scalar result of a ballot
};

/// The constant a ConstantDecl opcode (or OpUndef) declares; whether it is
/// a specialization constant is OpcodeInfo::SpecConstant.
enum class ConstantForm : uint8_t {
  None,
  True,      ///< a boolean constant, true
  False,     ///< a boolean constant, false
  Scalar,    ///< an integer or float of one or two literal words
  Composite, ///< constituents, one per component, element or member
  Null,
  Undef,     ///< OpUndef (a constant only outside functions)
  Op,        ///< OpSpecConstantOp: computed from an instruction
};

/// The kinds an opcode's <id> operands must have, by position (the
/// parser's operand checks, the pre-optimizer check); Values: all values
/// (constants, variables and instruction results).
enum class IdOperandRule : uint8_t {
  Values,
  Labels,        ///< all labels (OpBranch, merge instructions)
  BranchTargets, ///< a value (condition, selector), then labels
  PhiPairs,      ///< (value, parent label) pairs
  Call,          ///< the callee function, then the argument values
  ExtInst,       ///< the instruction set, then values
  /// OpExecutionModeId: the entry point function, then constants (after
  /// the execution mode, a literal)
  ModeIds,
};

/// How a value-producing opcode computes its value, read by both emitters
/// through codegen/common (ComponentOps.h, ValueOps.h) instead of a switch
/// over opcodes. The names are LLVM's where LLVM has the operation.
///
/// The LLVM binary operator of a component-wise binary opcode
/// (llvm::Instruction::BinaryOps of the same name). Integer division and
/// remainder divide by 1 where the divisor is 0 (or INT_MIN / -1 would
/// overflow), shifts take the amount modulo the width; SMod and FMod are
/// SRem and FRem with the result's sign made to follow the divisor. Also
/// the combining operator of Eval=Reduce.
enum class BinaryOpKind : uint8_t {
  None, Add, FAdd, Sub, FSub, Mul, FMul, UDiv, SDiv, FDiv, URem, SRem, FRem,
  Shl, LShr, AShr, And, Or, Xor, SMod, FMod,
};
/// The predicate of a comparison (llvm::CmpInst::Predicate of the same
/// name); for Eval=FloatTest, how |x| compares with +infinity.
enum class CompareKind : uint8_t {
  None, FCMP_OEQ, FCMP_OGT, FCMP_OGE, FCMP_OLT, FCMP_OLE, FCMP_ONE, FCMP_UNO,
  FCMP_UEQ, FCMP_UGT, FCMP_UGE, FCMP_ULT, FCMP_ULE, FCMP_UNE, ICMP_EQ,
  ICMP_NE, ICMP_UGT, ICMP_UGE, ICMP_ULT, ICMP_ULE, ICMP_SGT, ICMP_SGE,
  ICMP_SLT, ICMP_SLE,
};
/// A component-wise unary opcode that is not a conversion.
enum class UnaryOpKind : uint8_t {
  None,
  Neg,  ///< 0 - x
  FNeg, ///< -x
  Not,  ///< all bits flipped (booleans too)
  Copy, ///< x itself
};
/// A conversion (llvm::Instruction::CastOps of the same name). ZExt, SExt
/// and FPExt truncate instead where the result is narrower (and do nothing
/// where it has the operand's width); FPToUI and FPToSI saturate, since
/// SPIR-V's out-of-range result is undefined where LLVM's is poison. Also
/// how Eval=BitFieldExtract extends the field and Eval=ExtendedMul the
/// operands.
enum class CastKind : uint8_t {
  None, ZExt, SExt, FPExt, UIToFP, SIToFP, FPToUI, FPToSI, BitCast,
};
/// The LLVM intrinsic (llvm::Intrinsic::ID of the same name) of
/// Eval=UnaryIntrinsic and Eval=WithOverflow.
enum class IntrinsicKind : uint8_t {
  None, bitreverse, ctpop, uadd_with_overflow, usub_with_overflow,
};
/// How an opcode that is not component-wise computes its value.
enum class EvalKind : uint8_t {
  None,
  Select,          ///< per component, the condition's (or its only) choice
  Scale,           ///< every component times a scalar (vector or matrix)
  Dot,             ///< sum of the products of the components, in order
  Undef,           ///< zero (a defined undefined value)
  Reduce,          ///< the components combined with Bin (any, all)
  FloatTest,       ///< |x| compared with +infinity by Cmp (isnan, isinf)
  BitFieldInsert,  ///< base, insert, offset, count
  BitFieldExtract, ///< base, offset, count; the field extended by Cast
  UnaryIntrinsic,  ///< Intr on x, converted to the result's width
  WithOverflow,    ///< Intr's {result, carry}, the carry as an integer
  ExtendedMul,     ///< {low, high} of the operands extended by Cast
  Quantize,        ///< rounded to half precision and back
  /// Lhs times Rhs, each a matrix, a vector taken as a column or a vector
  /// taken as a row: sums of products over the inner dimension.
  Product,
  Transpose,
  Construct, ///< a composite from its constituents, in order
  Shuffle,   ///< components of two vectors picked by literals
  /// One member of a composite read or replaced (Access=), reached by
  /// literal indices or by one dynamic index (Index=); the operands are
  /// decoded by codegen/common/CompositeAccess.h.
  Member,
};
/// How Eval=Product reads one operand.
enum class MatrixOperandKind : uint8_t { None, Matrix, Column, Row };
/// Whether Eval=Member reads the member or returns the composite with the
/// member replaced.
enum class MemberAccessKind : uint8_t { None, Read, Write };
/// Whether Eval=Member's member is reached by literal indices (any depth)
/// or by one index value (a vector component).
enum class MemberIndexKind : uint8_t { None, Literal, Dynamic };

namespace OpcodeFlag {
enum : uint8_t {
  Binary = 1,       ///< component-wise binary (ComponentOps.h)
  Unary = 2,        ///< component-wise unary (ComponentOps.h)
  /// Lane-wise, no memory, defined for any input: may run with no lane
  /// active instead of behind an any-lane branch.
  Speculatable = 4,
  TypeDecl = 16,    ///< declares a type (not OpTypeForwardPointer)
  ConstantDecl = 32,///< declares a constant or specialization constant
  Terminator = 64,  ///< ends a block (set by the Terminator column)
  /// Reads derivatives of its operands over the fragment quad (implicit-LOD
  /// sampling, derivatives, quad operations): helper lanes must run.
  QuadDerivatives = 128,
};
} // namespace OpcodeFlag

/// Memory instructions (Memory=): what the instruction does with its
/// pointers. OpInBounds* forms are the plain ones (no bounds are assumed).
enum class MemoryOpKind : uint8_t {
  None,
  Variable,       ///< OpVariable (made at function entry)
  Load,           ///< operand 0 read
  Store,          ///< operand 1 written to operand 0
  Copy,           ///< operand 1's pointee copied to operand 0's
  ArrayLength,    ///< elements of a runtime array member
  PointerCompare, ///< OpPtrEqual / OpPtrNotEqual
  AccessChain,    ///< a pointer into operand 0 by indices
  PtrAccessChain, ///< the same after an element index (OpPtrAccessChain)
};

/// The operation that combines two values (Combine=): a group operation's
/// reduction, an atomic's read-modify-write. Bitwise and logical group
/// operations share And/Or/Xor (booleans are 1-bit integers).
enum class CombineKind : uint8_t {
  None, Add, Sub, Mul, FAdd, FMul, SMin, UMin, FMin, SMax, UMax, FMax,
  And, Or, Xor,
  Exchange, ///< atomics: the new value replaces the old one
};

/// How an OpAtomic* instruction accesses memory (Atomic=).
enum class AtomicForm : uint8_t {
  None,
  Load,
  Store,
  Update,          ///< read-modify-write with its Combine and operand 3
  UpdateByOne,     ///< the same with 1 (IIncrement, IDecrement)
  CompareExchange,
};

/// What a subgroup instruction computes (Subgroup=); the SPV_KHR
/// ballot/vote forms share the kind of their GroupNonUniform twin.
enum class SubgroupOpKind : uint8_t {
  None,
  Elect,
  All,
  Any,
  AllEqual,
  Broadcast,  ///< every lane reads one lane's value (Lane=First or Index)
  Shuffle,    ///< each lane reads the lane its Lane= rule names
  Ballot,
  InverseBallot,
  BallotBitExtract,
  BallotBitCount,
  BallotFindLSB,
  BallotFindMSB,
  Arithmetic, ///< a reduction or scan with its Combine
};

/// The lane a broadcast or shuffle reads (Lane=), from the lane index L and
/// the instruction's index operand N.
enum class LaneSource : uint8_t {
  None,
  First,         ///< the lowest active lane
  Index,         ///< N
  Xor,           ///< L ^ N
  Up,            ///< L - N
  Down,          ///< L + N
  QuadBroadcast, ///< lane N of L's quad
  QuadSwap,      ///< L ^ (N + 1): horizontal, vertical, diagonal
};

/// A derivative's difference (Derivative=): along x, along y, or
/// |d/dx| + |d/dy| (Fwidth).
enum class DerivativeKind : uint8_t { None, X, Y, Width };
/// Which lanes of the 2x2 quad a derivative reads (Quad=): Fine the lane's
/// own row or column, Coarse the quad's first for all four. The
/// unsuffixed forms may be either (Vulkan); the table says Fine, as most
/// drivers do.
enum class QuadRows : uint8_t { Fine, Coarse };

/// What an image instruction does (Image=): the handle operations, or the
/// runtime operation (s2l_image_op) it calls.
enum class ImageOpKind : uint8_t {
  None,
  SampledImage,   ///< an image and a sampler made one handle
  Image,          ///< the image of a sampled image
  TexelPointer,
  TexelsResident, ///< a sparse residency code tested
  OpenClQuery,    ///< OpImageQueryFormat / Order (unsupported)
  Sample, Fetch, Gather, Read, Write, QuerySize, QueryLevels, QuerySamples,
  QueryLod,
};

/// The operands of an image instruction that calls the runtime
/// (ImageForm=A+B...): which fixed operands follow the image, in this
/// order (Coord, then at most one of Dref, Component, Texel; Lod alone),
/// before the optional image operand mask.
namespace ImageFormBit {
enum : uint8_t {
  Coord = 1,
  Proj = 2,      ///< the coordinate has a last component q dividing it
  Dref = 4,
  Component = 8, ///< OpImageGather's constant component
  Texel = 16,    ///< OpImageWrite's value
  Lod = 32,      ///< OpImageQuerySizeLod's integer level
  Sparse = 64,   ///< the result is a struct {residency code, texel}
};
} // namespace ImageFormBit

/// How the lane-shape analysis (uniformity/LaneShape.h) carries "lane i's
/// value is Base + i * Stride" from the operands to the result, per
/// component (the Affine column); None: the result is varying unless it is
/// uniform.
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
  Load,      ///< a built-in's lanes, or one address of shared memory (OpLoad)
};

struct OpcodeInfo {
  spv::Op Opcode;
  OpcodeFamily Family = OpcodeFamily::None;
  UniformityRule Uniformity = UniformityRule::Operands;
  SpecConstantForm SpecForm = SpecConstantForm::None;
  SpecConstantKind SpecKind = SpecConstantKind::Other;
  uint8_t Flags = 0;
  // The Key=Value columns, in gen_opcode_table.py's FIELDS order (the
  // first value of each where the line gives none).
  OperandShape Shape = OperandShape::None;
  /// What the result id is: Type and Constant for TypeDecl and ConstantDecl
  /// opcodes, else the Defines column (Variable, Function, Label...), else
  /// Value.
  IdKind Defines = IdKind::Value;
  /// The kind of type a TypeDecl opcode declares (the Type column);
  /// Unsupported for the types the translator has no model of.
  TypeKind DeclaredType = TypeKind::Unsupported;
  ConstantForm Constant = ConstantForm::None;
  /// The opcode declares a specialization constant (the SpecConstant
  /// column, where others write Constant).
  bool SpecConstant = false;
  IdOperandRule IdOperands = IdOperandRule::Values;
  /// The operands start with a scope (from the grammar).
  bool HasScope = false;
  /// How a terminator (OpcodeFlag::Terminator) leaves its block (the
  /// Terminator column); meaningless for other opcodes.
  TerminatorKind Terminator = TerminatorKind::Return;
  BinaryOpKind Bin = BinaryOpKind::None;
  CompareKind Cmp = CompareKind::None;
  UnaryOpKind Unary = UnaryOpKind::None;
  CastKind Cast = CastKind::None;
  IntrinsicKind Intr = IntrinsicKind::None;
  EvalKind Eval = EvalKind::None;
  MatrixOperandKind Lhs = MatrixOperandKind::None;
  MatrixOperandKind Rhs = MatrixOperandKind::None;
  MemberAccessKind Access = MemberAccessKind::None;
  MemberIndexKind Index = MemberIndexKind::None;
  // What the instruction does (the Key=Value columns of the emitters), in
  // gen_opcode_table.py's order.
  MemoryOpKind Memory = MemoryOpKind::None;
  CombineKind Combine = CombineKind::None;
  AtomicForm Atomic = AtomicForm::None;
  SubgroupOpKind Subgroup = SubgroupOpKind::None;
  LaneSource Lane = LaneSource::None;
  DerivativeKind Derivative = DerivativeKind::None;
  QuadRows Quad = QuadRows::Fine;
  ImageOpKind Image = ImageOpKind::None;
  uint8_t ImageForm = 0; ///< ImageFormBit
  AffineRule Affine = AffineRule::None;
};

/// The properties of \p Op; an opcode the property file does not list gets
/// family None, rule Operands, no spec-constant form, no flags and the
/// first value of each other column (a Value result whose operands are
/// values).
const OpcodeInfo &opcodeInfo(spv::Op Op);

inline bool hasOpcodeFlag(spv::Op Op, uint8_t Flag) {
  return (opcodeInfo(Op).Flags & Flag) != 0;
}
/// OpAccessChain and OpInBoundsAccessChain: indices only, no element index.
inline bool isPlainAccessChain(spv::Op Op) {
  return opcodeInfo(Op).Memory == MemoryOpKind::AccessChain;
}
/// A pointer derived from operand 0 by indices (the access chains).
inline bool isAccessChain(spv::Op Op) {
  MemoryOpKind K = opcodeInfo(Op).Memory;
  return K == MemoryOpKind::AccessChain || K == MemoryOpKind::PtrAccessChain;
}

/// How a GLSL.std.450 instruction computes its value; both emitters
/// switch over it (OpcodeProperties.txt lists every instruction).
enum class GlslFormKind : uint8_t {
  None,          ///< not an instruction (or the reserved IMix)
  /// Every operand and the result of one type, component by component
  /// (codegen/common/GlslComponentWise.h).
  ComponentWise,
  Length,        ///< length of x, or of x - y with two operands (Distance)
  Normalize,
  Cross,
  FaceForward,
  Reflect,
  Refract,
  Determinant,
  MatrixInverse,
  Modf,          ///< fraction and whole part; the second result by Out
  Frexp,         ///< mantissa and exponent; the second result by Out
  Ldexp,
  FindBit,       ///< the bit Find names
  Pack,          ///< floats packed into an integer as Packing names
  Unpack,        ///< the inverse of Pack
  PackDouble,    ///< two 32-bit integers to a double, low word first
  UnpackDouble,
  Interpolate,   ///< InterpolateAt*: the interpolant's value
};
/// Where Modf and Frexp put their second result.
enum class GlslOutKind : uint8_t { None, Pointer, Struct };
/// The bit FindBit looks for: the lowest set bit, the highest set bit, the
/// highest bit that differs from the sign bit.
enum class GlslFindKind : uint8_t { None, Lsb, UMsb, SMsb };
/// The encoding of Pack and Unpack: components x bits each.
enum class GlslPackingKind : uint8_t {
  None, Snorm4x8, Unorm4x8, Snorm2x16, Unorm2x16, Half2x16,
};

/// Whether a short divergent block may run the instruction with no lane
/// active (OpcodeProperties.txt: cheap, lane-wise, no memory).
enum class GlslSpeculatable : uint8_t { No, Yes };

struct GlslStd450Info {
  /// Operands after the instruction number (from the grammar); 0 for
  /// numbers that are not instructions, including the reserved IMix.
  uint8_t OperandCount = 0;
  GlslFormKind Form = GlslFormKind::None;
  GlslOutKind Out = GlslOutKind::None;
  GlslFindKind Find = GlslFindKind::None;
  GlslPackingKind Packing = GlslPackingKind::None;
  GlslSpeculatable Speculatable = GlslSpeculatable::No;
};

/// The properties of GLSL.std.450 instruction \p Inst (form None for
/// numbers that are not instructions).
const GlslStd450Info &glslStd450Info(uint32_t Inst);

inline unsigned glslStd450OperandCount(uint32_t Inst) {
  return glslStd450Info(Inst).OperandCount;
}

} // namespace spirv2llvm

#endif
