/*===- spirv2llvm-c/spirv2llvm.h - The C API ------------------------------===*
 *
 * spirv2llvm from C (C11) or any language with a C FFI: translate a shader
 * to LLVM IR, bitcode, object code or assembly; reflect what an entry point
 * binds; JIT-compile a compute shader and dispatch it; draw with the
 * software rasterizer's graphics pipelines. No C++ or LLVM type appears
 * here; objects are opaque handles, every call that can fail returns an
 * s2l_result and leaves its message in an s2l_context, in the manner of
 * SPIRV-Tools' libspirv.h.
 *
 *   s2l_context ctx = s2l_context_create();
 *   s2l_options opts = s2l_options_create();
 *   s2l_translation t;
 *   if (s2l_translate_file(ctx, opts, "sum.comp", &t) != S2L_SUCCESS)
 *     fprintf(stderr, "%s\n", s2l_context_error(ctx));
 *   s2l_compute_shader cs;
 *   s2l_compute_shader_create(ctx, t, 2, &cs);   (consumes t)
 *   s2l_resources res = s2l_resources_create();
 *   s2l_resources_bind_buffer(res, 0, 0, data, sizeof data);
 *   s2l_compute_shader_dispatch(ctx, cs, res, 16, 1, 1, 0);
 *
 * Threads: handles of different objects may be used from different threads
 * at once; one object (a context included) from one thread at a time, except
 * that a compute shader may be dispatched from several threads at once with
 * different resources (docs/abi.md).
 *
 *===----------------------------------------------------------------------===*/
#ifndef SPIRV2LLVM_C_SPIRV2LLVM_H
#define SPIRV2LLVM_C_SPIRV2LLVM_H

#include "spirv2llvm/abi.h" /* s2l_image, s2l_sampler, S2L_VIEW_* */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes; the same values as spirv2llvm::StatusCode (Status.h). */
typedef enum s2l_result {
  S2L_SUCCESS = 0,
  /* The shader or data is malformed or uses something unsupported. */
  S2L_ERROR_INVALID_INPUT = 1,
  /* An argument is wrong: a null handle, a bad option value, a missing or
     too small buffer binding. */
  S2L_ERROR_INVALID_ARGUMENT = 2,
  /* Running the shader failed (cancelled, faulted, out of memory). */
  S2L_ERROR_EXECUTION_FAILED = 3,
  /* Generating code for the host failed. */
  S2L_ERROR_COMPILE_FAILED = 4
} s2l_result;

typedef enum s2l_input_kind {
  S2L_INPUT_AUTO = 0, /* by the name's extension, then the magic number */
  S2L_INPUT_SPIRV_BINARY,
  S2L_INPUT_SPIRV_ASSEMBLY,
  S2L_INPUT_GLSL,
  S2L_INPUT_HLSL
} s2l_input_kind;

typedef enum s2l_stage {
  S2L_STAGE_VERTEX = 0,
  S2L_STAGE_FRAGMENT,
  S2L_STAGE_COMPUTE
} s2l_stage;

typedef enum s2l_backend {
  S2L_BACKEND_SIMD = 0, /* W invocations per call (default) */
  S2L_BACKEND_INVOCATION,
  S2L_BACKEND_SCALAR,
  S2L_BACKEND_DXIL
} s2l_backend;

typedef enum s2l_output_kind {
  S2L_OUTPUT_IR_TEXT = 0,
  S2L_OUTPUT_BITCODE,
  S2L_OUTPUT_OBJECT,  /* for the host CPU */
  S2L_OUTPUT_ASSEMBLY /* for the host CPU */
} s2l_output_kind;

typedef struct s2l_context_s *s2l_context;
typedef struct s2l_options_s *s2l_options;
typedef struct s2l_translation_s *s2l_translation;
typedef struct s2l_reflection_s *s2l_reflection;
typedef struct s2l_compute_shader_s *s2l_compute_shader;
typedef struct s2l_resources_s *s2l_resources;
/* An image that owns its texels (abi.h's s2l_image is its descriptor). */
typedef struct s2l_owned_image_s *s2l_owned_image;
typedef struct s2l_cache_s *s2l_cache;
typedef struct s2l_graphics_pipeline_s *s2l_graphics_pipeline;

