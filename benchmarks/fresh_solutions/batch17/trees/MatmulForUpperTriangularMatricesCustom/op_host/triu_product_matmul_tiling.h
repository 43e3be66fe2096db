#ifndef TRIU_PRODUCT_MATMUL_TILING_H
#define TRIU_PRODUCT_MATMUL_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
// Square output tiles; only tiles on or above the diagonal are multiplied.
BEGIN_TILING_DATA_DEF(TriuProductMatmulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, dim);        // N of the N x N operands
  TILING_DATA_FIELD_DEF(uint32_t, tile);       // edge of an output tile (== baseM == baseN)
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);   // ceil(N / tile)
  TILING_DATA_FIELD_DEF(uint32_t, upperTiles); // tiles with row <= col
  TILING_DATA_FIELD_DEF(uint32_t, lowerTiles); // tiles strictly below the diagonal (zero fill)
  TILING_DATA_FIELD_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TriuProductMatmul, TriuProductMatmulTilingData)
}  // namespace optiling

#endif
