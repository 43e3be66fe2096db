#include "row_scatter_assign_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

ge::graphStatus RowScatterAssignTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &var = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ind = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape &upd = context->GetInputShape(2)->GetStorageShape();
    if (var.GetDimNum() < 1 || ind.GetDimNum() != 1) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = var.GetDim(0);
    uint64_t rowLen = 1;
    for (size_t i = 1; i < var.GetDimNum(); ++i) {
        rowLen *= var.GetDim(i);
    }
    uint64_t k = ind.GetDim(0);
    if (static_cast<uint64_t>(upd.GetShapeSize()) != k * rowLen) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = plat.GetCoreNumAiv();

    // every core owns a contiguous band of output rows; it copies the band and then applies
    // the updates that land inside it, so no core ever writes another core's rows
    uint64_t perCore = (rows + coreNum - 1) / coreNum;
    if (perCore == 0) {
        perCore = 1;
    }
    uint32_t used = static_cast<uint32_t>((rows + perCore - 1) / perCore);
    if (used == 0) {
        used = 1;
    }

    auto dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemSize = (dt == ge::DT_FLOAT16) ? 2 : 4;
    // double-buffered copy tile takes half the UB, the index chunk a quarter
    uint32_t copyTile = static_cast<uint32_t>((ub / 2 / 2) / elemSize) / 32 * 32;
    if (copyTile > 16384) {
        copyTile = 16384;
    }
    uint32_t idxTile = 2048;

    RowScatterAssignTilingData td;
    td.set_numRows(rows);
    td.set_rowLen(rowLen);
    td.set_numIndices(k);
    td.set_rowsPerCore(perCore);
    td.set_copyTile(copyTile);
    td.set_idxTile(idxTile);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
