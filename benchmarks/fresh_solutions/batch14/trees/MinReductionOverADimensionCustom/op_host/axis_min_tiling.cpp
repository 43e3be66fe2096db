#include "axis_min_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t KEY_COLUMN = 1;   // reduced axis is not the last one: element-wise Min over rows
constexpr uint32_t KEY_LAST = 2;     // reduced axis is the last one: ReduceMin per row
constexpr uint32_t UB_BUDGET = 160 * 1024;
}

ge::graphStatus AxisMinTiling(gert::TilingContext *context)
{
    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
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
    uint64_t red = shape.GetDim(dim);

    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t alignElems = 32 / typeSize;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = platform.GetCoreNumAiv();

    AxisMinTilingData td;
    td.set_outer(outer);
    td.set_reduceLen(red);
    td.set_inner(inner);

    uint64_t units;
    if (inner == 1) {
        // every output element is an independent row reduction
        uint32_t chunk = UB_BUDGET / 4 / typeSize / alignElems * alignElems;   // 2 input buffers + work
        if (chunk > red) {
            chunk = static_cast<uint32_t>((red + alignElems - 1) / alignElems * alignElems);
        }
        td.set_rowChunk(chunk);
        td.set_colTile(0);
        td.set_colTilesPerRow(0);
        units = outer;
        context->SetTilingKey(KEY_LAST);
    } else {
        // slice the inner extent; a unit is (outer index, column slice) and walks the whole reduce axis
        uint32_t tile = UB_BUDGET / 4 / typeSize / alignElems * alignElems;  // 2 in + acc + out
        if (tile > inner) {
            tile = static_cast<uint32_t>((inner + alignElems - 1) / alignElems * alignElems);
        }
        uint32_t perRow = static_cast<uint32_t>((inner + tile - 1) / tile);
        // make sure all cores get work when outer is small
        while (outer * perRow < cores && tile > 8 * alignElems) {
            tile = (tile / 2 + alignElems - 1) / alignElems * alignElems;
            perRow = static_cast<uint32_t>((inner + tile - 1) / tile);
        }
        td.set_colTile(tile);
        td.set_colTilesPerRow(perRow);
        td.set_rowChunk(0);
        units = outer * perRow;
        context->SetTilingKey(KEY_COLUMN);
    }

    uint64_t used = units < cores ? units : cores;
    if (used == 0) used = 1;
    td.set_totalUnits(units);
    td.set_unitsPerCore((units + used - 1) / used);
    context->SetBlockDim(static_cast<uint32_t>(used));

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsp = context->GetWorkspaceSizes(1);
    wsp[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