/* "0.1.0" */
const char *s2l_version(void);
/* A constant name for a status code ("S2L_ERROR_INVALID_INPUT"). */
const char *s2l_result_string(s2l_result result);

/* --- contexts: where the calls that take one leave their messages ------ */
s2l_context s2l_context_create(void);
void s2l_context_destroy(s2l_context context);
/* The message of the last failed call on \p context ("" after a success),
   valid until the next call on it: lower case, says what and where
   ("sum.comp: word 42: OpLoad: use of undefined id %17"). */
const char *s2l_context_error(s2l_context context);

/* --- translation options (defaults as the spirv2llvm command's) ------- */
s2l_options s2l_options_create(void);
void s2l_options_destroy(s2l_options options);
/* Each setter returns S2L_ERROR_INVALID_ARGUMENT for a value out of range
   (the option then keeps its previous value). */
s2l_result s2l_options_set_input_kind(s2l_options options, s2l_input_kind kind);
/* Stage of a GLSL/HLSL source whose name does not tell. */
s2l_result s2l_options_set_stage(s2l_options options, s2l_stage stage);
s2l_result s2l_options_set_entry_point(s2l_options options, const char *name);
/* "vulkan1.0".."vulkan1.3", "spv1.0".."spv1.6", ... (default vulkan1.3). */
s2l_result s2l_options_set_target_env(s2l_options options, const char *env);
s2l_result s2l_options_set_backend(s2l_options options, s2l_backend backend);
/* Invocations per call: 4, 8 or 16 (SIMD back end). */
s2l_result s2l_options_set_width(s2l_options options, unsigned width);
/* LLVM optimization level 0-3 of the emitted IR. */
s2l_result s2l_options_set_opt_level(s2l_options options, unsigned level);
/* Booleans: 0 off, anything else on. */
void s2l_options_set_validate(s2l_options options, int on);
void s2l_options_set_canonicalize(s2l_options options, int on);
void s2l_options_set_robust_buffer_access(s2l_options options, int on);
/* Specialization constant SpecId \p spec_id = \p value ("16", "1.5",
   "true"). */
s2l_result s2l_options_set_spec_constant(s2l_options options, uint32_t spec_id,
                                         const char *value);

/* --- translation ------------------------------------------------------ */
/* Translates \p size bytes at \p data; \p name is used in messages and,
   with S2L_INPUT_AUTO, to tell the input kind. \p options may be null
   (defaults). */
s2l_result s2l_translate(s2l_context context, s2l_options options,
                         const void *data, size_t size, const char *name,
                         s2l_translation *translation);
s2l_result s2l_translate_file(s2l_context context, s2l_options options,
                              const char *path, s2l_translation *translation);
/* Writes the translation as \p kind into a buffer owned by it: *data and
   *size stay valid until the next emit or destroy. IR text ends with a NUL
   byte not counted in *size. */
s2l_result s2l_translation_emit(s2l_context context,
                                s2l_translation translation,
                                s2l_output_kind kind, const void **data,
                                size_t *size);
/* Name of the generated entry function (abi.h's s2l_entry_fn). */
const char *s2l_translation_entry_symbol(s2l_translation translation);
void s2l_translation_destroy(s2l_translation translation);

/* --- reflection: what an entry point binds, without generating code --- */
/* What a binding holds (VkDescriptorType's kinds). */
typedef enum s2l_descriptor_kind {
  S2L_DESCRIPTOR_UNIFORM_BUFFER = 0,
  S2L_DESCRIPTOR_STORAGE_BUFFER,
  S2L_DESCRIPTOR_SAMPLED_IMAGE,
  S2L_DESCRIPTOR_STORAGE_IMAGE,
  S2L_DESCRIPTOR_SAMPLER,
  S2L_DESCRIPTOR_COMBINED_IMAGE_SAMPLER,
  S2L_DESCRIPTOR_UNIFORM_TEXEL_BUFFER,
  S2L_DESCRIPTOR_STORAGE_TEXEL_BUFFER,
  S2L_DESCRIPTOR_INPUT_ATTACHMENT
} s2l_descriptor_kind;

