#ifndef GROUPED_CHANNEL_NORM_TILING_H
#define GROUPED_CHANNEL_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupedChannelNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numChannels);     // C
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);       // G
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);      // C / G
  TILING_DATA_FIELD_DEF(uint64_t, spatialSize);     // product of trailing dims
  TILING_DATA_FIELD_DEF(uint64_t, groupSize);       // chPerGroup * spatialSize
  TILING_DATA_FIELD_DEF(uint32_t, totalGroups);     // N * G
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerCore);   // base number of groups per core
  TILING_DATA_FIELD_DEF(uint32_t, extraGroups);     // first extraGroups cores take one more
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);         // elements per UB tile
  TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupedChannelNorm, GroupedChannelNormTilingData)
}  // namespace optiling
#endif
