#ifndef STACKED_GRU_FINAL_STATE_TILING_H
#define STACKED_GRU_FINAL_STATE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StackedGruTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inputSize);
  TILING_DATA_FIELD_DEF(uint32_t, hiddenSize);
  TILING_DATA_FIELD_DEF(uint32_t, numLayers);
  TILING_DATA_FIELD_DEF(uint32_t, batchFirst);      // 1: x is (B, T, I)
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);    // hidden units owned by one core
  TILING_DATA_FIELD_DEF(uint32_t, weightResident);  // 1: the core's gate rows stay in UB for a whole layer
  TILING_DATA_FIELD_DEF(uint32_t, maxInPad);        // max(I, H) rounded up to 8 floats
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StackedGruFinalState, StackedGruTilingData)
}
#endif