typedef struct s2l_binding_info {
  uint32_t set, binding;
  int is_uniform;         /* uniform block; else storage buffer */
  uint64_t min_size;      /* bytes the type needs (runtime arrays: 0 elements) */
  int has_runtime_array;
  int is_array;           /* an array of descriptors (blocks, images, ...) */
  uint32_t array_size;    /* its declared elements; 0: runtime-sized */
  s2l_descriptor_kind kind;
  /* Images: the SPIR-V Dim (0 1D, 1 2D, 2 3D, 3 Cube, 4 Rect, 5 Buffer,
     6 SubpassData), arrayed, multisampled, and the declared storage format
     as a VkFormat number (0: Unknown). */
  uint32_t image_dim;
  int image_arrayed, image_multisampled;
  uint32_t image_format;
} s2l_binding_info;

typedef struct s2l_variable_info {
  const char *name;       /* valid while the reflection lives */
  int32_t location;       /* -1: none */
  int32_t builtin;        /* SPIR-V BuiltIn, -1: none */
  uint32_t components;    /* scalar components */
  uint32_t offset;        /* byte offset of component 0 in the interface */
  int flat, noperspective;
} s2l_variable_info;

s2l_result s2l_reflect(s2l_context context, s2l_options options,
                       const void *data, size_t size, const char *name,
                       s2l_reflection *reflection);
const char *s2l_reflection_entry_name(s2l_reflection reflection);
s2l_stage s2l_reflection_stage(s2l_reflection reflection);
void s2l_reflection_workgroup_size(s2l_reflection reflection,
                                   uint32_t size[3]);
uint32_t s2l_reflection_push_constant_size(s2l_reflection reflection);
uint32_t s2l_reflection_workgroup_memory_size(s2l_reflection reflection);
uint32_t s2l_reflection_binding_count(s2l_reflection reflection);
s2l_result s2l_reflection_binding(s2l_reflection reflection, uint32_t index,
                                  s2l_binding_info *info);
/* \p outputs: 0 for the inputs, 1 for the outputs. */
uint32_t s2l_reflection_variable_count(s2l_reflection reflection, int outputs);
s2l_result s2l_reflection_variable(s2l_reflection reflection, int outputs,
                                   uint32_t index, s2l_variable_info *info);
/* Bytes of the interface blocks (abi.h's inputs and outputs). */
uint32_t s2l_reflection_interface_size(s2l_reflection reflection, int outputs);
void s2l_reflection_destroy(s2l_reflection reflection);

/* --- compute: JIT once, dispatch many times ---------------------------- */
/* JIT-compiles a GLCompute translation at \p opt_level (0-3). Consumes
   \p translation, also on failure: do not destroy it afterwards. */
s2l_result s2l_compute_shader_create(s2l_context context,
                                     s2l_translation translation,
                                     unsigned opt_level,
                                     s2l_compute_shader *shader);
unsigned s2l_compute_shader_width(s2l_compute_shader shader);
void s2l_compute_shader_workgroup_size(s2l_compute_shader shader,
                                       uint32_t size[3]);
void s2l_compute_shader_destroy(s2l_compute_shader shader);

/* --- the compile cache (docs/compile-cache.md) ------------------------- */
/* Opens (creating it) a directory of compiled shaders holding at most
   \p max_bytes (0: 256 MiB). Never fails for a directory that cannot be
   used: the cache is then disabled (s2l_cache_enabled() returns 0 and
   s2l_cache_warning() says why) and shaders are compiled every time.
   Returns S2L_ERROR_INVALID_ARGUMENT only for a null \p dir or \p cache. */
s2l_result s2l_cache_open(const char *dir, uint64_t max_bytes,
                          s2l_cache *cache);
int s2l_cache_enabled(s2l_cache cache);
/* The first problem the cache met ("" if none), valid until the next call
   on it. */
const char *s2l_cache_warning(s2l_cache cache);
/* Lookups that found an entry, lookups that did not, entries written. */
void s2l_cache_stats(s2l_cache cache, uint64_t *hits, uint64_t *misses,
                     uint64_t *stores);
void s2l_cache_destroy(s2l_cache cache);

/* s2l_translate + s2l_compute_shader_create through \p cache (may be
   null: no cache): when the cache holds the shader for these bytes,
   options, opt level and CPU, it is loaded without translating or
   compiling; otherwise it is translated, compiled and stored. A cache
   problem is never an error. \p from_cache (may be null) gets 1 on a hit,
   0 on a miss. */
