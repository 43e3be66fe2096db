#ifndef ELMAN_CELL_STEP_TILING_H
#define ELMAN_CELL_STEP_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
/*
 * x [B, I], h [B, H], wIh [H, I + H], bIh [H], wHo [O, H], bHo [O]
 * The input-to-hidden weight acts on cat(x, h); instead of materialising the concatenation
 * the product is split along K into two GEMMs that read column slices of wIh:
 *   pre = x @ wIh[:, :I]^T + bIh      (gateXTiling)
 *   pre += h @ wIh[:, I:]^T           (gateHTiling, atomic accumulate)
 */
BEGIN_TILING_DATA_DEF(ElmanCellStepTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inputSize);
  TILING_DATA_FIELD_DEF(uint32_t, hiddenSize);
  TILING_DATA_FIELD_DEF(uint32_t, outputSize);
  TILING_DATA_FIELD_DEF(uint32_t, actTile);   // elements per UB tile of the tanh stage
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gateXTiling);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gateHTiling);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ElmanCellStep, ElmanCellStepTilingData)

ge::graphStatus ElmanCellStepTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
