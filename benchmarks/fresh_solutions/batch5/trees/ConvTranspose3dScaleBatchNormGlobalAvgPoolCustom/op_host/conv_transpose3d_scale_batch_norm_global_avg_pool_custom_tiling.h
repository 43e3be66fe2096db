#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dScaleBatchNormGlobalAvgPoolCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);          // N
  TILING_DATA_FIELD_DEF(uint32_t, channels);       // C
  TILING_DATA_FIELD_DEF(uint32_t, spatial);        // D*H*W of the conv output
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);        // elements per UB tile along spatial
  TILING_DATA_FIELD_DEF(uint32_t, chPerCore);      // base channels per core
  TILING_DATA_FIELD_DEF(uint32_t, chRemainder);    // first chRemainder cores get one more channel
  TILING_DATA_FIELD_DEF(float, scaleFactor);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dScaleBatchNormGlobalAvgPoolCustom,
                           ConvTranspose3dScaleBatchNormGlobalAvgPoolCustomTilingData)
}
