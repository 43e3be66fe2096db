#ifndef DENSE_ACTIVATION_CHAIN_TILING_H
#define DENSE_ACTIVATION_CHAIN_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseActivationChainTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, M);
  TILING_DATA_FIELD_DEF(uint32_t, N);
  TILING_DATA_FIELD_DEF(uint32_t, K);
  TILING_DATA_FIELD_DEF(uint32_t, epiCols);     // columns processed per epilogue step (<= singleCoreN)
  TILING_DATA_FIELD_DEF(float, clipLow);
  TILING_DATA_FIELD_DEF(float, clipHigh);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseActivationChain, DenseActivationChainTilingData)
}
#endif
