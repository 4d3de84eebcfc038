/*===- CApiImages.c - Images and samplers through the C API, from C --------===*
 *
 * Runs a compute shader that samples a combined image sampler (linear,
 * repeat), fetches from an array of textures with a separate sampler and
 * writes a storage image, all created and bound through the C API, and
 * checks every value against the formulas here. LibraryApiTest.cpp calls
 * s2l_test_capi_images, which returns 0 or writes what went wrong.
 *
 *===----------------------------------------------------------------------===*/
#include "spirv2llvm-c/spirv2llvm.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char Source[] =
    "#version 450\n"
    "layout(local_size_x = 4, local_size_y = 4) in;\n"
    "layout(set = 0, binding = 0) uniform sampler2D Tex;\n"
    "layout(set = 0, binding = 1, r32ui) uniform writeonly uimage2D Dst;\n"
    "layout(set = 0, binding = 2) uniform texture2D Texs[2];\n"
    "layout(set = 0, binding = 3) uniform sampler Smp;\n"
    "layout(set = 0, binding = 4) buffer Out { vec4 o[]; };\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  uint i = 3u * (uint(p.y) * 4u + uint(p.x));\n"
    "  o[i] = textureLod(Tex, (vec2(p) + vec2(1.0, 0.5)) / 4.0, 0.0);\n"
    "  o[i + 1u] = texelFetch(sampler2D(Texs[0], Smp), ivec2(p.x & 1, 0), 0);\n"
    "  o[i + 2u] = texelFetch(sampler2D(Texs[1], Smp), ivec2(1, 0), 0);\n"
    "  imageStore(Dst, p, uvec4(uint(p.x) * 10u + uint(p.y) + 100u));\n"
    "}\n";

static int failf(char *msg, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, size, fmt, ap);
  va_end(ap);
  return 1;
}

/* Tex: R32_SFLOAT, texel (x, y) = x * x + 4 * y. */
static float tex_value(int x, int y) { return (float)(x * x + 4 * y); }

static int make_image(s2l_context ctx, uint32_t format, uint32_t w, uint32_t h,
                      s2l_owned_image *img) {
  s2l_image_info info;
  memset(&info, 0, sizeof info);
  info.format = format;
  info.view_type = S2L_VIEW_2D;
  info.width = w;
  info.height = h;
  return s2l_image_create(ctx, &info, img) == S2L_SUCCESS;
}

/* The checks that need no shader: argument errors and their messages. */
static int check_errors(s2l_context ctx, char *msg, size_t size) {
  s2l_image_info info;
  s2l_owned_image img = NULL;
  s2l_resources res;
  s2l_sampler smp = s2l_sampler_default();
  uint32_t format = 0;
  int failed = 0;
  memset(&info, 0, sizeof info);
  info.format = 37; /* R8G8B8A8_UNORM */
  info.view_type = 99;
  info.width = info.height = 4;
  if (s2l_image_create(ctx, &info, &img) != S2L_ERROR_INVALID_ARGUMENT || img ||
      !strstr(s2l_context_error(ctx), "view type 99"))
    return failf(msg, size, "view type 99 accepted or no message: '%s'",
                 s2l_context_error(ctx));
  info.view_type = S2L_VIEW_2D;
  info.format = 12345;
  if (s2l_image_create(ctx, &info, &img) != S2L_ERROR_INVALID_ARGUMENT ||
      !strstr(s2l_context_error(ctx), "unknown format 12345"))
    return failf(msg, size, "format 12345 accepted or no message: '%s'",
                 s2l_context_error(ctx));
  info.format = 37;
  info.width = 0;
  if (s2l_image_create(ctx, &info, &img) != S2L_ERROR_INVALID_ARGUMENT ||
      !strstr(s2l_context_error(ctx), "width is 0"))
    return failf(msg, size, "width 0 accepted or no message: '%s'",
                 s2l_context_error(ctx));
  if (s2l_image_create(ctx, NULL, &img) != S2L_ERROR_INVALID_ARGUMENT)
    return failf(msg, size, "null info accepted");
  if (s2l_format_by_name("R32_SFLOAT", &format) != S2L_SUCCESS ||
      format != 100 ||
      s2l_format_by_name("VK_FORMAT_R32_UINT", &format) != S2L_SUCCESS ||
      format != 98 ||
      s2l_format_by_name("R32_FLOAT", &format) != S2L_ERROR_INVALID_ARGUMENT)
    return failf(msg, size, "s2l_format_by_name");
  res = s2l_resources_create();
  failed |=
      s2l_resources_bind_image(res, 0, 0, NULL) != S2L_ERROR_INVALID_ARGUMENT;
  failed |= s2l_resources_bind_combined_image_sampler(res, 0, 0, NULL, smp) !=
            S2L_ERROR_INVALID_ARGUMENT;
  failed |=
      s2l_resources_bind_sampler(NULL, 0, 0, smp) != S2L_ERROR_INVALID_ARGUMENT;
  smp.mag_filter = 7;
  failed |=
      s2l_resources_bind_sampler(res, 0, 0, smp) != S2L_ERROR_INVALID_ARGUMENT;
  smp = s2l_sampler_default();
  smp.address_mode[2] = 5;
  failed |= s2l_resources_bind_sampler_array_element(res, 0, 0, 1, smp) !=
            S2L_ERROR_INVALID_ARGUMENT;
  smp = s2l_sampler_default();
  smp.min_lod = 2;
  smp.max_lod = 1;
  failed |=
      s2l_resources_bind_sampler(res, 0, 0, smp) != S2L_ERROR_INVALID_ARGUMENT;
  smp = s2l_sampler_default();
  smp.max_lod = NAN;
  failed |=
      s2l_resources_bind_sampler(res, 0, 0, smp) != S2L_ERROR_INVALID_ARGUMENT;
  s2l_resources_destroy(res);
  if (failed)
    return failf(msg, size, "a bad binding was accepted");
  return 0;
}

