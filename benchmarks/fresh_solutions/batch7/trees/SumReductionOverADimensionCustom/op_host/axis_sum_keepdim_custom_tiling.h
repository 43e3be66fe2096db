#ifndef AXIS_SUM_KEEPDIM_CUSTOM_TILING_H
#define AXIS_SUM_KEEPDIM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// x is viewed as [outer, reduceLen, inner]; y = sum over the middle axis,
// shape [outer, 1, inner].
//  - tiling key 1 (inner > 1): a task is (outer index, column slice); rows of
//    the slice are streamed in and accumulated element-wise.
//  - tiling key 2 (inner == 1): a task is one contiguous row, reduced with
//    ReduceSum chunk by chunk.
BEGIN_TILING_DATA_DEF(AxisSumKeepdimTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // key 1: columns per slice (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, slicesPerRow); // key 1: ceil(inner / colTile)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad);  // key 1: rows fetched per DMA burst
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);     // key 2: elements reduced per step
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisSumKeepdimCustom, AxisSumKeepdimTilingData)
}
#endif
