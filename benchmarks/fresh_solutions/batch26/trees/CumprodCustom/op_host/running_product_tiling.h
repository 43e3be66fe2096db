#ifndef RUNNING_PRODUCT_TILING_H
#define RUNNING_PRODUCT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RunningProductTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, outer);
    TILING_DATA_FIELD_DEF(uint32_t, scanLen);
    TILING_DATA_FIELD_DEF(uint32_t, inner);
    TILING_DATA_FIELD_DEF(uint32_t, tileLen);        // elements per UB tile
    TILING_DATA_FIELD_DEF(uint32_t, tilesPerInner);  // key 2: ceil(inner / tileLen)
    TILING_DATA_FIELD_DEF(uint32_t, jobsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, jobCount);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RunningProduct, RunningProductTilingData)

ge::graphStatus RunningProductTilingFunc(gert::TilingContext *context);
}
#endif
