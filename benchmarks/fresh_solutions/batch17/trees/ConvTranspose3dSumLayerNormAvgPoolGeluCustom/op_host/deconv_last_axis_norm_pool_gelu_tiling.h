/**
 * Tiling data for DeconvLastAxisNormPoolGelu.
 * Geometry of the transposed 3D convolution, the last-axis normalisation and the
 * non-overlapping average pool, plus the work split over AI cores.
 */
#ifndef DECONV_LAST_AXIS_NORM_POOL_GELU_TILING_H
#define DECONV_LAST_AXIS_NORM_POOL_GELU_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeconvLastAxisNormPoolGeluTilingData)
  // input volume
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  // filter / stride / padding
  TILING_DATA_FIELD_DEF(uint32_t, kD);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, strideD);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, strideW);
  TILING_DATA_FIELD_DEF(uint32_t, padD);
  TILING_DATA_FIELD_DEF(uint32_t, padH);
  TILING_DATA_FIELD_DEF(uint32_t, padW);
  // transposed-conv output volume
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  // pooling window and pooled volume
  TILING_DATA_FIELD_DEF(uint32_t, poolD);
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(uint32_t, pooledD);
  TILING_DATA_FIELD_DEF(uint32_t, pooledH);
  TILING_DATA_FIELD_DEF(uint32_t, pooledW);
  TILING_DATA_FIELD_DEF(uint32_t, pooledWAlign);
  // elementwise constants
  TILING_DATA_FIELD_DEF(float, addValue);
  TILING_DATA_FIELD_DEF(float, epsilon);
  // work split: one task = one (n, pooled d, pooled h) output line for all channels
  TILING_DATA_FIELD_DEF(uint32_t, channelBlock);
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailTasks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeconvLastAxisNormPoolGelu, DeconvLastAxisNormPoolGeluTilingData)
}  // namespace optiling

#endif  // DECONV_LAST_AXIS_NORM_POOL_GELU_TILING_H
