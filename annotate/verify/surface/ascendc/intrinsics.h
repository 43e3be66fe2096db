// curate AscendC surface: compiler built-ins of the vector/cube cores that kernels call directly.
//
// These belong to the vendor compiler, not to the AscendC interface. They are declared with open
// parameter lists: the surface knows they exist, not their exact signatures.
#ifndef CURATE_ASCENDC_INTRINSICS_H
#define CURATE_ASCENDC_INTRINSICS_H

#include "asc_prelude.h"

enum class Order_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
#define CURATE_BUILTIN(Name)             \
    template <typename... CurateArgs>    \
    __aicore__ inline void Name(CurateArgs... args)
CURATE_BUILTIN(pipe_barrier);
CURATE_BUILTIN(set_flag);
CURATE_BUILTIN(wait_flag);
CURATE_BUILTIN(set_vector_mask);
CURATE_BUILTIN(set_mask_norm);
CURATE_BUILTIN(set_mask_count);
CURATE_BUILTIN(set_atomic_add);
CURATE_BUILTIN(set_atomic_none);
CURATE_BUILTIN(set_ctrl);
CURATE_BUILTIN(dcci);
CURATE_BUILTIN(copy_gm_to_ubuf);
CURATE_BUILTIN(copy_ubuf_to_gm);
CURATE_BUILTIN(copy_ubuf_to_ubuf);
CURATE_BUILTIN(copy_gm_to_ubuf_align_b8);
CURATE_BUILTIN(copy_gm_to_ubuf_align_b16);
CURATE_BUILTIN(copy_gm_to_ubuf_align_b32);
CURATE_BUILTIN(copy_ubuf_to_gm_align_b8);
CURATE_BUILTIN(copy_ubuf_to_gm_align_b16);
CURATE_BUILTIN(copy_ubuf_to_gm_align_b32);
CURATE_BUILTIN(vadd);
CURATE_BUILTIN(vadds);
CURATE_BUILTIN(vsub);
CURATE_BUILTIN(vmul);
CURATE_BUILTIN(vmuls);
CURATE_BUILTIN(vdiv);
CURATE_BUILTIN(vmax);
CURATE_BUILTIN(vmin);
CURATE_BUILTIN(vexp);
CURATE_BUILTIN(vln);
CURATE_BUILTIN(vabs);
CURATE_BUILTIN(vconv);
CURATE_BUILTIN(vector_dup);
__aicore__ inline int64_t get_block_idx();
__aicore__ inline int64_t get_block_num();
__aicore__ inline int64_t get_subblockid();
__aicore__ inline int64_t get_sys_cnt();
__aicore__ inline int64_t get_rsvd_cnt();
__aicore__ inline uint64_t get_vms4_sr();

#endif  // CURATE_ASCENDC_INTRINSICS_H
