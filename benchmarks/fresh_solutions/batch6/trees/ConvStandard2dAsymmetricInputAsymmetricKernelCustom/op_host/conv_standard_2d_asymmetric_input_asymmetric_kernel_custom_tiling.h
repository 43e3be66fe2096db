#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvStandard2dAsymmetricInputAsymmetricKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, ocTile);      // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, ocTiles);
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);     // batch * outH * ocTiles
  TILING_DATA_FIELD_DEF(uint32_t, taskPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, taskTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard2dAsymmetricInputAsymmetricKernelCustom,
                           ConvStandard2dAsymmetricInputAsymmetricKernelCustomTilingData)
}