s2l_result s2l_compute_shader_create_cached(
    s2l_context context, s2l_cache cache, s2l_options options,
    const void *data, size_t size, const char *name, unsigned opt_level,
    s2l_compute_shader *shader, int *from_cache);

/* Buffers and push constants of a dispatch. The memory stays the caller's
   and must outlive the dispatches that use it. */
s2l_resources s2l_resources_create(void);
void s2l_resources_destroy(s2l_resources resources);
s2l_result s2l_resources_bind_buffer(s2l_resources resources, uint32_t set,
                                     uint32_t binding, void *data,
                                     uint64_t size);
/* Element \p index of a descriptor array (array of blocks). */
s2l_result s2l_resources_bind_array_element(s2l_resources resources,
                                            uint32_t set, uint32_t binding,
                                            uint32_t index, void *data,
                                            uint64_t size);
s2l_result s2l_resources_set_push_constants(s2l_resources resources,
                                            const void *data, size_t size);
/* Time limit of each dispatch or draw with these resources, in seconds
   (0: none, the default). A dispatch or draw that runs longer stops and
   returns S2L_ERROR_EXECUTION_FAILED saying it timed out (an indirect draw
   of several commands: each command has the limit). */
s2l_result s2l_resources_set_timeout(s2l_resources resources, double seconds);
/* The embedder's cancel flag (null: none, the default): while a dispatch
   or draw with these resources runs, setting *flag to non-zero from any
   thread stops it, and it returns S2L_ERROR_EXECUTION_FAILED saying it was
   cancelled; a flag already set stops it before any shader runs. Store to
   it atomically (__atomic_store_n(flag, 1, __ATOMIC_RELAXED), or C11's
   atomic_store on an _Atomic uint32_t passed here by a cast). The flag
   must outlive the dispatches and draws that use it. */
s2l_result s2l_resources_set_cancel_flag(s2l_resources resources,
                                         const volatile uint32_t *flag);
/* On (the default): a memory fault in the shader's code makes the dispatch
   or draw return S2L_ERROR_EXECUTION_FAILED naming the access and the
   nearest bound buffer (and for a draw, the stage), instead of killing the
   process (docs/robustness.md). */
s2l_result s2l_resources_set_catch_faults(s2l_resources resources, int on);
/* --- images and samplers (docs/images.md, "C API") --------------------- */
typedef struct s2l_image_info {
  uint32_t format;    /* VkFormat number (spirv2llvm/ImageFormat.h) */
  uint32_t view_type; /* S2L_VIEW_* (abi.h) */
  uint32_t width, height, depth;
  /* 0 is taken as 1 for these, so that a zeroed struct with a format,
     a view and a size is a valid image. Cube views have 6 layers per cube. */
  uint32_t levels, layers, samples;
} s2l_image_info;

/* Creates an image with zeroed texels: levels tightly packed one after the
   other, as abi.h's s2l_image_level describes. S2L_ERROR_INVALID_ARGUMENT
   with a message (unknown format or view, zero size, more levels than the
   mip chain has, a cube that is not square, sizes beyond the limits, ...). */
s2l_result s2l_image_create(s2l_context context, const s2l_image_info *info,
                            s2l_owned_image *image);
void s2l_image_destroy(s2l_owned_image image);
/* The texel bytes (*size of them when size is not null); valid until the
   image is destroyed. */
void *s2l_image_data(s2l_owned_image image, size_t *size);
/* The descriptor to bind; valid until the image is destroyed. */
const s2l_image *s2l_image_descriptor(s2l_owned_image image);
/* The VkFormat number of a Vulkan format name ("R8G8B8A8_UNORM" or
   "VK_FORMAT_R8G8B8A8_UNORM"); S2L_ERROR_INVALID_ARGUMENT when unknown. */
s2l_result s2l_format_by_name(const char *name, uint32_t *format);
/* Nearest filtering and mipmapping, clamp to edge, LOD range [0, 1000],
   no comparison, normalized coordinates, transparent black border. */
s2l_sampler s2l_sampler_default(void);

