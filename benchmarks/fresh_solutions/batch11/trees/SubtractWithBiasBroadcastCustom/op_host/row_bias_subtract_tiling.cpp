#include "row_bias_subtract_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t UB_RESERVE = 8 * 1024;
// x tile (double-buffered) + bias tile + y tile (double-buffered)
constexpr uint32_t UB_SLICES = 5;
}

ge::graphStatus RowBiasSubtractTiling(gert::TilingContext* context)
{
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::StorageShape* bShape = context->GetInputShape(1);
    if (xShape == nullptr || bShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const auto& xs = xShape->GetStorageShape();
    size_t rank = xs.GetDimNum();
    if (rank == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(xs.GetDim(rank - 1));
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        rows *= static_cast<uint32_t>(xs.GetDim(i));
    }
    if (static_cast<uint32_t>(bShape->GetStorageShape().GetShapeSize()) != cols) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    uint32_t typeSize = (context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t alignElems = 32 / typeSize;

    // Largest column tile that fits in UB, rounded down to a 32B multiple.
    uint32_t maxTile = static_cast<uint32_t>((ubSize - UB_RESERVE) / UB_SLICES / typeSize);
    maxTile = maxTile / alignElems * alignElems;
    uint32_t colsAligned = (cols + alignElems - 1) / alignElems * alignElems;
    uint32_t colTile = colsAligned < maxTile ? colsAligned : maxTile;

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    RowBiasSubtractTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rows / usedCores);
    tiling.set_bigCoreNum(rows % usedCores);
    tiling.set_colTile(colTile);

    context->SetBlockDim(usedCores);
    context->SetTilingKey(typeSize == 2 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
