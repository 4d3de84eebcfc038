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

#ifdef __cplusplus
}
#endif

#endif /* SPIRV2LLVM_ABI_H */