/* Images and samplers of a dispatch. An image is bound by its descriptor
   (s2l_image_descriptor, or an s2l_image the caller lays out itself),
   which must outlive the dispatches; a sampler is copied into the
   resources. A combined image sampler binding takes both; array elements
   not bound read zero. S2L_ERROR_INVALID_ARGUMENT for null resources, a
   null image, or a sampler field outside its Vk enum (filters, mipmap
   mode, address modes, compare op, border colour), a NaN LOD field,
   min_lod > max_lod or max_anisotropy < 1. */
s2l_result s2l_resources_bind_image(s2l_resources resources, uint32_t set,
                                    uint32_t binding, const s2l_image *image);
s2l_result s2l_resources_bind_sampler(s2l_resources resources, uint32_t set,
                                      uint32_t binding, s2l_sampler sampler);
s2l_result s2l_resources_bind_combined_image_sampler(s2l_resources resources,
                                                     uint32_t set,
                                                     uint32_t binding,
                                                     const s2l_image *image,
                                                     s2l_sampler sampler);
s2l_result s2l_resources_bind_image_array_element(s2l_resources resources,
                                                  uint32_t set,
                                                  uint32_t binding,
                                                  uint32_t index,
                                                  const s2l_image *image);
s2l_result s2l_resources_bind_sampler_array_element(s2l_resources resources,
                                                    uint32_t set,
                                                    uint32_t binding,
                                                    uint32_t index,
                                                    s2l_sampler sampler);
s2l_result s2l_resources_bind_combined_image_sampler_array_element(
    s2l_resources resources, uint32_t set, uint32_t binding, uint32_t index,
    const s2l_image *image, s2l_sampler sampler);

/* Runs x*y*z workgroups on \p threads threads (0: all cores). Fails with
   S2L_ERROR_INVALID_ARGUMENT when a binding the shader uses is missing or
   too small, or push constants are short; with S2L_ERROR_EXECUTION_FAILED
   when the shader faults or passes its time limit. */
s2l_result s2l_compute_shader_dispatch(s2l_context context,
                                       s2l_compute_shader shader,
                                       s2l_resources resources, uint32_t x,
                                       uint32_t y, uint32_t z,
                                       unsigned threads);

/* --- graphics: the software rasterizer (docs/graphics.md, "C API") ----- */
/* A pipeline of a vertex and an optional fragment shader (SPIR-V words)
   and fixed-function state, drawing into s2l_images. The state mirrors
   Vulkan's create-info structs field by field, and every enum field is a
   uint32_t holding Vulkan's number (VkFormat, VkPrimitiveTopology,
   VkCompareOp, VkBlendFactor, ...), so Vulkan values may be passed as they
   are; booleans are uint32_t too (0 off, anything else on). A zeroed
   struct means what a zeroed Vulkan struct means (color_write_mask 0
   writes nothing, depth_compare_op 0 is NEVER), except where a field says
   "0 is taken as ...". Pointers in the description are read during
   s2l_graphics_pipeline_create only. */

typedef struct s2l_spec_constant {
  uint32_t spec_id;
  const char *value; /* as s2l_options_set_spec_constant: "16", "1.5" */
} s2l_spec_constant;

typedef struct s2l_shader_stage {
  const uint32_t *code; /* SPIR-V words; null: no such stage */
  size_t word_count;
  const char *entry_point; /* null or "": the module's only one */
  const s2l_spec_constant *spec_constants;
  uint32_t spec_constant_count;
} s2l_shader_stage;

/* VkVertexInputBindingDescription. */
typedef struct s2l_vertex_binding {
  uint32_t binding;
  uint32_t stride;
  uint32_t input_rate; /* VkVertexInputRate: 0 vertex, 1 instance */
} s2l_vertex_binding;

/* VkVertexInputBindingDivisorDescriptionEXT: instance-rate bindings not
   listed step once per instance; divisor 0 reads element 0 always. */
typedef struct s2l_vertex_binding_divisor {
  uint32_t binding;
  uint32_t divisor;
} s2l_vertex_binding_divisor;

/* VkVertexInputAttributeDescription. */
typedef struct s2l_vertex_attribute {
  uint32_t location;
  uint32_t binding;
  uint32_t format; /* VkFormat */
  uint32_t offset;
} s2l_vertex_attribute;

