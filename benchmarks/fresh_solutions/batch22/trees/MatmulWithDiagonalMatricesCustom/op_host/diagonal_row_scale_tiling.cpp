#include "diagonal_row_scale_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DiagonalRowScaleTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t vecCores = plat.GetCoreNumAiv();
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);

    auto dShape = context->GetInputShape(0)->GetStorageShape();
    auto mShape = context->GetInputShape(1)->GetStorageShape();
    if (dShape.GetDimNum() != 1 || mShape.GetDimNum() != 2 || dShape.GetDim(0) != mShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(mShape.GetDim(0));
    uint32_t m = static_cast<uint32_t>(mShape.GetDim(1));
    uint32_t dsize = ge::GetSizeByDataType(context->GetInputDesc(1)->GetDataType());
    uint32_t perBlock = 32 / dsize;

    // in x2 + out x2 buffers
    uint32_t cap = static_cast<uint32_t>((ubBytes - 4096) / 4 / dsize) / perBlock * perBlock;
    uint32_t mAligned = (m + perBlock - 1) / perBlock * perBlock;
    uint32_t colTile = mAligned <= cap ? mAligned : cap;
    uint32_t rowsPerTile = 1;
    if (mAligned <= cap) {
        rowsPerTile = cap / mAligned;
        if (rowsPerTile > 255) {
            rowsPerTile = 255;  // keep within one DataCopy block count comfortably
        }
    }

    uint32_t used = n < vecCores ? (n == 0 ? 1 : n) : vecCores;
    uint32_t base = n / used;
    uint32_t extra = n % used;

    DiagonalRowScaleTilingData td;
    td.set_rows(n);
    td.set_cols(m);
    td.set_rowsPerCore(extra ? base + 1 : base);
    td.set_headCores(extra ? extra : used);
    td.set_colTile(colTile);
    td.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
