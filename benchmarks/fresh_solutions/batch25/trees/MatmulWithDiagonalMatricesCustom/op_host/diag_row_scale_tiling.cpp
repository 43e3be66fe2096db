#include "diag_row_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DiagRowScaleTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    auto dShape = context->GetInputShape(0)->GetStorageShape();  // [N]
    auto bShape = context->GetInputShape(1)->GetStorageShape();  // [N, M]
    if (dShape.GetDimNum() != 1 || bShape.GetDimNum() != 2 || dShape.GetDim(0) != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(bShape.GetDim(0));
    uint32_t cols = static_cast<uint32_t>(bShape.GetDim(1));
    uint32_t esz = context->GetInputDesc(1)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t align = 32 / esz;

    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) {
        cores = rows == 0 ? 1 : rows;
    }

    // 2 in + 2 out buffers of the same size, keep a little headroom
    uint32_t tile = static_cast<uint32_t>((ub - 16 * 1024) / (4 * esz));
    tile = tile / align * align;
    uint32_t colsAligned = (cols + align - 1) / align * align;
    uint32_t colTile = colsAligned < tile ? colsAligned : tile;
    uint32_t rowsPerTile = colsAligned <= tile ? tile / colsAligned : 1;
    if (rowsPerTile > 64) {
        rowsPerTile = 64;  // bounds the scalar loop per tile
    }

    DiagRowScaleTilingData td;
    td.set_rows(rows);
    td.set_cols(cols);
    td.set_rowsPerCore(rows / cores);
    td.set_extraRows(rows % cores);
    td.set_colTile(colTile);
    td.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
