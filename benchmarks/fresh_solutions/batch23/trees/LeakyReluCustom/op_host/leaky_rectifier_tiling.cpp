#include "leaky_rectifier_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_COUNT = 2;   // double buffering for in and out
constexpr uint32_t QUEUES = 2;
constexpr uint32_t UB_RESERVE = 8 * 1024;
}

ge::graphStatus LeakyRectifierTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = plat.GetCoreNumAiv();

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dt == ge::DT_FLOAT16 || dt == ge::DT_BF16) ? 2 : 4;
    uint32_t alignNum = BLOCK_BYTES / typeSize;

    // spread 32B blocks as evenly as possible; the last block may be partial
    uint64_t blocks = (total + alignNum - 1) / alignNum;
    uint32_t usedCores = blocks < coreNum ? static_cast<uint32_t>(blocks) : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint64_t smallBlocks = blocks / usedCores;
    uint32_t bigCount = static_cast<uint32_t>(blocks % usedCores);
    uint64_t bigNum = (smallBlocks + 1) * alignNum;
    uint64_t smallNum = smallBlocks * alignNum;

    uint64_t perTileBytes = (ubSize - UB_RESERVE) / (BUFFER_COUNT * QUEUES);
    uint32_t tileNum = static_cast<uint32_t>(perTileBytes / typeSize / 256 * 256);
    if (tileNum > 16384) {
        tileNum = 16384;
    }

    const float *slope = context->GetAttrs()->GetAttrPointer<float>(0);

    LeakyRectifierTilingData tiling;
    tiling.set_totalNum(total);
    tiling.set_bigCoreNum(bigNum);
    tiling.set_smallCoreNum(smallNum);
    tiling.set_bigCoreCount(bigCount);
    tiling.set_tileNum(tileNum);
    tiling.set_slope(slope == nullptr ? 0.01f : *slope);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
