/*===- CApiGraphics.c - Graphics pipelines through the C API, from C ------===*
 *
 * Draws a triangle from SPIR-V words (tests/unit/shaders/capi_triangle.*,
 * compiled by glslangValidator at build time into C headers) into an
 * R8G8B8A8_UNORM image, then again with an index buffer, another colour
 * and a scissor set between the draws, then indirectly with another
 * scissor, and checks every pixel against the coverage worked out here;
 * then the argument errors (null handles, enum fields outside their Vk
 * enums, unknown formats, a framebuffer of the wrong format) and a
 * pipeline through the compile cache. LibraryApiTest.cpp calls the entry
 * points, which return 0 or write what went wrong.
 *
 *===----------------------------------------------------------------------===*/
#include "spirv2llvm-c/spirv2llvm.h"

#include "capi_triangle_frag.h"
#include "capi_triangle_vert.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
  FORMAT_R8G8B8A8_UNORM = 37,
  FORMAT_R32G32_SFLOAT = 103,
  FORMAT_R32_SFLOAT = 100,
  TOPOLOGY_TRIANGLE_LIST = 3,
  INDEX_TYPE_UINT16 = 0,
  SIZE = 8
};

static int failf(char *msg, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, size, fmt, ap);
  va_end(ap);
  return 1;
}

/* The triangle (1.25, 1.25), (7.25, 1.25), (1.25, 7.25) in pixels of the
   8x8 framebuffer (NDC = pixels / 4 - 1, Vulkan's y down). Pixel centres
   (x + 0.5, y + 0.5) inside: x >= 1, y >= 1 and x + y <= 7; no centre is
   on an edge, so the fill rule does not matter. */
static const float Positions[6] = {-0.6875f, -0.6875f, 0.8125f,
                                   -0.6875f, -0.6875f, 0.8125f};
static int covered(int x, int y) { return x >= 1 && y >= 1 && x + y <= 7; }

static const unsigned char Background[4] = {10, 20, 30, 40};
/* Colours whose UNORM8 values are exact: (1, 0.2, 0.6, 1) and
   (0, 0.4, 0.8, 1). */
static const float ColorA[4] = {1.0f, 0.2f, 0.6f, 1.0f};
static const unsigned char BytesA[4] = {255, 51, 153, 255};
static const float ColorB[4] = {0.0f, 0.4f, 0.8f, 1.0f};
static const unsigned char BytesB[4] = {0, 102, 204, 255};

/* A pipeline description of the triangle: vertex buffer binding 0 of
   vec2 positions, one R8G8B8A8_UNORM attachment, the rest zeroed. The
   arrays it points to are static. */
static s2l_graphics_pipeline_desc triangle_desc(void) {
  static const s2l_vertex_binding binding = {0, 8, 0};
  static const s2l_vertex_attribute attribute = {0, 0, FORMAT_R32G32_SFLOAT, 0};
  static const uint32_t color_format = FORMAT_R8G8B8A8_UNORM;
  s2l_graphics_pipeline_desc d;
  memset(&d, 0, sizeof d);
  d.vertex.code = capi_triangle_vert;
  d.vertex.word_count = sizeof capi_triangle_vert / sizeof(uint32_t);
  d.fragment.code = capi_triangle_frag;
  d.fragment.word_count = sizeof capi_triangle_frag / sizeof(uint32_t);
  d.vertex_bindings = &binding;
  d.vertex_binding_count = 1;
  d.vertex_attributes = &attribute;
  d.vertex_attribute_count = 1;
  d.topology = TOPOLOGY_TRIANGLE_LIST;
  d.color_formats = &color_format;
  d.color_format_count = 1;
  return d;
}

static int make_image(s2l_context ctx, uint32_t format, s2l_owned_image *img) {
  s2l_image_info info;
  memset(&info, 0, sizeof info);
  info.format = format;
  info.view_type = S2L_VIEW_2D;
  info.width = info.height = SIZE;
  return s2l_image_create(ctx, &info, img) == S2L_SUCCESS;
}

/* Pixel (x, y) of an R8G8B8A8 image. */
static unsigned char *pixel(s2l_owned_image img, int x, int y) {
  const s2l_image *d = s2l_image_descriptor(img);
  unsigned char *bytes = s2l_image_data(img, NULL);
  return bytes + d->level[0].offset + (uint64_t)y * d->level[0].row_pitch +
         4 * (uint64_t)x;
}

