#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kD);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, head);        // zero elements in front of an input row in UB
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);      // total UB row length (floats)
  TILING_DATA_FIELD_DEF(uint32_t, owAlign);
  TILING_DATA_FIELD_DEF(uint32_t, wSliceLen);   // cout*kD*kH*kW, aligned to 8
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);   // N * outD * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed3dAsymmetricInputAsymmetricKernelCustom,
                           ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData)
}
