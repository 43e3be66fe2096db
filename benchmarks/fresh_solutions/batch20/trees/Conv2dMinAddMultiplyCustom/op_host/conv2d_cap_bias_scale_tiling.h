#ifndef CONV2D_CAP_BIAS_SCALE_TILING_H
#define CONV2D_CAP_BIAS_SCALE_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dCapBiasScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);      // aligned UB pitch of one staged / accumulated row
  TILING_DATA_FIELD_DEF(uint32_t, ocTile);         // output channels per work unit
  TILING_DATA_FIELD_DEF(uint32_t, ocTiles);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(float, cap);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Conv2dCapBiasScale, Conv2dCapBiasScaleTilingData)

ge::graphStatus Conv2dCapBiasScaleTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