/* Compares every pixel with \p want(x, y): 0 background, 1 A, 2 B. */
static int check_pixels(s2l_owned_image img, int (*want)(int, int),
                        const char *what, char *msg, size_t size) {
  int x, y;
  for (y = 0; y < SIZE; ++y)
    for (x = 0; x < SIZE; ++x) {
      int w = want(x, y);
      const unsigned char *expect = w == 0   ? Background
                                    : w == 1 ? BytesA
                                             : BytesB;
      const unsigned char *got = pixel(img, x, y);
      if (memcmp(got, expect, 4) != 0)
        return failf(msg, size,
                     "%s: pixel (%d,%d) is (%u,%u,%u,%u), want (%u,%u,%u,%u)",
                     what, x, y, got[0], got[1], got[2], got[3], expect[0],
                     expect[1], expect[2], expect[3]);
    }
  return 0;
}

static int after_first_draw(int x, int y) { return covered(x, y) ? 1 : 0; }
/* The second draw is scissored to x < 4. */
static int after_second_draw(int x, int y) {
  return !covered(x, y) ? 0 : x < 4 ? 2 : 1;
}
/* The third, indirect, to x >= 5: only column 4 keeps the first colour. */
static int after_third_draw(int x, int y) {
  return !covered(x, y) ? 0 : x != 4 ? 2 : 1;
}

int s2l_test_capi_graphics_draw(char *msg, size_t size) {
  s2l_context ctx = s2l_context_create();
  s2l_graphics_pipeline p = NULL;
  s2l_owned_image img = NULL;
  s2l_resources res = s2l_resources_create();
  s2l_graphics_pipeline_desc desc = triangle_desc();
  const s2l_image *color;
  s2l_framebuffer fb;
  s2l_draw_stats stats;
  static const uint16_t indices[3] = {0, 1, 2};
  static const s2l_rect2d left_half = {0, 0, SIZE / 2, SIZE};
  static const s2l_rect2d right_columns = {5, 0, SIZE - 5, SIZE};
  static const uint32_t indirect[4] = {3, 1, 0, 0};
  int x, y, rc = 1;

  if (s2l_graphics_pipeline_create(ctx, &desc, 2, &p) != S2L_SUCCESS) {
    failf(msg, size, "create: %s", s2l_context_error(ctx));
    goto done;
  }
  if (!make_image(ctx, FORMAT_R8G8B8A8_UNORM, &img)) {
    failf(msg, size, "image: %s", s2l_context_error(ctx));
    goto done;
  }
  for (y = 0; y < SIZE; ++y)
    for (x = 0; x < SIZE; ++x)
      memcpy(pixel(img, x, y), Background, 4);
  color = s2l_image_descriptor(img);
  memset(&fb, 0, sizeof fb);
  fb.color = &color;
  fb.color_count = 1;

  if (s2l_resources_bind_vertex_buffer(res, 0, Positions, sizeof Positions) !=
          S2L_SUCCESS ||
      s2l_resources_set_push_constants(res, ColorA, sizeof ColorA) !=
          S2L_SUCCESS) {
    failf(msg, size, "binding the vertex buffer or push constants failed");
    goto done;
  }
  if (s2l_graphics_pipeline_draw(ctx, p, &fb, res, 3, 1, 0, 0, 2) !=
      S2L_SUCCESS) {
    failf(msg, size, "draw: %s", s2l_context_error(ctx));
    goto done;
  }
  if (check_pixels(img, after_first_draw, "draw", msg, size))
    goto done;
  s2l_graphics_pipeline_stats(p, &stats);
  if (stats.primitives != 1 || stats.vertex_invocations < 3) {
    failf(msg, size, "stats: %llu primitives, %llu vertex invocations",
          (unsigned long long)stats.primitives,
          (unsigned long long)stats.vertex_invocations);
    goto done;
  }

  /* Dynamic state between draws: a scissor; new push constants; indices. */
  if (s2l_graphics_pipeline_set_scissors(ctx, p, &left_half, 1) !=
          S2L_SUCCESS ||
      s2l_resources_set_push_constants(res, ColorB, sizeof ColorB) !=
          S2L_SUCCESS ||
      s2l_resources_bind_index_buffer(res, indices, sizeof indices,
                                      INDEX_TYPE_UINT16) != S2L_SUCCESS) {
    failf(msg, size, "setting the scissor or binding the indices failed: %s",
          s2l_context_error(ctx));
    goto done;
  }
  if (s2l_graphics_pipeline_draw_indexed(ctx, p, &fb, res, 3, 1, 0, 0, 0, 1) !=
      S2L_SUCCESS) {
    failf(msg, size, "indexed draw: %s", s2l_context_error(ctx));
    goto done;
  }
  if (check_pixels(img, after_second_draw, "scissored indexed draw", msg, size))
    goto done;

  /* An indirect draw (VkDrawIndirectCommand: 3 vertices, 1 instance) into
     columns 5 to 7. */
  if (s2l_graphics_pipeline_set_scissors(ctx, p, &right_columns, 1) !=
      S2L_SUCCESS) {
    failf(msg, size, "setting the scissor failed: %s", s2l_context_error(ctx));
    goto done;
  }
  if (s2l_graphics_pipeline_draw_indirect(ctx, p, &fb, res, indirect,
                                          sizeof indirect, 1, sizeof indirect,
                                          0, 2) != S2L_SUCCESS) {
    failf(msg, size, "indirect draw: %s", s2l_context_error(ctx));
    goto done;
  }
  if (check_pixels(img, after_third_draw, "scissored indirect draw", msg, size))
    goto done;
  rc = 0;
done:
  s2l_resources_destroy(res);
  s2l_image_destroy(img);
  s2l_graphics_pipeline_destroy(p);
  s2l_context_destroy(ctx);
  return rc;
}

