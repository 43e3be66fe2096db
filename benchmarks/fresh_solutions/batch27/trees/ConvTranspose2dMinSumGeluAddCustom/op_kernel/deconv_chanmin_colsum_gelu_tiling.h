#ifndef DECONV_CHANMIN_COLSUM_GELU_TILING_H
#define DECONV_CHANMIN_COLSUM_GELU_TILING_H

#include <cstdint>

// z[n, o, oh, ow] = convBias[o] + sum_{c, kh, kw} x[n, c, ih, iw] * w[c, o, kh, kw]
//                   with oh = ih*stride - pad + kh, ow = iw*stride - pad + kw
// m[n, oh, ow]    = min_o z[n, o, oh, ow]
// s[n, ow]        = sum_oh m[n, oh, ow]
// y[n, 0, 0, ow]  = gelu_erf(s[n, ow]) + shift          (shift: the single extra bias value)
// outH/outW already include output_padding.
struct DeconvChanMinColSumGeluTiling {
    uint32_t batch;
    uint32_t inChannels;
    uint32_t outChannels;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t ksize;
    uint32_t stride;
    uint32_t pad;
    uint32_t bandW;        // output columns per work unit, multiple of 8
    uint32_t bandsPerRow;  // ceil(outW / bandW)
    uint32_t chanChunk;    // output channels whose weights are resident together
    uint32_t segPitch;     // UB pitch of a staged input row segment (multiple of 8);
                           //   >= align8(7 + (bandW + ksize - 2) / stride + 2) + 8, last lane is a zero slot
    uint32_t totalUnits;   // batch * bandsPerRow
    uint32_t unitsPerCore;
    uint32_t erfTmpBytes;  // scratch for the Erf high level API
};

#endif // DECONV_CHANMIN_COLSUM_GELU_TILING_H
