/**
 * @file linear_row_total_tiling.cpp
 *
 * The op is computed in two stages on the vector cores:
 *   stage 1: v[k] = sum_n W[n,k]   (each core reduces a slice of the K columns),
 *            bsum = sum_n b[n]     (core 0)
 *   stage 2: y[m] = x[m,:] . v + bsum   (each core handles a slice of rows)
 * The vector v and bsum live in the user workspace; the stages are separated by SyncAll.
 */
#include "linear_row_total_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_ELEMS = 8;       // 32 bytes of float
constexpr uint32_t MAX_TILE_K = 4096;     // 16 KB per buffer
constexpr uint32_t REPEAT_ELEMS = 64;     // one 256-byte repeat of float

inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t AlignUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }
} // namespace

ge::graphStatus LinearRowTotalTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *wShape = context->GetInputShape(1);
    if (xShape == nullptr || wShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xShape->GetStorageShape();
    const gert::Shape &ws = wShape->GetStorageShape();
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t m = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t k = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t n = static_cast<uint32_t>(ws.GetDim(0));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    // stage 1 split: K columns, aligned to 8 so every core writes whole 32-byte blocks
    uint32_t colsPerCore = AlignUp(CeilDiv(k, coreNum), ALIGN_ELEMS);
    // stage 2 split: rows of x
    uint32_t rowsPerCore = CeilDiv(m, coreNum);

    uint32_t tileK = AlignUp(k, REPEAT_ELEMS);
    if (tileK > MAX_TILE_K) {
        tileK = MAX_TILE_K;
    }
    uint32_t biasTile = AlignUp(n, REPEAT_ELEMS);
    if (biasTile > MAX_TILE_K) {
        biasTile = MAX_TILE_K;
    }

    LinearRowTotalTilingData tiling;
    tiling.set_batch(m);
    tiling.set_inFeatures(k);
    tiling.set_outFeatures(n);
    tiling.set_colsPerCore(colsPerCore);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tileK(tileK);
    tiling.set_biasTile(biasTile);
    tiling.set_wsOffsetBias(AlignUp(k, ALIGN_ELEMS));

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // user workspace: column sums (K, aligned) + 8 floats for the bias total
    size_t userWs = (AlignUp(k, ALIGN_ELEMS) + ALIGN_ELEMS) * sizeof(float);
    size_t *workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = platform.GetLibApiWorkSpaceSize() + userWs;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
