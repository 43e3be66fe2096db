#ifndef CONV_POOL_TANH_AFFINE_CUSTOM_TILING_H
#define CONV_POOL_TANH_AFFINE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// y = maxpool_P( tanh(conv(x) + cb) * scale + pb )
// tanh(.)*scale + pb is monotonic per channel, so the pooling is applied to
// the raw convolution first (max if scale >= 0, min otherwise) and the
// element-wise tail runs on P*P times fewer values.
BEGIN_TILING_DATA_DEF(ConvPoolTanhAffineTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, pool);
  TILING_DATA_FIELD_DEF(uint32_t, ph);          // pooled height
  TILING_DATA_FIELD_DEF(uint32_t, pw);          // pooled width
  TILING_DATA_FIELD_DEF(uint32_t, pwPerSeg);    // pooled columns per width segment
  TILING_DATA_FIELD_DEF(uint32_t, colPitch);    // conv columns per UB row (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, segs);
  TILING_DATA_FIELD_DEF(uint32_t, tasks);       // n * ph * segs
  TILING_DATA_FIELD_DEF(uint32_t, useMin);      // 1 when scale < 0
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvPoolTanhAffineCustom, ConvPoolTanhAffineTiling)
}
#endif
