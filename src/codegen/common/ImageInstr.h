//===- ImageInstr.h - Image instructions, decoded once ---------*- C++ -*-===//
//
// Both back ends lower an image instruction the same way: what the
// instruction asks is decoded here, from SPIR-V and the opcode table's
// Image / ImageForm columns, into an ImageInstr (which operand is the
// coordinate, the Dref, each image operand; the image type; the result's
// shape), and one call per invocation to the
// runtime's s2l_image_op (abi.h) does the work. The back ends only differ
// in how they obtain one invocation's scalars: the one-invocation back end
// has them, the SIMD back end loops over its lanes (simd/EmitImage.cpp).
//
// Image, sampler and sampled-image values are handles: the address of the
// s2l_image / s2l_sampler the descriptor points to (docs/abi.md,
// "Images"). The SIMD back end keeps them as 64-bit integer components
// (one for an image or sampler, two for a sampled image), so phis, selects
// and copies of them need nothing special.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_IMAGEINSTR_H
#define SPIRV2LLVM_CODEGEN_IMAGEINSTR_H

#include "parser/Module.h"
#include "spirv2llvm/Interface.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Error.h"

#include <array>
#include <string>
#include <unordered_map>

namespace spirv2llvm {

/// One image instruction, decoded. Operand fields hold SPIR-V ids (0:
/// absent); Op and Flags are abi.h's S2L_IMAGE_OP_* and S2L_IMAGE_HAS_*.
struct ImageInstr {
  uint32_t Op = 0;
  uint32_t Flags = 0;
  /// The image type's Dim, Arrayed, MS, and view kind (S2L_IMAGE_FLOAT,
  /// SINT, UINT from its sampled type); its format as a VkFormat (0:
  /// Unknown).
  uint32_t Dim = 0, Arrayed = 0, MS = 0, Kind = 0, StorageFormat = 0;
  /// The image (or sampled image) operand, and whether it carries a
  /// sampler.
  uint32_t Image = 0;
  bool HasSampler = false;
  uint32_t Coord = 0;
  /// Coordinate components the runtime reads (the dimensions plus the
  /// array layer); a Proj form has one more, q, which divides them.
  unsigned CoordComps = 0;
  bool Proj = false;
  /// Implicit LOD: the LOD comes from the coordinate's derivatives over
  /// the fragment quad (Grad is filled by the back end).
  bool ImplicitLod = false;
  /// Components of the coordinate that have derivatives (1D 1, 2D 2, 3D
  /// and Cube 3).
  unsigned GradComps = 0;
  uint32_t Dref = 0, Bias = 0, Lod = 0, GradX = 0, GradY = 0, Offset = 0,
           Offsets = 0, Sample = 0, MinLod = 0, Component = 0, Texel = 0;
  /// The Lod operand of OpImageFetch and OpImageQuerySizeLod is an integer.
  bool IntLod = false;
  /// Sparse forms: the result is a struct {int residency, texel}.
  bool Sparse = false;
  /// The result's texel: components (1-4) and whether it is float; for
  /// queries, the component count of the integer or float result.
  unsigned ResultComps = 0;
  bool ResultFloat = false;
  /// OpImageWrite: no result.
  bool Write = false;
  /// A subpass load (OpImageRead of a SubpassData image): the coordinate
  /// is an offset from the fragment's integer position (FragCoord.xy
  /// truncated), which the back end adds; Sample picks the sample of a
  /// multisampled input attachment.
  bool Subpass = false;
};

/// Decodes \p I (an instruction of the Image family that calls the
/// runtime: samples, fetches, gathers, reads, writes, queries); an error
/// says what is unsupported or malformed.
llvm::Expected<ImageInstr> decodeImageInstr(const Module &M,
                                            const Instruction &I);

/// The operand and result types of OpSampledImage, OpImage,
/// OpImageSparseTexelsResident and OpImageTexelPointer (unvalidated input
/// can name anything); success for other opcodes.
llvm::Error checkImageHandleOp(const Module &M, const Instruction &I);

/// The image type an image, sampled image or pointer-to-image id has, or
/// null.
const spirv2llvm::Type *imageTypeOf(const Module &M, uint32_t Id);

/// VkFormat number of a SPIR-V ImageFormat (0 for Unknown).
uint32_t vkFormatOfImageFormat(uint32_t SpvFormat);

/// Where a subpass load finds the fragment's position: the entry point's
/// FragCoord input, which computeInterfaceLayout adds to the interface of
/// a fragment shader with SubpassData images when the shader does not
/// declare one. An error when \p EP is no fragment shader (Vulkan allows
/// input attachments only there) or the layout has no FragCoord.
llvm::Expected<const InterfaceVariable *>
fragCoordInput(const EntryPoint &EP, const InterfaceLayout &L);

/// The runtime interface as LLVM sees it.
struct ImageRuntime {
  llvm::StructType *OperandsTy = nullptr; ///< s2l_image_operands
  llvm::FunctionCallee Op;                ///< s2l_image_op
  llvm::FunctionCallee TexelPointer;      ///< s2l_image_texel_pointer
};
ImageRuntime declareImageRuntime(llvm::Module &LM);

/// One invocation's operands as scalars (i32 or float; null: absent).
struct ImageLaneOperands {
  llvm::Value *Image = nullptr, *Sampler = nullptr; ///< ptr
  std::array<llvm::Value *, 4> Coord{};
  llvm::Value *Dref = nullptr, *Bias = nullptr, *Lod = nullptr,
              *MinLod = nullptr, *Sample = nullptr;
  std::array<llvm::Value *, 3> GradX{}, GradY{}, Offset{};
  std::array<llvm::Value *, 8> Offsets{};
  std::array<llvm::Value *, 4> Texel{};
  uint32_t Component = 0;
};

/// Fills \p Ops (an alloca of s2l_image_operands) for \p D and \p L and
/// calls s2l_image_op with \p Result (an alloca of [4 x i32]); returns
/// the residency code (i32).
llvm::Value *emitImageOpCall(llvm::IRBuilder<> &B, const ImageRuntime &RT,
                             const ImageInstr &D, const ImageLaneOperands &L,
                             llvm::Value *Ops, llvm::Value *Result);

/// The handles of a descriptor whose s2l_descriptor::data is \p Data: the
/// pointer itself for an image or sampler, the two pointers behind it for
/// a sampled image (s2l_combined_image_sampler; null data gives null
/// handles). \p Kind is the variable's element type kind; \p TexelBuffer:
/// a sampled image of Dim Buffer, whose descriptor is the image alone.
void loadImageHandles(llvm::IRBuilder<> &B, llvm::Value *Data, TypeKind Kind,
                      bool TexelBuffer,
                      llvm::SmallVectorImpl<llvm::Value *> &Handles);

/// A pointer to a UniformConstant variable (an image, sampler or sampled
/// image binding, or an array of them) or to an element of one, in both
/// back ends: symbolic, its indices are read when it is loaded, so a load
/// in another block than its access chain needs nothing special.
struct OpaqueRef {
  uint32_t Var = 0;
  TypeId Pointee; ///< the variable's type
  /// The binding's s2l_descriptor data: the handle, or for an array the
  /// s2l_descriptor array (loaded in the function's entry).
  llvm::Value *Data = nullptr;
  /// Arrays: the element count (i64); null for a single binding.
  llvm::Value *Count = nullptr;
  llvm::SmallVector<uint32_t, 2> Indices; ///< access chain index ids
};

/// The OpaqueRef of every UniformConstant variable, reading its binding's
/// descriptor from \p Sets (args->descriptor_sets; \p GetSets makes it on
/// first use). \p Name gives a variable's LLVM name.
void createOpaqueRefs(llvm::IRBuilder<> &B, const Module &M,
                      llvm::function_ref<llvm::Value *()> GetSets,
                      llvm::function_ref<std::string(uint32_t)> Name,
                      std::unordered_map<uint32_t, OpaqueRef> &Refs);

/// OpAccessChain on \p Base: the element's ref, or the message saying why
/// it is unsupported.
llvm::Expected<OpaqueRef> opaqueAccessChain(const Instruction &I,
                                            const OpaqueRef &Base);

/// The handle kind \p R loads (its type without array dimensions), or an
/// error when it is no image, sampler or sampled image, or an array not
/// indexed.
llvm::Expected<TypeKind> opaqueHandleKind(const Module &M, const OpaqueRef &R);

/// The descriptor data of \p R's element at \p Indices (one i64 scalar
/// per index of R), null when out of range; R.Data itself for a single
/// binding.
llvm::Expected<llvm::Value *>
opaqueElementData(llvm::IRBuilder<> &B, const Module &M, const OpaqueRef &R,
                  llvm::ArrayRef<llvm::Value *> Indices,
                  const std::string &Name);

} // namespace spirv2llvm

#endif
