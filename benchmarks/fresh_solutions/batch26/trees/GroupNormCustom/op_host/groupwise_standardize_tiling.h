#ifndef GROUPWISE_STANDARDIZE_TILING_H
#define GROUPWISE_STANDARDIZE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupwiseStandardizeTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numGroups);
    TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
    TILING_DATA_FIELD_DEF(uint32_t, channels);
    TILING_DATA_FIELD_DEF(uint64_t, spatial);       // product of the trailing dims
    TILING_DATA_FIELD_DEF(uint32_t, totalItems);    // batch * numGroups
    TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, extraItems);
    TILING_DATA_FIELD_DEF(uint32_t, tileLen);
    TILING_DATA_FIELD_DEF(float, eps);
    TILING_DATA_FIELD_DEF(float, invCount);         // 1 / (chPerGroup * spatial)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(GroupwiseStandardize, GroupwiseStandardizeTilingData)
}
#endif
