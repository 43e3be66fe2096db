#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dSwishGroupNormHardSwishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);      // D * H * W of the conv-transpose output
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, totalGroups);  // batch * groups
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, groupsRemain);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dSwishGroupNormHardSwishCustom, ConvTranspose3dSwishGroupNormHardSwishCustomTilingData)
}
