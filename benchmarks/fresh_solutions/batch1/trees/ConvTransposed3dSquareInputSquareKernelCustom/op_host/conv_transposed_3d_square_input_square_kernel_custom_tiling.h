#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed3dSquareInputSquareKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, padD);          // padded input extents (x padded by K-1 on every side)
  TILING_DATA_FIELD_DEF(uint32_t, padH);
  TILING_DATA_FIELD_DEF(uint32_t, padW);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, ocTile);        // output channels whose weights stay resident in UB
  TILING_DATA_FIELD_DEF(uint32_t, ocGroups);      // outChannels / ocTile
  TILING_DATA_FIELD_DEF(uint32_t, icTile);        // input channels staged per tap load
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);     // batch * outD * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerPart);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed3dSquareInputSquareKernelCustom,
                           ConvTransposed3dSquareInputSquareKernelCustomTilingData)
}
