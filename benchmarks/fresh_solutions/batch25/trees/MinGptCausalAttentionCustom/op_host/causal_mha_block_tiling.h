/**
 * Tiling data for CausalMhaBlock.
 *
 * The operator runs in three phases inside one kernel launch:
 *   1. q/k/v projection into a head-major layout (one unit = batch, part, head)
 *   2. masked attention per (batch, head, query block)
 *   3. output projection             (rows split across cores)
 * Each phase owns its own cube tiling.
 */
#ifndef CAUSAL_MHA_BLOCK_TILING_H
#define CAUSAL_MHA_BLOCK_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CausalMhaBlockTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // B
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);       // T
  TILING_DATA_FIELD_DEF(uint32_t, embed);        // C
  TILING_DATA_FIELD_DEF(uint32_t, numHeads);     // nh
  TILING_DATA_FIELD_DEF(uint32_t, headDim);      // C / nh
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows of (B*T) per core in the projection phases
  TILING_DATA_FIELD_DEF(uint32_t, qBlock);       // query rows handled per attention step
  TILING_DATA_FIELD_DEF(uint32_t, keyStride);    // padded width of the score scratch (>= T, multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(float, scale);           // 1 / sqrt(headDim)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qkvMm);    // [T, C] x [hs, C]^T per (b, part, head)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, scoreMm);  // [qBlock, hs] x [T, hs]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ctxMm);    // [qBlock, T] x [T, hs]
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projMm);   // [rows, C] x [C, C]^T
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CausalMhaBlock, CausalMhaBlockTilingData)
}  // namespace optiling

#endif  // CAUSAL_MHA_BLOCK_TILING_H
