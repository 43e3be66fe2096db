// tiling data for ConvStandard3dAsymmetricInputSquareKernelCustom
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvStandard3dAsymmetricInputSquareKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, ho);
  TILING_DATA_FIELD_DEF(uint32_t, wo);
  TILING_DATA_FIELD_DEF(uint32_t, wChunk);
  TILING_DATA_FIELD_DEF(uint32_t, nChunks);
  TILING_DATA_FIELD_DEF(uint32_t, tasks);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard3dAsymmetricInputSquareKernelCustom,
                           ConvStandard3dAsymmetricInputSquareKernelCustomTilingData)
}
