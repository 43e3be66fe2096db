#ifndef SELECT_BROADCAST_TILING_H
#define SELECT_BROADCAST_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t SELECT_BCAST_MAX_DIMS = 8;

// Output is walked as rows of its innermost dimension. Each operand carries
// element strides laid against the output dims (0 where it is broadcast).
BEGIN_TILING_DATA_DEF(SelectBroadcastTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rank);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, outDims);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, condStride);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, xStride);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, yStride);
  TILING_DATA_FIELD_DEF(uint32_t, condDense);   // 1: operand has exactly the output shape
  TILING_DATA_FIELD_DEF(uint32_t, xDense);
  TILING_DATA_FIELD_DEF(uint32_t, yDense);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);      // innermost output extent
  TILING_DATA_FIELD_DEF(uint32_t, colChunk);    // columns handled per tile (<= rowLen)
  TILING_DATA_FIELD_DEF(uint32_t, pitch);       // colChunk rounded to 64 elements
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SelectBroadcast, SelectBroadcastTilingData)

ge::graphStatus SelectBroadcastTilingFunc(gert::TilingContext* context);
}
#endif
