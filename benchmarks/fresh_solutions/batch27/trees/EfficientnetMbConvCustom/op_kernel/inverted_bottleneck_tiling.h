#ifndef INVERTED_BOTTLENECK_TILING_H
#define INVERTED_BOTTLENECK_TILING_H

#include <cstdint>

// Expand 1x1 -> BN -> ReLU6 -> depthwise kxk (stride s) -> BN -> ReLU6 -> project 1x1 -> BN
// (+ identity when hasResidual). BatchNorm uses batch statistics (training-mode forward,
// biased variance). All tensors NCHW float32.
//
// User workspace layout (offsets in floats):
//   expandOff : pre-BN expanded activations  [batch, hidChannels, inH*inW]
//   dwOff     : pre-BN depthwise activations [batch, hidChannels, outH*outW]
//   stat1Off  : per-core partial (sum, sumsq) of the expanded channels,  coreCount x statPitch1
//   stat2Off  : per-core partial (sum, sumsq) of the depthwise channels, coreCount x statPitch2
//   stat3Off  : per-core partial (sum, sumsq) of the projected channels, coreCount x statPitch3
// UB sizing used for 112 -> 672 -> 192 channels, 224x224 input, k5 s2:
//   expTile 128, expChanChunk 32, dwStripRows 8, dwRowPitch 232, projTile 64,
//   projChanChunk 32, normChunk 4096 (every phase stays below ~160 KB of UB).
struct InvertedBottleneckTiling {
    uint32_t batch;
    uint32_t inChannels;
    uint32_t hidChannels;
    uint32_t outChannels;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t ksize;
    uint32_t stride;
    uint32_t pad;
    uint32_t hasResidual;
    float eps;

    uint32_t expTile;         // pixels per expand work unit, multiple of 64
    uint32_t expChanChunk;    // expanded channels per resident weight chunk
    uint32_t dwStripRows;     // depthwise output rows per staged strip
    uint32_t dwRowPitch;      // UB pitch of a staged input row: align8(inW) + 8 (zero lanes)
    uint32_t projTile;        // pixels per projection work unit, multiple of 64
    uint32_t projChanChunk;   // hidden channels per staged block in the projection
    uint32_t normChunk;       // elements per round trip in the final normalisation

    uint64_t expandOff;
    uint64_t dwOff;
    uint64_t stat1Off;
    uint64_t stat2Off;
    uint64_t stat3Off;
    uint32_t statPitch1;      // >= 2*align8(hidChannels); sums at [0,C), sumsq at [align8(C), align8(C)+C)
    uint32_t statPitch2;      // >= 2*align8(hidChannels)
    uint32_t statPitch3;      // >= 2*align8(outChannels)
};

#endif // INVERTED_BOTTLENECK_TILING_H