/* The reflection reports each binding's descriptor kind and image type. */
static int check_reflection(s2l_context ctx, char *msg, size_t size) {
  static const struct {
    uint32_t binding;
    s2l_descriptor_kind kind;
    int is_array;
    uint32_t array_size, image_format;
  } want[] = {
      {0, S2L_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, 0, 0, 0},
      {1, S2L_DESCRIPTOR_STORAGE_IMAGE, 0, 0, 98 /* R32_UINT */},
      {2, S2L_DESCRIPTOR_SAMPLED_IMAGE, 1, 2, 0},
      {3, S2L_DESCRIPTOR_SAMPLER, 0, 0, 0},
      {4, S2L_DESCRIPTOR_STORAGE_BUFFER, 0, 0, 0},
  };
  s2l_reflection refl = NULL;
  s2l_binding_info b;
  uint32_t i, k, found = 0;
  if (s2l_reflect(ctx, NULL, Source, sizeof Source - 1, "images.comp", &refl) !=
      S2L_SUCCESS)
    return failf(msg, size, "reflect: %s", s2l_context_error(ctx));
  for (i = 0; i < s2l_reflection_binding_count(refl); ++i) {
    if (s2l_reflection_binding(refl, i, &b) != S2L_SUCCESS)
      break;
    for (k = 0; k < sizeof want / sizeof want[0]; ++k) {
      if (b.binding != want[k].binding)
        continue;
      ++found;
      if (b.kind != want[k].kind || b.is_array != want[k].is_array ||
          b.array_size != want[k].array_size ||
          b.image_format != want[k].image_format ||
          (k < 3 &&
           (b.image_dim != 1 || b.image_arrayed || b.image_multisampled))) {
        s2l_reflection_destroy(refl);
        return failf(msg, size,
                     "binding %u: kind %d, array %d of %u, format %u, dim %u",
                     b.binding, (int)b.kind, b.is_array, b.array_size,
                     b.image_format, b.image_dim);
      }
    }
  }
  s2l_reflection_destroy(refl);
  if (found != sizeof want / sizeof want[0])
    return failf(msg, size, "reflection lists %u of the 5 bindings", found);
  return 0;
}

