#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dLayerNormGeluScalingCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, normLen);      // size of the normalized (last) dim
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // numel / normLen
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemain);
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);     // rows per UB tile, multiple of 8
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dLayerNormGeluScalingCustom,
                           ConvTranspose3dLayerNormGeluScalingCustomTilingData)
}
