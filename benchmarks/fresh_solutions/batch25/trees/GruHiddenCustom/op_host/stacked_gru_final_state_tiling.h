#ifndef STACKED_GRU_FINAL_STATE_TILING_H
#define STACKED_GRU_FINAL_STATE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StackedGruFinalStateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);       // T
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // B
  TILING_DATA_FIELD_DEF(uint32_t, inputSize);    // I (features of layer 0)
  TILING_DATA_FIELD_DEF(uint32_t, hiddenSize);   // H
  TILING_DATA_FIELD_DEF(uint32_t, numLayers);    // L
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // weight rows (of length 3H) staged per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StackedGruFinalState, StackedGruFinalStateTilingData)
}  // namespace optiling
#endif
