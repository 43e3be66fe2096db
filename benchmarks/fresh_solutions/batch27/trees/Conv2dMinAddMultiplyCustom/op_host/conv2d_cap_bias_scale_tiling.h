/**
 * @file conv2d_cap_bias_scale_tiling.h
 * @brief Tiling data for Conv2dCapBiasScale:
 *        y = (min(conv2d(x, w) + conv_bias, cap) + channel_bias) * scale
 */
#ifndef CONV2D_CAP_BIAS_SCALE_TILING_H
#define CONV2D_CAP_BIAS_SCALE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dCapBiasScaleTilingData)
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
  TILING_DATA_FIELD_DEF(uint32_t, weightPerOc);   // inC * kH * kW
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);       // output channels accumulated together in UB
  TILING_DATA_FIELD_DEF(uint32_t, ocBlockNum);
  TILING_DATA_FIELD_DEF(uint32_t, owTile);        // output columns per tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, owTileNum);
  TILING_DATA_FIELD_DEF(uint32_t, rowCap);        // elements of the staged input-row buffer
  TILING_DATA_FIELD_DEF(uint32_t, hasConvBias);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);    // owTileNum * batch * ocBlockNum * outH
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemainder);
  TILING_DATA_FIELD_DEF(float, capValue);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dCapBiasScale, Conv2dCapBiasScaleTilingData)

ge::graphStatus Conv2dCapBiasScaleTilingFunc(gert::TilingContext* context);
} // namespace optiling

#endif // CONV2D_CAP_BIAS_SCALE_TILING_H
