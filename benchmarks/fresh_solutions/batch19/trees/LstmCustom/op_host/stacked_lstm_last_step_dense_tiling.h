#ifndef STACKED_LSTM_LAST_STEP_DENSE_TILING_H
#define STACKED_LSTM_LAST_STEP_DENSE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StackedLstmLastStepDenseTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, steps);
  TILING_DATA_FIELD_DEF(uint32_t, inputSize);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, layers);
  TILING_DATA_FIELD_DEF(uint32_t, outSize);
  TILING_DATA_FIELD_DEF(uint32_t, inPad);        // inputSize rounded to 8
  TILING_DATA_FIELD_DEF(uint32_t, hidPad);       // hidden rounded to 8
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);       // max(inPad, hidPad) + hidPad : [x_t | h_{t-1}]
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore); // hidden units owned by one core
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StackedLstmLastStepDense, StackedLstmLastStepDenseTilingData)
}
#endif
