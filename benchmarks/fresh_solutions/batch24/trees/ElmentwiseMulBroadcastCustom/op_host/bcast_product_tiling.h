#ifndef BCAST_PRODUCT_TILING_H
#define BCAST_PRODUCT_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
constexpr uint32_t BCAST_MAX_RANK = 8;

BEGIN_TILING_DATA_DEF(BcastProductTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerRank);                      // rank - 1 (dims above the last one)
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, outerDims);               // output sizes of the outer dims
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, aStrides);                // element stride of a per outer dim (0 = broadcast)
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, bStrides);
  TILING_DATA_FIELD_DEF(uint32_t, innerLen);                       // output length of the last dim
  TILING_DATA_FIELD_DEF(uint32_t, aInnerBcast);                    // 1 if a has size 1 in the last dim
  TILING_DATA_FIELD_DEF(uint32_t, bInnerBcast);
  TILING_DATA_FIELD_DEF(uint32_t, rowCount);                       // product of outerDims
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);                        // elements per UB tile of the last dim
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BcastProduct, BcastProductTilingData)

ge::graphStatus BcastProductTilingFunc(gert::TilingContext *context);
}
#endif
