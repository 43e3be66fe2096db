#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ResizeWithAntialiasCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, nc);
  TILING_DATA_FIELD_DEF(uint32_t, ih);
  TILING_DATA_FIELD_DEF(uint32_t, iw);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, iw_al);
  TILING_DATA_FIELD_DEF(uint32_t, ow_al);
  TILING_DATA_FIELD_DEF(uint32_t, taps_h);     // max filter taps per output row
  TILING_DATA_FIELD_DEF(uint32_t, taps_w);     // max filter taps per output column
  TILING_DATA_FIELD_DEF(float, scale_h);       // ih / oh
  TILING_DATA_FIELD_DEF(float, scale_w);       // iw / ow
  TILING_DATA_FIELD_DEF(float, sup_h);         // filter support in input pixels
  TILING_DATA_FIELD_DEF(float, sup_w);
  TILING_DATA_FIELD_DEF(uint32_t, row_total);  // nc * oh
  TILING_DATA_FIELD_DEF(uint32_t, rows_per_core);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ResizeWithAntialiasCustom, ResizeWithAntialiasCustomTilingData)
}
