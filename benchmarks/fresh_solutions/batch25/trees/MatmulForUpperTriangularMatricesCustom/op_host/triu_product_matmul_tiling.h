#ifndef TRIU_PRODUCT_MATMUL_TILING_H
#define TRIU_PRODUCT_MATMUL_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TriuProductMatmulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);            // matrix order
  TILING_DATA_FIELD_DEF(uint32_t, tile);         // square output tile edge
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerSide);
  TILING_DATA_FIELD_DEF(uint32_t, workers);      // vector cores issuing tiles
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm); // tiling of one tile x tile x n product
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TriuProductMatmul, TriuProductMatmulTilingData)
}
#endif
