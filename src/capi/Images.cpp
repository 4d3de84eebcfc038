//===- Images.cpp - C API: owning images, binding images and samplers -----===//
//
// The image handle wraps spirv2llvm::Image; the resources keep a copy of
// each sampler bound by value (Handles.h), since DispatchResources keeps
// only pointers.
//
//===----------------------------------------------------------------------===//
#include "capi/Handles.h"

#include "spirv2llvm/ImageFormat.h"

#include <cmath>
#include <new>
#include <string>

using namespace spirv2llvm;
using spirv2llvm::capi::fail;
using spirv2llvm::capi::succeed;

namespace {

/// Where a sampler bound by value lives: the node of its slot.
const s2l_sampler *keepSampler(s2l_resources R, uint32_t Set, uint32_t Binding,
                               int64_t Index, const s2l_sampler &S) {
  s2l_sampler &Kept = R->Samplers[{Set, Binding, Index}];
  Kept = S;
  return &Kept;
}

/// Whether every field of \p S has a value its Vk type has (a C caller may
/// pass anything; the runtime indexes tables by some of them).
bool validSampler(const s2l_sampler &S) {
  bool Ok = S.mag_filter <= 1 && S.min_filter <= 1 && S.mipmap_mode <= 1 &&
            S.compare_op <= 7 && S.border_color <= 5 &&
            !std::isnan(S.mip_lod_bias) && !std::isnan(S.min_lod) &&
            !std::isnan(S.max_lod) && S.min_lod <= S.max_lod &&
            S.max_anisotropy >= 1;
  for (uint32_t A : S.address_mode)
    Ok = Ok && A <= 4;
  return Ok;
}

} // namespace

s2l_result s2l_image_create(s2l_context C, const s2l_image_info *Info,
                            s2l_owned_image *Out) {
  if (!Info || !Out)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_image_create: null info or output");
  *Out = nullptr;
  // The header promises 0 means 1 for these counts.
  auto OneIfZero = [](uint32_t V) { return V ? V : 1u; };
  ImageDesc D;
  // Format numbers are checked by Image::create (formatInfo); converting an
  // unknown one to the enum is fine, its underlying type is uint32_t.
  D.Fmt = Format(Info->format);
  D.ViewType = Info->view_type;
  D.Width = Info->width;
  D.Height = Info->height;
  D.Depth = OneIfZero(Info->depth);
  D.Levels = OneIfZero(Info->levels);
  D.Layers = OneIfZero(Info->layers);
  D.Samples = OneIfZero(Info->samples);
  auto I = Image::create(D);
  if (!I)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_image_create: " + I.status().message());
  auto *H = new (std::nothrow) s2l_owned_image_s{std::move(*I)};
  if (!H)
    return fail(C, S2L_ERROR_EXECUTION_FAILED,
                "s2l_image_create: out of memory");
  *Out = H;
  return succeed(C);
}

void s2l_image_destroy(s2l_owned_image I) { delete I; }

void *s2l_image_data(s2l_owned_image I, size_t *Size) {
  if (Size)
    *Size = I ? I->I.bytes().size() : 0;
  return I ? I->I.bytes().data() : nullptr;
}

const s2l_image *s2l_image_descriptor(s2l_owned_image I) {
  return I ? &I->I.descriptor() : nullptr;
}

s2l_result s2l_format_by_name(const char *Name, uint32_t *Out) {
  if (!Name || !Out)
    return S2L_ERROR_INVALID_ARGUMENT;
  std::optional<Format> F = formatByName(Name);
  if (!F)
    return S2L_ERROR_INVALID_ARGUMENT;
  *Out = uint32_t(*F);
  return S2L_SUCCESS;
}

s2l_sampler s2l_sampler_default(void) {
  s2l_sampler S{};
  S.address_mode[0] = S.address_mode[1] = S.address_mode[2] =
      2;            // VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
  S.max_lod = 1000; // VK_LOD_CLAMP_NONE
  S.max_anisotropy = 1;
  return S;
}

s2l_result s2l_resources_bind_image(s2l_resources R, uint32_t Set,
                                    uint32_t Binding, const s2l_image *I) {
  if (!R || !I)
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.bindImage(Set, Binding, I);
  return S2L_SUCCESS;
}

s2l_result s2l_resources_bind_sampler(s2l_resources R, uint32_t Set,
                                      uint32_t Binding, s2l_sampler S) {
  if (!R || !validSampler(S))
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.bindSampler(Set, Binding, keepSampler(R, Set, Binding, -1, S));
  return S2L_SUCCESS;
}

s2l_result s2l_resources_bind_combined_image_sampler(s2l_resources R,
                                                     uint32_t Set,
                                                     uint32_t Binding,
                                                     const s2l_image *I,
                                                     s2l_sampler S) {
  if (!R || !I || !validSampler(S))
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.bindCombinedImageSampler(Set, Binding, I,
                                keepSampler(R, Set, Binding, -1, S));
  return S2L_SUCCESS;
}

s2l_result s2l_resources_bind_image_array_element(s2l_resources R, uint32_t Set,
                                                  uint32_t Binding,
                                                  uint32_t Index,
                                                  const s2l_image *I) {
  if (!R || !I)
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.bindImageArrayElement(Set, Binding, Index, I);
  return S2L_SUCCESS;
}

s2l_result s2l_resources_bind_sampler_array_element(s2l_resources R,
                                                    uint32_t Set,
                                                    uint32_t Binding,
                                                    uint32_t Index,
                                                    s2l_sampler S) {
  if (!R || !validSampler(S))
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.bindSamplerArrayElement(Set, Binding, Index,
                               keepSampler(R, Set, Binding, Index, S));
  return S2L_SUCCESS;
}

s2l_result s2l_resources_bind_combined_image_sampler_array_element(
    s2l_resources R, uint32_t Set, uint32_t Binding, uint32_t Index,
    const s2l_image *I, s2l_sampler S) {
  if (!R || !I || !validSampler(S))
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.bindCombinedImageSamplerArrayElement(
      Set, Binding, Index, I, keepSampler(R, Set, Binding, Index, S));
  return S2L_SUCCESS;
}
