#ifndef MULTI_LAYER_GATED_RECURRENT_TILING_H
#define MULTI_LAYER_GATED_RECURRENT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GatedRecurrentTiling)
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);       // T
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // B
  TILING_DATA_FIELD_DEF(uint32_t, inputSize);    // I (features of layer 0 input)
  TILING_DATA_FIELD_DEF(uint32_t, hiddenSize);   // H
  TILING_DATA_FIELD_DEF(uint32_t, numLayers);    // L
  TILING_DATA_FIELD_DEF(uint32_t, sliceLen);     // hidden units owned by one core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(uint32_t, maxFeat);      // max(I, H), size of the dot-product scratch row
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MultiLayerGatedRecurrent, GatedRecurrentTiling)
}  // namespace optiling
#endif
