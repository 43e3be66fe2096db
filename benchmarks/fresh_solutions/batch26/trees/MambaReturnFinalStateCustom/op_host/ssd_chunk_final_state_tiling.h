/**
 * Tiling data for SsdChunkFinalState.
 *
 * The work unit is one (batch, head) pair: the core owning a pair walks the
 * whole sequence chunk by chunk and keeps the running (headDim x stateDim)
 * state resident in UB.
 */
#ifndef SSD_CHUNK_FINAL_STATE_TILING_H
#define SSD_CHUNK_FINAL_STATE_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SsdChunkFinalStateTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, seqLen);
    TILING_DATA_FIELD_DEF(uint32_t, numHeads);
    TILING_DATA_FIELD_DEF(uint32_t, headDim);
    TILING_DATA_FIELD_DEF(uint32_t, stateDim);
    TILING_DATA_FIELD_DEF(uint32_t, chunkLen);
    TILING_DATA_FIELD_DEF(uint32_t, numChunks);
    TILING_DATA_FIELD_DEF(uint32_t, totalPairs);    // batch * numHeads
    TILING_DATA_FIELD_DEF(uint32_t, pairsPerCore);  // floor(totalPairs / coreNum)
    TILING_DATA_FIELD_DEF(uint32_t, pairsRemain);   // first pairsRemain cores take one more
    TILING_DATA_FIELD_DEF(uint32_t, hasInitState);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SsdChunkFinalState, SsdChunkFinalStateTilingData)
} // namespace optiling

#endif // SSD_CHUNK_FINAL_STATE_TILING_H
