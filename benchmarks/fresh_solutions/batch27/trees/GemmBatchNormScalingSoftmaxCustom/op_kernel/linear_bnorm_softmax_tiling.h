#ifndef LINEAR_BNORM_SOFTMAX_TILING_H
#define LINEAR_BNORM_SOFTMAX_TILING_H

#include <cstdint>
#include "kernel_tiling/kernel_tiling.h"

// h   = x @ w^T + bias                      x:[rows, depth]  w:[cols, depth]
// h^  = (h - mean_col) / sqrt(var_col + eps) * gamma + beta   (batch statistics, biased var)
// y   = softmax_row(scale * h^)
struct LinearBnormSoftmaxTiling {
    uint32_t rows;        // batch
    uint32_t cols;        // out features
    uint32_t depth;       // in features
    uint32_t colBlock;    // columns per statistics unit (multiple of 8, <= 64)
    uint32_t rowBlock;    // rows staged per DMA while gathering statistics
    uint32_t statUnits;   // ceil(cols / colBlock)
    uint32_t softmaxWork; // float elements of the ReduceMax / ReduceSum work area
    float eps;
    AscendC::tiling::TCubeTiling mm;   // filled by the Matmul host tiling helper
};

#endif // LINEAR_BNORM_SOFTMAX_TILING_H
