/*===- spirv2llvm/abi.h - Entry point ABI of generated SIMD code ---------===*\
 *
 * The C signature every entry point produced by the SIMD back end has. One
 * call runs one group of W invocations (W = --width, 4 by default) in
 * lockstep; lane i of the group is bit i of the masks.
 *
 *   uint32_t s2l_<entry>(const s2l_group_args *args);
 *
 * returns the mask of lanes that are still alive at the end (lanes that ran
 * OpKill / OpTerminateInvocation are cleared; inactive lanes are 0).
 *
 * Interface inputs and outputs are "structure of arrays": every scalar
 * component of an interface variable (a vec4 has 4, a mat2 4, an array of 3
 * floats 3, booleans are 32-bit) occupies W consecutive elements of its
 * scalar type, lane 0 first, at the byte offset the translator reports in
 * its interface layout (spirv2llvm::InterfaceLayout, or --print-interface).
 * Offsets are multiples of W * the component size.
 *
 * Fields added after version 1 go at the end; S2L_ABI_VERSION changes when
 * the layout of existing fields does.
\*===----------------------------------------------------------------------===*/
#ifndef SPIRV2LLVM_ABI_H
#define SPIRV2LLVM_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define S2L_ABI_VERSION 1

/** One bound resource: a buffer's base address and size in bytes. For an
 *  array of blocks (descriptor array), the binding's descriptor instead
 *  has data = an array of s2l_descriptor, one per element, and size = the
 *  element count (docs/abi.md). */
typedef struct s2l_descriptor {
  void *data;
  uint64_t size;
} s2l_descriptor;

typedef struct s2l_group_args {
  /** Lanes that run: bit i = lane i. Bits at or above W are ignored. */
  uint32_t active_mask;
  uint32_t reserved0;
  /** Interface inputs, structure of arrays (see above). */
  const void *inputs;
  /** Interface outputs, structure of arrays; written only for active lanes. */
  void *outputs;
  /** descriptor_sets[set][binding]. */
  const s2l_descriptor *const *descriptor_sets;
  const void *push_constants;
  /** This group's workgroup's shared memory. */
  void *workgroup_memory;
  /** Compute: the workgroup this group belongs to, and the dispatch size. */
  uint32_t workgroup_id[3];
  uint32_t num_workgroups[3];
  /** Compute: LocalInvocationIndex of lane 0, and this group's SubgroupId. */
  uint32_t first_local_index;
  uint32_t subgroup_id;
  /** Compute: called at OpControlBarrier with Workgroup scope; returns when
   *  every SIMD group of the workgroup has reached the barrier. */
  void (*barrier)(void *barrier_ctx);
  void *barrier_ctx;
  /** Cancellation (the watchdog): when not null, generated code reads
   * *cancel (atomically, relaxed) at every loop back edge and leaves the
   * loop when it is not 0, so that a shader that never ends returns. The
   * results of a cancelled call are meaningless; memory safety is not
   * affected (no access happens that the uncancelled code would not do). */
  const volatile uint32_t *cancel;
} s2l_group_args;

typedef uint32_t (*s2l_entry_fn)(const s2l_group_args *args);

/*===-- Images, samplers and texel buffers (docs/abi.md, "Images") -------===*\
 *
 * A binding of an image, sampler or texel buffer has an s2l_descriptor
 * whose data points to one of the structures below (size = its sizeof):
 *   storage image, sampled image, input attachment,
 *   uniform/storage texel buffer          -> s2l_image
 *   sampler                               -> s2l_sampler
 *   combined image sampler                -> s2l_combined_image_sampler
 * An array of them is an array of s2l_descriptor as for blocks.
 *
 * Generated code does not read these structures itself (except the
 * pointers of s2l_combined_image_sampler): it calls the runtime functions
 * declared at the end, which libspirv2llvm exports and the JIT resolves.
\*===----------------------------------------------------------------------===*/

#define S2L_MAX_IMAGE_LEVELS 16

/** VkImageViewType numbers; S2L_VIEW_BUFFER is a texel buffer. */
enum {
  S2L_VIEW_1D = 0,
  S2L_VIEW_2D = 1,
  S2L_VIEW_3D = 2,
  S2L_VIEW_CUBE = 3,
  S2L_VIEW_1D_ARRAY = 4,
  S2L_VIEW_2D_ARRAY = 5,
  S2L_VIEW_CUBE_ARRAY = 6,
  S2L_VIEW_BUFFER = 7
};

/** Where one mip level lives. Texel (x, y, z or layer, sample s) of level l
 *  is at data + level[l].offset + z * slice_pitch + y * row_pitch
 *  + (x * samples + s) * texel bytes; for block-compressed formats x and y
 *  count blocks. z is the depth slice of a 3D image, else the array layer
 *  (a cube's faces are layers 6c + face). */
typedef struct s2l_image_level {
  uint64_t offset;
  uint64_t row_pitch;
  uint64_t slice_pitch;
  uint32_t width, height, depth;
  uint32_t reserved;
} s2l_image_level;

typedef struct s2l_image {
  void *data;
  /** VkFormat number (spirv2llvm/ImageFormat.h). */
  uint32_t format;
  /** S2L_VIEW_*. */
  uint32_t view_type;
  /** Array layers (6 per cube), 1 for non-arrayed views. */
  uint32_t layers;
  uint32_t levels;
  uint32_t samples;
  uint32_t reserved;
  s2l_image_level level[S2L_MAX_IMAGE_LEVELS];
} s2l_image;

