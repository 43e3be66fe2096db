#ifndef LSTM_LAST_STEP_DENSE_TILING_H
#define LSTM_LAST_STEP_DENSE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LstmLastStepDenseTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, inputSize);
  TILING_DATA_FIELD_DEF(uint32_t, hiddenSize);
  TILING_DATA_FIELD_DEF(uint32_t, numLayers);
  TILING_DATA_FIELD_DEF(uint32_t, outputSize);
  TILING_DATA_FIELD_DEF(uint32_t, weightChunkElems); // UB elements of one streamed weight slab
  TILING_DATA_FIELD_DEF(uint32_t, maxInDim);         // max(inputSize, hiddenSize), padded
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LstmLastStepDense, LstmLastStepDenseTilingData)

ge::graphStatus LstmLastStepDenseTiling(gert::TilingContext *context);
} // namespace optiling
#endif
