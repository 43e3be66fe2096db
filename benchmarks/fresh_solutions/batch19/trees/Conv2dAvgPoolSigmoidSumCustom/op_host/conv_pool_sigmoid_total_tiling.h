#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvPoolSigmoidTotalTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, convW);        // conv output width
  TILING_DATA_FIELD_DEF(uint32_t, convWPad);     // UB row pitch (x8)
  TILING_DATA_FIELD_DEF(uint32_t, pool);         // pooling window == stride
  TILING_DATA_FIELD_DEF(uint32_t, pooledH);
  TILING_DATA_FIELD_DEF(uint32_t, pooledW);
  TILING_DATA_FIELD_DEF(uint32_t, pooledWPad);
  TILING_DATA_FIELD_DEF(uint32_t, bandPooledRows); // pooled rows computed per band
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);   // (n, cout) pairs per core
  TILING_DATA_FIELD_DEF(uint32_t, batchPerCore);   // batches per core in the final reduction
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvPoolSigmoidTotal, ConvPoolSigmoidTotalTilingData)
}
