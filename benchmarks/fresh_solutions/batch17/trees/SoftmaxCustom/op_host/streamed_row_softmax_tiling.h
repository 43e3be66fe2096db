#ifndef STREAMED_ROW_SOFTMAX_TILING_H
#define STREAMED_ROW_SOFTMAX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StreamedRowSoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of all leading dims
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // length of the softmax axis (last dim)
  TILING_DATA_FIELD_DEF(uint32_t, chunk);         // elements per UB chunk (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);     // first `extraRows` cores take one more row
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(StreamedRowSoftmax, StreamedRowSoftmaxTilingData)
}  // namespace optiling
#endif