/* Creation must fail with S2L_ERROR_INVALID_ARGUMENT and a message holding
   \p want. */
static int expect_create_error(s2l_context ctx,
                               const s2l_graphics_pipeline_desc *desc,
                               const char *want, char *msg, size_t size) {
  s2l_graphics_pipeline p = (s2l_graphics_pipeline)1; /* must be reset */
  s2l_result r = s2l_graphics_pipeline_create(ctx, desc, 2, &p);
  if (r != S2L_ERROR_INVALID_ARGUMENT || p ||
      !strstr(s2l_context_error(ctx), want))
    return failf(msg, size, "'%s': create gave %s, message '%s'", want,
                 s2l_result_string(r), s2l_context_error(ctx));
  return 0;
}

int s2l_test_capi_graphics_errors(char *msg, size_t size) {
  s2l_context ctx = s2l_context_create();
  s2l_graphics_pipeline p = NULL;
  s2l_owned_image wrong = NULL;
  s2l_resources res = s2l_resources_create();
  s2l_graphics_pipeline_desc desc;
  s2l_framebuffer fb;
  s2l_draw_stats stats;
  const s2l_image *color;
  static const uint32_t bad_format = 12345;
  static const uint16_t indices[3] = {0, 1, 2};
  static const float constants[4] = {0, 0, 0, 0};
  uint32_t i;
  const unsigned char *bytes;
  size_t n = 0;
  int rc = 1;

  /* Null arguments. */
  desc = triangle_desc();
  if (s2l_graphics_pipeline_create(ctx, NULL, 2, &p) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      s2l_graphics_pipeline_create(ctx, &desc, 2, NULL) !=
          S2L_ERROR_INVALID_ARGUMENT) {
    failf(msg, size, "a null description or output was accepted");
    goto done;
  }
  if (expect_create_error(ctx, NULL, "null description", msg, size))
    goto done;
  /* Bad field values, each named in the message. */
  desc.color_formats = &bad_format;
  if (expect_create_error(ctx, &desc, "color_formats[0] is 12345", msg, size))
    goto done;
  desc = triangle_desc();
  desc.rasterization.cull_mode = 9;
  if (expect_create_error(ctx, &desc, "rasterization.cull_mode is 9", msg,
                          size))
    goto done;
  desc = triangle_desc();
  desc.depth_stencil.front.compare_op = 8;
  if (expect_create_error(ctx, &desc, "depth_stencil.front.compare_op is 8",
                          msg, size))
    goto done;
  desc = triangle_desc();
  desc.topology = 1000;
  if (expect_create_error(ctx, &desc, "topology is 1000", msg, size))
    goto done;
  desc = triangle_desc();
  desc.vertex.code = NULL;
  if (expect_create_error(ctx, &desc, "vertex.code is null", msg, size))
    goto done;
  desc = triangle_desc();
  desc.vertex_attributes = NULL;
  if (expect_create_error(ctx, &desc, "vertex_attributes is null", msg, size))
    goto done;
  desc = triangle_desc();
  if (s2l_graphics_pipeline_create(ctx, &desc, 4, &p) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      p) {
    failf(msg, size, "optimization level 4 was accepted");
    goto done;
  }

  /* Calls on a null pipeline return an error, or nothing. */
  memset(&fb, 0, sizeof fb);
  if (s2l_graphics_pipeline_draw(ctx, NULL, &fb, res, 3, 1, 0, 0, 1) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      !strstr(s2l_context_error(ctx), "null pipeline")) {
    failf(msg, size, "a draw with a null pipeline: '%s'",
          s2l_context_error(ctx));
    goto done;
  }
  if (s2l_graphics_pipeline_draw_indirect(ctx, NULL, &fb, res, NULL, 0, 0, 0, 0,
                                          1) != S2L_ERROR_INVALID_ARGUMENT ||
      s2l_graphics_pipeline_set_blend_constants(ctx, NULL, constants) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      s2l_graphics_pipeline_set_viewports(ctx, NULL, NULL, 0) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      s2l_graphics_pipeline_width(NULL) != 0) {
    failf(msg, size, "a call with a null pipeline succeeded");
    goto done;
  }
  memset(&stats, 0xff, sizeof stats);
  s2l_graphics_pipeline_stats(NULL, &stats);
  s2l_graphics_pipeline_destroy(NULL);
  if (stats.primitives != 0) {
    failf(msg, size, "the stats of a null pipeline are not zero");
    goto done;
  }
  /* Resources: a VkIndexType that is not one, a binding beyond the limit. */
  if (s2l_resources_bind_index_buffer(res, indices, sizeof indices, 7) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      s2l_resources_bind_index_buffer(NULL, indices, sizeof indices, 0) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      s2l_resources_bind_vertex_buffer(res, 32, indices, sizeof indices) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      s2l_resources_bind_vertex_buffer(res, 0, NULL, 16) !=
          S2L_ERROR_INVALID_ARGUMENT) {
    failf(msg, size, "a bad vertex or index buffer binding was accepted");
    goto done;
  }

  /* A pipeline, then bad draws and dynamic state. */
  desc = triangle_desc();
  if (s2l_graphics_pipeline_create(ctx, &desc, 2, &p) != S2L_SUCCESS) {
    failf(msg, size, "create: %s", s2l_context_error(ctx));
    goto done;
  }
  if (s2l_graphics_pipeline_set_stencil_reference(ctx, p, 0, 1) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      !strstr(s2l_context_error(ctx), "face mask 0") ||
      s2l_graphics_pipeline_set_stencil_write_mask(ctx, p, 4, 1) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      s2l_graphics_pipeline_set_viewports(ctx, p, NULL, 1) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      s2l_graphics_pipeline_set_line_width(ctx, p, -1.0f) !=
          S2L_ERROR_INVALID_ARGUMENT) {
    failf(msg, size, "bad dynamic state was accepted: '%s'",
          s2l_context_error(ctx));
    goto done;
  }
  {
    /* More viewports or scissors than GraphicsLimits::MaxViewports (16). */
    s2l_viewport many_viewports[17];
    s2l_rect2d many_scissors[17];
    memset(many_viewports, 0, sizeof(many_viewports));
    memset(many_scissors, 0, sizeof(many_scissors));
    if (s2l_graphics_pipeline_set_viewports(ctx, p, many_viewports, 17) !=
            S2L_ERROR_INVALID_ARGUMENT ||
        !strstr(s2l_context_error(ctx), "17 viewports (at most 16)") ||
        s2l_graphics_pipeline_set_scissors(ctx, p, many_scissors, 17) !=
            S2L_ERROR_INVALID_ARGUMENT ||
        !strstr(s2l_context_error(ctx), "17 scissors (at most 16)")) {
      failf(msg, size, "17 viewports or scissors were accepted: '%s'",
            s2l_context_error(ctx));
      goto done;
    }
  }
  if (s2l_graphics_pipeline_set_stencil_reference(ctx, p, 3, 7) !=
          S2L_SUCCESS ||
      s2l_graphics_pipeline_set_blend_constants(ctx, p, constants) !=
          S2L_SUCCESS) {
    failf(msg, size, "good dynamic state was refused: '%s'",
          s2l_context_error(ctx));
    goto done;
  }
  if (s2l_graphics_pipeline_draw(ctx, p, NULL, res, 3, 1, 0, 0, 1) !=
      S2L_ERROR_INVALID_ARGUMENT) {
    failf(msg, size, "a null framebuffer was accepted");
    goto done;
  }
  fb.color_count = 1; /* with a null array */
  if (s2l_graphics_pipeline_draw(ctx, p, &fb, res, 3, 1, 0, 0, 1) !=
      S2L_ERROR_INVALID_ARGUMENT) {
    failf(msg, size, "a null colour array of 1 was accepted");
    goto done;
  }
  /* An R32_SFLOAT image where the pipeline has an R8G8B8A8_UNORM
     attachment: refused, naming the format, and nothing drawn. */
  if (!make_image(ctx, FORMAT_R32_SFLOAT, &wrong)) {
    failf(msg, size, "image: %s", s2l_context_error(ctx));
    goto done;
  }
  color = s2l_image_descriptor(wrong);
  fb.color = &color;
  s2l_resources_bind_vertex_buffer(res, 0, Positions, sizeof Positions);
  s2l_resources_set_push_constants(res, ColorA, sizeof ColorA);
  if (s2l_graphics_pipeline_draw(ctx, p, &fb, res, 3, 1, 0, 0, 1) !=
          S2L_ERROR_INVALID_ARGUMENT ||
      !strstr(s2l_context_error(ctx), "R32_SFLOAT")) {
    failf(msg, size, "an R32_SFLOAT attachment was accepted: '%s'",
          s2l_context_error(ctx));
    goto done;
  }
  bytes = s2l_image_data(wrong, &n);
  for (i = 0; i < n; ++i)
    if (bytes[i]) {
      failf(msg, size, "the refused draw wrote byte %u", i);
      goto done;
    }
  rc = 0;
done:
  s2l_resources_destroy(res);
  s2l_image_destroy(wrong);
  s2l_graphics_pipeline_destroy(p);
  s2l_context_destroy(ctx);
  return rc;
}

