#include "locate_min_along_axis_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus LocateMinAlongAxisTiling(gert::TilingContext *ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    const gert::Shape &s = ctx->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(s.GetDimNum());
    int64_t axis = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    axis = axis < 0 ? axis + rank : axis;
    if (axis < 0 || axis >= rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t pre = 1, post = 1;
    for (int64_t i = 0; i < axis; ++i) pre *= s.GetDim(i);
    for (int64_t i = axis + 1; i < rank; ++i) post *= s.GetDim(i);
    uint64_t len = s.GetDim(axis);
    // indices are tracked in float32 inside the kernel: exact up to 2^24
    if (len > (1ULL << 24)) {
        return ge::GRAPH_FAILED;
    }

    uint32_t inBytes = ge::GetSizeByDataType(ctx->GetInputDesc(0)->GetDataType());
    LocateMinAlongAxisTilingData td;
    td.set_pre(pre);
    td.set_len(len);
    td.set_post(post);

    uint64_t avail = ub - 16 * 1024;
    uint64_t tasks;
    if (post > 1) {
        // 2x input (T) + current(float) + minVal(float) + minIdx(float) + idx int32 + out int64 x2 + mask
        uint64_t perElem = 2 * inBytes + 3 * 4 + 4 + 2 * 8 + 1;
        uint64_t tile = avail / perElem / 64 * 64;
        uint64_t postAligned = (post + 63) / 64 * 64;
        tile = tile < postAligned ? tile : postAligned;
        uint32_t tpp = static_cast<uint32_t>((post + tile - 1) / tile);
        td.set_tile(static_cast<uint32_t>(tile));
        td.set_tilesPerPre(tpp);
        tasks = pre * tpp;
        ctx->SetTilingKey(0);
    } else {
        // 2x input chunk (T) + float copy + ReduceMin scratch
        uint64_t perElem = 2 * inBytes + 4 + 4;
        uint64_t chunk = avail / perElem / 64 * 64;
        uint64_t lenAligned = (len + 63) / 64 * 64;
        chunk = chunk < lenAligned ? chunk : lenAligned;
        td.set_tile(static_cast<uint32_t>(chunk));
        td.set_tilesPerPre(0);
        tasks = pre;
        ctx->SetTilingKey(1);
    }
    uint32_t used = static_cast<uint32_t>(tasks < aiv ? (tasks == 0 ? 1 : tasks) : aiv);
    td.set_taskTotal(tasks);
    td.set_coreUsed(used);

    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
