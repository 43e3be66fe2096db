#ifndef SELECTIVE_SCAN_FINAL_STATE_TILING_H
#define SELECTIVE_SCAN_FINAL_STATE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SelectiveScanFinalStateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // b
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);       // L
  TILING_DATA_FIELD_DEF(uint32_t, numHeads);     // h
  TILING_DATA_FIELD_DEF(uint32_t, headDim);      // p
  TILING_DATA_FIELD_DEF(uint32_t, stateDim);     // n
  TILING_DATA_FIELD_DEF(uint32_t, stepsPerTile); // time steps staged in UB at once
  TILING_DATA_FIELD_DEF(uint32_t, pairsPerCore); // (batch, head) pairs handled by every core
  TILING_DATA_FIELD_DEF(uint32_t, pairsTail);    // first pairsTail cores take one extra pair
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SelectiveScanFinalState, SelectiveScanFinalStateTilingData)
} // namespace optiling
#endif
