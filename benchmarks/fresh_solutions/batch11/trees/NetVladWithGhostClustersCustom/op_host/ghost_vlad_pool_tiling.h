#ifndef GHOST_VLAD_POOL_TILING_H
#define GHOST_VLAD_POOL_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GhostVladPoolTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);       // B
  TILING_DATA_FIELD_DEF(uint32_t, numSamples);  // N descriptors per item
  TILING_DATA_FIELD_DEF(uint32_t, featDim);     // D
  TILING_DATA_FIELD_DEF(uint32_t, allClusters); // K + G
  TILING_DATA_FIELD_DEF(uint32_t, allPitch);    // (K + G) aligned to 8
  TILING_DATA_FIELD_DEF(uint32_t, realClusters);// K
  TILING_DATA_FIELD_DEF(uint32_t, realPitch);   // K aligned to 8
  TILING_DATA_FIELD_DEF(uint32_t, rowTile);     // logits rows per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, vecCoreNum);
  TILING_DATA_FIELD_DEF(uint32_t, cubeCoreNum);
  TILING_DATA_FIELD_DEF(float, bnEps);
  TILING_DATA_FIELD_DEF(float, normEps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, logitTiling);   // [B*N, D] x [D, K+G]
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, aggTiling);     // per item: X^T [D, N] x A [N, K]
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GhostVladPool, GhostVladPoolTilingData)

ge::graphStatus GhostVladPoolTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
