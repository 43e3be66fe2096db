#ifndef CONV2D_SUBTRACT_SUBTRACT_MISH_CUSTOM_TILING_H
#define CONV2D_SUBTRACT_SUBTRACT_MISH_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dSubtractSubtractMishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inHeight);
  TILING_DATA_FIELD_DEF(uint32_t, inWidth);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, outHeight);
  TILING_DATA_FIELD_DEF(uint32_t, outWidth);
  TILING_DATA_FIELD_DEF(uint32_t, outWidthAlign);   // outWidth rounded up to 8 floats (32B)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);       // batch * outHeight
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, ocTile);          // output channels produced per UB pass
  TILING_DATA_FIELD_DEF(float, subtractTotal);      // subtract_value_1 + subtract_value_2
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dSubtractSubtractMishCustom, Conv2dSubtractSubtractMishCustomTilingData)
}
#endif
