#ifndef DECONV_DEPTH_POOL_SOFTMAX_TILING_H
#define DECONV_DEPTH_POOL_SOFTMAX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeconvDepthPoolSoftmaxTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dOut);
  TILING_DATA_FIELD_DEF(uint32_t, hOut);
  TILING_DATA_FIELD_DEF(uint32_t, wOut);
  TILING_DATA_FIELD_DEF(uint32_t, pitch);        // wOut rounded to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, planeChunk);   // elements per tile in the depth-sum phase
  TILING_DATA_FIELD_DEF(float, scaling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeconvDepthPoolSoftmax, DeconvDepthPoolSoftmaxTiling)
}
#endif