/* VkViewport, VkRect2D. */
typedef struct s2l_viewport {
  float x, y, width, height, min_depth, max_depth;
} s2l_viewport;

typedef struct s2l_rect2d {
  int32_t x, y;
  uint32_t width, height;
} s2l_rect2d;

/* VkPipelineRasterizationStateCreateInfo (+ line and provoking vertex
   state of VK_EXT_line_rasterization and VK_EXT_provoking_vertex). */
typedef struct s2l_rasterization_state {
  uint32_t depth_clamp_enable;
  uint32_t rasterizer_discard_enable;
  uint32_t polygon_mode; /* VkPolygonMode: 0 fill, 1 line, 2 point */
  uint32_t cull_mode;    /* VkCullModeFlags: 0 none, 1 front, 2 back, 3 both */
  uint32_t front_face;   /* VkFrontFace: 0 counter-clockwise, 1 clockwise */
  uint32_t depth_bias_enable;
  float depth_bias_constant_factor;
  float depth_bias_clamp;
  float depth_bias_slope_factor;
  float line_width; /* 0 is taken as 1 */
  uint32_t line_rasterization_mode; /* VkLineRasterizationModeEXT (0-3) */
  uint32_t provoking_vertex_mode; /* VkProvokingVertexModeEXT: 0 first, 1 last */
  /* Device features (VK_EXT_depth_clamp_zero_one's depthClampZeroOne,
     VK_EXT_depth_range_unrestricted): depth clamp to [0, 1]; without depth
     clamp, float depth attachments keep depths outside [0, 1] when both
     are set. */
  uint32_t depth_clamp_zero_one;
  uint32_t depth_range_unrestricted;
} s2l_rasterization_state;

/* VkPipelineMultisampleStateCreateInfo. */
typedef struct s2l_multisample_state {
  uint32_t rasterization_samples; /* 1, 2, 4 or 8; 0 is taken as 1 */
  uint32_t sample_shading_enable;
  float min_sample_shading;
  const uint32_t *sample_mask; /* null: all samples */
  uint32_t alpha_to_coverage_enable;
  uint32_t alpha_to_one_enable;
} s2l_multisample_state;

/* VkStencilOpState, VkPipelineDepthStencilStateCreateInfo. */
typedef struct s2l_stencil_op_state {
  uint32_t fail_op;       /* VkStencilOp */
  uint32_t pass_op;
  uint32_t depth_fail_op;
  uint32_t compare_op;    /* VkCompareOp */
  uint32_t compare_mask;
  uint32_t write_mask;
  uint32_t reference;
} s2l_stencil_op_state;

typedef struct s2l_depth_stencil_state {
  uint32_t depth_test_enable;
  uint32_t depth_write_enable;
  uint32_t depth_compare_op; /* VkCompareOp */
  uint32_t depth_bounds_test_enable;
  uint32_t stencil_test_enable;
  s2l_stencil_op_state front;
  s2l_stencil_op_state back;
  float min_depth_bounds;
  float max_depth_bounds;
} s2l_depth_stencil_state;

/* VkPipelineColorBlendAttachmentState, VkPipelineColorBlendStateCreateInfo.
   Colour attachments beyond attachment_count blend off and write all
   components. */
typedef struct s2l_color_blend_attachment {
  uint32_t blend_enable;
  uint32_t src_color_blend_factor; /* VkBlendFactor */
  uint32_t dst_color_blend_factor;
  uint32_t color_blend_op;         /* VkBlendOp (0-4) */
  uint32_t src_alpha_blend_factor;
  uint32_t dst_alpha_blend_factor;
  uint32_t alpha_blend_op;
  uint32_t color_write_mask;       /* VkColorComponentFlags: R 1 G 2 B 4 A 8 */
} s2l_color_blend_attachment;

typedef struct s2l_color_blend_state {
  uint32_t logic_op_enable;
  uint32_t logic_op; /* VkLogicOp */
  const s2l_color_blend_attachment *attachments;
  uint32_t attachment_count;
  float blend_constants[4];
} s2l_color_blend_state;

