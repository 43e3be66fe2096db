// Tiling for SubtractTrailingBias: rows of x are spread over cores, columns streamed in tiles.
#include "subtract_trailing_bias_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t COL_TILE_BYTES = 24 * 1024;

ge::graphStatus SubtractTrailingBiasTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &bs = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(xs.GetDim(xs.GetDimNum() - 1));
    if (static_cast<uint32_t>(bs.GetShapeSize()) != cols) {
        return ge::GRAPH_FAILED;   // bias must match the trailing dimension
    }
    uint32_t rows = static_cast<uint32_t>(xs.GetShapeSize() / (cols == 0 ? 1 : cols));

    uint32_t esz = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t colTile = COL_TILE_BYTES / esz;
    uint32_t colsAligned = (cols * esz + 31) / 32 * 32 / esz;
    colTile = colsAligned < colTile ? colsAligned : colTile;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = rows < cores ? (rows > 0 ? rows : 1) : cores;

    SubtractTrailingBiasTilingData td;
    td.set_rows(rows);
    td.set_cols(cols);
    td.set_colTile(colTile);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsLeft(rows % cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
