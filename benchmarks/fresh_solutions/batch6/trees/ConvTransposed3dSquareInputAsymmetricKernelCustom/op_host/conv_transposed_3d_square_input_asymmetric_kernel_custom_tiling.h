#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed3dSquareInputAsymmetricKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, c_in);
  TILING_DATA_FIELD_DEF(uint32_t, c_out);
  TILING_DATA_FIELD_DEF(uint32_t, id);
  TILING_DATA_FIELD_DEF(uint32_t, ih);
  TILING_DATA_FIELD_DEF(uint32_t, iw);
  TILING_DATA_FIELD_DEF(uint32_t, kd);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, od);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, ow_al);         // output line length in UB (8-float aligned)
  TILING_DATA_FIELD_DEF(uint32_t, co_blk);        // output channels per accumulator chunk
  TILING_DATA_FIELD_DEF(uint32_t, row_total);     // n * od * oh output lines
  TILING_DATA_FIELD_DEF(uint32_t, rows_per_core);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed3dSquareInputAsymmetricKernelCustom, ConvTransposed3dSquareInputAsymmetricKernelCustomTilingData)
}
