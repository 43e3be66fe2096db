#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, padH);
  TILING_DATA_FIELD_DEF(uint32_t, padW);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, chunkW);        // output columns handled per work item (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, weightLenAlign);
  TILING_DATA_FIELD_DEF(uint32_t, totalItems);    // n * hout * chunksPerRow
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, itemsRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom,
                           ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustomTilingData)
}
