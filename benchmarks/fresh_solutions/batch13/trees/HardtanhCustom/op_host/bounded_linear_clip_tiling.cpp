#include "bounded_linear_clip_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t QUEUE_COUNT = 2;      // in + out
constexpr uint32_t MAX_TILE_BYTES = 32 * 1024;
}

ge::graphStatus BoundedLinearClipTiling(gert::TilingContext *ctx)
{
    uint64_t total = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t typeSize = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t perBlock = 32 / typeSize;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    uint32_t coreNum = plat.GetCoreNumAiv();

    // tile: largest block-aligned size such that 2 queues x double buffer fit (capped at 32 KB)
    uint64_t tileBytes = ubBytes / (BUFFER_NUM * QUEUE_COUNT);
    tileBytes = tileBytes > MAX_TILE_BYTES ? MAX_TILE_BYTES : tileBytes;
    uint32_t tileElems = static_cast<uint32_t>(tileBytes / typeSize) / perBlock * perBlock;

    // split across cores in whole blocks so every core but the last starts aligned
    uint64_t blocks = (total + perBlock - 1) / perBlock;
    uint64_t cores = blocks < coreNum ? blocks : coreNum;
    if (cores == 0) {
        cores = 1;
    }
    uint64_t perCore = (blocks + cores - 1) / cores * perBlock;
    cores = (total + perCore - 1) / perCore;
    if (cores == 0) {
        cores = 1;
    }

    const float *lo = ctx->GetAttrs()->GetAttrPointer<float>(0);
    const float *hi = ctx->GetAttrs()->GetAttrPointer<float>(1);

    BoundedLinearClipTilingData td;
    td.set_totalElems(total);
    td.set_elemsPerCore(perCore);
    td.set_tileElems(tileElems);
    td.set_lower(lo ? *lo : -1.0f);
    td.set_upper(hi ? *hi : 1.0f);

    ctx->SetBlockDim(static_cast<uint32_t>(cores));
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
