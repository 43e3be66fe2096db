#ifndef LOWER_TRI_PRODUCT_TILING_H
#define LOWER_TRI_PRODUCT_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LowerTriProductTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);          // matrix order
  TILING_DATA_FIELD_DEF(uint32_t, tile);       // square output tile edge handled by one Matmul call
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerDim);
  TILING_DATA_FIELD_DEF(uint32_t, workers);    // number of vector cores that drive matmuls
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LowerTriProduct, LowerTriProductTilingData)
}  // namespace optiling
#endif
