#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGroupedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n_num);
  TILING_DATA_FIELD_DEF(uint32_t, c_in);
  TILING_DATA_FIELD_DEF(uint32_t, c_out);
  TILING_DATA_FIELD_DEF(uint32_t, d_in);
  TILING_DATA_FIELD_DEF(uint32_t, h_in);
  TILING_DATA_FIELD_DEF(uint32_t, w_in);
  TILING_DATA_FIELD_DEF(uint32_t, d_out);
  TILING_DATA_FIELD_DEF(uint32_t, h_out);
  TILING_DATA_FIELD_DEF(uint32_t, w_out);
  TILING_DATA_FIELD_DEF(uint32_t, ks);        // cubic kernel edge
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, grp);
  TILING_DATA_FIELD_DEF(uint32_t, cin_g);     // input channels per group
  TILING_DATA_FIELD_DEF(uint32_t, cout_g);    // output channels per group
  TILING_DATA_FIELD_DEF(uint32_t, co_blk);    // output channels handled together
  TILING_DATA_FIELD_DEF(uint32_t, w_in_pad);  // input row stride in UB (>= w_in + 1, 8-aligned)
  TILING_DATA_FIELD_DEF(uint32_t, w_out_pad); // output row stride in UB
  TILING_DATA_FIELD_DEF(uint32_t, item_num);  // (n, g, co chunk, od) work items
  TILING_DATA_FIELD_DEF(uint32_t, item_per);  // items per core
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGroupedCustom,
                           ConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGroupedCustomTilingData)
}
