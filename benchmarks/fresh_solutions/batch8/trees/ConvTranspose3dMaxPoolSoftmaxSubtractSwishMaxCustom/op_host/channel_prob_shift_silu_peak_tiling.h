#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelProbShiftSiluPeakTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);        // D*H*W of the pooled volume
  TILING_DATA_FIELD_DEF(uint32_t, tile);           // spatial positions per work item (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);   // work items = batch * tilesPerBatch
  TILING_DATA_FIELD_DEF(uint32_t, extraItems);     // first extraItems cores take one more item
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelProbShiftSiluPeakCustom, ChannelProbShiftSiluPeakTilingData)
}
