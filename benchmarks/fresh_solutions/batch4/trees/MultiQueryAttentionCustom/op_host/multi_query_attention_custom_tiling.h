// tiling data: shared-KV attention, query rows blocked, two cube tilings
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MultiQueryAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, blkRows);
  TILING_DATA_FIELD_DEF(uint32_t, blksPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, workers);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qk);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pv);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MultiQueryAttentionCustom, MultiQueryAttentionCustomTilingData)
}
