#ifndef GROUPED_TRANSPOSED_CONV2D_TILING_H
#define GROUPED_TRANSPOSED_CONV2D_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupedTransposedConv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, N);
  TILING_DATA_FIELD_DEF(uint32_t, Ci);
  TILING_DATA_FIELD_DEF(uint32_t, Co);
  TILING_DATA_FIELD_DEF(uint32_t, Hi);
  TILING_DATA_FIELD_DEF(uint32_t, Wi);
  TILING_DATA_FIELD_DEF(uint32_t, Ho);
  TILING_DATA_FIELD_DEF(uint32_t, Wo);
  TILING_DATA_FIELD_DEF(uint32_t, Kh);
  TILING_DATA_FIELD_DEF(uint32_t, Kw);
  TILING_DATA_FIELD_DEF(uint32_t, sH);
  TILING_DATA_FIELD_DEF(uint32_t, sW);
  TILING_DATA_FIELD_DEF(uint32_t, pH);
  TILING_DATA_FIELD_DEF(uint32_t, pW);
  TILING_DATA_FIELD_DEF(uint32_t, dH);
  TILING_DATA_FIELD_DEF(uint32_t, dW);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, ciPerG);
  TILING_DATA_FIELD_DEF(uint32_t, coPerG);
  TILING_DATA_FIELD_DEF(uint32_t, coTile);
  TILING_DATA_FIELD_DEF(uint32_t, WiA);
  TILING_DATA_FIELD_DEF(uint32_t, WoA);
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);
  TILING_DATA_FIELD_DEF(uint32_t, taskPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, biasFlag);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupedTransposedConv2d, GroupedTransposedConv2dTilingData)
}  // namespace optiling
#endif
