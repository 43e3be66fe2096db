// tiling data for GemmSigmoidSumLogSumExpCustom
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmSigmoidSumLogSumExpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inF);
  TILING_DATA_FIELD_DEF(uint32_t, hidF);
  TILING_DATA_FIELD_DEF(uint32_t, outF);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, vecTile);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm1);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm2);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmSigmoidSumLogSumExpCustom, GemmSigmoidSumLogSumExpCustomTilingData)
}
