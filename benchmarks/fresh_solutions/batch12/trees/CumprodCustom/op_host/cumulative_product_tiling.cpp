/*
 * CumulativeProduct tiling.
 * The scan is always executed as "many independent lanes advanced one step at a time":
 *   mode 0 (inner > 1): lanes are contiguous inner elements, steps are rows of the axis.
 *   mode 1 (inner == 1): lanes are rowGroup different outer rows; a window of the row block is
 *                        transposed in UB with Gather so each step is again one contiguous vector.
 */
#include "cumulative_product_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus CumulativeProductTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = shape.GetDimNum();
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    if (rank == 0 || dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= shape.GetDim(i);
    for (int64_t i = dim + 1; i < rank; ++i) inner *= shape.GetDim(i);
    uint32_t len = static_cast<uint32_t>(shape.GetDim(dim));

    uint32_t esize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    uint32_t perBlock = 32 / esize;

    CumulativeProductTilingData td;
    td.set_outer(static_cast<uint32_t>(outer));
    td.set_len(len);
    td.set_inner(static_cast<uint32_t>(inner));

    uint64_t units = 0;
    if (inner > 1) {
        // ~24 KB per step block, double-buffered in and out
        uint32_t laneTile = static_cast<uint32_t>((inner + perBlock - 1) / perBlock * perBlock);
        uint32_t maxLane = 4096 / esize * 2;   // 8 KB of lanes
        if (laneTile > maxLane) {
            laneTile = maxLane;
        }
        uint32_t laneTiles = static_cast<uint32_t>((inner + laneTile - 1) / laneTile);
        uint32_t stepRows = (24 * 1024) / (laneTile * esize);
        stepRows = stepRows == 0 ? 1 : stepRows;
        stepRows = stepRows > len ? len : stepRows;
        td.set_mode(0);
        td.set_laneTile(laneTile);
        td.set_laneTiles(laneTiles);
        td.set_stepRows(stepRows);
        units = outer * laneTiles;
    } else {
        td.set_mode(1);
        td.set_rowGroup(64);
        td.set_colWindow(64);
        units = (outer + 63) / 64;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores ? cores : 1;
    uint32_t per = static_cast<uint32_t>((units + cores - 1) / cores);
    per = per ? per : 1;
    td.set_units(static_cast<uint32_t>(units));
    td.set_unitsPerCore(per);

    context->SetBlockDim(static_cast<uint32_t>((units + per - 1) / per));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