typedef struct s2l_graphics_pipeline_desc {
  s2l_shader_stage vertex;
  /* code null: no fragment shader (only depth and stencil are written) */
  s2l_shader_stage fragment;
  const s2l_vertex_binding *vertex_bindings;
  uint32_t vertex_binding_count;
  const s2l_vertex_binding_divisor *vertex_binding_divisors;
  uint32_t vertex_binding_divisor_count;
  const s2l_vertex_attribute *vertex_attributes;
  uint32_t vertex_attribute_count;
  uint32_t topology; /* VkPrimitiveTopology (0-5) */
  uint32_t primitive_restart_enable;
  /* Up to 16 viewports (GraphicsLimits::MaxViewports, Vulkan's
     multiViewport): each primitive uses the viewport and scissor that its
     provoking vertex's ViewportIndex output names (0 when the vertex
     shader writes none or an index out of range). None: the whole
     framebuffer at depth 0 to 1. As many scissors as viewports, or none:
     the whole framebuffer. */
  const s2l_viewport *viewports;
  uint32_t viewport_count;
  const s2l_rect2d *scissors;
  uint32_t scissor_count;
  s2l_rasterization_state rasterization;
  s2l_multisample_state multisample;
  s2l_depth_stencil_state depth_stencil;
  s2l_color_blend_state color_blend;
  /* Colour attachment formats by location (VkFormat; 0, UNDEFINED, leaves
     a location unused) and the depth/stencil attachment's (0: none). */
  const uint32_t *color_formats;
  uint32_t color_format_count;
  uint32_t depth_stencil_format;
  /* SIMD width of both shaders: 4, 8 or 16 (0: the host's default). */
  uint32_t width;
  /* Optional: the compile cache for both shaders. */
  s2l_cache cache;
  /* code null: no geometry shader. Its input primitive must be what the
     topology makes; it is not cached (last, so that existing zeroed
     descriptions mean no geometry stage). */
  s2l_shader_stage geometry;
} s2l_graphics_pipeline_desc;

/* The attachments of a draw: images of the pipeline's formats and sample
   count, all of one width and height (level 0, layer 0 is drawn). Null
   entries are unused locations. Resolve images, when given, are
   single-sampled and get the average of each pixel's samples after the
   draw. The images are the caller's (s2l_image_descriptor). */
typedef struct s2l_framebuffer {
  const s2l_image *const *color;
  uint32_t color_count;
  const s2l_image *depth_stencil;
  const s2l_image *const *resolve;
  uint32_t resolve_count;
} s2l_framebuffer;

/* Counters of a pipeline's last draw. */
typedef struct s2l_draw_stats {
  uint64_t vertex_invocations;
  uint64_t primitives;
  uint64_t clipped_primitives;
  uint64_t fragment_quads;
  uint64_t fragment_calls;
} s2l_draw_stats;

/* Translates and JIT-compiles both shaders at \p opt_level (0-3) and checks
   the state. S2L_ERROR_INVALID_ARGUMENT for a null pointer, an enum field
   outside its Vk enum (the message names the field and the value), an
   unknown format or a state the rasterizer does not support;
   S2L_ERROR_INVALID_INPUT for shaders that do not translate or whose
   interfaces do not match. */
s2l_result s2l_graphics_pipeline_create(s2l_context context,
                                        const s2l_graphics_pipeline_desc *desc,
                                        unsigned opt_level,
                                        s2l_graphics_pipeline *pipeline);
void s2l_graphics_pipeline_destroy(s2l_graphics_pipeline pipeline);
/* SIMD width of the pipeline's shaders (0 for a null pipeline). */
unsigned s2l_graphics_pipeline_width(s2l_graphics_pipeline pipeline);

/* The dynamic state: each setter changes the state of the draws that
   follow (Vulkan's vkCmdSet* with the same arguments, from the first
   viewport or scissor: these replace them all; at most 16 of each).
   \p face_mask is VkStencilFaceFlags: 1 front, 2 back, 3 both. */
s2l_result s2l_graphics_pipeline_set_viewports(s2l_context context,
                                               s2l_graphics_pipeline pipeline,
                                               const s2l_viewport *viewports,
                                               uint32_t count);
s2l_result s2l_graphics_pipeline_set_scissors(s2l_context context,
                                              s2l_graphics_pipeline pipeline,
                                              const s2l_rect2d *scissors,
                                              uint32_t count);
