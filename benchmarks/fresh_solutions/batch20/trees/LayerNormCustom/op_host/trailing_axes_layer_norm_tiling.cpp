// Tiling for TrailingAxesLayerNorm.
// x is viewed as [rowNum, rowLen], rowLen = number of elements of gamma.
// Rows are spread over the vector cores; each row is streamed in tiles twice
// (statistics pass, then normalisation pass), so any row length is supported.
#include "trailing_axes_layer_norm_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_TILE = 8192;
constexpr uint32_t UB_SPARE = 4 * 1024;
}

ge::graphStatus TrailingAxesLayerNormTiling(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &gs = context->GetInputShape(1)->GetStorageShape();
    const size_t xr = xs.GetDimNum();
    const size_t gr = gs.GetDimNum();
    if (gr == 0 || gr > xr) {
        return ge::GRAPH_FAILED;
    }
    // gamma must match the trailing dims of x
    for (size_t i = 0; i < gr; ++i) {
        if (gs.GetDim(i) != xs.GetDim(xr - gr + i)) {
            return ge::GRAPH_FAILED;
        }
    }
    const uint64_t rowLen = gs.GetShapeSize();
    const uint64_t rowNum = xs.GetShapeSize() / rowLen;
    const float eps = *context->GetAttrs()->GetAttrPointer<float>(0);

    const uint32_t elem = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // per element: x, gamma, beta, y queues (double buffered, dtype T) + 3 fp32 scratch + reduce work
    const uint64_t perElem = 4ULL * 2 * elem + 3ULL * 4 + 1;   // +1: reduction work area (tile / 8 fp32)
    uint64_t tile = (ub - UB_SPARE) / perElem;
    tile = tile / 64 * 64;
    if (tile > MAX_TILE) {
        tile = MAX_TILE;
    }
    if (tile > rowLen) {
        tile = (rowLen + 15) / 16 * 16;
    }

    uint32_t cores = plat.GetCoreNumAiv();
    if (rowNum < cores) {
        cores = (uint32_t)(rowNum == 0 ? 1 : rowNum);
    }

    TrailingAxesLayerNormTilingData td;
    td.set_rowLen(rowLen);
    td.set_rowNum((uint32_t)rowNum);
    td.set_rowsPerCore((uint32_t)(rowNum / cores));
    td.set_bigCores((uint32_t)(rowNum % cores));
    td.set_tileLen((uint32_t)tile);
    td.set_eps(eps);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
