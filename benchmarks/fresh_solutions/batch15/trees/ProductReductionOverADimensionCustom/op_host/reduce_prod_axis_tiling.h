#ifndef REDUCE_PROD_AXIS_TILING_H
#define REDUCE_PROD_AXIS_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
/*
 * Input viewed as [outer, reduceLen, inner].
 *   key 1: inner > 1  -> column tiles of width colTile, multiplied row by row
 *   key 2: inner == 1 -> each outer row is contiguous, folded in chunks of chunkLen
 */
BEGIN_TILING_DATA_DEF(ReduceProdAxisTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // key 1: columns per unit
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad);  // key 1: rows fetched per DMA
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);     // key 2: elements per DMA (power of 2)
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceProdAxis, ReduceProdAxisTilingData)

ge::graphStatus ReduceProdAxisTilingFunc(gert::TilingContext *context);
}
#endif