s2l_result s2l_graphics_pipeline_set_blend_constants(
    s2l_context context, s2l_graphics_pipeline pipeline,
    const float constants[4]);
s2l_result s2l_graphics_pipeline_set_stencil_reference(
    s2l_context context, s2l_graphics_pipeline pipeline, uint32_t face_mask,
    uint32_t reference);
s2l_result s2l_graphics_pipeline_set_stencil_compare_mask(
    s2l_context context, s2l_graphics_pipeline pipeline, uint32_t face_mask,
    uint32_t compare_mask);
s2l_result s2l_graphics_pipeline_set_stencil_write_mask(
    s2l_context context, s2l_graphics_pipeline pipeline, uint32_t face_mask,
    uint32_t write_mask);
s2l_result s2l_graphics_pipeline_set_line_width(s2l_context context,
                                                s2l_graphics_pipeline pipeline,
                                                float width);
s2l_result s2l_graphics_pipeline_set_depth_bias(s2l_context context,
                                                s2l_graphics_pipeline pipeline,
                                                float constant_factor,
                                                float clamp,
                                                float slope_factor);
s2l_result s2l_graphics_pipeline_set_depth_bounds(
    s2l_context context, s2l_graphics_pipeline pipeline, float min_bounds,
    float max_bounds);

/* Vertex and index buffers of draws (vkCmdBindVertexBuffers and
   vkCmdBindIndexBuffer): \p size bytes at \p data are the binding's data
   from its offset 0; \p index_type is VkIndexType (0 UINT16, 1 UINT32,
   1000265000 UINT8). The memory stays the caller's and must outlive the
   draws. Descriptors and push constants of both stages are bound as for
   dispatches. */
s2l_result s2l_resources_bind_vertex_buffer(s2l_resources resources,
                                            uint32_t binding, const void *data,
                                            uint64_t size);
s2l_result s2l_resources_bind_index_buffer(s2l_resources resources,
                                           const void *data, uint64_t size,
                                           uint32_t index_type);

/* vkCmdDraw and vkCmdDrawIndexed into \p framebuffer on \p threads threads
   (0: all cores). Nothing is drawn and S2L_ERROR_INVALID_ARGUMENT returned
   when the attachments do not match the pipeline's formats, sample count
   or each other's size, a vertex buffer is missing or too small, an index
   is beyond the index buffer or a descriptor is missing;
   S2L_ERROR_EXECUTION_FAILED when a shader faults, or the draw passes the
   resources' time limit or is cancelled (s2l_resources_set_timeout,
   s2l_resources_set_cancel_flag). */
s2l_result s2l_graphics_pipeline_draw(s2l_context context,
                                      s2l_graphics_pipeline pipeline,
                                      const s2l_framebuffer *framebuffer,
                                      s2l_resources resources,
                                      uint32_t vertex_count,
                                      uint32_t instance_count,
                                      uint32_t first_vertex,
                                      uint32_t first_instance,
                                      unsigned threads);
s2l_result s2l_graphics_pipeline_draw_indexed(
    s2l_context context, s2l_graphics_pipeline pipeline,
    const s2l_framebuffer *framebuffer, s2l_resources resources,
    uint32_t index_count, uint32_t instance_count, uint32_t first_index,
    int32_t vertex_offset, uint32_t first_instance, unsigned threads);
/* vkCmdDrawIndirect / vkCmdDrawIndexedIndirect: \p draw_count commands of
   \p stride bytes at \p indirect (\p size bytes readable there), each a
   VkDrawIndirectCommand, or a VkDrawIndexedIndirectCommand when
   \p indexed is not 0. */
s2l_result s2l_graphics_pipeline_draw_indirect(
    s2l_context context, s2l_graphics_pipeline pipeline,
    const s2l_framebuffer *framebuffer, s2l_resources resources,
    const void *indirect, uint64_t size, uint32_t draw_count, uint32_t stride,
    int indexed, unsigned threads);
/* The counters of the pipeline's last draw (zeros for a null pipeline). */
void s2l_graphics_pipeline_stats(s2l_graphics_pipeline pipeline,
                                 s2l_draw_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* SPIRV2LLVM_C_SPIRV2LLVM_H */
