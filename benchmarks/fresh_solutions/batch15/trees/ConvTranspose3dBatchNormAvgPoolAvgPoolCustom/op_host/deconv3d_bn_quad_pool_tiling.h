/**
 * Tiling data for Deconv3dBnQuadPool.
 *
 * The kernel distributes output channels across AI cores. Because batch
 * statistics are per channel, a core owning a channel sees every value that
 * contributes to that channel's mean/variance and no cross-core sync is needed.
 */
#ifndef DECONV3D_BN_QUAD_POOL_TILING_H
#define DECONV3D_BN_QUAD_POOL_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv3dBnQuadPoolTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);        // transposed conv output depth
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, poolD);       // final depth after the two 2x pools
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, chPerCore);   // channels handled by one core
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv3dBnQuadPool, Deconv3dBnQuadPoolTilingData)

ge::graphStatus Deconv3dBnQuadPoolTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
