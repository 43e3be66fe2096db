#ifndef TENSOR_OFFSET_ADD_TILING_H
#define TENSOR_OFFSET_ADD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// tiling keys
constexpr uint32_t OFFSET_KEY_SCALAR = 1;  // offset holds a single value
constexpr uint32_t OFFSET_KEY_ROW = 2;     // offset matches the trailing dim

BEGIN_TILING_DATA_DEF(TensorOffsetAddTilingData)
    TILING_DATA_FIELD_DEF(uint64_t, totalElems);
    TILING_DATA_FIELD_DEF(uint64_t, elemsPerCore);  // multiple of rowLen for the row mode
    TILING_DATA_FIELD_DEF(uint32_t, tileElems);     // UB chunk length
    TILING_DATA_FIELD_DEF(uint32_t, rowLen);        // trailing dim, row mode only
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // row mode only
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TensorOffsetAdd, TensorOffsetAddTilingData)

ge::graphStatus TensorOffsetAddTilingFunc(gert::TilingContext *context);
}
#endif
