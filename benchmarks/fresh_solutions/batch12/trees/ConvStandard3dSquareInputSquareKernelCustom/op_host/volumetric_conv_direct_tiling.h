/**
 * Tiling data for VolumetricConvDirect (direct 3D convolution, cubic kernel).
 */
#ifndef VOLUMETRIC_CONV_DIRECT_TILING_H
#define VOLUMETRIC_CONV_DIRECT_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumetricConvDirectTilingData)
  // input geometry (NCDHW)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inDepth);
  TILING_DATA_FIELD_DEF(uint32_t, inHeight);
  TILING_DATA_FIELD_DEF(uint32_t, inWidth);
  // output geometry
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outDepth);
  TILING_DATA_FIELD_DEF(uint32_t, outHeight);
  TILING_DATA_FIELD_DEF(uint32_t, outWidth);
  // convolution hyper parameters (same value on every spatial axis)
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  // UB partition
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);      // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, outWidthAlign); // outWidth rounded up to 16 elements
  TILING_DATA_FIELD_DEF(uint32_t, inWidthAlign);  // inWidth rounded up to 16 elements
  // multi-core split over output rows (n, od, oh)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemainder);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumetricConvDirect, VolumetricConvDirectTilingData)
}  // namespace optiling

#endif  // VOLUMETRIC_CONV_DIRECT_TILING_H
