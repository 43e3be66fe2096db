/**
 * Tiling data for DeconvPoolClampGapTanh.
 *
 * The kernel splits the batch across AI cores; inside a core the output
 * channels are processed in blocks of `coBlock` so that the accumulators of
 * `poolK` transposed-conv output rows fit into UB at once.
 */
#ifndef DECONV_POOL_CLAMP_GAP_TANH_TILING_H
#define DECONV_POOL_CLAMP_GAP_TANH_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeconvPoolClampGapTanhTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowAlign);      // outW rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, poolK);
  TILING_DATA_FIELD_DEF(uint32_t, poolS);
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);
  TILING_DATA_FIELD_DEF(uint32_t, samplesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, samplesTail);   // first `samplesTail` cores take one more sample
  TILING_DATA_FIELD_DEF(float, clampLo);
  TILING_DATA_FIELD_DEF(float, clampHi);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeconvPoolClampGapTanh, DeconvPoolClampGapTanhTilingData)
}  // namespace optiling

#endif  // DECONV_POOL_CLAMP_GAP_TANH_TILING_H
