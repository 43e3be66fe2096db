#include "row_vector_sub_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t UB_RESERVE = 8 * 1024;
// x (double buffered) + y (double buffered) + bias (single) counted in row-tiles
constexpr uint32_t X_Y_BUFS = 4;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}  // namespace

static ge::graphStatus RowVectorSubTiling(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *bShape = context->GetInputShape(1);
    if (xShape == nullptr || bShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xShape->GetStorageShape();
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

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t elemsPerBlock = BLOCK_BYTES / elemBytes;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    // Split rows among cores. If there are fewer rows than cores just use fewer cores.
    uint32_t usedCores = rows < coreNum ? (rows == 0 ? 1 : rows) : coreNum;
    uint32_t rowsPerCore = rows / usedCores;
    uint32_t bigCoreNum = rows % usedCores;

    // Column tile: keep the whole row if it fits, otherwise chunk it.
    uint32_t budget = static_cast<uint32_t>(ubSize) - UB_RESERVE;
    uint32_t colsAligned = AlignUp(cols, elemsPerBlock);
    uint32_t maxColTile = (budget / (X_Y_BUFS + 1)) / elemBytes / elemsPerBlock * elemsPerBlock;
    uint32_t colTile = colsAligned <= maxColTile ? colsAligned : maxColTile;

    // How many rows of colTile fit at once (bias costs one row-tile).
    uint32_t rowTile = (budget / elemBytes - colTile) / (X_Y_BUFS * colTile);
    if (rowTile == 0) {
        rowTile = 1;
    }
    uint32_t maxRowsOnCore = rowsPerCore + (bigCoreNum > 0 ? 1 : 0);
    if (rowTile > maxRowsOnCore && maxRowsOnCore > 0) {
        rowTile = maxRowsOnCore;
    }

    RowVectorSubTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_bigCoreNum(bigCoreNum);
    tiling.set_colTile(colTile);
    tiling.set_rowTile(rowTile);

    context->SetBlockDim(usedCores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}

ge::graphStatus TilingRowVectorSub(gert::TilingContext *context)
{
    return RowVectorSubTiling(context);
}
}  // namespace optiling
