#include "reduce_prod_axis_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus ReduceProdAxisTilingFunc(gert::TilingContext *context)
{
    const auto &shape = context->GetInputShape(0)->GetStorageShape();
    const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) dim += rank;
    if (rank == 0 || dim < 0 || dim >= rank) return ge::GRAPH_FAILED;

    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= shape.GetDim(i);
    for (int64_t i = dim + 1; i < rank; ++i) inner *= shape.GetDim(i);
    uint32_t reduceLen = static_cast<uint32_t>(shape.GetDim(dim));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    ReduceProdAxisTilingData td;
    td.set_outer(static_cast<uint32_t>(outer));
    td.set_reduceLen(reduceLen);
    td.set_inner(static_cast<uint32_t>(inner));

    uint64_t units = 0;
    if (inner > 1) {
        // column tile: multiples of 64 floats; rows per DMA limited by UB
        uint32_t colTile = inner >= 2048 ? 2048 : static_cast<uint32_t>((inner + 63) / 64 * 64);
        uint32_t rowsPerLoad = 8;
        // input (x2 buffers, rows x colTile x up to 4B) + float acc + float cast scratch + out
        while (rowsPerLoad > 1 && (2ULL * rowsPerLoad * colTile * 4 + 3ULL * colTile * 4 + 4096) > ub) {
            rowsPerLoad /= 2;
        }
        if (rowsPerLoad > reduceLen) rowsPerLoad = reduceLen == 0 ? 1 : reduceLen;
        td.set_colTile(colTile);
        td.set_rowsPerLoad(rowsPerLoad);
        td.set_chunkLen(0);
        units = outer * ((inner + colTile - 1) / colTile);
        context->SetTilingKey(1);
    } else {
        uint32_t chunk = 8192;
        while (chunk > 64 && chunk / 2 >= reduceLen) chunk /= 2;
        td.set_colTile(0);
        td.set_rowsPerLoad(1);
        td.set_chunkLen(chunk);
        units = outer;
        context->SetTilingKey(2);
    }

    uint32_t used = units < cores ? static_cast<uint32_t>(units) : cores;
    if (used == 0) used = 1;
    td.set_totalUnits(static_cast<uint32_t>(units));
    td.set_unitsPerCore(static_cast<uint32_t>(units / used));
    td.set_extraUnits(static_cast<uint32_t>(units % used));

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
