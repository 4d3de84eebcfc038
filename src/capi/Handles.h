//===- Handles.h - What the C API's opaque handles hold ---------*- C++ -*-===//
#ifndef SPIRV2LLVM_CAPI_HANDLES_H
#define SPIRV2LLVM_CAPI_HANDLES_H

#include "spirv2llvm-c/spirv2llvm.h"
#include "spirv2llvm/CompileCache.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/Error.h"

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

struct s2l_context_s {
  std::string Error;
};

struct s2l_options_s {
  spirv2llvm::TranslateOptions Opts;
};

struct s2l_translation_s {
  spirv2llvm::Translation T;
  std::vector<char> Emitted;
};

struct s2l_reflection_s {
  spirv2llvm::Reflection R;
};

struct s2l_compute_shader_s {
  std::unique_ptr<spirv2llvm::ComputeShader> Shader;
};

struct s2l_resources_s {
  /// Dispatches use the DispatchResources part; draws also the vertex and
  /// index buffers.
  spirv2llvm::DrawResources R;
  /// The samplers bound by value, by (set, binding, element or -1): map
  /// nodes do not move, so R's pointers to them stay valid, and binding
  /// the same slot again reuses its node.
  std::map<std::tuple<uint32_t, uint32_t, int64_t>, s2l_sampler> Samplers;
};

struct s2l_owned_image_s {
  spirv2llvm::Image I;
};

struct s2l_cache_s {
  std::shared_ptr<spirv2llvm::CompileCache> Cache;
  std::string Warning; ///< what s2l_cache_warning() points into
};

struct s2l_graphics_pipeline_s {
  std::unique_ptr<spirv2llvm::GraphicsPipeline> P;
};

namespace spirv2llvm::capi {

/// Records \p Message in \p Ctx (when not null) and returns \p Code.
inline s2l_result fail(s2l_context Ctx, s2l_result Code, std::string Message) {
  if (Ctx)
    Ctx->Error = std::move(Message);
  return Code;
}

inline s2l_result fail(s2l_context Ctx, s2l_result Code, llvm::Error E) {
  return fail(Ctx, Code, llvm::toString(std::move(E)));
}

inline s2l_result fail(s2l_context Ctx, const Status &S) {
  return fail(Ctx, s2l_result(S.code()), S.message());
}

/// The value of a C enum argument as an int. A C caller may pass any int
/// for an enum; in C++ loading an enum outside its range is undefined, so
/// the bytes are read as an int before any range check.
template <typename E> int enumValue(const E &V) {
  static_assert(sizeof(E) == sizeof(int), "C enums are int-sized here");
  int I;
  std::memcpy(&I, &V, sizeof I);
  return I;
}

inline s2l_result succeed(s2l_context Ctx) {
  if (Ctx)
    Ctx->Error.clear();
  return S2L_SUCCESS;
}

} // namespace spirv2llvm::capi

#endif
