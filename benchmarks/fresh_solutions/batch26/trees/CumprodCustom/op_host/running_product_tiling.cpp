#include "running_product_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t TK_LAST_AXIS = 1;   // scan along contiguous memory
constexpr uint64_t TK_OUTER_AXIS = 2;  // scan across strided slices
constexpr uint32_t MAX_TILE = 8192;
}

ge::graphStatus RunningProductTilingFunc(gert::TilingContext *ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape &s = ctx->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(s.GetDimNum());
    int64_t axis = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (axis < 0) axis += rank;
    if (rank == 0) {
        axis = 0;
    } else if (axis < 0 || axis >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1, inner = 1, len = rank == 0 ? 1 : s.GetDim(axis);
    for (int64_t i = 0; i < axis; ++i) outer *= s.GetDim(i);
    for (int64_t i = axis + 1; i < rank; ++i) inner *= s.GetDim(i);

    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    RunningProductTilingData td;
    uint64_t jobs = 0;
    uint32_t tile = MAX_TILE;
    if (inner == 1) {
        ctx->SetTilingKey(TK_LAST_AXIS);
        if (tile > len) tile = static_cast<uint32_t>((len + 15) / 16 * 16);
        jobs = outer;  // one row per job
        td.set_tilesPerInner(1);
    } else {
        ctx->SetTilingKey(TK_OUTER_AXIS);
        if (tile > inner) tile = static_cast<uint32_t>((inner + 15) / 16 * 16);
        uint32_t tpi = static_cast<uint32_t>((inner + tile - 1) / tile);
        td.set_tilesPerInner(tpi);
        jobs = outer * tpi;  // (outer index, inner tile) pairs
    }
    uint32_t per = static_cast<uint32_t>((jobs + cores - 1) / cores);
    if (per == 0) per = 1;

    td.set_outer(static_cast<uint32_t>(outer));
    td.set_scanLen(static_cast<uint32_t>(len));
    td.set_inner(static_cast<uint32_t>(inner));
    td.set_tileLen(tile);
    td.set_jobsPerCore(per);
    td.set_jobCount(static_cast<uint32_t>(jobs));

    ctx->SetBlockDim(static_cast<uint32_t>((jobs + per - 1) / per));
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
