/**
 * @file direct_conv2d_tiling.h
 * @brief Tiling data for DirectConv2d (NCHW fp32 convolution with stride/pad/dilation/groups).
 */
#ifndef DIRECT_CONV2D_TILING_H
#define DIRECT_CONV2D_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DirectConv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, strideW);
  TILING_DATA_FIELD_DEF(uint32_t, padH);
  TILING_DATA_FIELD_DEF(uint32_t, padW);
  TILING_DATA_FIELD_DEF(uint32_t, dilationH);
  TILING_DATA_FIELD_DEF(uint32_t, dilationW);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, inCPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, outCPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);        // output channels per block (within one group)
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, owTile);         // output columns per tile, multiple of 8
  TILING_DATA_FIELD_DEF(uint32_t, owTileNum);
  TILING_DATA_FIELD_DEF(uint32_t, rowCap);         // staged input row buffer length (elements)
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DirectConv2d, DirectConv2dTilingData)

ge::graphStatus DirectConv2dTilingFunc(gert::TilingContext* context);
} // namespace optiling

#endif // DIRECT_CONV2D_TILING_H
