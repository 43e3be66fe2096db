#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dHardswishReluSoftmaxMeanCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);          // B
  TILING_DATA_FIELD_DEF(uint32_t, channels);       // C
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);      // GroupNorm 的组数
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);     // 每组通道数 C / G
  TILING_DATA_FIELD_DEF(uint32_t, spatial);        // D*H*W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);        // 单次搬入 UB 的元素个数
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);     // B*G，一个任务处理一个 (b, g)
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);   // 每核基本任务数
  TILING_DATA_FIELD_DEF(uint32_t, tailTasks);      // 前 tailTasks 个核多处理一个任务
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dHardswishReluSoftmaxMeanCustom, Conv3dHardswishReluSoftmaxMeanCustomTilingData)
}