int s2l_test_capi_images(char *msg, size_t size) {
  s2l_context ctx = s2l_context_create();
  s2l_translation t = NULL;
  s2l_compute_shader cs = NULL;
  s2l_resources res = NULL, partial = NULL;
  s2l_owned_image tex = NULL, dst = NULL, texs0 = NULL, texs1 = NULL;
  s2l_sampler linear = s2l_sampler_default();
  float out[16 * 3 * 4];
  int x, y, c, rc = 1;
  const s2l_image *d;
  unsigned char *bytes;
  size_t n = 0;

  if (check_errors(ctx, msg, size) || check_reflection(ctx, msg, size))
    goto done;
  if (s2l_translate(ctx, NULL, Source, sizeof Source - 1, "images.comp", &t) !=
      S2L_SUCCESS) {
    failf(msg, size, "translate: %s", s2l_context_error(ctx));
    goto done;
  }
  if (s2l_compute_shader_create(ctx, t, 2, &cs) != S2L_SUCCESS) {
    failf(msg, size, "JIT: %s", s2l_context_error(ctx));
    goto done;
  }
  if (!make_image(ctx, 100 /* R32_SFLOAT */, 4, 4, &tex) ||
      !make_image(ctx, 98 /* R32_UINT */, 4, 4, &dst) ||
      !make_image(ctx, 37 /* R8G8B8A8_UNORM */, 2, 1, &texs0) ||
      !make_image(ctx, 37, 2, 1, &texs1)) {
    failf(msg, size, "s2l_image_create: %s", s2l_context_error(ctx));
    goto done;
  }
  /* Fill the textures through their bytes and descriptors. */
  d = s2l_image_descriptor(tex);
  bytes = s2l_image_data(tex, &n);
  if (n != 4 * 4 * 4 || d->data != bytes || d->level[0].width != 4) {
    failf(msg, size, "R32_SFLOAT 4x4: %zu bytes, descriptor mismatch", n);
    goto done;
  }
  for (y = 0; y < 4; ++y)
    for (x = 0; x < 4; ++x) {
      float v = tex_value(x, y);
      memcpy(bytes + d->level[0].offset + y * d->level[0].row_pitch + 4 * x, &v,
             4);
    }
  {
    static const unsigned char t0[8] = {255, 0, 0, 255, 0, 51, 102, 255};
    static const unsigned char t1[8] = {0, 0, 0, 0, 10, 20, 30, 40};
    memcpy(s2l_image_data(texs0, NULL), t0, 8);
    memcpy(s2l_image_data(texs1, NULL), t1, 8);
  }

  res = s2l_resources_create();
  linear.mag_filter = linear.min_filter = 1;
  linear.address_mode[0] = 0; /* repeat in u */
  if (s2l_resources_bind_combined_image_sampler(
          res, 0, 0, s2l_image_descriptor(tex), linear) != S2L_SUCCESS ||
      s2l_resources_bind_image(res, 0, 1, s2l_image_descriptor(dst)) !=
          S2L_SUCCESS ||
      s2l_resources_bind_image_array_element(
          res, 0, 2, 0, s2l_image_descriptor(texs0)) != S2L_SUCCESS ||
      s2l_resources_bind_image_array_element(
          res, 0, 2, 1, s2l_image_descriptor(texs1)) != S2L_SUCCESS ||
      s2l_resources_bind_sampler(res, 0, 3, s2l_sampler_default()) !=
          S2L_SUCCESS ||
      s2l_resources_bind_buffer(res, 0, 4, out, sizeof out) != S2L_SUCCESS) {
    failf(msg, size, "binding failed");
    goto done;
  }
  /* The sampler was copied: changing the caller's copy changes nothing. */
  linear.mag_filter = linear.min_filter = 0;
  linear.address_mode[0] = 2;
  memset(out, 0xff, sizeof out);

  /* A sampler where the shader has a storage image is refused, naming the
     binding and what the shader wants. */
  partial = s2l_resources_create();
  s2l_resources_bind_combined_image_sampler(
      partial, 0, 0, s2l_image_descriptor(tex), s2l_sampler_default());
  s2l_resources_bind_sampler(partial, 0, 1, s2l_sampler_default());
  s2l_resources_bind_image_array_element(partial, 0, 2, 0,
                                         s2l_image_descriptor(texs0));
  s2l_resources_bind_sampler(partial, 0, 3, s2l_sampler_default());
  s2l_resources_bind_buffer(partial, 0, 4, out, sizeof out);
  if (s2l_compute_shader_dispatch(ctx, cs, partial, 1, 1, 1, 2) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      !strstr(s2l_context_error(ctx), "binding 1 is a storage image")) {
    failf(msg, size, "a sampler for a storage image was not refused: '%s'",
          s2l_context_error(ctx));
    goto done;
  }

  if (s2l_compute_shader_dispatch(ctx, cs, res, 1, 1, 1, 2) != S2L_SUCCESS) {
    failf(msg, size, "dispatch: %s", s2l_context_error(ctx));
    goto done;
  }
  for (y = 0; y < 4; ++y)
    for (x = 0; x < 4; ++x) {
      const float *o = out + 12 * (y * 4 + x);
      /* Halfway between texel x and x + 1 (repeat) of row y. */
      float half = (tex_value(x, y) + tex_value((x + 1) % 4, y)) / 2;
      float want[12] = {half, 0, 0, 1};
      if (x & 1) {
        want[4] = 0, want[5] = 0.2f, want[6] = 0.4f, want[7] = 1;
      } else {
        want[4] = 1, want[5] = 0, want[6] = 0, want[7] = 1;
      }
      want[8] = 10 / 255.0f, want[9] = 20 / 255.0f, want[10] = 30 / 255.0f,
      want[11] = 40 / 255.0f;
      for (c = 0; c < 12; ++c)
        if (fabsf(o[c] - want[c]) > 1e-6f) {
          failf(msg, size, "invocation (%d,%d) value %d: got %g, want %g", x, y,
                c, o[c], want[c]);
          goto done;
        }
    }
  d = s2l_image_descriptor(dst);
  bytes = s2l_image_data(dst, NULL);
  for (y = 0; y < 4; ++y)
    for (x = 0; x < 4; ++x) {
      uint32_t v;
      memcpy(&v, bytes + d->level[0].offset + y * d->level[0].row_pitch + 4 * x,
             4);
      if (v != (uint32_t)(x * 10 + y + 100)) {
        failf(msg, size, "Dst(%d,%d) = %u, want %d", x, y, v, x * 10 + y + 100);
        goto done;
      }
    }
  rc = 0;
done:
  s2l_resources_destroy(partial);
  s2l_resources_destroy(res);
  s2l_image_destroy(tex);
  s2l_image_destroy(dst);
  s2l_image_destroy(texs0);
  s2l_image_destroy(texs1);
  s2l_compute_shader_destroy(cs);
  s2l_context_destroy(ctx);
  return rc;
}
