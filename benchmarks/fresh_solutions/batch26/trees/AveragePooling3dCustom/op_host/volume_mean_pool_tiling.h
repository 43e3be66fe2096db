#ifndef VOLUME_MEAN_POOL_TILING_H
#define VOLUME_MEAN_POOL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeMeanPoolTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, planes);   // N * C
    TILING_DATA_FIELD_DEF(uint32_t, inD);
    TILING_DATA_FIELD_DEF(uint32_t, inH);
    TILING_DATA_FIELD_DEF(uint32_t, inW);
    TILING_DATA_FIELD_DEF(uint32_t, outD);
    TILING_DATA_FIELD_DEF(uint32_t, outH);
    TILING_DATA_FIELD_DEF(uint32_t, outW);
    TILING_DATA_FIELD_DEF(uint32_t, kD);
    TILING_DATA_FIELD_DEF(uint32_t, kH);
    TILING_DATA_FIELD_DEF(uint32_t, kW);
    TILING_DATA_FIELD_DEF(uint32_t, sD);
    TILING_DATA_FIELD_DEF(uint32_t, sH);
    TILING_DATA_FIELD_DEF(uint32_t, sW);
    TILING_DATA_FIELD_DEF(uint32_t, pD);
    TILING_DATA_FIELD_DEF(uint32_t, pH);
    TILING_DATA_FIELD_DEF(uint32_t, pW);
    TILING_DATA_FIELD_DEF(uint32_t, inWAligned);   // 8-aligned row stride in UB (+8 zero slots)
    TILING_DATA_FIELD_DEF(uint32_t, outWAligned);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // output rows (plane, od, oh) per core
    TILING_DATA_FIELD_DEF(uint32_t, totalRows);
    TILING_DATA_FIELD_DEF(float, invWindow);       // 1 / (kD*kH*kW)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(VolumeMeanPool, VolumeMeanPoolTilingData)

ge::graphStatus VolumeMeanPoolTilingFunc(gert::TilingContext *context);
}
#endif
