#include "exclusive_scan_tiling.h"
#include <algorithm>
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus ExclusiveScanTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    const gert::Shape &s = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(s.GetDimNum());
    const int64_t *dimPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t d = dimPtr ? *dimPtr : 0;
    if (d < 0) d += rank;
    if (d < 0 || d >= rank) return ge::GRAPH_FAILED;

    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < d; ++i) outer *= s.GetDim(i);
    for (int64_t i = d + 1; i < rank; ++i) inner *= s.GetDim(i);
    uint64_t axis = s.GetDim(d);
    uint32_t tsz = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());

    ExclusiveScanTilingData td;
    td.set_outer(outer);
    td.set_axis(axis);
    td.set_inner(inner);
    // 2 in + 2 out (T) + float accumulator + float staging
    uint64_t cap = (ub - 8192) / (4 * tsz + 8) / 64 * 64;
    uint64_t items;
    if (inner > 1) {
        uint64_t tile = std::min<uint64_t>(cap, (inner + 63) / 64 * 64);
        uint32_t tpr = static_cast<uint32_t>((inner + tile - 1) / tile);
        td.set_tile(static_cast<uint32_t>(tile));
        td.set_tilesPerRow(tpr);
        items = outer * tpr;
        context->SetTilingKey(0);
    } else {
        uint64_t tile = std::min<uint64_t>(cap, (axis + 63) / 64 * 64);
        td.set_tile(static_cast<uint32_t>(tile));
        td.set_tilesPerRow(0);
        items = outer;
        context->SetTilingKey(1);
    }
    uint32_t cores = static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(items, aiv)));
    td.set_items(items);
    td.set_cores(cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
