#include "scale_by_constant_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t BUFFER_NUM = 2;
static constexpr uint64_t ALIGN_BYTES = 512;  // keep per-core chunks at a multiple of 512B for efficient MTE

ge::graphStatus ScaleByConstantTilingFunc(gert::TilingContext *context)
{
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = ascendc.GetCoreNumAiv();

    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const uint32_t dsize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    const float *factor = context->GetAttrs()->GetAttrPointer<float>(0);

    ScaleByConstantTilingData tiling;
    const uint64_t alignElems = ALIGN_BYTES / dsize;
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + alignElems - 1) / alignElems * alignElems;
    uint32_t usedCores = perCore == 0 ? 1 : static_cast<uint32_t>((total + perCore - 1) / perCore);

    // In-place capable: one double-buffered queue in, one out => 4 tiles live in UB.
    uint64_t tileBytes = (ubSize - 8 * 1024) / (2 * BUFFER_NUM);
    tileBytes = tileBytes / ALIGN_BYTES * ALIGN_BYTES;
    if (tileBytes > 32 * 1024) {
        tileBytes = 32 * 1024;
    }
    tiling.set_totalNum(total);
    tiling.set_perCoreNum(perCore);
    tiling.set_tileNum(static_cast<uint32_t>(tileBytes / dsize));
    tiling.set_factor(factor == nullptr ? 1.0f : *factor);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
