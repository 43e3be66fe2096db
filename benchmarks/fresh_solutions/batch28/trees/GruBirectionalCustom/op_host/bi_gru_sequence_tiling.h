/**
 * Tiling data for BiGruSequence – multi-layer bidirectional GRU over a full
 * sequence (time-major input).
 */
#ifndef BI_GRU_SEQUENCE_TILING_H
#define BI_GRU_SEQUENCE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BiGruSequenceTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, seqLen);        // T
    TILING_DATA_FIELD_DEF(uint32_t, batch);         // B
    TILING_DATA_FIELD_DEF(uint32_t, inputSize);     // I (layer 0)
    TILING_DATA_FIELD_DEF(uint32_t, hidden);        // H
    TILING_DATA_FIELD_DEF(uint32_t, hiddenAlign);   // Ha = ceil8(H), gate stride in UB / workspace
    TILING_DATA_FIELD_DEF(uint32_t, gateWidth);     // G  = 3 * Ha
    TILING_DATA_FIELD_DEF(uint32_t, numLayers);     // L
    TILING_DATA_FIELD_DEF(uint32_t, hasBias);
    TILING_DATA_FIELD_DEF(uint32_t, inMaxAlign);    // ceil8(max(I, 2H))
    TILING_DATA_FIELD_DEF(uint64_t, flatLayer0);    // flat parameter floats of one direction, layer 0
    TILING_DATA_FIELD_DEF(uint64_t, flatLayerN);    // ... of layers >= 1
    TILING_DATA_FIELD_DEF(uint64_t, packLayer0);    // transposed weight floats of one direction, layer 0
    TILING_DATA_FIELD_DEF(uint64_t, packLayerN);
    TILING_DATA_FIELD_DEF(uint64_t, packTotal);     // floats of transposed weights in workspace
    TILING_DATA_FIELD_DEF(uint64_t, seqBufFloats);  // T * B * 2H, one ping-pong buffer
    TILING_DATA_FIELD_DEF(uint32_t, transRows);     // rows per transpose block (multiple of 8)
    TILING_DATA_FIELD_DEF(uint32_t, streamRows);    // transposed weight rows per DMA in the recurrence
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BiGruSequence, BiGruSequenceTilingData)

ge::graphStatus BiGruSequenceTiling(gert::TilingContext *context);
}  // namespace optiling

#endif
