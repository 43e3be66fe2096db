#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
// Fully connected layer y = relu?(x @ W^T + b) on the cube unit.
BEGIN_TILING_DATA_DEF(AlexnetCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, applyRelu);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AlexnetCustom, AlexnetCustomTilingData)
}
