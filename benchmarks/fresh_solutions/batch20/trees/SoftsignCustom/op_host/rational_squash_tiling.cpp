#include "rational_squash_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// in/out queues are double buffered: 4 tiles of T live in UB at the same time,
// plus one scratch tile for |x| + 1.
constexpr uint32_t UB_TILE_SLOTS = 5;
constexpr uint32_t MAX_TILE_BYTES = 16 * 1024;

ge::graphStatus RationalSquashTiling(gert::TilingContext *context)
{
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    const uint32_t alignNum = 32 / typeSize;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = plat.GetCoreNumAiv();

    uint64_t tileBytes = (ub - 1024) / UB_TILE_SLOTS;
    if (tileBytes > MAX_TILE_BYTES) {
        tileBytes = MAX_TILE_BYTES;
    }
    uint32_t tile = (uint32_t)(tileBytes / typeSize) / alignNum * alignNum;

    // aligned share per core; tiny inputs use fewer cores
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + alignNum - 1) / alignNum * alignNum;
    if (perCore == 0) {
        perCore = alignNum;
    }
    uint32_t used = (uint32_t)((total + perCore - 1) / perCore);
    if (used == 0) {
        used = 1;
    }

    RationalSquashTilingData td;
    td.set_totalNum(total);
    td.set_perCoreNum(perCore);
    td.set_tileNum(tile);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
