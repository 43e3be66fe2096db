#include "index_of_max_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// tiling key = mode * 10 + dtype ; mode 1 = reduce over a strided axis (column mode),
// mode 2 = reduce over the last axis (row mode); dtype 0 = fp32, 1 = fp16
constexpr uint32_t COL_TILE = 2048;     // multiple of 128 so Compare works on 256B groups
constexpr uint32_t ROW_CHUNK = 8192;

ge::graphStatus IndexOfMaxTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    if (dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= shape.GetDim(i);
    for (int64_t i = dim + 1; i < rank; ++i) inner *= shape.GetDim(i);
    const uint32_t reduceLen = static_cast<uint32_t>(shape.GetDim(dim));

    IndexOfMaxTilingData td;
    td.set_outer(static_cast<uint32_t>(outer));
    td.set_reduceLen(reduceLen);
    td.set_inner(static_cast<uint32_t>(inner));

    const bool rowMode = (inner == 1);
    uint32_t units;
    if (rowMode) {
        td.set_tileLen(ROW_CHUNK);
        td.set_tilesPerOuter(1);
        units = static_cast<uint32_t>(outer);
    } else {
        uint32_t tile = inner < COL_TILE ? static_cast<uint32_t>((inner + 127) / 128 * 128) : COL_TILE;
        uint32_t tiles = static_cast<uint32_t>((inner + tile - 1) / tile);
        td.set_tileLen(tile);
        td.set_tilesPerOuter(tiles);
        units = static_cast<uint32_t>(outer) * tiles;
    }
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (units + cores - 1) / cores;
    if (per == 0) per = 1;
    td.set_totalUnits(units);
    td.set_unitsPerCore(per);

    const uint32_t dtypeKey = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0;
    context->SetTilingKey((rowMode ? 20 : 10) + dtypeKey);
    context->SetBlockDim((units + per - 1) / per);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
