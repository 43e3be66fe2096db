#ifndef LSTM_LAYER_SCAN_TILING_H
#define LSTM_LAYER_SCAN_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LstmLayerScanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, inputSize);
  TILING_DATA_FIELD_DEF(uint32_t, hiddenSize);
  TILING_DATA_FIELD_DEF(uint32_t, inputAlign);     // inputSize padded to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, hiddenAlign);    // hiddenSize padded to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad);    // weight rows fetched per DMA
  TILING_DATA_FIELD_DEF(uint32_t, seqPerCore);     // batch items per core
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LstmLayerScan, LstmLayerScanTilingData)

ge::graphStatus LstmLayerScanTiling(gert::TilingContext* context);
}
#endif
