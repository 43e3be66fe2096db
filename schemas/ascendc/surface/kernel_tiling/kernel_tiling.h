// curate AscendC surface: the generated tiling header a kernel includes.
//
// The framework generates this header from the operator's host-side tiling definitions. The
// checker synthesises those structures itself (see annotate/verify/tiling.py) and force-includes
// them; here live the structures the AscendC libraries define for their own tiling.
#ifndef CURATE_KERNEL_TILING_H
#define CURATE_KERNEL_TILING_H

#include "asc_prelude.h"
#include "ascendc/tiling.h"

#define CURATE_TILING_I32(...) int32_t __VA_ARGS__;

// Matmul tiling (the field list of the high-level Matmul interface).
struct TCubeTiling {
    CURATE_TILING_I32(usedCoreNum, M, N, Ka, Kb, singleCoreM, singleCoreN, singleCoreK)
    CURATE_TILING_I32(baseM, baseN, baseK, depthA1, depthB1, stepM, stepN, isBias, transLength)
    CURATE_TILING_I32(iterateOrder, shareMode, shareL1Size, shareL0CSize, shareUbSize)
    CURATE_TILING_I32(batchM, batchN, singleBatchM, singleBatchN, stepKa, stepKb)
    CURATE_TILING_I32(depthAL1CacheUB, depthBL1CacheUB, dbL0A, dbL0B, dbL0C)
    CURATE_TILING_I32(ALayoutInfoB, ALayoutInfoS, ALayoutInfoN, ALayoutInfoG, ALayoutInfoD)
    CURATE_TILING_I32(BLayoutInfoB, BLayoutInfoS, BLayoutInfoN, BLayoutInfoG, BLayoutInfoD)
    CURATE_TILING_I32(CLayoutInfoB, CLayoutInfoS1, CLayoutInfoN, CLayoutInfoG, CLayoutInfoS2)
    CURATE_TILING_I32(BatchNum, mxTypePara)
};
namespace AscendC {
namespace tiling {
using ::TCubeTiling;
}  // namespace tiling
}  // namespace AscendC

#endif  // CURATE_KERNEL_TILING_H
