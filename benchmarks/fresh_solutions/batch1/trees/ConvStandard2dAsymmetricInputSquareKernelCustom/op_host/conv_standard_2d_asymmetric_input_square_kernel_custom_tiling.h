#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvStandard2dAsymmetricInputSquareKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, kStride);        // padded length of one (co, ci) kernel in UB
  TILING_DATA_FIELD_DEF(uint32_t, tileW);          // output columns per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);     // batch * outH * tilesPerRow
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tasksTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard2dAsymmetricInputSquareKernelCustom,
                           ConvStandard2dAsymmetricInputSquareKernelCustomTilingData)
}
