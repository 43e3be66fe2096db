/**
 * Tiling data for DenseSiluShiftGroupNorm.
 * The cube part (x * W^T + b) is described by a TCubeTiling computed for a
 * single core slice of rowsPerCore rows; the vector epilogue (silu, shift,
 * group normalisation) uses the scalar fields below.
 */
#ifndef DENSE_SILU_SHIFT_GROUP_NORM_TILING_H
#define DENSE_SILU_SHIFT_GROUP_NORM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseSiluShiftGroupNormTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);          // M: rows of x
    TILING_DATA_FIELD_DEF(uint32_t, inFeatures);     // K
    TILING_DATA_FIELD_DEF(uint32_t, outFeatures);    // N
    TILING_DATA_FIELD_DEF(uint32_t, numGroups);
    TILING_DATA_FIELD_DEF(uint32_t, groupSize);      // N / numGroups
    TILING_DATA_FIELD_DEF(uint32_t, groupsPerTile);  // groups handled per UB pass
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, usedCores);
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseSiluShiftGroupNorm, DenseSiluShiftGroupNormTilingData)

ge::graphStatus DenseSiluShiftGroupNormTilingFunc(gert::TilingContext *context);
} // namespace optiling

#endif // DENSE_SILU_SHIFT_GROUP_NORM_TILING_H