/* A pipeline through a compile cache in \p dir: the first creation stores
   both shaders, the second loads them (two hits) and still draws the
   triangle. */
int s2l_test_capi_graphics_cache(const char *dir, char *msg, size_t size) {
  s2l_context ctx = s2l_context_create();
  s2l_cache cache = NULL;
  s2l_graphics_pipeline p = NULL;
  s2l_owned_image img = NULL;
  s2l_resources res = s2l_resources_create();
  s2l_graphics_pipeline_desc desc = triangle_desc();
  const s2l_image *color;
  s2l_framebuffer fb;
  uint64_t hits = 0, misses = 0, stores = 0;
  int round, x, y, rc = 1;

  if (s2l_cache_open(dir, 0, &cache) != S2L_SUCCESS ||
      !s2l_cache_enabled(cache)) {
    failf(msg, size, "cache in %s: %s", dir,
          cache ? s2l_cache_warning(cache) : "not opened");
    goto done;
  }
  desc.cache = cache;
  for (round = 0; round < 2; ++round) {
    s2l_graphics_pipeline_destroy(p);
    p = NULL;
    if (s2l_graphics_pipeline_create(ctx, &desc, 2, &p) != S2L_SUCCESS) {
      failf(msg, size, "create %d: %s", round, s2l_context_error(ctx));
      goto done;
    }
    s2l_cache_stats(cache, &hits, &misses, &stores);
    if (hits != (round ? 2u : 0u) || misses != 2 || stores != 2) {
      failf(msg, size, "after creation %d: %llu hits, %llu misses, %llu stores",
            round, (unsigned long long)hits, (unsigned long long)misses,
            (unsigned long long)stores);
      goto done;
    }
  }
  if (!make_image(ctx, FORMAT_R8G8B8A8_UNORM, &img)) {
    failf(msg, size, "image: %s", s2l_context_error(ctx));
    goto done;
  }
  for (y = 0; y < SIZE; ++y)
    for (x = 0; x < SIZE; ++x)
      memcpy(pixel(img, x, y), Background, 4);
  color = s2l_image_descriptor(img);
  memset(&fb, 0, sizeof fb);
  fb.color = &color;
  fb.color_count = 1;
  s2l_resources_bind_vertex_buffer(res, 0, Positions, sizeof Positions);
  s2l_resources_set_push_constants(res, ColorA, sizeof ColorA);
  if (s2l_graphics_pipeline_draw(ctx, p, &fb, res, 3, 1, 0, 0, 1) !=
      S2L_SUCCESS) {
    failf(msg, size, "draw: %s", s2l_context_error(ctx));
    goto done;
  }
  if (check_pixels(img, after_first_draw, "draw with cached shaders", msg,
                   size))
    goto done;
  rc = 0;
done:
  s2l_resources_destroy(res);
  s2l_image_destroy(img);
  s2l_graphics_pipeline_destroy(p);
  s2l_cache_destroy(cache);
  s2l_context_destroy(ctx);
  return rc;
}
