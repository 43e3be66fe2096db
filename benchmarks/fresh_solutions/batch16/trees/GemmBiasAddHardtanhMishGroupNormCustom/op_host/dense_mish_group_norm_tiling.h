#ifndef DENSE_MISH_GROUP_NORM_TILING_H
#define DENSE_MISH_GROUP_NORM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseMishGroupNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // batch
  TILING_DATA_FIELD_DEF(uint32_t, inFeatures);
  TILING_DATA_FIELD_DEF(uint32_t, outFeatures);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);   // outFeatures / groups
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerPass); // groups normalised per UB pass
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseMishGroupNorm, DenseMishGroupNormTilingData)
}
#endif
