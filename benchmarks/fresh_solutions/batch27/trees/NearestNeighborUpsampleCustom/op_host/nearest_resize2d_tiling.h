/**
 * @file nearest_resize2d_tiling.h
 * @brief Tiling data for NearestResize2d (nearest-neighbour resize of the two trailing dims).
 */
#ifndef NEAREST_RESIZE2D_TILING_H
#define NEAREST_RESIZE2D_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NearestResize2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(float, invScaleH);        // 1 / scale_h as used by the index rule
  TILING_DATA_FIELD_DEF(float, invScaleW);
  TILING_DATA_FIELD_DEF(uint32_t, owTile);        // output columns per tile
  TILING_DATA_FIELD_DEF(uint32_t, owTileAligned); // owTile rounded up to 32 bytes
  TILING_DATA_FIELD_DEF(uint32_t, owTileNum);
  TILING_DATA_FIELD_DEF(uint32_t, repCap);        // max output rows emitted from one staged input row
  TILING_DATA_FIELD_DEF(uint32_t, inBufLen);      // elements of the input staging buffer
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);     // planes * outH
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(NearestResize2d, NearestResize2dTilingData)

ge::graphStatus NearestResize2dTilingFunc(gert::TilingContext* context);
} // namespace optiling

#endif // NEAREST_RESIZE2D_TILING_H
