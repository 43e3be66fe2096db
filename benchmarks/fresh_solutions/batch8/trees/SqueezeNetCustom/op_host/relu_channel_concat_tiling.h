#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReluChannelConcatTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, firstLen);     // C1 * H * W  (one sample of `first`)
  TILING_DATA_FIELD_DEF(uint32_t, secondLen);    // C2 * H * W  (one sample of `second`)
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per chunk
  TILING_DATA_FIELD_DEF(uint32_t, firstChunks);  // ceil(firstLen / tileLen)
  TILING_DATA_FIELD_DEF(uint32_t, secondChunks); // ceil(secondLen / tileLen)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReluChannelConcatCustom, ReluChannelConcatTilingData)
}
