#ifndef LSTM_CELL_UPDATE_CUSTOM_TILING_H
#define LSTM_CELL_UPDATE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// One LSTM time step, element-wise part only:
//   gates = [i | f | g | o]  (batch, 4 * hidden), pre-activation
//   c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
//   h' = sigmoid(o) * tanh(c')
BEGIN_TILING_DATA_DEF(LstmCellUpdateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // rows of the state
  TILING_DATA_FIELD_DEF(uint32_t, hidden);       // hidden size H
  TILING_DATA_FIELD_DEF(uint32_t, hiddenAlign);  // H rounded up to 8 floats (32B)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows handled by the leading cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);   // first bigCoreNum cores take one extra row
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LstmCellUpdateCustom, LstmCellUpdateTilingData)
}
#endif
