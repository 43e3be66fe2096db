#ifndef ATROUS_CONV2D_TILING_H
#define ATROUS_CONV2D_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AtrousConv2dTilingData)
  // geometry
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, strideW);
  TILING_DATA_FIELD_DEF(uint32_t, padH);
  TILING_DATA_FIELD_DEF(uint32_t, padW);
  TILING_DATA_FIELD_DEF(uint32_t, dilH);
  TILING_DATA_FIELD_DEF(uint32_t, dilW);
  // work split: one unit = (image, block of output rows)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerUnit);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  // UB row staging: [leftMargin zeros | input row | right zeros]
  TILING_DATA_FIELD_DEF(uint32_t, leftMargin);
  TILING_DATA_FIELD_DEF(uint32_t, rowBufLen);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);   // W[OC, K] x col[K, rows*OW]
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AtrousConv2d, AtrousConv2dTilingData)
}  // namespace optiling
#endif
