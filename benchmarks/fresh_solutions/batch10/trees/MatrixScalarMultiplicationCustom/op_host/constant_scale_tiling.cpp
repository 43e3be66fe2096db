#include "constant_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t QUEUE_NUM = 2;            // one input, one output queue
constexpr uint64_t UB_HEADROOM = 16 * 1024;
constexpr uint32_t TILE_BYTES_MAX = 32 * 1024;
}  // namespace

ge::graphStatus ConstantScaleTilingFunc(gert::TilingContext* context)
{
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const uint32_t elemBytes = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (elemBytes == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t perBlock = BLOCK_BYTES / elemBytes;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    const uint32_t coreNum = plat.GetCoreNumAiv();

    // Split in whole 32-byte blocks so every core but the last starts aligned.
    const uint64_t blocks = (total + perBlock - 1) / perBlock;
    uint64_t used = blocks < coreNum ? blocks : coreNum;
    used = used == 0 ? 1 : used;
    const uint64_t blocksPerCore = (blocks + used - 1) / used;
    const uint64_t perCore = blocksPerCore * perBlock;
    used = (total + perCore - 1) / perCore;
    used = used == 0 ? 1 : used;
    const uint64_t lastCore = total - perCore * (used - 1);

    uint64_t tileBytes = (ubBytes - UB_HEADROOM) / (BUFFER_NUM * QUEUE_NUM);
    tileBytes = tileBytes > TILE_BYTES_MAX ? TILE_BYTES_MAX : tileBytes;
    const uint32_t tileNum = static_cast<uint32_t>(tileBytes / BLOCK_BYTES * BLOCK_BYTES / elemBytes);

    ConstantScaleTilingData td;
    td.set_totalNum(total);
    td.set_perCore(perCore);
    td.set_lastCore(lastCore);
    td.set_tileNum(tileNum);
    td.set_factor(*context->GetAttrs()->GetAttrPointer<float>(0));

    context->SetBlockDim(static_cast<uint32_t>(used));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
