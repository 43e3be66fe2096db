#include "scaled_exp_linear_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t CORE_ALIGN = 256;  // keep core boundaries on whole 512B (fp16) / 1KB (fp32) blocks
constexpr uint32_t UB_TILE_BYTES = 16 * 1024;
}

ge::graphStatus ScaledExpLinearTilingFunc(gert::TilingContext *context)
{
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dt == ge::DT_FLOAT16) ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t coreNum = plat.GetCoreNumAiv();
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + CORE_ALIGN - 1) / CORE_ALIGN * CORE_ALIGN;
    uint64_t used = (total + perCore - 1) / perCore;
    if (used == 0) {
        used = 1;
    }

    // compute happens in fp32, so the tile size is bounded by the float working buffers
    uint32_t tile = UB_TILE_BYTES / sizeof(float);
    (void)typeSize;

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *alpha = attrs->GetAttrPointer<float>(0);
    const float *scale = attrs->GetAttrPointer<float>(1);

    ScaledExpLinearTiling t;
    t.set_totalNum(total);
    t.set_numPerCore(perCore);
    t.set_tileNum(tile);
    t.set_alpha(alpha ? *alpha : 1.6732632423543772f);
    t.set_scale(scale ? *scale : 1.0507009873554805f);

    context->SetBlockDim(static_cast<uint32_t>(used));
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
