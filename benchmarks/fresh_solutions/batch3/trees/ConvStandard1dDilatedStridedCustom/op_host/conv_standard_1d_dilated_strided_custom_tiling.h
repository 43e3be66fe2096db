#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvStandard1dDilatedStridedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, lenIn);
  TILING_DATA_FIELD_DEF(uint32_t, lenOut);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, lTile);       // output positions per im2col tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);   // W(cout, cin*k) @ col(cin*k, lTile)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard1dDilatedStridedCustom, ConvStandard1dDilatedStridedCustomTilingData)
}
