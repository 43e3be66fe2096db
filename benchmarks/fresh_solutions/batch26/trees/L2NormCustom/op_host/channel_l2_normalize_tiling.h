#ifndef CHANNEL_L2_NORMALIZE_TILING_H
#define CHANNEL_L2_NORMALIZE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelL2NormalizeTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, outer);       // product of dims before axis
    TILING_DATA_FIELD_DEF(uint32_t, axisLen);     // reduced dim
    TILING_DATA_FIELD_DEF(uint32_t, inner);       // product of dims after axis
    TILING_DATA_FIELD_DEF(uint32_t, chunk);       // UB chunk (elements)
    TILING_DATA_FIELD_DEF(uint32_t, chunksPerSlice);  // inner / chunk, rounded up (key 2)
    TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);    // rows (key 1) or (outer, chunk) pairs (key 2)
    TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
    TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ChannelL2Normalize, ChannelL2NormalizeTilingData)

ge::graphStatus ChannelL2NormalizeTilingFunc(gert::TilingContext *context);
}
#endif