/** Sampler state with VkSamplerCreateInfo's numbers. */
typedef struct s2l_sampler {
  uint32_t mag_filter;       /* VkFilter: 0 nearest, 1 linear */
  uint32_t min_filter;
  uint32_t mipmap_mode;      /* VkSamplerMipmapMode: 0 nearest, 1 linear */
  uint32_t address_mode[3];  /* VkSamplerAddressMode for u, v, w */
  float mip_lod_bias;
  float min_lod, max_lod;
  float max_anisotropy;      /* 1: off */
  uint32_t compare_enable;
  uint32_t compare_op;       /* VkCompareOp */
  uint32_t border_color;     /* VkBorderColor (0-5) */
  uint32_t unnormalized_coordinates;
  uint32_t reserved[2];
} s2l_sampler;

typedef struct s2l_combined_image_sampler {
  const s2l_image *image;
  const s2l_sampler *sampler;
} s2l_combined_image_sampler;

/** What an image instruction asks (one invocation). Generated code fills
 *  one on its stack and calls s2l_image_op. */
enum {
  S2L_IMAGE_OP_FETCH = 0,       /* OpImageFetch: icoord, lod, sample */
  S2L_IMAGE_OP_READ = 1,        /* OpImageRead, subpass loads: icoord, sample */
  S2L_IMAGE_OP_WRITE = 2,       /* OpImageWrite: icoord, sample, value */
  S2L_IMAGE_OP_SAMPLE = 3,      /* ImageSample*: coord, lod/bias/grad, dref */
  S2L_IMAGE_OP_GATHER = 4,      /* OpImageGather / DrefGather: component, dref */
  S2L_IMAGE_OP_QUERY_SIZE = 5,  /* OpImageQuerySize(Lod): lod -> uint size */
  S2L_IMAGE_OP_QUERY_LEVELS = 6,
  S2L_IMAGE_OP_QUERY_SAMPLES = 7,
  S2L_IMAGE_OP_QUERY_LOD = 8    /* OpImageQueryLod: coord, grad -> float2 */
};

/** Flags of s2l_image_operands::flags. */
enum {
  S2L_IMAGE_HAS_BIAS = 1u << 0,
  S2L_IMAGE_HAS_LOD = 1u << 1,      /* explicit Lod */
  S2L_IMAGE_HAS_GRAD = 1u << 2,     /* explicit or implicit derivatives */
  S2L_IMAGE_HAS_OFFSET = 1u << 3,   /* offset[] (Offset or ConstOffset) */
  S2L_IMAGE_HAS_OFFSETS = 1u << 4,  /* gather_offsets[] (ConstOffsets) */
  S2L_IMAGE_HAS_MIN_LOD = 1u << 5,
  S2L_IMAGE_HAS_DREF = 1u << 6,     /* depth compare */
  S2L_IMAGE_HAS_SAMPLE = 1u << 7,
  S2L_IMAGE_PROJ = 1u << 8,         /* coord already divided by q */
  S2L_IMAGE_SPARSE = 1u << 9        /* result's residency code wanted */
};

/** The shader's view of the texel (the sampled type of OpTypeImage). */
enum { S2L_IMAGE_FLOAT = 0, S2L_IMAGE_SINT = 1, S2L_IMAGE_UINT = 2 };

typedef struct s2l_image_operands {
  uint32_t op;          /* S2L_IMAGE_OP_* */
  uint32_t flags;       /* S2L_IMAGE_HAS_* */
  uint32_t dim;         /* SPIR-V Dim of the OpTypeImage (0 1D .. 6 SubpassData) */
  uint32_t arrayed;     /* 1 if the type is arrayed: the layer is the last coordinate */
  uint32_t kind;        /* S2L_IMAGE_FLOAT/SINT/UINT */
  uint32_t component;   /* gather: 0-3 */
  uint32_t storage_format; /* VkFormat the shader declares (0: unknown) */
  int32_t sample;
  float coord[4];       /* sample, gather, query lod: normalized (or unnormalized) */
  int32_t icoord[4];    /* fetch, read, write */
  float dref;
  float bias;
  float lod;            /* explicit lod (float) */
  int32_t ilod;         /* fetch, query size: integer lod */
  float min_lod;
  float grad_x[3], grad_y[3];
  int32_t offset[3];
  int32_t gather_offsets[4][2];
  uint32_t value[4];    /* write: the texel's 4 components (bits of the kind) */
} s2l_image_operands;

/** Runs one image instruction for one invocation. `result` gets 4 32-bit
 *  components (float, int32 or uint32 bits, by `kind`; sizes and levels as
 *  uint32; query lod as 2 floats). Returns the sparse residency code: 0 =
 *  resident (always, here). Out-of-range fetch/read/gather coordinates read
 *  a texel of zero bits (zero, alpha 1 for formats without alpha: robust
 *  image access 2); writes out of range are dropped. `image`
 *  and `sampler` may be null (an unbound descriptor): reads give zero. */
uint32_t s2l_image_op(const s2l_image_operands *ops, const s2l_image *image,
                      const s2l_sampler *sampler, uint32_t result[4]);

/** OpImageTexelPointer: the address of a 32- or 64-bit texel for atomics,
 *  or `scratch` when the coordinate is out of range (the atomic then
 *  changes nothing visible). */
void *s2l_image_texel_pointer(const s2l_image *image, const int32_t coord[4],
                              uint32_t dim, uint32_t arrayed, int32_t sample,
                              void *scratch);


#ifdef __cplusplus
}
#endif

#endif /* SPIRV2LLVM_ABI_H */
