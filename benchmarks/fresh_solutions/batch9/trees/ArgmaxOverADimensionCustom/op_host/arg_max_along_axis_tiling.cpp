// Tiling key 1: reduced axis is not the innermost one -> column-parallel running max/argmax.
// Tiling key 2: reduced axis is the innermost one      -> per-row ReduceMax with index.
#include "arg_max_along_axis_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus ArgMaxAlongAxisTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(xs.GetDimNum());
    const int64_t *dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t dim = dimAttr ? *dimAttr : 0;
    if (dim < 0) {
        dim += rank;
    }
    if (rank == 0 || dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) {
        outer *= xs.GetDim(i);
    }
    for (int64_t i = dim + 1; i < rank; ++i) {
        inner *= xs.GetDim(i);
    }
    uint32_t reduce = static_cast<uint32_t>(xs.GetDim(dim));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = plat.GetCoreNumAiv();

    ArgMaxAlongAxisTiling td;
    td.set_outer(outer);
    td.set_reduce(reduce);
    td.set_inner(static_cast<uint32_t>(inner));
    uint64_t units;
    if (inner > 1) {
        uint32_t colTile = static_cast<uint32_t>((inner + 127) / 128 * 128);
        if (colTile > 4096) {
            colTile = 4096;
        }
        uint32_t colTiles = static_cast<uint32_t>((inner + colTile - 1) / colTile);
        td.set_colTile(colTile);
        td.set_colTiles(colTiles);
        units = outer * colTiles;
        context->SetTilingKey(1);
    } else {
        uint32_t redTile = (reduce + 127) / 128 * 128;
        if (redTile > 8192) {
            redTile = 8192;
        }
        td.set_redTile(redTile);
        units = outer;
        context->SetTilingKey(2);
    }
    uint64_t per = (units + cores - 1) / cores;
    td.set_unitsPerCore(per);

    context->SetBlockDim(static_cast<uint32_t>((units + per - 1) / per));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
