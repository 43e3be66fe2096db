// tiling data for AlexnetCustom (fused linear + bias + relu used for the classifier)
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AlexnetCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, blocks);
  TILING_DATA_FIELD_DEF(uint32_t, relu);
  TILING_DATA_FIELD_DEF(uint32_t, vecElems);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AlexnetCustom, AlexnetCustomTilingData)
}
