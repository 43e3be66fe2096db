// Tiling of BiGruFinalState (stacked bidirectional GRU, returns the last hidden state of every layer/direction).
#ifndef BI_GRU_FINAL_STATE_TILING_H
#define BI_GRU_FINAL_STATE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BiGruFinalStateTiling)
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);       // T
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // B
  TILING_DATA_FIELD_DEF(uint32_t, inputSize);    // I
  TILING_DATA_FIELD_DEF(uint32_t, hidden);       // H
  TILING_DATA_FIELD_DEF(uint32_t, hiddenPad);    // H rounded up to 64 (one vector repeat)
  TILING_DATA_FIELD_DEF(uint32_t, layers);       // L
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore); // hidden units owned by one vector core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, coresPerDir);  // vector cores per direction in the recurrence
  TILING_DATA_FIELD_DEF(uint64_t, wsGiOffset);   // float offsets inside the user workspace
  TILING_DATA_FIELD_DEF(uint64_t, wsSeqOffset);
  TILING_DATA_FIELD_DEF(uint64_t, wsHOffset);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projFirst); // x(T*B, I)  * W_ih^T -> (T*B, 3H)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projRest);  // seq(T*B,2H) * W_ih^T -> (T*B, 3H)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BiGruFinalState, BiGruFinalStateTiling)

ge::graphStatus BiGruFinalStateTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
